//! Peak resident memory of the `pbrain-pentad` binary under `INFO max_memory` (protocol.md §6.4:
//! Piskvork and GomocupJudge score a game lost when the engine's peak memory passes the limit).
//!
//! For each limit (16, 32, 64, 128, 350 MiB) and `INFO thread_num` 1 and 2, a fresh engine plays
//! a few renju moves on 15×15 with short turn times; after the first move `YXHASHCLEAR` makes
//! it write every entry of its table (so every page of the table is resident, the worst case a
//! long game reaches), then the game goes on. Peak RSS (`VmHWM` of `/proc/<pid>/status`) is
//! read before `END` and must stay below the limit. Linux only (elsewhere the test only says
//! it is skipped). `cargo test --test memory_limits -- --nocapture` prints the table.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread;
use std::time::{Duration, Instant};

const MIB: u64 = 1 << 20;
/// The limits tested, MiB.
const LIMITS_MIB: [u64; 5] = [16, 32, 64, 128, 350];
/// Opponent moves per game.
const MOVES: usize = 6;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-pentad"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start pbrain-pentad");
        let stdin = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for l in BufReader::new(out).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, s: &str) {
        writeln!(self.stdin, "{s}").expect("write to the engine");
        self.stdin.flush().unwrap();
    }

    /// The next line that is not a MESSAGE.
    fn answer(&mut self, what: &str) -> String {
        let t0 = Instant::now();
        loop {
            let left = Duration::from_secs(30).saturating_sub(t0.elapsed());
            let l = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer to {what} within 30 s"));
            if !l.starts_with("MESSAGE") {
                return l;
            }
        }
    }

    /// `VmHWM` (peak resident set) of the process, bytes.
    fn peak_rss(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("read /proc/<pid>/status");
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM in /proc/<pid>/status");
        kb * 1024
    }

    fn end(mut self) {
        self.send("END");
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("the engine did not exit within 5 s of END");
    }
}

fn parse_move(l: &str) -> (usize, usize) {
    let (a, b) = l
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {l:?}"));
    (
        a.parse().unwrap_or_else(|_| panic!("not a move: {l:?}")),
        b.parse().unwrap_or_else(|_| panic!("not a move: {l:?}")),
    )
}

/// Plays one short game; returns the peak RSS in bytes.
fn peak_of_game(limit: u64, threads: usize) -> u64 {
    let mut e = Engine::start();
    e.send("START 15");
    assert_eq!(e.answer("START"), "OK");
    for l in [
        format!("INFO max_memory {limit}"),
        format!("INFO thread_num {threads}"),
        "INFO timeout_turn 300".into(),
        "INFO timeout_match 60000".into(),
        "INFO rule 4".into(),
        "INFO game_type 1".into(),
    ] {
        e.send(&l);
    }
    let mut taken = [[false; 15]; 15];
    // The engine plays black.
    e.send("BEGIN");
    let (x, y) = parse_move(&e.answer("BEGIN"));
    taken[y][x] = true;
    // Every page of the table resident, as after a long game.
    e.send("YXHASHCLEAR");
    for _ in 0..MOVES {
        // The opponent takes the free square nearest to the centre.
        let (ox, oy) = (0..15)
            .flat_map(|y| (0..15).map(move |x| (x, y)))
            .filter(|&(x, y)| !taken[y][x])
            .min_by_key(|&(x, y)| ((x as i32 - 7).pow(2) + (y as i32 - 7).pow(2), y, x))
            .unwrap();
        taken[oy][ox] = true;
        e.send(&format!("TURN {ox},{oy}"));
        let (x, y) = parse_move(&e.answer("TURN"));
        assert!(!taken[y][x], "move {x},{y} on a stone");
        taken[y][x] = true;
    }
    let peak = e.peak_rss();
    e.end();
    peak
}

#[test]
fn peak_memory_stays_below_max_memory() {
    if !cfg!(target_os = "linux") {
        eprintln!("memory_limits: skipped (reads /proc, Linux only)");
        return;
    }
    let mut rows = Vec::new();
    let mut over = Vec::new();
    for &mib in &LIMITS_MIB {
        for threads in [1, 2] {
            let limit = mib * MIB;
            let peak = peak_of_game(limit, threads);
            rows.push(format!(
                "max_memory {mib:>4} MiB  threads {threads}  peak RSS {:>7.1} MiB  ({:>3}% of the limit)",
                peak as f64 / MIB as f64,
                peak * 100 / limit
            ));
            if peak >= limit {
                over.push(format!(
                    "{mib} MiB / {threads} thread(s): peak {peak} bytes"
                ));
            }
        }
    }
    eprintln!("memory_limits:\n  {}", rows.join("\n  "));
    assert!(over.is_empty(), "peak memory over the limit: {over:?}");
}
