#!/usr/bin/env python3
"""Stress run: pbrain-pentad against itself under hostile conditions (make stress).

    tools/stress.py [--games N] [--concurrency C] [--out DIR] [--seed S] [--target-dir D]

Plays at least N games (default 1000) with pentad-tournament, spread over scenarios
that combine every rule (0 freestyle, 1 standard, 4 renju, 8 caro, 9 exact-five caro), both
board sizes (15x15, 20x20) and six clocks:

  fast       turn 100 ms, match 5 s: the match clock runs out, time_left goes negative
  short      turn 5 s, match 5 s: a match clock far too short for the game
  inc        turn 1 s, match 20 s, increment 200 ms
  hostile    turn 5 s, match 180 s; through tools/hostile_proxy.py: INFO timeout_turn 0 or
             YXSTOP at a random moment of 70% of the searches
  unlimited  turn 100 ms, no match clock (time_left 2147483647), hostile proxy on 50%
  negative   turn 100 ms, match 50 ms: time_left goes negative after a few moves and stays
             so; each move must come at once (the runner allows tolerance + time_left, i.e.
             less than the 1 s tolerance)

Each clock's share of the games is its weight in CLOCKS (hostile games, the longest, get
fewer).

and, by scenario, GomocupJudge-style freezing (--freeze: SIGSTOP between moves), processes
kept between games (restart=reuse, as c-gomoku-cli), CR LF line ends, BOARD before every move,
2 search threads. Every game is judged by the runner (protocol.md §4 timing, memory limit
350 MiB, legality, rules). Prints one line per scenario and the fault table: every game that
did not end by the rules (five, draw, draw limit) by reason, plus renju fouls (a foul is a
rule loss, but Pentad must never play one while it has another move). Games start from the
balanced openings of ../shared/data/openings when present (random order and symmetry), else
from the empty board. Exit code 1 on any fault. N below the number of scenarios runs a subset (2 games each, spread over all of them).
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time
from collections import Counter

RULES = [0, 1, 4, 8, 9]
SIZES = [15, 20]
# weight: the clock's share of the games. A hostile game lasts about ten times as long as a
# fast one (5 s turns on a 180 s clock); a smaller share keeps `make stress` near an hour on
# two cores while every scenario still plays several games.
CLOCKS = {
    "fast": dict(turn="100", match="5000", inc="0", proxy=0.0, weight=1.25),
    "short": dict(turn="5000", match="5000", inc="0", proxy=0.0, weight=1.25),
    "inc": dict(turn="1000", match="20000", inc="200", proxy=0.0, weight=1.0),
    "hostile": dict(turn="5000", match="180000", inc="0", proxy=0.7, weight=0.5),
    "unlimited": dict(turn="100", match="0", inc="0", proxy=0.5, weight=1.25),
    "negative": dict(turn="100", match="50", inc="0", proxy=0.0, weight=1.25),
}
RULE_ENDS = {"five", "draw", "draw-limit"}


def scenarios():
    out = []
    k = 0
    for clock in CLOCKS:
        for rule in RULES:
            for size in SIZES:
                out.append(
                    dict(
                        name=f"{clock}-r{rule}-{size}",
                        clock=clock,
                        rule=rule,
                        size=size,
                        freeze=k % 2 == 0,
                        reuse=k % 3 == 1,
                        crlf=k % 4 == 2,
                        board_every_move=k % 5 == 3,
                        threads=2 if k % 7 == 5 else 1,
                    )
                )
                k += 1
    return out


def opening_file(shared, rule, size):
    """Balanced openings from the shared material when present (games then differ), else None
    (every game starts on the empty board). The runner skips openings illegal under the rule."""
    d = os.path.join(shared, "data", "openings")
    names = {
        (4, 15): "renju15_balanced.pos.txt",
        (1, 15): "standard15_balanced.pos.txt",
    }
    name = names.get((rule, size), f"freestyle{size}_balanced.pos.txt")
    path = os.path.join(d, name)
    return path if os.path.exists(path) else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--out", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=None, help="only scenarios whose name contains this")
    ap.add_argument("--target-dir", default=os.environ.get("CARGO_TARGET_DIR", "target"))
    ap.add_argument("--shared", default=None,
                    help="shared material (openings); default ../shared beside the repository")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    td = os.path.abspath(os.path.join(root, a.target_dir)) if not os.path.isabs(a.target_dir) else a.target_dir
    engine = os.path.join(td, "release", "pbrain-pentad")
    runner = os.path.join(td, "release", "pentad-tournament")
    for f in (engine, runner):
        if not os.access(f, os.X_OK):
            print(f"missing {f}: build the release workspace first (make build)", file=sys.stderr)
            return 2
    proxy = os.path.join(root, "tools", "hostile_proxy.py")
    shared = a.shared or os.path.join(root, "..", "shared")
    out = os.path.abspath(a.out or os.path.join(td, "stress"))
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)

    sc = [s for s in scenarios() if not a.only or a.only in s["name"]]
    if a.games >= 2 * len(sc):
        # Games per scenario in proportion to its clock's weight, an even number (both
        # colours of each opening), at least 2, and at least N in all.
        unit = a.games / sum(CLOCKS[s["clock"]]["weight"] for s in sc)
        per = lambda s: max(2, 2 * math.ceil(unit * CLOCKS[s["clock"]]["weight"] / 2))
        chosen = [(s, per(s)) for s in sc]
    else:
        n = max(1, a.games // 2)
        step = len(sc) / n
        chosen = [(sc[int(i * step)], 2) for i in range(n)]
    total = sum(g for _, g in chosen)
    print(f"stress: {total} games in {len(chosen)} scenarios, concurrency {a.concurrency}, out {out}",
          flush=True)

    faults = Counter()
    ends = Counter()
    per_reason_examples = {}
    injections = 0
    played = 0
    t_start = time.time()
    rows = []
    for i, (s, games) in enumerate(chosen):
        c = CLOCKS[s["clock"]]
        d = os.path.join(out, s["name"])
        inj_log = os.path.join(d, "injections.log")
        os.makedirs(d, exist_ok=True)
        engines = []
        for name, seed in (("a", a.seed * 1000 + 2 * i), ("b", a.seed * 1000 + 2 * i + 1)):
            if c["proxy"] > 0:
                cmd = (f"python3 {proxy} --p {c['proxy']} --max-delay 1500 --seed {seed} "
                       f"--log {inj_log} -- {engine}")
            else:
                cmd = engine
            spec = [f"name={name}", f"cmd={cmd}", f"threads={s['threads']}"]
            if s["reuse"]:
                spec.append("restart=reuse")
            if s["board_every_move"]:
                spec.append("board-every-move")
            engines += ["--engine", *spec]
        args = [runner, *engines, "--rule", str(s["rule"]), "--size", str(s["size"]),
                "--games", str(games), "--concurrency", str(a.concurrency),
                "--turn", c["turn"], "--match", c["match"], "--inc", c["inc"],
                "--seed", str(a.seed + i), "--quiet", "--no-game-files", "--out", d]
        book = opening_file(shared, s["rule"], s["size"])
        if book:
            args += ["--openings", book, "--openings-order", "random", "--symmetry", "random"]
        if s["freeze"]:
            args.append("--freeze")
        if s["crlf"]:
            args.append("--crlf")
        t0 = time.time()
        r = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        res_path = os.path.join(d, "results.json")
        if r.returncode != 0 or not os.path.exists(res_path):
            print(f"  {s['name']}: the runner failed (exit {r.returncode}): {r.stderr.strip()[-500:]}",
                  flush=True)
            faults["runner-error"] += 1
            continue
        res = json.load(open(res_path))
        sf = Counter()
        for g in res["games"]:
            reason = g["reason"]
            played += 1
            if reason in RULE_ENDS:
                ends[reason] += 1
            elif reason == "foul":
                ends["foul"] += 1
                sf["foul"] += 1
                faults["foul"] += 1
                per_reason_examples.setdefault("foul", f"{s['name']} game {g['id']}: {g.get('detail', '')}")
            else:
                sf[reason] += 1
                faults[reason] += 1
                per_reason_examples.setdefault(reason, f"{s['name']} game {g['id']}: {g.get('detail', '')}")
        n_inj = sum(1 for _ in open(inj_log)) if os.path.exists(inj_log) else 0
        injections += n_inj
        opts = ",".join(k for k in ("freeze", "reuse", "crlf", "board_every_move") if s[k])
        if s["threads"] > 1:
            opts += ("," if opts else "") + "threads2"
        line = (f"  [{i + 1}/{len(chosen)}] {s['name']:<18} {len(res['games'])} games "
                f"{time.time() - t0:6.0f} s  opts {opts or '-'}  injections {n_inj}  "
                f"faults {dict(sf) if sf else 0}")
        print(line, flush=True)
        rows.append(line.strip())

    took = time.time() - t_start
    print()
    print(f"games played: {played} in {took:.0f} s; stops injected: {injections}")
    print("game ends by rule: " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())))
    print("fault table (reason: count):")
    for reason in ["timeout", "crash", "not-a-move", "illegal-move", "no-ok", "memory", "foul",
                   "runner-error"]:
        extra = f"   e.g. {per_reason_examples[reason]}" if reason in per_reason_examples else ""
        print(f"  {reason:<13} {faults.get(reason, 0)}{extra}")
    for reason in sorted(set(faults) - {"timeout", "crash", "not-a-move", "illegal-move", "no-ok",
                                        "memory", "foul", "runner-error"}):
        print(f"  {reason:<13} {faults[reason]}   e.g. {per_reason_examples.get(reason, '')}")
    summary = dict(games=played, seconds=round(took), injections=injections, ends=dict(ends),
                   faults=dict(faults), examples=per_reason_examples, scenarios=rows)
    json.dump(summary, open(os.path.join(out, "stress-summary.json"), "w"), indent=1)
    print(f"summary: {os.path.join(out, 'stress-summary.json')}")
    return 1 if sum(faults.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
