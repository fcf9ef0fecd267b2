#!/usr/bin/env bash
# Runs the runtime's concurrency tests under ThreadSanitizer, in a scratch path of its own
# (.build-tsan) so that the instrumented build never mixes with the normal one.
#
#   scripts/tsan.sh                 # the concurrency suites of SesameTests and SesameStoreTests (make tsan)
#   scripts/tsan.sh 'RefreshTests'  # another --filter, among SesameTests and SesameStoreTests
#   scripts/tsan.sh --soak          # the soak (SoakTests) of Reference/ (make tsan-soak, make soak)
#
# The root package is built with SESAME_TSAN=1, which leaves out of its manifest every target
# these suites do not need (Package.swift says which): a cold instrumented build compiles the
# runtime, GRDB, swift-crypto and the test targets only. The soak lives in Reference/ (a
# package of its own, docs/packages.md) and needs the whole workshop instrumented (NIO,
# Hummingbird), a second cold build of about as long as the rest of make test's TSan work, so
# it runs in the soak, not in make test. The suites themselves run in seconds. A warm rebuild
# after a change to the runtime takes under a minute. Exits non-zero when a test fails or
# TSan reports a race (TSAN_OPTIONS makes any report fatal).
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
FILTER=${1:-'SesameTests\.(EventStreamTests|RefreshTests|BackoffTests|RedirectTests|CredentialMiddlewareTests|AuthenticationServiceTests|RestorationTests|EventTests|SubscriptionTests|SubscriptionDeliveryTests|UserSessionObserverTests)|SesameStoreTests\.ContextTests'}

export TSAN_OPTIONS=${TSAN_OPTIONS:-"halt_on_error=1 abort_on_error=1 second_deadlock_stack=1"}
# A report aborts the process (abort_on_error). The Swift runtime's crash handler then suspends
# every thread and forks its backtracer, which deadlocks with ThreadSanitizer's own fork lock:
# the process hung for 40 minutes in CI after its report instead of exiting. TSan's report
# already has the stacks, so the runtime's backtracer stays off here.
export SWIFT_BACKTRACE=enable=no
# The build (minutes when cold) has no limit of its own; the suites run in seconds, so a run
# still going after TSAN_TEST_LIMIT seconds is hung and is stopped (a failure, exit 124).
TSAN_TEST_LIMIT=${TSAN_TEST_LIMIT:-600}
if [ "${1:-}" = "--soak" ]; then
    "$SWIFT" build --build-tests --sanitize=thread --package-path Reference --scratch-path Reference/.build-tsan
    exec timeout -k 30 "$TSAN_TEST_LIMIT" "$SWIFT" test --skip-build --sanitize=thread --package-path Reference --scratch-path Reference/.build-tsan --filter 'ReferenceSDKTests\.SoakTests'
fi
export SESAME_TSAN=1
"$SWIFT" build --build-tests --sanitize=thread --scratch-path .build-tsan
timeout -k 30 "$TSAN_TEST_LIMIT" "$SWIFT" test --skip-build --sanitize=thread --scratch-path .build-tsan --filter "$FILTER"
if [ $# -eq 0 ]; then
    # The hand-over of an element to a waiting consumer races its suspension only now and then
    # (without EventBuffer's lock after the resume, a report at the 21st run of one test): these
    # two tests run 100 times over, stopping at the first failure (docs/testing.md). A check by
    # chance: at that rate 100 runs catch a regression 99 times in 100. The test bundle is run
    # directly (Linux's `.xctest` executable; swift test has no repetitions option).
    bin=$("$SWIFT" build --sanitize=thread --scratch-path .build-tsan --show-bin-path)
    timeout -k 30 "$TSAN_TEST_LIMIT" "$bin/SesamePackageTests.xctest" --testing-library swift-testing \
        --repetitions 100 --repeat-until fail \
        --filter 'EventStreamTests/(dropOldestWhileConsumersRead|concurrentSubscribersEachGetEverything)'
fi
