#!/usr/bin/env bash
# Training of the evaluation tables (make train):
#
#   tools/train.sh [OUT_DIR] [SHARED]
#
# For each round (TRAIN_ROUNDS, default 2) and each rule family (freestyle, standard and renju,
# all 15x15):
# 1. random short openings (tools/random_openings.py, seeded by round and rule) and the shared
#    balanced openings of the rule, random order and symmetry;
# 2. self-play games of the current engine with pentad-tournament, node-limited (TRAIN_NODES
#    for one side, 60% of it for the other, so that the two games of a pair differ; 32 MB of
#    memory, as a game of 10,000-node moves needs no more, and the engine clears its whole
#    table at every new game: with the default 350 MB that clearing halved the games a
#    minute: 380 against 670 measured), at most
#    TRAIN_GAMES games (default 30000) or TRAIN_MINUTES minutes (default 30) per family,
#    whichever comes first, into OUT_DIR/round-R/RULE (default target/train);
# 3. `pbrain-pentad tune` fits the family's tables to every round's games of that family so
#    far, starting from the current tables, and `tune --policy` its move-order table
#    (eval/pentad.policy) to the moves played in them.
# Round 1 starts from TRAIN_BASE (default eval/pentad.weights; the shipped tables were trained
# from the old shape values, `git show 974af38:eval/pentad.weights`) and from the move order of
# eval/pentad.policy. After each round the weights go to OUT_DIR/round-R.weights and the move
# order to OUT_DIR/round-R.policy, and the engine is rebuilt with them (eval/pentad.weights,
# eval/pentad.policy), so the next round's games are the new engine's. The data stays
# under OUT_DIR (outside git). Each tune prints its held-out error before and after.
#
# Without the shared openings the script stops (exit 0): the balanced openings are part of the
# data.
set -euo pipefail
cd "$(dirname "$0")/.."
td=${CARGO_TARGET_DIR:-target}
out=${1:-$td/train}
shared=${2:-../shared}
rounds=${TRAIN_ROUNDS:-2}
games=${TRAIN_GAMES:-30000}
minutes=${TRAIN_MINUTES:-30}
nodes=${TRAIN_NODES:-10000}
other=$((nodes * 6 / 10))
openings="$shared/data/openings"
if [ ! -f "$openings/freestyle15_balanced.pos.txt" ]; then
    echo "train: no openings at $openings: skipped"
    exit 0
fi
mkdir -p "$out"
if [ -n "${TRAIN_BASE:-}" ]; then
    cp "$TRAIN_BASE" eval/pentad.weights
fi
for round in $(seq 1 "$rounds"); do
    cargo build --release --workspace -q
    dir="$out/round-$round"
    mkdir -p "$dir/engines"
    # The engine is copied, so that the rebuild after the round changes nothing mid-match.
    cp "$td/release/pbrain-pentad" "$dir/engines/pentad"
    weights="$dir/start.weights"
    cp eval/pentad.weights "$weights"
    policy="$dir/start.policy"
    cp eval/pentad.policy "$policy"
    for rule in 0 1 4; do
        case $rule in
        0) book=freestyle15 ;;
        1) book=standard15 ;;
        4) book=renju15 ;;
        esac
        python3 tools/random_openings.py $((games / 2)) 15 $((round * 100 + rule)) >"$dir/openings-$rule.txt"
        echo "train: round $round, rule $rule: games for up to $minutes min"
        timeout "${minutes}m" "$td/release/pentad-tournament" \
            --engine name=a "cmd=$dir/engines/pentad" "nodes=$nodes" \
            --engine name=b "cmd=$dir/engines/pentad" "nodes=$other" \
            --each turn=none match=0 option.usedatabase=0 memory=32M \
            --rule $rule --size 15 --games "$games" \
            --openings "$dir/openings-$rule.txt" --openings "$openings/${book}_balanced.pos.txt" \
            --openings-order random --symmetry random --seed $((round * 100 + rule)) \
            --concurrency "${TRAIN_CONCURRENCY:-2}" --restart reuse --quiet --no-game-files \
            --out "$dir/games-$rule" || true
        data=$(ls "$out"/round-*/games-$rule/games.jsonl)
        "$td/release/pbrain-pentad" tune $data --rule $rule --base "$weights" --out "$weights" \
            --note "round $round: self-play at $nodes/$other nodes from random and balanced openings"
        "$td/release/pbrain-pentad" tune --policy $data --rule $rule --base "$policy" --out "$policy" \
            --note "round $round: self-play at $nodes/$other nodes from random and balanced openings"
    done
    cp "$weights" "$out/round-$round.weights"
    cp "$weights" eval/pentad.weights
    cp "$policy" "$out/round-$round.policy"
    cp "$policy" eval/pentad.policy
done
cargo build --release --workspace -q
echo "train: eval/pentad.weights is round $rounds's; rebuilt the engine"
