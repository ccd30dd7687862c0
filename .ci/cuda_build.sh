#!/usr/bin/env bash
# The build with CUDA (cmake -DTESSERA_GPU=ON) keeps compiling: configures build/cuda and
# builds tessera_core, whose gpu/ folders nvcc compiles, and links the `tessera` launcher
# against it. Nothing runs on a GPU (the machine needs none); the C++ files are those of
# the ordinary build, so with ccache only the gpu/ files and the link take time.
# Skipped, saying so, when the CUDA toolkit's nvcc is not installed.
#   bash .ci/cuda_build.sh            # JOBS (default 2) compile jobs
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}

nvcc=$(command -v nvcc || true)
if [ -z "$nvcc" ]; then
  for candidate in /usr/local/cuda/bin/nvcc /usr/local/cuda-*/bin/nvcc; do
    if [ -x "$candidate" ]; then nvcc=$candidate; break; fi
  done
fi
if [ -z "$nvcc" ]; then
  echo "CUDA build skipped: no nvcc on PATH or in /usr/local/cuda*/bin (install the CUDA toolkit to check it)"
  exit 0
fi

start=$SECONDS
cmake -S . -B build/cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_GPU=ON -DTESSERA_BUILD_PYTHON=OFF \
  -DTESSERA_BUILD_TESTS=OFF -DCMAKE_CUDA_COMPILER="$nvcc" >/dev/null
cmake --build build/cuda -j "$JOBS" --target tessera_core tessera
grep -q "kCudaBuild = true" build/cuda/generated/build_config.h
echo "CUDA build ($("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), $(ls src/*/gpu/*.cu src/numeric/*/gpu/*.cu | wc -l) gpu/ files) took $((SECONDS - start)) s"
