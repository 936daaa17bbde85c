#!/usr/bin/env bash
# The strength issue's acceptance measurements (make accept-puzzles, make accept-match):
#
#   tools/accept.sh puzzles [SHARED]
#   tools/accept.sh match   [SHARED]
#
# puzzles: the shared tactical set, 2 search threads: every VCF problem within 1 s, the VCT3 and
#   VCT problems within 5 s each; prints the tables and whether each target (VCF 100%, VCT3 and
#   VCT at least 90%) is met; exit 1 when one is missed. About 30 minutes on two cores. Timed:
#   run it on an idle machine.
# match: the release engine against the engine as it stood before the strength work
#   (BASE_COMMIT, default 744de27, built from this repository's history into
#   <target dir>/accept-base-<commit>, once per commit), 15x15 freestyle, 60 s a game and
#   1 s a move, balanced openings: ACCEPT_GAMES games (default 80), ACCEPT_THREADS search
#   threads each (default 1; with 1 two games run at once, with more one game at a time, so
#   no engine waits for a core), ACCEPT_SEED (default 1). Prints the runner's tables (Elo,
#   time losses, crashes, illegal moves, clocks, memory). About 10 minutes per 40 games at
#   one thread.
#
# Without ../shared (or SHARED) both stop with a message and exit 0.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-}
shared=${2:-../shared}
td=${CARGO_TARGET_DIR:-target}
engine="$td/release/pbrain-pentad"
runner="$td/release/pentad-tournament"

case "$what" in
puzzles)
    set_file="$shared/data/puzzles/renju_puzzles.jsonl"
    if [ ! -f "$set_file" ]; then
        echo "accept: no puzzles at $set_file: skipped"
        exit 0
    fi
    out=$(mktemp)
    trap 'rm -f "$out"' EXIT
    "$engine" puzzles "$set_file" --task VCF --time 1000 --threads 2 | tee -a "$out"
    "$engine" puzzles "$set_file" --task VCT3,VCT --time 5000 --threads 2 | tee -a "$out"
    # Table rows: task, count, solved, rate%, ...
    awk '
        $1 == "VCF" || $1 == "VCT3" || $1 == "VCT" {
            need = ($1 == "VCF") ? 1.0 : 0.9
            ok = ($3 >= need * $2)
            printf "%-5s %d/%d solved, target %d%%: %s\n", $1, $3, $2, need * 100, ok ? "met" : "MISSED"
            if (!ok) missed = 1
        }
        END { exit missed }
    ' "$out"
    ;;
match)
    book="$shared/data/openings/freestyle15_balanced.pos.txt"
    if [ ! -f "$book" ]; then
        echo "accept: no openings at $book: skipped"
        exit 0
    fi
    base_commit=${BASE_COMMIT:-744de27}
    base_dir="$td/accept-base-$base_commit"
    tools/build-commit.sh "$base_commit" "$base_dir"
    threads=${ACCEPT_THREADS:-1}
    concurrency=2
    if [ "$threads" -gt 1 ]; then
        concurrency=1
    fi
    rm -rf "$td/accept-match"
    "$runner" --engine name=pentad "cmd=$engine" \
        --engine name=base "cmd=$base_dir/target/release/pbrain-pentad" \
        --each turn=1000 match=60000 "threads=$threads" \
        --rule 0 --size 15 --games "${ACCEPT_GAMES:-80}" --seed "${ACCEPT_SEED:-1}" \
        --openings "$book" --concurrency "$concurrency" --out "$td/accept-match"
    ;;
*)
    echo "usage: tools/accept.sh puzzles|match [SHARED]" >&2
    exit 2
    ;;
esac
