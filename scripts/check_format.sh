#!/usr/bin/env bash
# The project's C++ files (src/, include/, tests/, examples/, benchmarks/) against .clang-format:
#   scripts/check_format.sh            lists the files clang-format would change (exit 1 if any)
#   scripts/check_format.sh --diff     and shows the changes
#   scripts/check_format.sh --fix      formats them in place (`make format`)
# CLANG_FORMAT names the program (default: clang-format).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-list}
case $mode in list|--diff|--fix) ;; *) echo "usage: $0 [--diff|--fix]" >&2; exit 2 ;; esac
tool=${CLANG_FORMAT:-clang-format}
command -v "$tool" >/dev/null || { echo "$tool not found (Debian: apt-get install clang-format)" >&2; exit 2; }

mapfile -t files < <(git ls-files -- 'src/*.cc' 'src/*.h' 'include/*.h' 'tests/*.cc' 'tests/*.h' \
  'examples/*.cc' 'benchmarks/*.cc' 'benchmarks/*.h')
if [ "$mode" = --fix ]; then
  "$tool" -i --style=file "${files[@]}"
  exit 0
fi
differ=0
for f in "${files[@]}"; do
  if ! "$tool" --style=file "$f" | cmp -s - "$f"; then
    echo "$f"
    differ=$((differ + 1))
    [ "$mode" = --diff ] && { "$tool" --style=file "$f" | diff -u "$f" - || true; }
  fi
done
if [ $differ -gt 0 ]; then
  echo "$differ of ${#files[@]} files differ from .clang-format (make format applies it)" >&2
  exit 1
fi
