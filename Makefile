# Pentad — build, test and measurement targets. `make test` is what CI runs.
CARGO   ?= cargo
SHARED  ?= ../shared
# Where cargo builds (CARGO_TARGET_DIR when set).
TARGET_DIR ?= $(if $(CARGO_TARGET_DIR),$(CARGO_TARGET_DIR),target)
ENGINE  := $(TARGET_DIR)/release/pbrain-pentad
WINDOWS_TARGET := x86_64-pc-windows-gnu
WINDOWS_EXE    := $(TARGET_DIR)/$(WINDOWS_TARGET)/release/pbrain-pentad.exe

.PHONY: build run test unit protocol-test bench release windows lint clean
.PHONY: fuzz fuzz-long stress memory windows-test train accept-puzzles accept-match sprt book

build:
	$(CARGO) build --release --workspace

run: build
	$(ENGINE)

# Everything CI checks: formatting, unit and integration tests of every crate, and the
# protocol conformance scenarios against the release engine.
test: build
	$(CARGO) fmt --all -- --check
	$(CARGO) test --workspace
	$(CARGO) run --release -q -p protocol-tests -- --engine $(ENGINE) --dir protocol-tests/scenarios

bench: build
	$(ENGINE) bench

lint:
	$(CARGO) clippy --workspace --all-targets

# Cross-build for Gomocup/Piskvork (Windows). Needs the Rust target and Debian's MinGW linker.
windows:
	rustup target add $(WINDOWS_TARGET)
	command -v x86_64-w64-mingw32-gcc >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-mingw-w64-x86-64)
	$(CARGO) build --release --target $(WINDOWS_TARGET) --bin pbrain-pentad
	@ls -l $(WINDOWS_EXE)

# Fuzzing with cargo-fuzz (nightly and cargo-fuzz are installed if missing): every target of
# fuzz/ for FUZZ_SECONDS from the committed seed corpus; prints executions and findings.
# The same oracles run on stable Rust in `cargo test` (tests/fuzz_*.rs, a few seconds);
# PENTAD_FUZZ_CASES=N PENTAD_FUZZ_SEED=S cargo test --test fuzz_protocol runs more of them.
FUZZ_SECONDS ?= 30
fuzz:
	tools/fuzz.sh $(FUZZ_SECONDS)

# Long fuzzing: FUZZ_LONG_SECONDS per target, FUZZ_JOBS libFuzzer workers each.
FUZZ_LONG_SECONDS ?= 3600
FUZZ_JOBS ?= 1
fuzz-long:
	FUZZ_JOBS=$(FUZZ_JOBS) tools/fuzz.sh $(FUZZ_LONG_SECONDS)

# Self-play under hostile clocks, every rule, 15x15 and 20x20, GUI stops injected, frozen
# processes; prints the fault table (tools/stress.py). About an hour at the default 1000 games (two cores).
STRESS_GAMES ?= 1000
STRESS_CONCURRENCY ?= 2
stress: build
	python3 tools/stress.py --games $(STRESS_GAMES) --concurrency $(STRESS_CONCURRENCY) --target-dir $(TARGET_DIR)

# The opening book: Pentad's own searches of the openings (README "Commands"), then the binary
# that embeds it. With the default options: 1,950 positions, 46,948 bytes, 15 minutes on one core.
book: build
	$(ENGINE) book build --out book/pentad.book
	$(CARGO) build --release --workspace

# Training of the evaluation tables (tools/train.sh; needs ../shared openings): TRAIN_ROUNDS
# rounds (default 2) of node-limited self-play for each rule family and a fit of its tables,
# then the engine rebuilt with them. TRAIN_GAMES (default 30000) or TRAIN_MINUTES (default 30)
# per family and round, whichever ends first; data in target/train.
train: build
	tools/train.sh $(TARGET_DIR)/train $(SHARED)

# The strength issue's acceptance figures (tools/accept.sh; skipped without ../shared): the
# tactical set's solve rates against the targets (about 30 minutes, timed: an idle machine),
# and the match against the engine before the strength work (ACCEPT_GAMES, default 80;
# ACCEPT_THREADS, default 1; ACCEPT_SEED; BASE_COMMIT, default 744de27).
accept-puzzles: build
	tools/accept.sh puzzles $(SHARED)

accept-match: build
	tools/accept.sh match $(SHARED)

# A strength change's SPRT against BASE (default HEAD~1; tools/sprt.sh): 1 s a move + 10 s a
# game + 0.1 s, or SPRT_NODES per move; SPRT_RULE, SPRT_SEED, SPRT_GAMES (default 1000).
sprt: build
	tools/sprt.sh $(SHARED)

# Peak resident memory of the release engine under max_memory 16..350 MiB, 1 and 2 threads.
memory:
	$(CARGO) test --release --test memory_limits -- --nocapture

# The Windows exe under Wine: protocol scenarios and a short match against the Linux engine.
WINDOWS_TEST_GAMES ?= 4
windows-test: build windows
	tools/windows-test.sh $(WINDOWS_TEST_GAMES)

# target/dist/pbrain-pentad.zip as Gomocup takes it: pbrain-pentad.exe (64-bit Windows) at the
# top of the archive, the README, and the Linux binary in linux/ (Python's zipfile: no zip
# program needed; it keeps the Linux binary executable).
release: build windows
	rm -rf $(TARGET_DIR)/dist && mkdir -p $(TARGET_DIR)/dist/pbrain-pentad/linux
	cp $(WINDOWS_EXE) README.md $(TARGET_DIR)/dist/pbrain-pentad/
	cp $(ENGINE) $(TARGET_DIR)/dist/pbrain-pentad/linux/
	cd $(TARGET_DIR)/dist/pbrain-pentad && python3 -m zipfile -c ../pbrain-pentad.zip pbrain-pentad.exe README.md linux
	python3 -m zipfile -l $(TARGET_DIR)/dist/pbrain-pentad.zip
	@ls -l $(TARGET_DIR)/dist

clean:
	$(CARGO) clean
