#!/usr/bin/env bash
# What a user of the C++ API does: `cmake --install` a built tree into a fresh prefix, then
# configure and build the examples (examples/cpp/CMakeLists.txt) out of the tree with
# find_package(tessera), and run them, directly and through the installed launcher. Each
# example checks its results itself (`check = ok`, exit status 0).
#   bash tests/install/run.sh build/cpp      # ctest runs it as install.examples_out_of_tree
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: run.sh BUILD_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tessera-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }

echo "== cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in lib/libtessera.a lib/cmake/tessera/tesseraConfig.cmake lib/cmake/tessera/tesseraConfigVersion.cmake \
         lib/cmake/tessera/tesseraTargets.cmake bin/tessera bin/tessera-prof; do
  [ -e "$prefix/$f" ] || fail "$f was not installed"
done
# Every public header, and nothing of the Python package or of src/.
(cd "$src/include" && ls tessera/*.h) > "$work/headers.source"
(cd "$prefix/include" && ls tessera/*.h) > "$work/headers.installed"
diff -u "$work/headers.source" "$work/headers.installed" || fail "installed headers differ from include/tessera"
[ -z "$(find "$prefix" -name '_tessera*')" ] || fail "the Python extension was installed"
# The umbrella header includes every other public header.
for h in $(cat "$work/headers.source"); do
  [ "$h" = tessera/tessera.h ] || grep -q "^#include \"$h\"" "$src/include/tessera/tessera.h" ||
    fail "include/tessera/tessera.h does not include $h"
done

echo "== examples/cpp built against $prefix"
# A clean environment for the consumer: only the prefix, not this build or its sources.
env -u CMAKE_PREFIX_PATH -u CPATH -u CPLUS_INCLUDE_PATH \
  cmake -S "$src/examples/cpp" -B "$work/examples" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
if grep -e "$src/include" -e "$src/src" -e "$build" "$work/examples/compile_commands.json"; then
  fail "the examples compile with the source tree's or the build's headers"
fi
cmake --build "$work/examples" -j "${JOBS:-2}" >/dev/null

echo "== the examples run"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset TESSERA_TEST
export TESSERA_CONFIG=--cpus=2
run() {  # a command; prints its output, which must say check = ok (or, for jacobi, the l2 norm)
  local out
  out=$("$@") || fail "$* exited with $?: $out"
  grep -Eq '^(check = ok|l2 = [0-9.e+-]+)$' <<< "$out" || fail "$* printed: $out"
  echo "$out"
}
l2() { sed -n 's/^l2 = //p'; }
run "$work/examples/tasks" -n 20000 >/dev/null
# stl and jacobi solve the same problem: the same l2 norm (to rounding: they sum differently).
a=$(run "$work/examples/stl" -n 100 --iters 20 -k 10 | l2)
b=$(run "$work/examples/jacobi" -n 100 --iters 20 -k 10 | l2)
awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; exit !(a > 0 && (d < 0 ? -d : d) <= 1e-12 * a) }' ||
  fail "stl's l2 ($a) differs from jacobi's ($b)"
# The installed launcher runs a compiled program with its runtime flags.
(cd "$work/examples" && run "$prefix/bin/tessera" --cpus 1 ./tasks -n 20000 >/dev/null)
"$prefix/bin/tessera-prof" --help >/dev/null || fail "tessera-prof --help failed"
echo "install test passed"
