#!/usr/bin/env bash
# Builds everything into build/dev-NAME and lays out an importable package there,
# so several working copies of the build can coexist:
#   scripts/dev_build.sh NAME && PYTHONPATH=build/dev-NAME/pkg .venv/bin/python -m pytest tests/python
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-default}
dir=build/dev-$name
cmake -S . -B "$dir" -G Ninja -DTESSERA_BUILD_TESTS=ON -DPython_EXECUTABLE="$PWD/.venv/bin/python" >/dev/null
cmake --build "$dir" -j "${JOBS:-2}"
pkg=$dir/pkg/tessera
mkdir -p "$pkg"
for f in python/tessera/*; do ln -sfn "$PWD/$f" "$pkg/$(basename "$f")"; done
ln -sfn "$PWD/$(ls "$dir"/_tessera*.so)" "$pkg/"
echo "PYTHONPATH=$dir/pkg"
