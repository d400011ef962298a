#!/usr/bin/env bash
# Run a benchmark and keep the run under benchmarks/results/: its command, date, machine, load and output, so a
# figure quoted in README.md or docs/ names the run it came from.
#   bash benchmarks/keep.sh .venv/bin/python benchmarks/bench.py --games 10000
set -uo pipefail
cd "$(dirname "$0")/.."
name=$(basename "${2:-$1}" .py)
out="benchmarks/results/$(date -u +%Y-%m-%dT%H%MZ)-$name.txt"
{
  echo "command: $*"
  echo "date:    $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit:  $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "machine: $(uname -srm), $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)," \
       "$(awk '/MemTotal/ {printf "%.1f GB", $2 / 1048576}' /proc/meminfo)"
  echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) at the start"
  echo
} > "$out"
/usr/bin/time -f "(the whole run: %U s user + %S s system CPU, %e s wall)" "$@" >> "$out" 2>&1
status=$?
{ echo; echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) at the end; exit status $status"; } >> "$out"
echo "$out"
exit $status
