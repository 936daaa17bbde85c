#!/usr/bin/env bash
# Runs the cargo-fuzz targets of fuzz/ (nightly Rust, cargo-fuzz; both installed if missing).
#
#   tools/fuzz.sh [SECONDS] [TARGET...]     each target for SECONDS (default 30)
#
# Targets: command_line session session_real board_ops renju notation stored_files (all by default). Each run starts from
# a scratch copy of the committed seed corpus (fuzz/corpus/<target>), so the repository is not
# touched; a crash, panic or hang is saved in fuzz/artifacts/<target>/ and makes the script fail.
# Prints one line per target and a table: executions, seconds, executions per second, findings.
# FUZZ_JOBS=N runs N workers per target (libFuzzer -fork), FUZZ_KEEP_CORPUS=1 merges what the
# run found back into fuzz/corpus (then minimise it: cargo +nightly fuzz cmin <target>).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(command_line session session_real board_ops renju notation stored_files)
fi
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

# No unsafe code in the engine: address sanitizing would only slow the runs down; debug
# assertions and overflow checks stay on (cargo-fuzz's default), so the board's incremental
# state is checked against a recomputation after every change.
cargo +nightly fuzz build -s none

summary=()
failed=0
for t in "${targets[@]}"; do
    work=$(mktemp -d)
    mkdir -p "fuzz/artifacts/$t"
    cp -r "fuzz/corpus/$t/." "$work/" 2>/dev/null || true
    log="$work.log"
    # Slow units (libFuzzer's report of an input that ran long but ended) are not findings:
    # session_real plays real searches, and a loaded machine stretches them. A hang is a
    # timeout- artifact (-timeout below), and counts.
    before=$( (ls "fuzz/artifacts/$t" | grep -v '^slow-unit-' || true) | wc -l)
    fork=()
    if [ -n "${FUZZ_JOBS:-}" ]; then fork=(-fork="$FUZZ_JOBS" -ignore_crashes=0); fi
    set +e
    cargo +nightly fuzz run -s none "$t" "$work" -- \
        -max_total_time="$secs" -print_final_stats=1 -timeout=60 -report_slow_units=30 -rss_limit_mb=4096 \
        -artifact_prefix="fuzz/artifacts/$t/" "${fork[@]}" >"$log" 2>&1
    rc=$?
    set -e
    after=$( (ls "fuzz/artifacts/$t" | grep -v '^slow-unit-' || true) | wc -l)
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1 || true)
    if [ -z "$execs" ]; then
        execs=$(grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#' || true)
    fi
    took=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' | tail -n 1 || true)
    took=${took:-$secs}
    found=$((after - before))
    rate=$(( ${execs:-0} / (took > 0 ? took : 1) ))
    if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
        failed=1
        echo "== $t: FAILED (exit $rc, $found new artifact(s) in fuzz/artifacts/$t); log: $log"
        grep -E 'panicked|ERROR|SUMMARY|Test unit written' "$log" | head -n 20 || true
    else
        echo "== $t: ${execs:-?} executions in ${took}s, no finding"
    fi
    if [ -n "${FUZZ_KEEP_CORPUS:-}" ]; then
        cp -n "$work"/* "fuzz/corpus/$t/" 2>/dev/null || true
    fi
    [ "$failed" -ne 0 ] || rm -rf "$work" "$log"
    summary+=("$(printf '%-13s %12s %8s %10s %9s' "$t" "${execs:-?}" "$took" "$rate" "$found")")
done
echo
printf '%-13s %12s %8s %10s %9s\n' target executions seconds "exec/s" findings
printf '%s\n' "${summary[@]}"
exit $failed
