#!/usr/bin/env bash
# A strength change's test (make sprt): the release engine against the engine built from
# BASE (a commit, default HEAD~1) with pentad-tournament's SPRT (elo0=0 elo1=10, alpha = beta
# = 0.05), 2 games at once, seeded random openings from the shared balanced set of the rule and
# random symmetries. Stops when the SPRT decides or after SPRT_GAMES games (default 1000).
#
#   tools/sprt.sh [SHARED]
#
# Environment: BASE (commit), SPRT_RULE (0 freestyle, default; 4 renju), SPRT_TURN (ms a move,
# default 1000), SPRT_MATCH (ms a game, default 10000), SPRT_INC (ms added each move, default
# 100), SPRT_NODES (a node limit per move instead of the clock: the same games on any load),
# SPRT_SEED (default 1), SPRT_GAMES, SPRT_OUT (default <target dir>/sprt).
# The base is built into <target dir>/sprt-base-<commit> once per commit. Without the shared
# openings it stops with a message and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${1:-../shared}
td=${CARGO_TARGET_DIR:-target}
engine="$td/release/pbrain-pentad"
runner="$td/release/pentad-tournament"
rule=${SPRT_RULE:-0}
case "$rule" in
4) book="$shared/data/openings/renju15_balanced.pos.txt" ;;
*) book="$shared/data/openings/freestyle15_balanced.pos.txt" ;;
esac
if [ ! -f "$book" ]; then
    echo "sprt: no openings at $book: skipped"
    exit 0
fi
base=$(git rev-parse --short "${BASE:-HEAD~1}")
base_dir="$td/sprt-base-$base"
tools/build-commit.sh "$base" "$base_dir"
if [ -n "${SPRT_NODES:-}" ]; then
    clock=(--each "nodes=$SPRT_NODES" turn=none match=0)
else
    clock=(--turn "${SPRT_TURN:-1000}" --match "${SPRT_MATCH:-10000}" --inc "${SPRT_INC:-100}")
fi
out=${SPRT_OUT:-$td/sprt}
rm -rf "$out"
# The engines are copied beside the results, so that a build during the match changes nothing.
mkdir -p "$out/engines"
cp "$engine" "$out/engines/new"
cp "$base_dir/target/release/pbrain-pentad" "$out/engines/base"
"$runner" --engine name=new "cmd=$out/engines/new" \
    --engine name=base "cmd=$out/engines/base" \
    "${clock[@]}" --rule "$rule" --size 15 --games "${SPRT_GAMES:-1000}" \
    --concurrency 2 --openings "$book" --openings-order random --symmetry random \
    --seed "${SPRT_SEED:-1}" --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --out "$out"
