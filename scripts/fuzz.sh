#!/usr/bin/env bash
# Fuzzes the generator's read → validate → render path with libFuzzer (docs/fuzzing.md).
#
#   scripts/fuzz.sh        # 60 seconds
#   scripts/fuzz.sh 600    # ten minutes (`make fuzz FUZZ_SECONDS=600`)
#   FUZZ_RUNS=1000000 scripts/fuzz.sh   # a million executions, however long they take
#                                         (`make fuzz FUZZ_RUNS=1000000`)
#   scripts/fuzz.sh --replay Fuzz/work/crashes/crash-…   # run inputs once, e.g. a finding
#   FUZZ_TARGET=runtime scripts/fuzz.sh   # the runtime's readers (`make fuzz-runtime`):
#                                         ID tokens, device answers, loopback requests
#
# Builds the Fuzz/ package with `--sanitize=fuzzer` (release, in its own scratch path
# .build-fuzz: ~2 minutes cold, seconds warm), writes a fresh seed corpus and dictionary
# from Schema/, the test fixtures and the docs into Fuzz/work/, then fuzzes on one core.
# Inputs that find new coverage accumulate in Fuzz/work/corpus across runs (delete the
# folder to start over). A crash, a hang (an input over FUZZ_TIMEOUT seconds) or an input
# over FUZZ_RSS_MB megabytes is a finding: its input goes to Fuzz/work/crashes/ and the
# script exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
RUNS=${FUZZ_RUNS:-}
# With a number of executions and no time, the run ends at that number (0: no time limit).
if [ -n "$RUNS" ]; then SECONDS_TO_RUN=${FUZZ_SECONDS:-0}; else SECONDS_TO_RUN=${FUZZ_SECONDS:-60}; fi
if [ "${1:-}" != --replay ]; then SECONDS_TO_RUN=${1:-$SECONDS_TO_RUN}; fi
TIMEOUT=${FUZZ_TIMEOUT:-10}
RSS_MB=${FUZZ_RSS_MB:-2048}
# Room above the largest seed (Schema/ with its released schema and snapshots, ~27 KB framed).
MAX_LEN=${FUZZ_MAX_LEN:-65536}
# `generator` (sesame-fuzz, Fuzz/work) or `runtime` (sesame-fuzz-runtime, Fuzz/work-runtime).
TARGET=${FUZZ_TARGET:-generator}
case "$TARGET" in
    generator) PRODUCT=sesame-fuzz; WORK=Fuzz/work; CORPUS_ARGS=() ;;
    runtime) PRODUCT=sesame-fuzz-runtime; WORK=Fuzz/work-runtime; CORPUS_ARGS=(--runtime) ;;
    *) echo "FUZZ_TARGET must be generator or runtime, not $TARGET" >&2; exit 2 ;;
esac
# libFuzzer's own signal handlers must see a Swift trap to save the input; the Swift
# runtime's backtracer would take the signal first and the input would be lost.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

# -enable-testing: the runtime's target reads with internal types (`@testable import Sesame`).
BUILD=(-c release --package-path Fuzz --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -enable-testing)
"$SWIFT" build "${BUILD[@]}" --product "$PRODUCT" 2>&1 | tail -3
FUZZER=$("$SWIFT" build "${BUILD[@]}" --show-bin-path)/$PRODUCT

if [ "${1:-}" = --replay ]; then
    exec "$FUZZER" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" "${@:2}"
fi

rm -rf "$WORK/seeds"
mkdir -p "$WORK/corpus" "$WORK/crashes"
python3 Fuzz/corpus.py "${CORPUS_ARGS[@]}" "$WORK"

# The console shows progress and findings; new corpus entries, the dictionary libFuzzer
# recommends and its stats stay in the log (the stats are summarised below).
set +e
"$FUZZER" "$WORK/corpus" "$WORK/seeds" \
    -dict="$WORK/sesame.dict" -max_len="$MAX_LEN" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" \
    -max_total_time="$SECONDS_TO_RUN" ${RUNS:+-runs="$RUNS"} -artifact_prefix="$WORK/crashes/" -print_final_stats=1 \
    2>&1 | tee "$WORK/fuzz.log" | grep -v -E '^#[0-9]+\s+(NEW|REDUCE)|^\s+NEW_FUNC|^"|^stat::|^######'
status=${PIPESTATUS[0]}  # libFuzzer's: non-zero when it found something
set -e

echo "--- summary (full log: $WORK/fuzz.log)"
grep -E '^#[0-9]+\s+(DONE|pulse|INITED)' "$WORK/fuzz.log" | tail -1 || true
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|slowest_unit_time_sec|peak_rss_mb)' "$WORK/fuzz.log" || true
findings=$(sed -n 's/.*Test unit written to //p' "$WORK/fuzz.log")
if [ "$status" -ne 0 ]; then
    echo "FINDING (libFuzzer exit $status): ${findings:-see the log}"
    echo "replay: scripts/fuzz.sh --replay ${findings:-<input>}"
    exit "$status"
fi
if [ -n "$RUNS" ]; then
    echo "no crash, hang or memory blow-up in the executions above (limit $RUNS)"
else
    echo "no crash, hang or memory blow-up in $SECONDS_TO_RUN s"
fi
