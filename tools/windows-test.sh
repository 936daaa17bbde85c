#!/usr/bin/env bash
# The Windows engine tested end to end under Wine (make windows-test).
#
#   tools/windows-test.sh [GAMES]
#
# 1. installs Wine (Debian's wine64 + wine) and MinGW if missing, builds the test-only stub
#    bcryptprimitives.dll (tools/wine/, exports ProcessPrng, which Wine 8 lacks and Rust's std
#    imports) into a Wine prefix of its own (target dir/wine-prefix, system32): the stub never
#    goes next to the engine or into the release archive;
# 2. runs the protocol conformance scenarios against `wine pbrain-pentad.exe`
#    (--time-scale $WINE_TIME_SCALE, default 3, for Wine's start-up);
# 3. plays GAMES games (default 4) of pentad-tournament: the Linux engine against the Windows
#    engine under Wine, 15x15 freestyle, 1 s a move, 30 s a game, and prints the tables.
# Needs the exe (make windows) and the release workspace (make build). Exit code: 1 when a
# scenario fails or a game ends in a fault.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-4}
td=${CARGO_TARGET_DIR:-target}
exe="$td/x86_64-pc-windows-gnu/release/pbrain-pentad.exe"
engine="$td/release/pbrain-pentad"
scale=${WINE_TIME_SCALE:-3}

need_apt() {
    [ -n "${apt_updated:-}" ] || { apt-get update -qq; apt_updated=1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
command -v wine >/dev/null || need_apt wine64 wine
command -v x86_64-w64-mingw32-gcc >/dev/null || need_apt gcc-mingw-w64-x86-64
[ -x "$exe" ] || { echo "no $exe: run make windows first" >&2; exit 2; }
[ -x "$engine" ] && [ -x "$td/release/protocol-tests" ] && [ -x "$td/release/pentad-tournament" ] \
    || { echo "no release build in $td: run make build first" >&2; exit 2; }

export WINEPREFIX
WINEPREFIX=$(realpath -m "$td/wine-prefix")
export WINEDEBUG=-all WINEARCH=win64
dll="$td/wine-stub/bcryptprimitives.dll"
mkdir -p "$(dirname "$dll")"
x86_64-w64-mingw32-gcc -shared -O2 -Wall -o "$dll" \
    tools/wine/bcryptprimitives.c tools/wine/bcryptprimitives.def -ladvapi32
if [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
    echo "== creating the Wine prefix $WINEPREFIX"
    wineboot --init >/dev/null 2>&1 || true
fi
cp "$dll" "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
# One wine server for the whole run, in a session of its own: otherwise each engine start
# starts one (seconds), inside the engine's process group, and the runners' kill of that group
# at the end of a scenario or game takes the server down with it and wedges the next starts.
wineserver -k >/dev/null 2>&1 || true
wineserver -w >/dev/null 2>&1 || true
(setsid wineserver -f -p >/dev/null 2>&1 &)
trap 'wineserver -k >/dev/null 2>&1 || true' EXIT
for _ in $(seq 50); do
    pgrep -f "wineserver.*-f -p" >/dev/null && break
    sleep 0.1
done
# Start the prefix's services once before anything is timed.
wine cmd /c exit >/dev/null 2>&1 || true

echo "== smoke test: START 15, BEGIN, END"
out=$(printf 'START 15\nBEGIN\nEND\n' | timeout 60 wine "$exe")
echo "$out" | sed 's/^/   /'
echo "$out" | grep -qx 'OK' && echo "$out" | grep -qE '^[0-9]+,[0-9]+$' \
    || { echo "the Windows engine does not answer under Wine" >&2; exit 1; }

status=0
echo "== protocol-tests against 'wine $exe' (time scale $scale)"
"$td/release/protocol-tests" --engine "wine $exe" --dir protocol-tests/scenarios \
    --time-scale "$scale" || status=1

echo "== $games games: Linux engine (linux) against the Windows engine under Wine (windows)"
out_dir="$td/windows-match"
rm -rf "$out_dir"
"$td/release/pentad-tournament" \
    --engine name=linux cmd="$engine" \
    --engine name=windows cmd="wine $exe" \
    --rule 0 --size 15 --games "$games" --turn 1000 --match 30000 --start-timeout 20000 \
    --quiet --no-game-files --out "$out_dir" || status=1
faults=$(python3 - "$out_dir/results.json" <<'PY'
import json, sys
games = json.load(open(sys.argv[1]))["games"]
bad = [g for g in games if g["reason"] not in ("five", "draw", "draw-limit")]
for g in bad:
    print(f"   game {g['id']}: {g['reason']} {g.get('detail', '')}", file=sys.stderr)
print(len(bad))
PY
)
echo "== faults in the match: $faults"
[ "$faults" = 0 ] || status=1
exit $status
