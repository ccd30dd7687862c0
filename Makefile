# The two commands of the README: `make run` and `make test`. Both set up a fresh
# machine first (system packages, the .venv, the build), so they work from a clean clone.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
JOBS ?= 2
CPP_BUILD := build/cpp
APT_PACKAGES := cmake ninja-build pkg-config g++ libopenmpi-dev openmpi-bin libopenblas-dev liblapacke-dev \
                libfftw3-dev libhwloc-dev libgtest-dev libhwy-dev libsleef-dev python3-venv chromium \
                clang libclang-rt-dev
PY_PACKAGES := numpy scipy nanobind scikit-build-core pytest hypothesis pytest-xdist

.PHONY: run test sanitize setup system-deps venv build build-cpp test-cpp test-python bench clean

run: build
	$(VENV)/bin/tessera examples/python/jacobi.py

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
	@$(PY) -c "import numpy, scipy, nanobind, scikit_build_core, pytest, hypothesis, xdist" 2>/dev/null || \
	  $(PY) -m pip install -q $(PY_PACKAGES)

# The Python package (extension + launcher) into .venv, rebuilt incrementally in build/py;
# then docs/api-coverage.md, generated from what the package implements.
build: venv
	$(PY) -m pip install -q --no-build-isolation -Cbuild-dir=build/py -e .
	$(PY) scripts/api_coverage.py

# GoogleTest suites and the C++ examples.
build-cpp: venv
	cmake -S . -B $(CPP_BUILD) -G Ninja -DTESSERA_BUILD_PYTHON=OFF -DPython_EXECUTABLE=$(abspath $(PY)) >/dev/null
	cmake --build $(CPP_BUILD) -j $(JOBS)

# The workloads (NumPy against tessera), then Jacobi on 2 ranks against 1 (about a minute).
bench: build
	$(PY) benchmarks/run.py
	$(PY) benchmarks/ranks.py

clean:
	rm -rf build
