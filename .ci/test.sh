#!/usr/bin/env bash
# Every test (after `make test` built build/cpp with warnings as errors): the C++ format, the
# C++ suites, with
# the install test (tests/install/run.sh: cmake --install, then the examples built and run
# against the installed package), then the Python suite twice — once as users run it,
# once in test mode (tiny tiles, two workers) so the multi-tile paths run; the vector math
# again on each narrower instruction set the CPU has; then the multi-rank suite
# (tests/ranks), which runs programs and the parity suite under mpirun.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
echo "== C++ format (.clang-format; make format applies it)"
scripts/check_format.sh
echo "== C++ tests"
ctest --test-dir build/cpp --output-on-failure -j 2
echo "== Python tests"
$PY -m pytest tests/python -q -x -n 2 -p no:cacheprovider
echo "== Python tests in test mode (TESSERA_TEST=1, --cpus=2)"
TESSERA_TEST=1 TESSERA_CONFIG="--cpus=2" $PY -m pytest tests/python -q -x -n 2 -p no:cacheprovider
echo "== Vector math and chains on each other instruction set this CPU has (--simd caps them)"
read -r -a sets <<< "$($PY -c 'from tessera import _tessera; print(*_tessera._instruction_sets())')"
for set in "${sets[@]:1}"; do  # the widest ran above
  echo "-- --simd=$set"
  TESSERA_CONFIG="--simd=$set" $PY -m pytest tests/python/test_math_accuracy.py tests/python/test_chains.py \
    -q -x -n 2 -p no:cacheprovider
done
echo "SIMD targets exercised: ${sets[*]^^} (machine: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1))"
echo "== Multi-rank tests (mpirun -n 2 and -n 4, rank failures, two hosts over a veth)"
# Serially: each test starts mpirun itself (tests/ranks/conftest.py).
ranks_start=$SECONDS
$PY -m pytest tests/ranks -q -p no:cacheprovider
echo "multi-rank tests took $((SECONDS - ranks_start)) s"
