#!/usr/bin/env bash
# Runs the whole suite and ends with one plain line: "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p var
log=var/test-output.log
node_modules/.bin/tap "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
summary=$(grep -E '^# \{ total: ' "$log" | tail -n 1)
num() { echo "$summary" | grep -oE "$1: [0-9]+" | grep -oE '[0-9]+' || echo 0; }
if [ -n "$summary" ]; then
  pass=$(num pass); fail=$(num fail); skip=$(num skip); todo=$(num todo)
  echo "Tests: ${pass} passed, ${fail} failed, $((skip + todo)) skipped"
else
  echo "Tests: 0 passed, 1 failed (the runner printed no summary)"
  [ "$status" -eq 0 ] && status=1
fi
exit "$status"
