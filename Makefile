# Sesame: generate · check · test · demo · bench · docs
SWIFT ?= swift
SCHEMA ?= Schema
SDK_OUTPUT ?= Reference/Sources/ReferenceSDK/Generated
SESAME = $(SWIFT) run --quiet sesame
# The workshop (reference server, reference SDK, demo, soak, end-to-end tests): a package of
# its own that apps never resolve (docs/packages.md), built in its own Reference/.build (a
# scratch folder shared with the root's proved unreliable: docs/packages.md).
REFERENCE = --package-path Reference
# The schema apps were last shipped with; `make check` refuses breaking changes against it.
RELEASED = $(SCHEMA)/released/schema

.PHONY: generate grammar check format test tsan tsan-soak demo bench build release-snapshot fuzz fuzz-runtime fuzz-coverage docs random-schemas soak conformance

build:
	$(SWIFT) build
	$(SWIFT) build $(REFERENCE)

## Regenerate the reference SDK from Schema/.
generate:
	$(SESAME) generate $(SCHEMA) --output $(SDK_OUTPUT)
	$(SESAME) generate Tests/Fixtures/OddNames/Schema --output Tests/Fixtures/OddNames/Generated
	$(SESAME) generate Tests/Fixtures/Conformance/Schema --output Tests/Fixtures/Conformance/Generated
	$(SESAME) generate Tests/Fixtures/JSONSemantics/Schema --output Tests/Fixtures/JSONSemantics/Generated
	$(SESAME) generate Tests/Fixtures/AccountsAPI/Schema --output Tests/Fixtures/AccountsAPI/Generated
	$(SESAME) generate Tests/Fixtures/ClaimsDetails/Schema --output Reference/Sources/ClaimsDetailsSDK/Generated
	$(SESAME) generate Tests/Fixtures/BoundTokens/Schema --output Reference/Sources/BoundTokensSDK/Generated
	$(SESAME) generate Reference/Sources/NotesSDK/Schema --output Reference/Sources/NotesSDK/Generated
	$(SESAME) generate Reference/Sources/NotesAPISDK/Schema --output Reference/Sources/NotesAPISDK/Generated
	$(SESAME) generate Benchmarks/Schema/Decode --output Benchmarks/Sources/DecodeModels/Generated

## Rewrite docs/sesame-format.schema.json and the key tables of docs/format.md (the regions
## between `<!-- grammar: <mapping> -->` and `<!-- /grammar -->`) from the generator's
## grammar table (Generator/SesameGenerator/Grammar), after a key of the format changed.
FORMAT_SCHEMA = docs/sesame-format.schema.json
grammar:
	$(SESAME) grammar --json-schema > $(FORMAT_SCHEMA).new && mv $(FORMAT_SCHEMA).new $(FORMAT_SCHEMA)
	SWIFT=$(SWIFT) python3 scripts/grammar-tables.py

# Every hand-written Swift file: generated code is the generator's to format.
SWIFT_FILES = git ls-files '*.swift' | grep -v '/Generated/'

## Format every hand-written Swift file with the toolchain's swift-format (.swift-format).
format:
	$(SWIFT) format format --in-place --configuration .swift-format $$($(SWIFT_FILES))

## Validate Schema/, fail when the format's JSON Schema or docs/format.md's key tables are not
## what the grammar table renders (make grammar), when the JSON Schema rejects what the
## generator accepts, when the tutorials run a `sesame` option or a `make` target that does
## not exist, when the committed SDK is not what
## the generator writes, and when a Swift file is not formatted (make format).
check:
	$(SWIFT) format lint --strict --configuration .swift-format $$($(SWIFT_FILES))
	$(SESAME) validate $(SCHEMA)
	@d=$$(mktemp -d) && $(SESAME) grammar --json-schema > $$d/schema.json || { rm -rf $$d; exit 1; }; \
	if cmp -s $$d/schema.json $(FORMAT_SCHEMA); then rm -rf $$d; echo "$(FORMAT_SCHEMA): up to date" >&2; else \
	  echo "$(FORMAT_SCHEMA): stale, it is not what \`sesame grammar --json-schema\` renders from the grammar table; run \`make grammar\` and commit the result" >&2; \
	  diff -u $(FORMAT_SCHEMA) $$d/schema.json | head -40 >&2; rm -rf $$d; exit 1; fi
	python3 scripts/grammar-tables.py --self-test
	SWIFT=$(SWIFT) python3 scripts/grammar-tables.py --check
	python3 scripts/validate-format-schema.py
	python3 scripts/check-tutorial-commands.py --self-test
	SWIFT=$(SWIFT) python3 scripts/check-tutorial-commands.py
	@# The script that rewrites docs/performance.md's figures table, on its recorded output.
	python3 scripts/bench-figures.py --check
	@# The fuzz seeds still find what they read (docs, fixtures, the regression inputs).
	d=$$(mktemp -d) && python3 Fuzz/corpus.py $$d >/dev/null && rm -rf $$d
	$(SESAME) generate $(SCHEMA) --output $(SDK_OUTPUT) --check
	$(SESAME) generate Tests/Fixtures/OddNames/Schema --output Tests/Fixtures/OddNames/Generated --check
	$(SESAME) validate Tests/Fixtures/Conformance/Schema
	$(SESAME) generate Tests/Fixtures/Conformance/Schema --output Tests/Fixtures/Conformance/Generated --check
	$(SESAME) generate Tests/Fixtures/JSONSemantics/Schema --output Tests/Fixtures/JSONSemantics/Generated --check
	$(SESAME) generate Tests/Fixtures/AccountsAPI/Schema --output Tests/Fixtures/AccountsAPI/Generated --check
	$(SESAME) generate Tests/Fixtures/ClaimsDetails/Schema --output Reference/Sources/ClaimsDetailsSDK/Generated --check
	$(SESAME) generate Tests/Fixtures/BoundTokens/Schema --output Reference/Sources/BoundTokensSDK/Generated --check
	@# The tutorials' SDKs (docs/tutorial), the listings that show their files, and the
	@# authorization server the second one imports from the reference server's discovery
	@# document (recorded in Reference/Tutorial/openid-configuration.json).
	$(SESAME) generate Reference/Sources/NotesSDK/Schema --output Reference/Sources/NotesSDK/Generated --check
	$(SESAME) generate Reference/Sources/NotesAPISDK/Schema --output Reference/Sources/NotesAPISDK/Generated --check
	$(SESAME) discover Reference/Tutorial/openid-configuration.json --issuer http://127.0.0.1:8080 --schema Reference/Sources/NotesAPISDK/Schema --check
	python3 scripts/check-listings.py --self-test
	SWIFT=$(SWIFT) python3 scripts/check-listings.py
	$(SESAME) generate Benchmarks/Schema/Decode --output Benchmarks/Sources/DecodeModels/Generated --check
	@if [ -f $(RELEASED)/sdk.yaml ]; then $(SESAME) diff $(RELEASED) $(SCHEMA); fi
	@# An app that depends on the runtime, stores, Combine and the build plugin resolves
	@# at most the packages scripts/check-consumer.sh allows, and none of the workshop's.
	bash scripts/check-consumer.sh

## Record Schema/ as released: its YAML in $(RELEASED), which `make check` diffs later
## changes against, and its store versions in $(SCHEMA)/released/store, frozen from then on.
release-snapshot:
	$(SESAME) release $(SCHEMA)

## The whole suite: the schema check, every test target of both packages (the root's unit
## tests, in two processes at once: scripts/unit-tests.sh says why; then Reference/'s
## generated-SDK, server and end-to-end tests), then the runtime's concurrency tests under
## ThreadSanitizer (its own build folders).
test: check
	SWIFT=$(SWIFT) bash scripts/unit-tests.sh
	$(SWIFT) test $(REFERENCE)
	$(MAKE) tsan

## The concurrency suites under ThreadSanitizer; any report fails.
tsan:
	bash scripts/tsan.sh

## Reference/'s soak under ThreadSanitizer: the whole workshop instrumented, a cold build of
## its own (scripts/tsan.sh), so it is part of the soak, not of `make test`.
tsan-soak:
	bash scripts/tsan.sh --soak

## SDKs generated from RANDOM_COUNT random valid schemas (seed RANDOM_SEED, fixed by
## default so that a failure replays), compiled together in one swift build
## (scripts/random-schemas.sh, docs/testing.md).
RANDOM_SEED ?= 29
RANDOM_COUNT ?= 100
random-schemas:
	bash scripts/random-schemas.sh $(RANDOM_SEED) $(RANDOM_COUNT)

## The models against the official JSON-Schema-Test-Suite, draft 2020-12 (docs/format.md,
## "Conformance"): each group's schema a model, every translated group in one SDK compiled in
## one swift build, each case decoded. Not part of `make test`: a fresh clone has no suite.
## SUITE is a clone of github.com/json-schema-org/JSON-Schema-Test-Suite. ENUMS=closed and
## FORMATS=annotate measure sdk.yaml's model options (JSON Schema's own meaning) instead of
## the defaults.
conformance:
	@if [ -z "$(SUITE)" ]; then echo "usage: make conformance SUITE=path/to/JSON-Schema-Test-Suite" >&2; exit 2; fi
	python3 scripts/conformance.py "$(SUITE)" $(if $(ENUMS),--enums $(ENUMS)) $(if $(FORMATS),--formats $(FORMATS))

## The long variants, not part of `make test` (docs/testing.md, "The soak"): 200 random
## schemas from a fresh seed (printed), and the hostile-server suite SOAK_ROUNDS times over
## with 16 GiB bodies, and Reference/'s soak under ThreadSanitizer.
SOAK_ROUNDS ?= 10
soak:
	bash scripts/random-schemas.sh random 200
	SESAME_HOSTILE_SOAK=$(SOAK_ROUNDS) $(SWIFT) test --filter HostileServerSoakTests
	$(MAKE) tsan-soak

## The reference back-end and the generated SDK, walked through a whole session.
demo: generate
	$(SWIFT) run $(REFERENCE) sesame-demo

## The DocC archives of the runtime (Sources/Sesame/Sesame.docc) and the stores
## (Sources/SesameStore/SesameStore.docc), in .build/plugins/Swift-DocC/outputs/; a broken
## symbol link, or any other DocC warning, fails it.
docs:
	$(SWIFT) package --disable-sandbox generate-documentation --target SesameDescription --target Sesame --target SesameStore --warnings-as-errors

## Every benchmark figure, in release mode (a package of its own), with the release `sesame`
## CLI (built in Benchmarks/, reusing its generator) whose whole `generate` command it times;
## its output is kept in Benchmarks/results/all.txt and rewrites the figures table of
## docs/performance.md (scripts/bench-figures.py); exits 1 naming each target missed.
BENCH_OUTPUT = Benchmarks/results/all.txt
bench:
	cd Benchmarks && $(SWIFT) build -c release --product sesame
	mkdir -p Benchmarks/results
	{ cd Benchmarks && $(SWIFT) run -c release sesame-bench all 2>&1; echo $$? > results/all.status; } | tee $(BENCH_OUTPUT)
	python3 scripts/bench-figures.py $(BENCH_OUTPUT)
	@exit $$(cat Benchmarks/results/all.status)

## libFuzzer over read → validate → render for FUZZ_SECONDS (docs/fuzzing.md); a crash,
## hang or memory blow-up fails it and leaves the input in Fuzz/work/crashes/.
## FUZZ_RUNS=N runs N executions instead (no time limit unless FUZZ_SECONDS is also given).
FUZZ_SECONDS ?=
FUZZ_RUNS ?=
fuzz:
	FUZZ_RUNS=$(FUZZ_RUNS) bash scripts/fuzz.sh $(FUZZ_SECONDS)

## libFuzzer over the runtime's readers (ID tokens, device answers, loopback requests) for
## FUZZ_SECONDS (docs/fuzzing.md, "The runtime's readers").
fuzz-runtime:
	FUZZ_TARGET=runtime FUZZ_RUNS=$(FUZZ_RUNS) bash scripts/fuzz.sh $(FUZZ_SECONDS)

## Source coverage of the corpus that `make fuzz` left in Fuzz/work (llvm-cov report).
fuzz-coverage:
	bash scripts/fuzz-coverage.sh
