#!/usr/bin/env bash
# One step of .ci/run: `scripts/ci-step.sh LIMIT COMMAND...` runs COMMAND with its output
# shown and kept, and at most LIMIT seconds (less when CI_BUDGET seconds since CI_START, both
# set by .ci/run, would be passed). It prints the step's wall time. A step that runs out of
# time is stopped and fails, and prints what it was doing: the Swift Testing tests it started
# and did not finish, the load and memory every 5 minutes, and the busiest processes.
set -uo pipefail
limit=$1
shift
budget=${CI_BUDGET:-0}
now=$(date +%s)
: "${CI_START_EPOCH:=$now}"
export CI_START_EPOCH
if [ "$budget" -gt 0 ]; then
    left=$((budget - (now - CI_START_EPOCH)))
    [ "$left" -lt "$limit" ] && limit=$left
    if [ "$limit" -le 0 ]; then
        echo "::: $*: no time left in the CI budget of $budget s" >&2
        exit 1
    fi
fi

work=$(mktemp -d)
trap 'kill "$sampler" 2>/dev/null; rm -rf "$work"' EXIT
(
    while sleep 300; do
        {
            echo "--- $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg); $(free -m | awk '/Mem:/ {print $3 " of " $2 " MiB used"}')"
            ps -eo pid,etimes,pcpu,rss,args --sort=-pcpu | head -6 | cut -c1-160
        } >>"$work/samples"
    done
) &
sampler=$!

started=$(date +%s)
echo "::: $* (at $((started - CI_START_EPOCH)) s, limit $limit s)"
timeout --kill-after=60 "$limit" "$@" 2>&1 | tee "$work/output"
status=${PIPESTATUS[0]}
took=$(($(date +%s) - started))
echo "::: $* took $took s (total $(($(date +%s) - CI_START_EPOCH)) s), exit $status"
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "::: $*: stopped after $limit s. What it was doing:"
    python3 - "$work/output" <<'PY'
import re, sys
started, ended = {}, set()
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"[◇] (Test|Suite) (.+?) started\.", line)
    if m and not m.group(2).startswith("case "):
        started.setdefault(m.group(2), None)
    m = re.match(r"[✔✘] (Test|Suite) (.+?)( with \d+ test cases?)? (passed|failed)", line)
    if m:
        ended.add(m.group(2))
running = [name for name in started if name not in ended]
print(f"::: {len(running)} tests or suites started and not finished:")
for name in running[:40]:
    print("    " + name[:200])
PY
    echo "::: load and memory every 5 minutes:"
    tail -n 28 "$work/samples" 2>/dev/null
    echo "::: now: load $(cut -d' ' -f1-3 /proc/loadavg)"
    ps -eo pid,etimes,pcpu,rss,args --sort=-pcpu | head -8 | cut -c1-160
fi
exit "$status"
