# The two commands of the README: `make run` and `make test`. Both set up a fresh
# machine first (system packages, the .venv, the build), so they work from a clean clone.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
JOBS ?= 2
# One CMake build directory: pip's editable install (pyproject.toml) and the C++ suites share it,
# so the core compiles once.
BUILD := build/cpp
# TESSERA_WERROR for the build (kept in its cache once given); `make test` builds as CI does.
WERROR ?=
APT_PACKAGES := cmake ninja-build pkg-config g++ libopenmpi-dev openmpi-bin libopenblas-dev liblapacke-dev \
                libfftw3-dev libhwloc-dev libgtest-dev libhwy-dev libsleef-dev python3-venv chromium \
                clang clang-format libclang-rt-dev
PY_PACKAGES := numpy scipy pandas pyarrow nanobind scikit-build-core pytest hypothesis pytest-xdist

.PHONY: run test sanitize setup system-deps venv build build-cpp test-cpp test-python bench format clean

run: build
	$(VENV)/bin/tessera examples/python/jacobi.py

# Warnings are errors in tessera's own code here, as in CI.
test: WERROR = ON
test: build build-cpp
	bash .ci/test.sh

# The C++ suite under ASan+UBSan and TSan, and the fuzz corpora (.ci/sanitizers.sh).
sanitize: system-deps
	JOBS=$(JOBS) bash .ci/sanitizers.sh

setup: system-deps venv

system-deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing system packages:" $$missing; \
	  SUDO=$$( [ $$(id -u) -eq 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

venv: system-deps
	@[ -x $(PY) ] || python3 -m venv $(VENV)
	@$(PY) -c "import numpy, scipy, pandas, pyarrow, nanobind, scikit_build_core, pytest, hypothesis, xdist" 2>/dev/null || \
	  $(PY) -m pip install -q $(PY_PACKAGES)

# The Python package (extension + launcher) into .venv, rebuilt incrementally in $(BUILD);
# then docs/api-coverage.md, generated from what the package implements.
build: venv
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) $(PY) -m pip install -q --no-build-isolation -Cbuild-dir=$(BUILD) \
	  $(if $(WERROR),-Ccmake.define.TESSERA_WERROR=$(WERROR)) -e .
	$(PY) scripts/api_coverage.py
	$(PY) scripts/pandas_coverage.py

# The rest of $(BUILD): the GoogleTest suites and the C++ examples (and whatever `make build`
# has not built yet).
build-cpp: venv
	cmake -S . -B $(BUILD) $(if $(wildcard $(BUILD)/CMakeCache.txt),,-G Ninja) -DTESSERA_BUILD_TESTS=ON -DTESSERA_BUILD_PYTHON=ON \
	  -DPython_EXECUTABLE=$(abspath $(PY)) $(if $(WERROR),-DTESSERA_WERROR=$(WERROR)) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

# The workloads (NumPy against tessera), then on 2 ranks against 1 and across two hosts (ranks.py, about 5 minutes).
bench: build
	$(PY) benchmarks/run.py
	$(PY) benchmarks/ranks.py

# clang-format over the project's C++ files (.clang-format); scripts/check_format.sh lists the
# files it would change.
format:
	scripts/check_format.sh --fix

clean:
	rm -rf build
