#!/usr/bin/env python3
"""Random short openings for training games (make train), in pos notation (`h8i9...`).

    tools/random_openings.py COUNT SIZE SEED [MIN_STONES] [MAX_STONES] > openings.pos.txt

Each line places MIN..MAX stones (default 2..7), black first, on distinct squares within three of
the centre. No five-square window of a line holds three stones of one colour and none of the
other, so no opening starts with a three or a four to answer (and none holds a renju foul):
the engines decide every forcing move themselves. Lines are distinct; the same seed gives the
same file.
"""
import random
import sys


def windows(size):
    """Every five-square window of every line, as lists of (x, y)."""
    out = []
    for y in range(size):
        for x in range(size):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                sq = [(x + k * dx, y + k * dy) for k in range(5)]
                if all(0 <= a < size and 0 <= b < size for a, b in sq):
                    out.append(sq)
    return out


def quiet(stones, wins):
    for w in wins:
        b = sum(1 for q in w if stones.get(q) == 0)
        o = sum(1 for q in w if stones.get(q) == 1)
        if (b >= 3 and o == 0) or (o >= 3 and b == 0):
            return False
    return True


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    count, size, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    lo = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    hi = int(sys.argv[5]) if len(sys.argv) > 5 else 7
    rng = random.Random(seed)
    c = size // 2
    near = [(x, y) for x in range(c - 3, c + 4) for y in range(c - 3, c + 4)]
    wins = [w for w in windows(size) if any(q in near for q in w)]
    seen = set()
    while len(seen) < count:
        n = rng.randint(lo, hi)
        squares = rng.sample(near, n)
        stones = {q: i % 2 for i, q in enumerate(squares)}
        if not quiet(stones, wins):
            continue
        line = "".join(f"{chr(ord('a') + x)}{y + 1}" for x, y in squares)
        if line in seen:
            continue
        seen.add(line)
        print(line)


if __name__ == "__main__":
    main()
