#!/usr/bin/env bash
# One step of .ci/run: `scripts/ci-step.sh LIMIT COMMAND...` runs COMMAND with its output
# shown and kept, for at most LIMIT seconds (less when the CI budget, CI_BUDGET seconds since
# CI_START_EPOCH, both set by .ci/run, would be passed, counting the minute a stop may take).
# It prints the step's wall time. A step that runs out of time is stopped and fails, and
# prints what it was doing: the Swift Testing tests it started and did not finish, the load
# and memory every 5 minutes, and the busiest processes.
#
# COMMAND runs in a session of its own (setsid), and a stop signals the whole session: SwiftPM
# starts its builds and test binaries in process groups of their own, which a signal to
# COMMAND's group alone would miss (a hung test binary would outlive the stop). Its output
# goes to a file that `tail` follows, so that no process left behind can hold this step open.
set -uo pipefail
limit=$1
shift
budget=${CI_BUDGET:-0}
now=$(date +%s)
: "${CI_START_EPOCH:=$now}"
export CI_START_EPOCH
grace=60
if [ "$budget" -gt 0 ]; then
    left=$((budget - (now - CI_START_EPOCH) - grace))
    [ "$left" -lt "$limit" ] && limit=$left
    if [ "$limit" -le 0 ]; then
        echo "::: $*: no time left in the CI budget of $budget s" >&2
        exit 1
    fi
fi

work=$(mktemp -d)
sampler=
follower=
cleanup() {
    [ -n "$sampler" ] && kill "$sampler" 2>/dev/null
    [ -n "$follower" ] && kill "$follower" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

(
    trap 'exit 0' TERM
    while :; do
        sleep 300 &
        wait $!
        {
            echo "--- $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg); $(free -m | awk '/Mem:/ {print $3 " of " $2 " MiB used"}')"
            ps -eo pid,etimes,pcpu,rss,args --sort=-pcpu | head -6 | cut -c1-160
        } >>"$work/samples"
    done
) >/dev/null 2>&1 &
sampler=$!

started=$(date +%s)
echo "::: $* (at $((started - CI_START_EPOCH)) s, limit $limit s)"
: >"$work/output"
setsid "$@" >"$work/output" 2>&1 </dev/null &
command=$!
tail -n +1 -f --pid="$command" "$work/output" &
follower=$!

stopped=0
deadline=$((started + limit))
while kill -0 "$command" 2>/dev/null; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
        stopped=1
        kill -TERM -- "-$command" 2>/dev/null
        pkill -TERM -s "$command" 2>/dev/null
        for _ in $(seq 1 "$grace"); do
            kill -0 "$command" 2>/dev/null || break
            sleep 1
        done
        pkill -KILL -s "$command" 2>/dev/null
        kill -KILL -- "-$command" 2>/dev/null
        break
    fi
    sleep 2
done
wait "$command"
status=$?
# Whatever the session left behind is ended with it.
pkill -KILL -s "$command" 2>/dev/null
wait "$follower" 2>/dev/null
follower=
took=$(($(date +%s) - started))
echo "::: $* took $took s (total $(($(date +%s) - CI_START_EPOCH)) s), exit $status"
if [ "$stopped" -eq 1 ]; then
    [ "$status" -eq 0 ] && status=124
    echo "::: $*: stopped after $limit s. What it was doing:"
    python3 - "$work/output" <<'PY'
import re, sys
started, ended = {}, set()
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"[◇] (Test|Suite) (.+?) started\.", line)
    if m and not m.group(2).startswith("case "):
        started.setdefault(m.group(2), None)
    # ✔ passed, ✘ failed, ━ passed with known issues, ➜ skipped; "Test run with N tests…".
    m = re.match(r"[✔✘━➜] (Test|Suite) (.+?)( with \d+ (test cases?|tests in \d+ suites?))? (passed|failed|skipped)", line)
    if m:
        ended.add(m.group(2))
running = [name for name in started if name not in ended]
print(f"::: {len(running)} tests or suites started and not finished (output not yet written when it was stopped is missing):")
for name in running[:40]:
    print("    " + name[:200])
PY
    echo "::: load and memory every 5 minutes:"
    tail -n 28 "$work/samples" 2>/dev/null
    echo "::: now: load $(cut -d' ' -f1-3 /proc/loadavg)"
    ps -eo pid,etimes,pcpu,rss,args --sort=-pcpu | head -8 | cut -c1-160
fi
exit "$status"
