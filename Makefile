# Pentad — build, test and measurement targets. `make test` is what CI runs.
CARGO   ?= cargo
SHARED  ?= ../shared
ENGINE  := target/release/pbrain-pentad
WINDOWS_TARGET := x86_64-pc-windows-gnu
WINDOWS_EXE    := target/$(WINDOWS_TARGET)/release/pbrain-pentad.exe

.PHONY: build run test unit protocol-test bench release windows lint clean

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

release: build windows
	rm -rf target/dist && mkdir -p target/dist/pbrain-pentad
	cp $(ENGINE) $(WINDOWS_EXE) README.md target/dist/pbrain-pentad/
	cd target/dist && zip -qr pbrain-pentad.zip pbrain-pentad 2>/dev/null || tar czf pbrain-pentad.tar.gz pbrain-pentad
	@ls -l target/dist

clean:
	$(CARGO) clean
