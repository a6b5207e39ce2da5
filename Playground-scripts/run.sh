#!/usr/bin/env bash
# Runs one playground script against the package's dynamic library.
#   Playground-scripts/run.sh 01-signals-basics      # run a script
#   Playground-scripts/run.sh --check                # run all, compare with expected/
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product ReactiveSourcesKit >/dev/null
bin=$(swift build --show-bin-path)

run_script() {
  LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    swift -swift-version 6 -I "$bin/Modules" -L "$bin" -lReactiveSourcesKit "Playground-scripts/$1.swift"
}

if [ "${1:-}" = "--check" ]; then
  status=0
  for script in Playground-scripts/[0-9]*.swift; do
    name=$(basename "$script" .swift)
    if diff -u "Playground-scripts/expected/$name.txt" <(run_script "$name" 2>&1); then
      echo "ok   $name"
    else
      echo "FAIL $name (output differs from Playground-scripts/expected/$name.txt)"
      status=1
    fi
  done
  exit $status
fi

[ $# -eq 1 ] || { echo "usage: $0 NAME | --check" >&2; exit 2; }
run_script "$1"
