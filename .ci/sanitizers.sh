#!/usr/bin/env bash
# The C++ suite under the sanitizers (GCC's, as the default build); developers run it locally too:
#   bash .ci/sanitizers.sh            # asan, tsan, fuzz and cuda
#   bash .ci/sanitizers.sh tsan       # one of them (asan | tsan | fuzz | cuda)
# asan: every GoogleTest of tessera_tests with AddressSanitizer, LeakSanitizer and
#       UndefinedBehaviorSanitizer (build/asan); any finding fails its test.
# tsan: the suites that run the runtime's threads (scheduler, window, tasks, profiler,
#       memory pools, reductions on several cpus; CMakeLists.txt lists them) with
#       ThreadSanitizer (build/tsan).
# fuzz: each libFuzzer target of tests/fuzz replays its corpus (seconds; built in
#       build/asan, with the same sanitizers). Fuzzing for longer: tests/fuzz/README.md.
# cuda: the build with CUDA keeps compiling (.ci/cuda_build.sh: build/cuda; skipped, saying
#       why, without nvcc).
# JOBS (default 2) compile jobs.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}
STAGES=("$@")
[ ${#STAGES[@]} -gt 0 ] || STAGES=(asan tsan fuzz cuda)
SUPP=$PWD/tests/sanitizers
FUZZ_TARGETS=(config_fuzz trace_fuzz csr_fuzz)

# Findings fail at once and print where; third-party libraries' known reports are suppressed
# by the files of tests/sanitizers, each entry explained there. These are also in force while
# the build lists the tests (gtest_discover_tests runs tessera_tests).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$SUPP/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$SUPP/ubsan.supp"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$SUPP/tsan.supp:history_size=4"
# OpenMPI as root (CI runs as root) and without a launcher; OpenBLAS on the calling
# thread, so its own uninstrumented threads do not race with the runtime's in TSan's eyes.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1

configure() {  # build dir, sanitizers, extra cmake arguments...
  local dir=$1 sanitize=$2
  shift 2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_BUILD_PYTHON=OFF \
    -DTESSERA_SANITIZE="$sanitize" "$@" >/dev/null
}

timed() {  # label, command...
  local label=$1 start=$SECONDS
  shift
  "$@"
  echo "$label took $((SECONDS - start)) s"
}

for stage in "${STAGES[@]}"; do
  case $stage in
    asan)
      echo "== C++ tests with AddressSanitizer + UndefinedBehaviorSanitizer (build/asan)"
      configure build/asan address,undefined -DTESSERA_FUZZ=ON
      timed "asan build" cmake --build build/asan -j "$JOBS" --target tessera_tests "${FUZZ_TARGETS[@]}"
      timed "asan tests" ctest --test-dir build/asan --output-on-failure -j 2
      ;;
    tsan)
      echo "== Runtime tests with ThreadSanitizer (build/tsan)"
      configure build/tsan thread
      timed "tsan build" cmake --build build/tsan -j "$JOBS" --target tessera_tests
      timed "tsan tests" ctest --test-dir build/tsan --output-on-failure -j 2
      ;;
    fuzz)
      echo "== Fuzz targets over their corpora (build/asan)"
      configure build/asan address,undefined -DTESSERA_FUZZ=ON
      cmake --build build/asan -j "$JOBS" --target "${FUZZ_TARGETS[@]}"
      for target in "${FUZZ_TARGETS[@]}"; do
        corpus=tests/fuzz/corpus/${target%_fuzz}
        # -runs=0: run every input of the corpus once, no new ones.
        log=build/asan/tests/fuzz/$target.log
        start=$SECONDS
        if ! build/asan/tests/fuzz/"$target" -runs=0 "$corpus" >"$log" 2>&1; then
          cat "$log"
          echo "$target failed on its corpus" >&2
          exit 1
        fi
        echo "$target replayed $(ls "$corpus" | wc -l) inputs in $((SECONDS - start)) s"
      done
      ;;
    cuda)
      echo "== The build with CUDA (build/cuda)"
      JOBS=$JOBS bash .ci/cuda_build.sh
      ;;
    *) echo "unknown stage $stage (asan | tsan | fuzz | cuda)" >&2; exit 2 ;;
  esac
done
