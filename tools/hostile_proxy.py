#!/usr/bin/env python3
"""A hostile manager in front of a pbrain engine, for the stress run (tools/stress.py).

    hostile_proxy.py [--p P] [--max-delay MS] [--seed N] [--log FILE] -- ENGINE [ARGS...]

Passes every line between the manager (stdin/stdout) and the engine unchanged, and, with
probability P after each request for a move (BEGIN, TURN, BOARD...DONE), injects into the
engine, at a random moment within MS ms, one of the two commands a GUI sends to cut a search
short: `INFO timeout_turn 0` (Piskvork's "Continue") or `YXSTOP` (Yixin-Board, c-gomoku-cli).
The engine must answer the move at once, exactly once. An injection may land just after the
engine answered (a stop while idle must be silent). After a `timeout_turn 0` the manager's own
`INFO timeout_turn` value is sent again before the next request, so the clock settings of the
next move are the manager's. Each injection is logged (one line: time, command, delay) to FILE.
"""

import argparse
import os
import random
import subprocess
import sys
import threading
import time


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--p", type=float, default=0.5)
    ap.add_argument("--max-delay", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--log", default=None)
    ap.add_argument("engine", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.engine[1:] if a.engine and a.engine[0] == "--" else a.engine
    if not cmd:
        print("usage: hostile_proxy.py [options] -- ENGINE [ARGS]", file=sys.stderr)
        return 2
    rng = random.Random(a.seed if a.seed is not None else os.getpid() ^ int(time.time()))
    eng = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    lock = threading.Lock()  # guards writes to the engine and the state below
    state = {"asked": 0, "answered": 0, "turn": None, "zeroed": False}
    log = open(a.log, "a", buffering=1) if a.log else None

    def to_engine(line: bytes) -> bool:
        try:
            eng.stdin.write(line)
            eng.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def inject(seq: int, delay_ms: int, what: bytes) -> None:
        time.sleep(delay_ms / 1000)
        with lock:
            if state["answered"] >= seq and rng.random() < 0.8:
                return  # mostly skip stops for moves already answered; some land anyway
            if what.startswith(b"INFO"):
                state["zeroed"] = True
            to_engine(what)
        if log:
            log.write(f"{time.time():.3f} {what.decode().strip()} after {delay_ms} ms\n")

    def manager_to_engine() -> None:
        in_board = False
        for raw in sys.stdin.buffer:
            text = raw.strip().upper()
            request = False
            if in_board:
                if text == b"DONE":
                    in_board = False
                    request = True
            elif text.startswith(b"BOARD"):
                in_board = True
            elif text.startswith(b"BEGIN") or text.startswith(b"TURN"):
                request = True
            elif text.startswith(b"INFO TIMEOUT_TURN"):
                state["turn"] = raw
            with lock:
                if text.startswith(b"BEGIN") or text.startswith(b"TURN") or text == b"BOARD":
                    if state["zeroed"] and state["turn"] is not None:
                        to_engine(state["turn"])
                    state["zeroed"] = False
                if not to_engine(raw):
                    break
                if request:
                    state["asked"] += 1
                    seq = state["asked"]
            if request and rng.random() < a.p:
                what = b"YXSTOP\n" if rng.random() < 0.5 else b"INFO timeout_turn 0\n"
                delay = rng.randint(0, a.max_delay)
                threading.Thread(target=inject, args=(seq, delay, what), daemon=True).start()
        try:
            eng.stdin.close()
        except OSError:
            pass

    threading.Thread(target=manager_to_engine, daemon=True).start()
    out = sys.stdout.buffer
    for raw in eng.stdout:
        s = raw.strip()
        if s and not s.upper().startswith(b"MESSAGE") and b"," in s:
            with lock:
                state["answered"] = state["asked"]
        try:
            out.write(raw)
            out.flush()
        except (BrokenPipeError, OSError):
            break
    return eng.wait()


if __name__ == "__main__":
    sys.exit(main())
