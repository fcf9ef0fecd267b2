#!/usr/bin/env bash
# Runs the root package's tests (`make test`'s `swift test`) as two processes at once:
#
#   - the generator's suites (SesameGeneratorTests, ConformanceTests, OddNamesTests,
#     AccountsAPITests): CPU-bound work, much of it synchronous;
#   - the runtime's suites (every other target): deadlines, polls, loopback servers and
#     browsers, measured in real time.
#
# In one process both share Swift's cooperative pool, which has one thread per core: on the
# 2-core CI machine two synchronous generator tests hold both threads, and every runtime test
# waiting on a continuation (a poll, a listener's answer, a 20 s browser timeout) waits
# behind the whole queue of them; its deadline passed. In two processes the kernel shares
# the cores between them, and each process's pool serves only its own tests.
#
#   scripts/unit-tests.sh               # both halves; fails when either fails
#   scripts/unit-tests.sh generator     # one half
#   scripts/unit-tests.sh runtime
#
# The generator half writes to .build/unit-tests-generator.log while it runs; its output is
# printed after the runtime half's, so the two never interleave.
set -uo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
GENERATOR='^(SesameGeneratorTests|ConformanceTests|OddNamesTests|AccountsAPITests)\.'
which=${1:-both}

"$SWIFT" build --build-tests || exit $?
bundle="$("$SWIFT" build --show-bin-path)/SesamePackageTests.xctest"
generator() { "$bundle" --testing-library swift-testing --filter "$GENERATOR"; }
runtime() { "$bundle" --testing-library swift-testing --skip "$GENERATOR"; }

case "$which" in
generator) generator; exit $? ;;
runtime) runtime; exit $? ;;
both) ;;
*) echo "usage: $0 [generator|runtime]" >&2; exit 2 ;;
esac

log=.build/unit-tests-generator.log
generator >"$log" 2>&1 &
generator_pid=$!
# A stop (CI's time limit, ^C) stops the generator half too.
trap 'kill "$generator_pid" 2>/dev/null' EXIT INT TERM
echo "::: the runtime's suites (the generator's run beside them, into $log)"
runtime
runtime_status=$?
wait "$generator_pid"
generator_status=$?
trap - EXIT INT TERM
echo "::: the generator's suites"
cat "$log"
echo "::: runtime suites: exit $runtime_status; generator suites: exit $generator_status"
[ "$runtime_status" -eq 0 ] && [ "$generator_status" -eq 0 ]
