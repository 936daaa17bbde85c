#!/usr/bin/env python3
"""The strength issue's clock and conversion figures from pentad-tournament's records.

    tools/match_report.py OUT_DIR_OR_GAMES_JSONL [--engine NAME ...] [--increment MS]

For each engine (or the ones named): the think time of its moves by its own move number (its
1st to 20th move, 21st to 60th, 61st on; Gomoku games at short clocks last 30-110 moves a
side; opening stones are not counted), the depth,
nodes and time of its last reported iteration in the same buckets (from `depth ...` MESSAGE
lines, so Pentad's own), the clock left at the end of the game (mean, minimum, and over games
of 60 moves or more), the games lost on time, and conversion: of the games in which the
engine's score stayed at or above +1000 for 10 of its moves in a row, the share it won and
drew. With --increment, whether moves 21-60 average at least the increment and at least half
of moves 1-20 (the acceptance of issue 20).
"""

import argparse
import json
import os
import statistics
import sys

BUCKETS = [(1, 20), (21, 60), (61, 10**9)]
WON_SCORE = 1000
WON_MOVES = 10


def last_info(messages):
    """(depth, nodes, score) of the last `depth ...` line of a move, or None."""
    for m in reversed(messages or []):
        f = m.split()
        if len(f) >= 2 and f[0] == "depth":
            kv = {f[i]: f[i + 1] for i in range(0, len(f) - 1, 2) if f[i] != "pv"}
            try:
                return int(kv["depth"]), int(kv.get("nodes", 0)), int(kv.get("score", 0))
            except (KeyError, ValueError):
                return None
    return None


def bucket_of(n):
    for i, (lo, hi) in enumerate(BUCKETS):
        if lo <= n <= hi:
            return i
    return None


def games_of(path):
    if os.path.isdir(path):
        path = os.path.join(path, "games.jsonl")
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                yield json.loads(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("path", help="a --out directory or its games.jsonl")
    ap.add_argument("--engine", action="append", help="report this engine only (repeatable)")
    ap.add_argument("--increment", type=int, help="the increment in ms, to check clock use")
    a = ap.parse_args()

    stats = {}
    for g in games_of(a.path):
        names = [g["black_name"], g["white_name"]]
        first = len(g.get("opening", []))
        for side in (0, 1):
            name = names[side]
            if a.engine and name not in a.engine:
                continue
            s = stats.setdefault(name, {
                "games": 0, "ms": [[] for _ in BUCKETS], "depth": [[] for _ in BUCKETS],
                "nodes": [[] for _ in BUCKETS], "left": [], "left_long": [], "time_losses": 0,
                "won_pos": 0, "won_pos_won": 0, "won_pos_drawn": 0,
            })
            s["games"] += 1
            winner = g.get("winner")
            mine = "black" if side == 0 else "white"
            streak, reached, own = 0, False, 0
            for i, mv in enumerate(g["moves"]):
                # The opening's stones alternate from black; the first engine move is the
                # stone after them, black's when the opening has an even count.
                colour = (first + i) % 2
                if colour != side:
                    continue
                own += 1
                b = bucket_of(own)
                s["ms"][b].append(mv.get("ms", 0))
                info = last_info(mv.get("messages"))
                if info:
                    s["depth"][b].append(info[0])
                    s["nodes"][b].append(info[1])
                    streak = streak + 1 if info[2] >= WON_SCORE else 0
                    if streak >= WON_MOVES:
                        reached = True
            tl = g.get("time_left")
            if tl and tl[side] is not None:
                s["left"].append(tl[side])
                if first + len(g["moves"]) >= 60:
                    s["left_long"].append(tl[side])
            if g.get("reason") == "timeout" and winner not in (mine, None, "draw"):
                s["time_losses"] += 1
            if reached:
                s["won_pos"] += 1
                if winner == mine:
                    s["won_pos_won"] += 1
                elif winner in (None, "draw") or g.get("reason") == "draw":
                    s["won_pos_drawn"] += 1

    if not stats:
        sys.exit("match_report: no games")
    mean = lambda v: statistics.fmean(v) if v else float("nan")
    labels = ["%d-%s" % (lo, hi if hi < 10**9 else "") for lo, hi in BUCKETS]
    for name, s in sorted(stats.items()):
        print(f"{name}: {s['games']} games, {s['time_losses']} lost on time")
        for b, label in enumerate(labels):
            print(f"  moves {label:7} {len(s['ms'][b]):5} moves, think {mean(s['ms'][b]):6.0f} ms, "
                  f"depth {mean(s['depth'][b]):5.2f}, nodes {mean(s['nodes'][b]):9.0f}")
        print(f"  clock left at the end: mean {mean(s['left']) / 1000:.2f} s, "
              f"min {min(s['left'], default=0) / 1000:.2f} s; games of 60+ stones: "
              f"{len(s['left_long'])}, mean {mean(s['left_long']) / 1000:.2f} s")
        print(f"  score >= +{WON_SCORE} for {WON_MOVES} moves in {s['won_pos']} games: "
              f"won {s['won_pos_won']}, drew {s['won_pos_drawn']}, "
              f"lost {s['won_pos'] - s['won_pos_won'] - s['won_pos_drawn']}")
        if a.increment is not None:
            early, mid = mean(s["ms"][0]), mean(s["ms"][1])
            ok = mid >= a.increment and mid >= early / 2
            print(f"  clock use: moves 21-60 {mid:.0f} ms against increment {a.increment} and "
                  f"half of moves 1-20 {early / 2:.0f}: {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
