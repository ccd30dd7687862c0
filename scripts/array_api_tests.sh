#!/usr/bin/env bash
# Runs the array API standard's test suite (data-apis/array-api-tests) on NumPy and on
# tessera.numpy, and lists the cases NumPy passes that tessera.numpy does not:
#   scripts/array_api_tests.sh path/to/array-api-tests path/to/array-api [extra pytest args]
# The two checkouts are given, never downloaded: array-api-tests, and array-api (the spec, its
# submodule), which is linked in as array-api-tests/array-api when that directory is empty.
# The suite's requirements (hypothesis, ndindex, pytest-json-report) must be in .venv.
# MAX_EXAMPLES (20), SEED (0) and API_VERSION (2024.12) set the run; reports go to
# build/array-api/{numpy,tessera}.json. docs/array-api.md explains the run.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
suite=$(cd "${1:?usage: $0 ARRAY_API_TESTS_DIR ARRAY_API_SPEC_DIR [pytest args]}" && pwd)
spec=$(cd "${2:?usage: $0 ARRAY_API_TESTS_DIR ARRAY_API_SPEC_DIR [pytest args]}" && pwd)
shift 2
py=$repo/.venv/bin/python
out=$repo/build/array-api
version=${API_VERSION:-2024.12}

[ -d "$suite/array_api_tests" ] || { echo "$suite is not an array-api-tests checkout" >&2; exit 2; }
[ -d "$spec/spec/$version" ] || { echo "$spec has no spec/$version: not an array-api checkout" >&2; exit 2; }
"$py" -c "import hypothesis, ndindex, pytest_jsonreport" 2>/dev/null || {
  echo "install the suite's requirements first: $py -m pip install hypothesis ndindex pytest-json-report" >&2
  exit 2
}
if [ ! -e "$suite/array-api/spec" ]; then
  rmdir "$suite/array-api" 2>/dev/null || true
  ln -s "$spec" "$suite/array-api"
fi
mkdir -p "$out"

run() {  # module, report name, extra pytest args
  local module=$1 name=$2
  shift 2
  (cd "$suite" && ARRAY_API_TESTS_MODULE=$module ARRAY_API_TESTS_VERSION=$version \
    TESSERA_CONFIG=${TESSERA_CONFIG:---fallback=silent} \
    "$py" -m pytest array_api_tests -p no:cacheprovider -q \
      --max-examples="${MAX_EXAMPLES:-20}" --hypothesis-seed="${SEED:-0}" --disable-deadline \
      --continue-on-collection-errors --json-report --json-report-file="$out/$name.json" "$@" \
      >"$out/$name.log" 2>&1) || true
  tail -n 1 "$out/$name.log"
}
echo "numpy:         $(run numpy numpy "$@")"
echo "tessera.numpy: $(run tessera.numpy tessera "$@")"

"$py" - "$out/numpy.json" "$out/tessera.json" <<'EOF'
import collections, json, sys

def outcomes(path):
    report = json.load(open(path))
    result = {t["nodeid"]: t["outcome"] for t in report["tests"]}
    for c in report.get("collectors", []):
        if c["outcome"] != "passed":
            result[c["nodeid"] + " (collection)"] = "error"
    return result

numpy, tessera = outcomes(sys.argv[1]), outcomes(sys.argv[2])
for name, result in (("numpy", numpy), ("tessera.numpy", tessera)):
    print(f"{name}: {dict(collections.Counter(result.values()))}")
behind = sorted(k for k, v in numpy.items() if v == "passed" and tessera.get(k) != "passed")
print(f"{len(behind)} cases NumPy passes and tessera.numpy does not:")
for k in behind:
    print(f"  {tessera.get(k, 'missing')}: {k}")
EOF
