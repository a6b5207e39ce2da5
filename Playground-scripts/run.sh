#!/usr/bin/env bash
# Runs the playground scripts against the package's dynamic library (ReactiveSourcesKit).
#
#   Playground-scripts/run.sh 01-signals-basics     # build the library, run one script
#   Playground-scripts/run.sh --check               # run every script, compare with expected/
#   Playground-scripts/run.sh --record              # run every script, (re)write expected/
#
# Environment:
#   SCRATCH   build directory passed to `swift build --scratch-path` (default: .build)
#
# A standalone script cannot depend on a package, so it links the dynamic library product
# instead: `swift -I <bin>/Modules -L <bin> -lReactiveSourcesKit script.swift`, plus the
# module map of Signals' C target (its thread-local is read by inlinable code):
# `-Xcc -fmodule-map-file=<bin>/SignalsThreadLocal.build/module.modulemap`.
# Scripts print only deterministic lines (no ports, timings or thread-dependent states), so
# --check compares their whole output (stdout and stderr) and their exit status.
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH="${SCRATCH:-.build}"

swift build --scratch-path "$SCRATCH" --product ReactiveSourcesKit >/dev/null
bin=$(swift build --scratch-path "$SCRATCH" --show-bin-path)

# Runs one script (under a time limit, so a hang fails instead of blocking CI).
run_script() {
  local script="Playground-scripts/$1.swift"
  [ -f "$script" ] || { echo "no such script: $script" >&2; return 2; }
  LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    timeout 300 swift -swift-version 6 -warnings-as-errors \
      -I "$bin/Modules" -Xcc -fmodule-map-file="$bin/SignalsThreadLocal.build/module.modulemap" \
      -L "$bin" -lReactiveSourcesKit "$script"
}

case "${1:-}" in
  --check | --record)
    mode=$1
    status=0
    found=0
    for script in Playground-scripts/[0-9]*.swift; do
      [ -f "$script" ] || continue
      found=$((found + 1))
      name=$(basename "$script" .swift)
      expected="Playground-scripts/expected/$name.txt"
      set +e
      output=$(run_script "$name" 2>&1)
      code=$?
      set -e
      if [ "$mode" = --record ]; then
        printf '%s\n' "$output" >"$expected"
        echo "recorded $name (exit $code)"
        [ $code -eq 0 ] || status=1
        continue
      fi
      if [ $code -ne 0 ]; then
        printf '%s\n' "$output" | tail -n 30
        echo "FAIL $name (exit status $code)"
        status=1
      elif [ ! -f "$expected" ]; then
        echo "FAIL $name (no $expected; run $0 --record)"
        status=1
      elif diff -u "$expected" <(printf '%s\n' "$output"); then
        echo "ok   $name"
      else
        echo "FAIL $name (output differs from $expected)"
        status=1
      fi
    done
    if [ $found -eq 0 ]; then
      echo "FAIL no playground scripts found" >&2
      status=1
    fi
    exit $status
    ;;
  "" | -h | --help)
    echo "usage: $0 NAME | --check | --record" >&2
    exit 2
    ;;
  *)
    [ $# -eq 1 ] || { echo "usage: $0 NAME | --check | --record" >&2; exit 2; }
    run_script "$1"
    ;;
esac
