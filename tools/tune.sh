#!/usr/bin/env bash
# Texel tuning of the evaluation weights (make tune):
#
#   tools/tune.sh [GAMES] [TURN_MS] [OUT_DIR] [SHARED]
#
# 1. plays GAMES self-play games of pbrain-pentad (default 1000; freestyle 15x15 from the
#    balanced openings of ../shared/data/openings, random order and symmetry, TURN_MS per move,
#    default 40) with pentad-tournament into OUT_DIR (default target/tune);
# 2. fits PATTERN_VALUE and THREAT_BONUS to the results (pbrain-pentad tune) and prints the
#    fitted declarations, to be pasted into src/eval/weights.rs and then checked by a match against
#    the previous version (the README's "Measuring strength").
#
# Without the shared openings every game would be the same, so the script stops (exit 0).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-1000}
turn=${2:-40}
td=${CARGO_TARGET_DIR:-target}
out=${3:-$td/tune}
shared=${4:-../shared}
book="$shared/data/openings/freestyle15_balanced.pos.txt"
if [ ! -f "$book" ]; then
    echo "tune: no openings at $book: skipped (self-play from one start repeats one game)"
    exit 0
fi
engine="$td/release/pbrain-pentad"
runner="$td/release/pentad-tournament"
rm -rf "$out"
"$runner" --engine name=a "cmd=$engine" --engine name=b "cmd=$engine" \
    --rule 0 --size 15 --games "$games" --turn "$turn" --match 0 \
    --openings "$book" --openings-order random --symmetry random \
    --concurrency "${TUNE_CONCURRENCY:-2}" --quiet --no-game-files --out "$out"
"$engine" tune "$out/games.jsonl" --rule 0
