//! Fuzz oracles shared by the stable property tests (`tests/fuzz_*.rs`, run by `cargo test`) and
//! the cargo-fuzz targets (`fuzz/fuzz_targets/*.rs`, which include this file by path).
//!
//! Each oracle takes raw bytes, decodes an input from them (a protocol line, a whole session
//! script, a sequence of board operations, a position, a notation string), runs the code under
//! test and panics when a property is violated:
//!
//! * [`command_line`]: `parse_command`/`parse_stone_line`/`parse_info` never panic, are
//!   insensitive to blanks, CR and the case of the command word, and only echo sanitised text;
//! * [`session`]: a whole protocol session through `pentad::protocol::run_with`, with a fake
//!   engine that answers good, absent, garbage, occupied or foul moves, panics, or runs until
//!   stopped, or with the real engine: no panic, no hang, every output line well formed, at most
//!   one reply per command (MESSAGE lines aside) and exactly the reply kind the command calls
//!   for, every move on an empty square of the board that was searched (and no renju foul),
//!   nothing after `END`; and a rejected command (bad or off-board coordinates, occupied or
//!   empty squares, bad INFO values, unknown commands) leaves every later search and answer
//!   exactly as they were without it;
//! * [`board_ops`]: `Board` put/remove/play/undo/wall/rule/side/clear sequences against a plain
//!   model (cells, history, counts, Zobrist key recomputed), with the incremental shapes checked
//!   by the debug build, and `wins_by`/`is_foul` against the referee functions of `Grid`;
//! * [`renju`]: `Grid::is_renju_foul` on arbitrary positions: no panic, the same verdict in all
//!   eight symmetries, and `Board::may_be_foul` never filters out a foul;
//! * [`notation`]: `parse_pos_moves`, `parse_offset_moves`, `parse_diagram` never panic and
//!   round-trip what they accept;
//! * [`stored_files`]: the opening book, database and evaluation weights readers on foreign,
//!   truncated, damaged and whole files: no panic, and what reads writes back to the same bytes.
#![allow(dead_code)]

use pentad::board::Board;
use pentad::notation::{parse_diagram, parse_offset_moves, parse_pos_moves, pos_to_str, to_ascii};
use pentad::protocol::command::{parse_command, parse_info, parse_stone_line, Command, StoneLine};
use pentad::protocol::session::legal_answer;
use pentad::protocol::{about_line, run_with, Exit};
use pentad::rules::Grid;
use pentad::search::{self, Engine, Info as SearchInfo, Limits, Outcome, Searcher};
use pentad::types::{Cell, Color, Pos, MAX_SIDE, MIN_SIDE};
use pentad::Rule;
use std::collections::HashMap;
use std::io::{Cursor, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Installs (once) a panic hook that keeps quiet about the fake engine's deliberate panics and
/// reports every other panic as before.
pub fn quiet_expected_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let expected = info
                .payload()
                .downcast_ref::<&str>()
                .is_some_and(|s| s.contains("expected by the fuzz oracle"));
            if !expected {
                previous(info);
            }
        }));
    });
}

// ------------------------------------------------------------------------------------------
// Input decoding and a PRNG for the stable tests

/// Reads choices from fuzz bytes; zeros once they run out.
pub struct Src<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Src<'a> {
    /// Decodes `data`.
    pub fn new(data: &'a [u8]) -> Src<'a> {
        Src { data, pos: 0 }
    }
    /// True once every byte was used.
    pub fn done(&self) -> bool {
        self.pos >= self.data.len()
    }
    /// The next byte (0 when exhausted).
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 256 {
            self.byte() as usize % n
        } else {
            (self.byte() as usize | (self.byte() as usize) << 8) % n
        }
    }
    /// True with probability about `num`/256.
    pub fn chance(&mut self, num: u8) -> bool {
        self.byte() < num
    }
    /// Any i64.
    pub fn any_i64(&mut self) -> i64 {
        let mut v = 0u64;
        for _ in 0..8 {
            v = v << 8 | self.byte() as u64;
        }
        v as i64
    }
    /// One of `xs`.
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
    /// Up to `max` raw bytes.
    pub fn bytes(&mut self, max: usize) -> Vec<u8> {
        let n = self.below(max + 1);
        (0..n).map(|_| self.byte()).collect()
    }
}

/// xorshift64*: the stable tests' source of fuzz bytes.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// `len` random bytes, some of them small (the decoders like small numbers).
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| {
                let r = self.next();
                if r.is_multiple_of(4) {
                    (r >> 8) as u8 % 16
                } else {
                    (r >> 8) as u8
                }
            })
            .collect()
    }
}

// ------------------------------------------------------------------------------------------
// Command lines

const PIECES: &[&str] = &[
    "START",
    "start",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "turn",
    "BOARD",
    "YXBOARD",
    "DONE",
    "done",
    "INFO",
    "info",
    "END",
    "ABOUT",
    "TAKEBACK",
    "PLAY",
    "SWAP2BOARD",
    "YXSTOP",
    "STOP",
    "YXSHOWFORBID",
    "YXHASHCLEAR",
    "YXSHOWINFO",
    "timeout_turn",
    "max_memory",
    "rule",
    "time_left",
    "folder",
    "evaluate",
    "thread_num",
    "pondering",
    " ",
    " ",
    "\t",
    ",",
    ",",
    "\r",
    "-",
    "+",
    "0",
    "1",
    "7",
    "15",
    "32",
    "33",
    "-1",
    "2147483647",
    "99999999999999999999",
    "\u{feff}",
    "\u{0}",
    "é",
    "●",
    "1.5",
    "x",
];

/// Makes a protocol-ish line from fuzz bytes (no `\n` inside).
pub fn line_from(src: &mut Src) -> String {
    let mut bytes = Vec::new();
    let n = src.below(12);
    for _ in 0..n {
        if src.chance(170) {
            bytes.extend_from_slice(src.pick(PIECES).as_bytes());
        } else {
            bytes.push(src.byte());
        }
    }
    let s = String::from_utf8_lossy(&bytes).replace('\n', " ");
    s
}

/// `parse_command`, `parse_stone_line` and `parse_info` on one line from the bytes.
pub fn command_line(data: &[u8]) {
    let mut src = Src::new(data);
    let line = if src.chance(128) {
        line_from(&mut src)
    } else {
        String::from_utf8_lossy(&src.bytes(200)).into_owned()
    };
    check_line(&line);
}

/// The properties of the line parsers on one line.
pub fn check_line(line: &str) {
    let c = parse_command(line);
    let _ = parse_info(line);
    let stone = parse_stone_line(line);
    let _ = c.opens_block() || c.interrupts_search();
    match &c {
        Command::Unknown { word } => {
            assert!(!word.chars().any(char::is_control), "{line:?} -> {c:?}");
            assert!(word.chars().count() <= 43, "{line:?} -> {c:?}");
        }
        Command::Malformed { reason, .. } => {
            assert!(reason.len() < 200, "{line:?} -> long reason {reason:?}");
        }
        _ => {}
    }
    // Blanks, CR and a BOM around the line change nothing.
    let framed = format!(" \t{line}\t \r\n");
    if !line.contains('\n') {
        assert_eq!(parse_command(&framed), c, "framing changed {line:?}");
        assert_eq!(parse_stone_line(&framed), stone, "framing changed {line:?}");
    }
    // The command word in any case (an unknown word is echoed as sent).
    if !matches!(c, Command::Unknown { .. } | Command::Blank) {
        let t = line
            .trim_start_matches(|ch: char| ch.is_whitespace() || ch == '\u{feff}' || ch == '\0');
        let end = t.find(char::is_whitespace).unwrap_or(t.len());
        let flipped: String = t[..end]
            .chars()
            .map(|ch| {
                if ch.is_ascii_uppercase() {
                    ch.to_ascii_lowercase()
                } else {
                    ch.to_ascii_uppercase()
                }
            })
            .collect();
        let other = format!("{flipped}{}", &t[end..]);
        assert_eq!(
            parse_command(&other),
            c,
            "case changed {line:?} vs {other:?}"
        );
    }
    // A stone line is exactly its numbers.
    if let StoneLine::Stone { x, y, field } = stone {
        let again = match field {
            Some(f) => format!("{x},{y},{f}"),
            None => format!("{x},{y}"),
        };
        assert_eq!(parse_stone_line(&again), stone, "{line:?}");
    }
}

// ------------------------------------------------------------------------------------------
// Sessions: the script generator

/// The marker put after every command: its answer (`UNKNOWN command FUZZMARK`) cuts the output
/// into the replies of each command.
pub const MARKER: &str = "FUZZMARK";

fn coord(src: &mut Src) -> i64 {
    match src.below(16) {
        0 => -1,
        1 => src.pick(&[0, 4, 5, 14, 15, 19, 20, 31, 32, 33]),
        2 => src.any_i64(),
        _ => 4 + src.below(9) as i64,
    }
}

fn size_value(src: &mut Src) -> i64 {
    match src.below(8) {
        0 => src.pick(&[4, 33, 0, -1, 1, 100, i64::MAX]),
        1 => MIN_SIDE as i64 + src.below(MAX_SIDE - MIN_SIDE + 1) as i64,
        2 => 20,
        _ => 15,
    }
}

/// A value for an INFO key; `real` keeps memory, threads and clocks small.
fn info_line(src: &mut Src, real: bool) -> String {
    let key = src.pick(&[
        "timeout_turn",
        "timeout_match",
        "time_left",
        "max_memory",
        "game_type",
        "rule",
        "max_depth",
        "max_node",
        "thread_num",
        "time_increment",
        "hash_size",
        "evaluate",
        "folder",
        "caution_factor",
        "vcthread",
        "no_such_key",
        "",
    ]);
    let value = match (key, src.below(10)) {
        (_, 0) => src.pick(&["abc", "", "1.5", "-", "1e9", "2,3"]).to_string(),
        (_, 1) if !real => src.any_i64().to_string(),
        ("rule", _) => src.pick(&[0i64, 1, 2, 4, 5, 8, 9, 12, 3, -1]).to_string(),
        // The real engine searches as long as the clock lets it: its clocks stay short so that
        // a session's searches fit the hang limit (long clocks are the fakes' and time.rs's).
        ("timeout_turn", _) if real => src.pick(&[0i64, 1, 5, 50, 100, 300, -5]).to_string(),
        ("timeout_match" | "time_left", _) if real => {
            src.pick(&[0i64, 1, 100, 5000, -500]).to_string()
        }
        ("timeout_turn", _) => src
            .pick(&[0i64, 1, 5, 50, 100, 1000, 30000, -5])
            .to_string(),
        ("timeout_match" | "time_left", _) => src
            .pick(&[0i64, 1, 100, 5000, -500, 2147483647, 180000])
            .to_string(),
        ("max_memory", _) if real => src
            .pick(&[0i64, 1, 1 << 20, 16 << 20, 40 << 20])
            .to_string(),
        ("max_memory", _) => src
            .pick(&[0i64, 1, 16 << 20, 350 << 20, 1 << 40, -1])
            .to_string(),
        ("hash_size", _) => src.pick(&[0i64, 1, 1024, 16384, -3]).to_string(),
        ("thread_num", _) => src.pick(&[1i64, 2, 0, -1, 3]).to_string(),
        ("max_depth", _) => src.pick(&[1i64, 2, 3, 0, -1]).to_string(),
        ("max_node", _) => src.pick(&[1i64, 100, 5000, 0, -1]).to_string(),
        ("evaluate", _) => format!("{},{}", coord(src), coord(src)),
        ("folder", _) => "C:\\some dir\\x".to_string(),
        _ => (src.below(1000) as i64 - 10).to_string(),
    };
    format!("INFO {key} {value}")
}

/// Random case, blanks and CR on a line (the session must read them all alike).
fn decorate(src: &mut Src, line: String) -> String {
    match src.below(10) {
        0 => line.to_ascii_lowercase(),
        1 => format!("  {line}\t"),
        2 => format!("{line}\r"),
        3 => line.replace(',', " , "),
        _ => line,
    }
}

fn stone_block(src: &mut Src, lines: &mut Vec<String>, with_field: bool) {
    let n = match src.below(6) {
        0 => 0,
        1 => 3,
        2 => 5,
        _ => src.below(20),
    };
    for _ in 0..n {
        let (x, y) = (coord(src), coord(src));
        let l = match src.below(16) {
            0 => line_from(src),
            1 => format!("{x},{y}"),
            2 => format!("{x},{y},{}", src.pick(&[0, 3, 4, -1])),
            3 => String::new(),
            _ if with_field => format!("{x},{y},{}", 1 + src.below(2)),
            _ => format!("{x},{y}"),
        };
        lines.push(l);
    }
    if !src.chance(8) {
        lines.push(src.pick(&["DONE", "done", " Done\r"]).to_string());
    }
}

/// A whole script: lines without their terminators. `real` keeps the settings sane for the real
/// engine (memory, threads).
pub fn script_from(src: &mut Src, real: bool, max_lines: usize) -> Vec<String> {
    let mut lines = Vec::new();
    if real {
        // Without a clock the real engine would take the skeleton's 30 s per move.
        lines.push("INFO timeout_turn 300".to_string());
    }
    if src.chance(230) {
        lines.push(format!(
            "START {}",
            if src.chance(200) { 15 } else { size_value(src) }
        ));
    }
    while !src.done() && lines.len() < max_lines {
        let l = match src.below(32) {
            0..=2 => format!("START {}", size_value(src)),
            3 => format!("RECTSTART {},{}", size_value(src), size_value(src)),
            4 => "RESTART".into(),
            5 | 6 => "BEGIN".into(),
            7..=11 => format!("TURN {},{}", coord(src), coord(src)),
            12 | 13 => {
                lines.push("BOARD".into());
                stone_block(src, &mut lines, true);
                continue;
            }
            14 => {
                lines.push("YXBOARD".into());
                stone_block(src, &mut lines, true);
                continue;
            }
            15 => {
                lines.push("SWAP2BOARD".into());
                stone_block(src, &mut lines, false);
                continue;
            }
            16..=19 => info_line(src, real),
            20 => format!("TAKEBACK {},{}", coord(src), coord(src)),
            21 => format!("PLAY {},{}", coord(src), coord(src)),
            22 => src.pick(&["YXSTOP", "STOP"]).into(),
            23 => "YXSHOWFORBID".into(),
            24 => src.pick(&["YXHASHCLEAR", "YXSHOWINFO", "ABOUT"]).into(),
            25 if src.chance(40) => "END".into(),
            26 => src.pick(&["", " ", "\t\r"]).into(),
            27 => src
                .pick(&[
                    "TURN 7", "TURN a,b", "START", "TAKEBACK", "PLAY 1", "FOO bar", "DONE",
                ])
                .into(),
            _ => line_from(src),
        };
        let l = decorate(src, l);
        lines.push(l);
    }
    for l in &mut lines {
        let cmd = parse_command(l);
        // The marker must stay unique.
        if matches!(cmd, Command::Unknown { ref word } if word.eq_ignore_ascii_case(MARKER)) {
            *l = "FOO".into();
        }
        // Settings that make searches with no move to answer (pondering) or extra reply lines
        // (Yixin-Board's realtime lines) are left to the protocol scenarios.
        let d = format!("{cmd:?}");
        if d.starts_with("Info(Pondering") || d.starts_with("Info(ShowDetail") {
            *l = "INFO no_such_key 1".into();
        }
    }
    lines
}

// ------------------------------------------------------------------------------------------
// Sessions: segmentation of the script into commands

/// How a command ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closed {
    /// Complete (a one-line command, or a block up to its DONE).
    Yes,
    /// A block still open when the input ends.
    Open,
    /// A block cut by END (the session ends there).
    CutByEnd,
}

/// One top-level command of a script: a line, or a block up to its DONE.
#[derive(Clone, Debug)]
pub struct Unit {
    /// Index of its first line.
    pub first: usize,
    /// Index past its last line.
    pub end: usize,
    /// The command of the first line.
    pub cmd: Command,
    /// How it ends.
    pub closed: Closed,
}

/// Cuts a script into commands the way the session reads it; stops after the first END.
pub fn segment(lines: &[String]) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let cmd = parse_command(&lines[i]);
        if cmd.opens_block() {
            let mut j = i + 1;
            let mut closed = Closed::Open;
            while j < lines.len() {
                match parse_stone_line(&lines[j]) {
                    StoneLine::Done => {
                        closed = Closed::Yes;
                        j += 1;
                        break;
                    }
                    StoneLine::Bad if parse_command(&lines[j]) == Command::End => {
                        closed = Closed::CutByEnd;
                        break;
                    }
                    _ => j += 1,
                }
            }
            units.push(Unit {
                first: i,
                end: j,
                cmd,
                closed,
            });
            if closed != Closed::Yes {
                return units;
            }
            i = j;
        } else {
            let end = cmd == Command::End;
            units.push(Unit {
                first: i,
                end: i + 1,
                cmd,
                closed: Closed::Yes,
            });
            if end {
                return units;
            }
            i += 1;
        }
    }
    units
}

/// The script with a marker after every complete command before END; returns the lines and,
/// per unit, whether a marker follows it.
pub fn with_markers(lines: &[String]) -> (Vec<String>, Vec<Unit>, usize) {
    let units = segment(lines);
    let mut out = Vec::new();
    let mut markers = 0;
    for u in &units {
        out.extend_from_slice(&lines[u.first..u.end]);
        if u.closed == Closed::Yes && u.cmd != Command::End {
            out.push(MARKER.into());
            markers += 1;
        }
    }
    // What follows the last unit (after an END or in an open block) is never read as commands.
    if let Some(last) = units.last() {
        out.extend_from_slice(&lines[last.end..]);
    }
    (out, units, markers)
}

// ------------------------------------------------------------------------------------------
// Sessions: engines

/// What an engine saw when asked to search.
#[derive(Clone, Debug, PartialEq)]
pub struct Snap {
    /// The board as text.
    pub text: String,
    /// Board size.
    pub size: (usize, usize),
    /// The side to move.
    pub side: Color,
    /// The rule.
    pub rule: Rule,
    /// The stones in order.
    pub history: Vec<(Pos, Color)>,
    /// The Zobrist key.
    pub hash: u64,
    /// Depth, node and thread limits.
    pub limits: (Option<i32>, Option<u64>, usize),
}

/// Searches seen, with their boards and the command they were run for: the number of markers
/// answered when the search started (the session answers every command in order, so that is
/// the index of the command being answered; one command may search several times, e.g. to
/// choose a Swap2 opening).
#[derive(Clone, Default)]
pub struct Record {
    seen: Arc<Mutex<Vec<(Snap, Board, usize)>>>,
    out: Buf,
}

impl Record {
    fn push(&self, board: &Board, limits: &Limits) {
        let marker = format!("UNKNOWN command {MARKER}\n");
        let tag = {
            let out = self.out.0.lock().unwrap();
            String::from_utf8_lossy(&out)
                .matches(marker.as_str())
                .count()
        };
        let snap = Snap {
            text: to_ascii(board),
            size: (board.width(), board.height()),
            side: board.side_to_move(),
            rule: board.rule(),
            history: board.history().to_vec(),
            hash: board.hash(),
            limits: (limits.max_depth, limits.max_nodes, limits.threads),
        };
        self.seen.lock().unwrap().push((snap, board.clone(), tag));
    }
    /// The searches so far.
    pub fn take(&self) -> Vec<(Snap, Board, usize)> {
        std::mem::take(&mut *self.seen.lock().unwrap())
    }
}

/// How the fake engine answers a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// A legal move.
    Legal,
    /// `Pos::NONE`.
    NoMove,
    /// Any `Pos` value (mostly off the board or outside the array).
    Raw(u16),
    /// A square with a stone on it.
    Occupied,
    /// A renju foul when there is one.
    Foul,
    /// Panics.
    Panic,
    /// Runs until stopped (at most 20 s), then a legal move.
    Slow,
}

impl Behaviour {
    fn from(src: &mut Src) -> Behaviour {
        match src.below(12) {
            0 => Behaviour::NoMove,
            1 => Behaviour::Raw(src.byte() as u16 | (src.byte() as u16) << 8),
            2 => Behaviour::Occupied,
            3 => Behaviour::Foul,
            4 => Behaviour::Panic,
            5 => Behaviour::Slow,
            _ => Behaviour::Legal,
        }
    }
}

/// A scripted engine.
pub struct Fake {
    rec: Record,
    plan: Vec<Behaviour>,
    n: usize,
}

impl Engine for Fake {
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Outcome {
        self.rec.push(board, limits);
        let b = self.plan.get(self.n % self.plan.len().max(1)).copied();
        self.n += 1;
        report(&SearchInfo {
            depth: 1,
            seldepth: 1,
            score: 7,
            nodes: 1,
            elapsed: Duration::from_millis(1),
            pv: vec![Pos(7), Pos(65535), Pos::NONE, Pos(300)],
        });
        let best = match b.unwrap_or(Behaviour::Legal) {
            Behaviour::Legal => legal_answer(board, Pos::NONE).unwrap_or(Pos::NONE),
            Behaviour::NoMove => Pos::NONE,
            Behaviour::Raw(v) => Pos(v),
            Behaviour::Occupied => board.history().first().map_or(Pos(1), |h| h.0),
            Behaviour::Foul => board
                .squares()
                .find(|&p| board.is_empty(p) && board.is_foul(Color::Black, p))
                .unwrap_or(Pos::NONE),
            Behaviour::Panic => panic!("fake engine panic (expected by the fuzz oracle)"),
            Behaviour::Slow => {
                let t0 = Instant::now();
                while !stop.load(Ordering::Relaxed) && t0.elapsed() < Duration::from_secs(20) {
                    thread::sleep(Duration::from_millis(1));
                }
                legal_answer(board, Pos::NONE).unwrap_or(Pos::NONE)
            }
        };
        Outcome {
            best,
            score: 0,
            depth: 1,
            nodes: 1,
            pv: vec![best],
        }
    }
    fn resize(&mut self, _bytes: usize) {}
    fn clear(&mut self) {}
}

/// The real searcher, recording what it was asked.
pub struct Real {
    rec: Record,
    inner: Searcher,
}

impl Engine for Real {
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Outcome {
        self.rec.push(board, limits);
        self.inner.search(board, limits, stop, report)
    }
    fn resize(&mut self, bytes: usize) {
        self.inner.resize(bytes)
    }
    fn clear(&mut self) {
        self.inner.clear()
    }
}

/// Which engine a session runs.
#[derive(Clone, Debug)]
pub enum EngineKind {
    /// The fake, with its plan (cycled).
    Fake(Vec<Behaviour>),
    /// The real searcher.
    Real,
}

// ------------------------------------------------------------------------------------------
// Sessions: running

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A reader fed by a channel (the live mode).
struct Pipe {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for Pipe {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.buf.len() {
            match self.rx.recv() {
                Ok(b) => {
                    self.buf = b;
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// What a session did.
pub struct Run {
    /// Every output line.
    pub lines: Vec<String>,
    /// The searches, in order, with the index of the command they were run for.
    pub searches: Vec<(Snap, Board, usize)>,
    /// How it ended.
    pub exit: Exit,
}

/// Longest a session may take after its input ended: the searches still queued run first (at
/// most 40 lines of 300 ms clocks for the real engine), on a machine that may be loaded.
pub const HANG_LIMIT: Duration = Duration::from_secs(30);

/// Runs a script; `delays` (ms before each line) makes it live, line by line, else it is read
/// in one go. Panics on a hang, an unterminated or non-UTF-8 output line.
pub fn run_script(
    lines: &[String],
    crlf: bool,
    delays: Option<&[u64]>,
    engine: &EngineKind,
) -> Run {
    let eol = if crlf { "\r\n" } else { "\n" };
    let out = Buf::default();
    let rec = Record {
        seen: Arc::default(),
        out: out.clone(),
    };
    let (o, r, kind) = (out.clone(), rec.clone(), engine.clone());
    let make = move |bytes: usize| -> AnyEngine {
        match &kind {
            EngineKind::Fake(plan) => AnyEngine::Fake(Fake {
                rec: r.clone(),
                plan: plan.clone(),
                n: 0,
            }),
            EngineKind::Real => AnyEngine::Real(Real {
                rec: r.clone(),
                inner: Searcher::new(bytes.min(64 << 20)),
            }),
        }
    };
    let handle;
    let fed_at;
    match delays {
        None => {
            let text: String = lines.iter().map(|l| format!("{l}{eol}")).collect();
            handle = thread::spawn(move || run_with(Cursor::new(text.into_bytes()), o, make));
            fed_at = Instant::now();
        }
        Some(delays) => {
            let (tx, rx) = channel::<Vec<u8>>();
            let pipe = Pipe {
                rx,
                buf: Vec::new(),
                pos: 0,
            };
            handle = thread::spawn(move || run_with(pipe, o, make));
            for (i, l) in lines.iter().enumerate() {
                let d = delays.get(i).copied().unwrap_or(0);
                if d > 0 {
                    thread::sleep(Duration::from_millis(d));
                }
                if tx.send(format!("{l}{eol}").into_bytes()).is_err() {
                    break;
                }
            }
            drop(tx);
            fed_at = Instant::now();
        }
    }
    while !handle.is_finished() {
        if fed_at.elapsed() > HANG_LIMIT {
            panic!(
                "session hangs {HANG_LIMIT:?} after its input ended; engine {engine:?}, \
                 live {}; script:\n{}",
                delays.is_some(),
                lines.join("\n")
            );
        }
        thread::sleep(Duration::from_millis(1));
    }
    let exit = handle.join().expect("the session thread panicked");
    let bytes = out.0.lock().unwrap().clone();
    let text = String::from_utf8(bytes).expect("output is UTF-8");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "unterminated output line: {text:?}"
    );
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    for l in &lines {
        assert!(!l.is_empty(), "empty output line in {text:?}");
        assert!(!l.contains('\r'), "CR in output line {l:?}");
        assert_eq!(l.trim_end(), l, "trailing blank in output line {l:?}");
        assert!(
            !l.chars().any(char::is_control),
            "control character in {l:?}"
        );
    }
    Run {
        lines,
        searches: rec.take(),
        exit,
    }
}

/// Either engine, as the session's one engine type.
pub enum AnyEngine {
    /// The fake.
    Fake(Fake),
    /// The real searcher.
    Real(Real),
}

impl Engine for AnyEngine {
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Outcome {
        match self {
            AnyEngine::Fake(e) => e.search(board, limits, stop, report),
            AnyEngine::Real(e) => e.search(board, limits, stop, report),
        }
    }
    fn resize(&mut self, bytes: usize) {
        match self {
            AnyEngine::Fake(e) => e.resize(bytes),
            AnyEngine::Real(e) => e.resize(bytes),
        }
    }
    fn clear(&mut self) {
        match self {
            AnyEngine::Fake(e) => e.clear(),
            AnyEngine::Real(e) => e.clear(),
        }
    }
}

// ------------------------------------------------------------------------------------------
// Sessions: checking

/// A reply line, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `OK`.
    Ok,
    /// `ERROR …`.
    Error,
    /// `UNKNOWN …`.
    Unknown,
    /// `x,y`.
    Move(usize, usize),
    /// `x,y x,y x,y` (SWAP2BOARD case 1).
    Three([(usize, usize); 3]),
    /// `SWAP`.
    Swap,
    /// `FORBID …`.
    Forbid,
    /// The ABOUT line.
    About,
}

fn parse_xy(s: &str) -> Option<(usize, usize)> {
    let (a, b) = s.split_once(',')?;
    let num = |t: &str| -> Option<usize> {
        if t.is_empty() || t.len() > 3 || !t.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    Some((num(a)?, num(b)?))
}

/// Classifies a reply line; panics on anything a manager could not read.
pub fn classify(line: &str) -> Reply {
    if line == "OK" {
        return Reply::Ok;
    }
    if line == "SWAP" {
        return Reply::Swap;
    }
    if line == about_line() {
        return Reply::About;
    }
    if let Some(t) = line.strip_prefix("ERROR ") {
        assert!(!t.trim().is_empty(), "empty ERROR line");
        return Reply::Error;
    }
    if line.starts_with("UNKNOWN ") {
        return Reply::Unknown;
    }
    if let Some(t) = line.strip_prefix("FORBID ") {
        let body = t
            .strip_suffix('.')
            .unwrap_or_else(|| panic!("bad FORBID line {line:?}"));
        assert!(
            body.len() % 4 == 0 && body.bytes().all(|c| c.is_ascii_digit()),
            "bad FORBID line {line:?}"
        );
        return Reply::Forbid;
    }
    if let Some(m) = parse_xy(line) {
        return Reply::Move(m.0, m.1);
    }
    let parts: Vec<&str> = line.split(' ').collect();
    if parts.len() == 3 {
        if let (Some(a), Some(b), Some(c)) =
            (parse_xy(parts[0]), parse_xy(parts[1]), parse_xy(parts[2]))
        {
            assert!(a != b && b != c && a != c, "SWAP2 stones repeat: {line:?}");
            return Reply::Three([a, b, c]);
        }
    }
    panic!("unreadable reply line {line:?}");
}

/// Which replies a command may give: (kinds allowed, at least one reply required).
fn allowed(cmd: &Command, r: &Reply) -> bool {
    use Reply::*;
    match cmd {
        Command::Start { .. } | Command::RectStart { .. } | Command::Restart => {
            matches!(r, Ok | Error)
        }
        Command::Begin | Command::Turn { .. } | Command::Board => matches!(r, Move(..) | Error),
        Command::Play { x, y } => match r {
            Move(a, b) => (*a as i64, *b as i64) == (*x, *y),
            Error => true,
            _ => false,
        },
        Command::Takeback { .. } => matches!(r, Ok | Error),
        Command::Swap2Board => matches!(r, Three(..) | Swap | Move(..) | Error),
        Command::YxBoard | Command::Malformed { .. } => matches!(r, Error),
        Command::About => matches!(r, About),
        Command::YxShowForbid => matches!(r, Forbid),
        Command::Unknown { .. } => matches!(r, Unknown),
        Command::Blank
        | Command::Info(_)
        | Command::Stop
        | Command::YxShowInfo
        | Command::YxHashClear
        | Command::End => false,
        // Commands added later: any one well-formed reply.
        #[allow(unreachable_patterns)]
        _ => true,
    }
}

/// Commands that always get exactly one reply (when complete and before END). Unknown `YX…`
/// commands are silent after `YXSHOWINFO` (Yixin-Board's GUI mode, as Rapfi).
fn needs_reply(cmd: &Command) -> bool {
    if let Command::Unknown { word } = cmd {
        return !word.get(..2).is_some_and(|w| w.eq_ignore_ascii_case("yx"));
    }
    matches!(
        cmd,
        Command::Start { .. }
            | Command::RectStart { .. }
            | Command::Restart
            | Command::Begin
            | Command::Turn { .. }
            | Command::Board
            | Command::Swap2Board
            | Command::About
            | Command::Takeback { .. }
            | Command::Play { .. }
            | Command::YxShowForbid
            | Command::Malformed { .. }
            | Command::Unknown { .. }
    )
}

/// The replies (non-MESSAGE lines) of each marked command, in order; panics if the markers are
/// not all answered or anything follows the last one. With `cut_ok` (a live session with an
/// END, which drops whatever waits behind a running search), fewer markers may be answered;
/// the replies after the last one answered are then returned as a last, partial segment.
pub fn replies_by_command(
    script: &[String],
    run: &Run,
    markers: usize,
    cut_ok: bool,
) -> (Vec<Vec<String>>, bool) {
    let marker_reply = format!("UNKNOWN command {MARKER}");
    let mut segs: Vec<Vec<String>> = vec![Vec::new()];
    for l in &run.lines {
        if l.starts_with("MESSAGE ") {
            continue;
        }
        if *l == marker_reply {
            segs.push(Vec::new());
        } else {
            segs.last_mut().unwrap().push(l.clone());
        }
    }
    let ctx = || {
        format!(
            "script:\n{}\noutput:\n{}",
            script.join("\n"),
            run.lines.join("\n")
        )
    };
    if cut_ok && segs.len() <= markers {
        return (segs, true);
    }
    let tail = segs.pop().unwrap();
    assert_eq!(
        segs.len(),
        markers,
        "{} of {markers} markers answered\n{}",
        segs.len(),
        ctx()
    );
    assert!(
        tail.is_empty(),
        "output after the last complete command (after END, or from an unfinished block): \
         {tail:?}\n{}",
        ctx()
    );
    (segs, false)
}

/// Checks one run of a marked script: replies per command, moves against the searched boards.
/// `live`: the script was fed line by line (then the rule may change during a search, and END
/// may cut the commands waiting behind a search).
pub fn check_run(script: &[String], units: &[Unit], markers: usize, run: &Run, live: bool) {
    let has_end = units
        .last()
        .is_some_and(|u| u.cmd == Command::End || u.closed == Closed::CutByEnd);
    let (segs, cut) = replies_by_command(script, run, markers, live && has_end);
    let strict_fouls = !live;
    let ctx = || {
        format!(
            "script:\n{}\noutput:\n{}",
            script.join("\n"),
            run.lines.join("\n")
        )
    };
    let n = segs.len();
    for (i, (u, seg)) in units
        .iter()
        .filter(|u| u.closed == Closed::Yes && u.cmd != Command::End)
        .zip(&segs)
        .enumerate()
    {
        let partial = cut && i + 1 == n;
        assert!(
            seg.len() <= 1,
            "{} replies to one command {:?}: {seg:?}\n{}",
            seg.len(),
            u.cmd,
            ctx()
        );
        if needs_reply(&u.cmd) && !partial {
            assert_eq!(seg.len(), 1, "no reply to {:?}\n{}", u.cmd, ctx());
        }
        let Some(line) = seg.first() else { continue };
        let r = classify(line);
        assert!(
            allowed(&u.cmd, &r),
            "reply {line:?} to {:?}\n{}",
            u.cmd,
            ctx()
        );
        let searched = matches!(
            u.cmd,
            Command::Begin | Command::Turn { .. } | Command::Board | Command::Swap2Board
        ) && matches!(r, Reply::Move(..) | Reply::Swap | Reply::Three(..));
        let mut mine = run.searches.iter().filter(|s| s.2 == i);
        if !searched {
            assert!(
                mine.next().is_none() || partial,
                "a search for {:?}, answered {line:?}\n{}",
                u.cmd,
                ctx()
            );
            continue;
        }
        // (A move may come without a search, e.g. when the search thread cannot start.)
        let Some((snap, board, _)) = mine.next() else {
            continue;
        };
        if let Reply::Move(x, y) = r {
            let p = board.pos(x as i64, y as i64).unwrap_or_else(|| {
                panic!("move {line:?} off the {:?} board\n{}", snap.size, ctx())
            });
            assert!(
                board.is_empty(p),
                "move {line:?} on an occupied square\n{}",
                ctx()
            );
            if strict_fouls {
                assert!(
                    search::legal_moves(board).contains(&p),
                    "move {line:?} is a renju foul while other moves exist\n{}",
                    ctx()
                );
            }
        }
        if let Reply::Three(stones) = r {
            // (The job's searches look at the candidate openings, stones placed.)
            for (x, y) in stones {
                assert!(
                    board.pos(x as i64, y as i64).is_some(),
                    "stone {x},{y} of {line:?} off the {:?} board\n{}",
                    snap.size,
                    ctx()
                );
            }
        }
    }
    // Searches for commands with no reply at all (END may cut the last one short: its move is
    // never printed).
    let last = if cut { n } else { n + 1 };
    assert!(
        run.searches.iter().all(|s| s.2 < last),
        "a search without a reply\n{}",
        ctx()
    );
}

/// Commands a session must refuse (or answer without changing anything), whatever its state.
/// (Not YXSHOWINFO: it turns on Yixin-Board's GUI mode, where unknown YX commands are silent.)
const REJECTED: &[&str] = &[
    "TURN -1,5",
    "TURN 5,32",
    "TURN 99999999999999999999,1",
    "TURN 7",
    "TURN a,b",
    "turn 1,2,3",
    "PLAY 40,1",
    "PLAY -3,-3",
    "TAKEBACK 32,0",
    "TAKEBACK x",
    "START 4",
    "START 33",
    "START -15",
    "START abc",
    "RECTSTART 3,40",
    "RECTSTART 10",
    "INFO timeout_turn abc",
    "INFO max_memory 1e9",
    "INFO rule",
    "INFO no_such_key 5",
    "INFO",
    "FOO",
    "yxnosuchcommand 3",
    "DONE",
    "\u{1}\u{2}",
    "ABOUT",
    "YXSHOWFORBID",
    "YXSTOP",
    "YXHASHCLEAR",
    "",
];

/// A whole-session case from the bytes: run, check, and (fake engine, script read in one go)
/// check that a rejected command changes nothing.
pub fn session(data: &[u8]) {
    session_with(data, None)
}

/// [`session`] with the fake engine only (the first byte is not used to choose).
pub fn session_fake(data: &[u8]) {
    session_with(data, Some(false))
}

/// [`session`] with the real searcher only (slower: debug builds check the board after every
/// move of the search).
pub fn session_real(data: &[u8]) {
    session_with(data, Some(true))
}

fn session_with(data: &[u8], engine: Option<bool>) {
    quiet_expected_panics();
    let mut src = Src::new(data);
    let chose = src.chance(24);
    let real = engine.unwrap_or(chose);
    let live = src.chance(40);
    let crlf = src.chance(40);
    let engine = if real {
        EngineKind::Real
    } else {
        let n = 1 + src.below(4);
        EngineKind::Fake((0..n).map(|_| Behaviour::from(&mut src)).collect())
    };
    let insert_at = src.byte();
    let rejected = src.byte();
    let max_lines = if real || live { 40 } else { 120 };
    let script = script_from(&mut src, real, max_lines);
    let (marked, units, markers) = with_markers(&script);
    let delays: Option<Vec<u64>> = live.then(|| {
        let mut d = Src::new(data);
        marked
            .iter()
            .map(|_| [0, 0, 0, 0, 0, 1, 1, 4][d.below(8)])
            .collect()
    });
    let run = run_script(&marked, crlf, delays.as_deref(), &engine);
    check_run(&marked, &units, markers, &run, live);
    if real || live {
        return;
    }
    // A rejected command between two commands changes nothing.
    let complete: Vec<&Unit> = units
        .iter()
        .filter(|u| u.closed == Closed::Yes && u.cmd != Command::End)
        .collect();
    let k = insert_at as usize % (complete.len() + 1);
    let cut = if k == 0 { 0 } else { complete[k - 1].end };
    let prefix = &script[..cut];
    // What the board is at the cut, from a probe search.
    let mut probe_script = prefix.to_vec();
    probe_script.push("BEGIN".into());
    let probe = run_script(&probe_script, crlf, None, &engine);
    let begin_moved = probe
        .lines
        .iter()
        .rev()
        .find(|l| !l.starts_with("MESSAGE "))
        .is_some_and(|l| matches!(classify(l), Reply::Move(..)))
        && segment(&probe_script).last().map(|u| &u.cmd) == Some(&Command::Begin);
    let probe_board = probe
        .searches
        .last()
        .filter(|_| begin_moved)
        .map(|s| s.1.clone());
    let stateful = rejected < 160;
    let line = match &probe_board {
        Some(b) if stateful => {
            let filled: Vec<Pos> = b.squares().filter(|&p| !b.is_empty(p)).collect();
            let empty: Vec<Pos> = b.squares().filter(|&p| b.is_empty(p)).collect();
            let k = rejected as usize / 3;
            match rejected % 3 {
                0 if !filled.is_empty() => format!("TURN {}", filled[k % filled.len()]),
                1 if !filled.is_empty() => format!("PLAY {}", filled[k % filled.len()]),
                _ if !empty.is_empty() => format!("TAKEBACK {}", empty[k % empty.len()]),
                _ => "FOO".into(),
            }
        }
        _ => REJECTED[rejected as usize % REJECTED.len()].to_string(),
    };
    let mut with = prefix.to_vec();
    with.push(line.clone());
    with.extend_from_slice(&script[cut..]);
    let (marked2, units2, markers2) = with_markers(&with);
    let run2 = run_script(&marked2, crlf, None, &engine);
    check_run(&marked2, &units2, markers2, &run2, false);
    let mut segs2 = replies_by_command(&marked2, &run2, markers2, false).0;
    let segs = replies_by_command(&marked, &run, markers, false).0;
    let removed = segs2.remove(k);
    let ctx = || {
        format!(
            "inserted {line:?} after command {k}\nscript:\n{}\noutput without:\n{}\noutput with:\n{}",
            script.join("\n"),
            run.lines.join("\n"),
            run2.lines.join("\n")
        )
    };
    assert!(removed.len() <= 1, "{removed:?}\n{}", ctx());
    if let Some(l) = removed.first() {
        assert!(
            matches!(
                classify(l),
                Reply::Error | Reply::Unknown | Reply::About | Reply::Forbid
            ),
            "{l:?}\n{}",
            ctx()
        );
    }
    assert_eq!(segs2, segs, "replies changed\n{}", ctx());
    let snaps = |r: &Run| r.searches.iter().map(|s| s.0.clone()).collect::<Vec<_>>();
    assert_eq!(
        snaps(&run2),
        snaps(&run),
        "searched positions changed\n{}",
        ctx()
    );
}

// ------------------------------------------------------------------------------------------
// Board operations

const RULES: [Rule; 5] = [
    Rule::Freestyle,
    Rule::Standard,
    Rule::Renju,
    Rule::Caro,
    Rule::CaroExact,
];

/// Checks the board against the model and the referee functions.
fn check_board(
    b: &Board,
    cells: &HashMap<Pos, Cell>,
    history: &[(Pos, Color)],
    side: Color,
    deep: bool,
) {
    let stones = history.len();
    let walls = cells.values().filter(|&&c| c == Cell::Wall).count();
    assert_eq!(b.stone_count(), stones);
    assert_eq!(b.empty_count(), b.width() * b.height() - stones - walls);
    assert_eq!(b.history(), history);
    assert_eq!(b.side_to_move(), side);
    assert_eq!(b.last_move(), history.last().map(|h| h.0));
    for p in b.squares() {
        assert_eq!(
            b.cell(p),
            cells.get(&p).copied().unwrap_or(Cell::Empty),
            "{p:?}"
        );
    }
    if !deep {
        return;
    }
    // The Zobrist key is a function of the position only.
    let mut fresh = Board::new(b.width(), b.height(), b.rule()).unwrap();
    for (&p, &c) in cells {
        if c == Cell::Wall {
            fresh.put_wall(p);
        }
    }
    for &(p, c) in history.iter().rev() {
        fresh.put(p, c);
    }
    fresh.set_side_to_move(side);
    assert_eq!(
        fresh.hash(),
        b.hash(),
        "hash depends on the order of the stones"
    );
    let g = b.grid();
    for p in b.squares().filter(|&p| b.is_empty(p)) {
        for c in Color::BOTH {
            assert_eq!(
                b.wins_by(c, p),
                g.makes_win(p, c, b.rule()),
                "{:?} {c:?} at {p:?}: wins_by disagrees with Grid::makes_win\n{}",
                b.rule(),
                to_ascii(b)
            );
        }
        if b.rule() == Rule::Renju {
            let foul = g.is_renju_foul(p);
            assert!(
                !foul || b.may_be_foul(Color::Black, p),
                "may_be_foul filters out the foul at {p:?}\n{}",
                to_ascii(b)
            );
            assert_eq!(b.is_foul(Color::Black, p), foul, "{p:?}\n{}", to_ascii(b));
            assert!(!b.is_foul(Color::White, p));
        } else {
            assert!(!b.is_foul(Color::Black, p));
        }
    }
}

/// A sequence of board operations from the bytes, checked after each step.
pub fn board_ops(data: &[u8]) {
    let mut src = Src::new(data);
    let w = MIN_SIDE + src.below(MAX_SIDE - MIN_SIDE + 1);
    let h = if src.chance(200) {
        w
    } else {
        MIN_SIDE + src.below(MAX_SIDE - MIN_SIDE + 1)
    };
    let mut rule = src.pick(&RULES);
    let mut b = Board::new(w, h, rule).unwrap();
    let mut cells: HashMap<Pos, Cell> = HashMap::new();
    let mut history: Vec<(Pos, Color)> = Vec::new();
    let mut side = Color::Black;
    // Stones cluster in a small area, so that lines form.
    let span = 5 + src.below(6);
    let (ox, oy) = (
        src.below(w.saturating_sub(span) + 1),
        src.below(h.saturating_sub(span) + 1),
    );
    let mut steps = 0;
    while !src.done() && steps < 200 {
        steps += 1;
        let op = src.below(16);
        let x = (ox + src.below(span)).min(w - 1);
        let y = (oy + src.below(span)).min(h - 1);
        let p = Pos::new(x, y);
        let empty = !cells.contains_key(&p);
        match op {
            0..=5 if empty => {
                b.play(p);
                cells.insert(p, Cell::stone(side));
                history.push((p, side));
                side = side.opp();
            }
            6 | 7 if empty => {
                let c = if src.chance(128) {
                    Color::Black
                } else {
                    Color::White
                };
                b.put(p, c);
                cells.insert(p, Cell::stone(c));
                history.push((p, c));
            }
            8 => {
                let had = matches!(cells.get(&p), Some(Cell::Black | Cell::White));
                assert_eq!(b.remove(p), had);
                if had {
                    cells.remove(&p);
                    let i = history.iter().rposition(|h| h.0 == p).unwrap();
                    history.remove(i);
                }
            }
            9 | 10 => {
                b.undo();
                if let Some((q, c)) = history.pop() {
                    cells.remove(&q);
                    side = c;
                }
            }
            11 if empty && src.chance(80) => {
                b.put_wall(p);
                cells.insert(p, Cell::Wall);
            }
            12 if src.chance(60) => {
                rule = src.pick(&RULES);
                b.set_rule(rule);
            }
            13 => {
                side = if src.chance(128) {
                    Color::Black
                } else {
                    Color::White
                };
                b.set_side_to_move(side);
            }
            14 if src.chance(20) => {
                b.clear();
                cells.clear();
                history.clear();
                side = Color::Black;
            }
            _ => {}
        }
        check_board(&b, &cells, &history, side, steps % 40 == 0);
    }
    check_board(&b, &cells, &history, side, true);
}

// ------------------------------------------------------------------------------------------
// Renju judge

/// The 8 symmetries of a square board of side `n`.
fn sym(k: usize, n: usize, x: usize, y: usize) -> (usize, usize) {
    let (x, y) = if k & 4 != 0 { (y, x) } else { (x, y) };
    let x = if k & 1 != 0 { n - 1 - x } else { x };
    let y = if k & 2 != 0 { n - 1 - y } else { y };
    (x, y)
}

/// A random position (stones clustered, a few walls) judged on every square and in every
/// symmetry.
pub fn renju(data: &[u8]) {
    let mut src = Src::new(data);
    let n = src.pick(&[15usize, 15, 15, 20, 7, 5, 32]);
    let span = (5 + src.below(8)).min(n);
    let (ox, oy) = (src.below(n - span + 1), src.below(n - span + 1));
    let mut cells: Vec<(usize, usize, Cell)> = Vec::new();
    let mut taken = vec![false; n * n];
    let count = src.below(span * span);
    for _ in 0..count {
        let (x, y) = (ox + src.below(span), oy + src.below(span));
        if std::mem::replace(&mut taken[y * n + x], true) {
            continue;
        }
        let c = match src.below(16) {
            0 => Cell::Wall,
            1..=8 => Cell::Black,
            _ => Cell::White,
        };
        cells.push((x, y, c));
    }
    let board_of = |k: usize| {
        let mut b = Board::new(n, n, Rule::Renju).unwrap();
        for &(x, y, c) in &cells {
            let (x, y) = sym(k, n, x, y);
            match c {
                Cell::Wall => b.put_wall(Pos::new(x, y)),
                Cell::Black => b.put(Pos::new(x, y), Color::Black),
                Cell::White => b.put(Pos::new(x, y), Color::White),
                Cell::Empty => {}
            }
        }
        b
    };
    let b0 = board_of(0);
    let g0: &Grid = b0.grid();
    let verdicts: Vec<(usize, usize, bool)> = b0
        .squares()
        .filter(|&p| b0.is_empty(p))
        .map(|p| (p.x(), p.y(), g0.is_renju_foul(p)))
        .collect();
    for &(x, y, foul) in &verdicts {
        let p = Pos::new(x, y);
        assert!(
            !foul || b0.may_be_foul(Color::Black, p),
            "may_be_foul misses the foul at {p:?}\n{}",
            to_ascii(&b0)
        );
        assert_eq!(
            b0.is_foul(Color::Black, p),
            foul,
            "{p:?}\n{}",
            to_ascii(&b0)
        );
    }
    // Occupied squares are never fouls.
    for p in b0.squares().filter(|&p| !b0.is_empty(p)) {
        assert!(!g0.is_renju_foul(p));
    }
    let k = 1 + src.below(7);
    let bk = board_of(k);
    for &(x, y, foul) in &verdicts {
        let (sx, sy) = sym(k, n, x, y);
        assert_eq!(
            bk.grid().is_renju_foul(Pos::new(sx, sy)),
            foul,
            "symmetry {k} changes the verdict at {x},{y}\n{}",
            to_ascii(&b0)
        );
    }
}

// ------------------------------------------------------------------------------------------
// Notation

/// The three notation parsers on text from the bytes.
pub fn notation(data: &[u8]) {
    let mut src = Src::new(data);
    let alphabet: &[&str] = match src.below(3) {
        0 => &[
            "a",
            "h",
            "H",
            "z",
            "o",
            "1",
            "8",
            "0",
            "15",
            "10",
            ",",
            " ",
            ";",
            "-",
            "é",
            "99999999999999999999",
        ],
        1 => &[
            "0",
            "1",
            "-1",
            "7",
            ",",
            " ",
            ", ",
            "-",
            "+",
            "a",
            "9223372036854775807",
            "-9223372036854775808",
            "\t",
        ],
        _ => &[
            "x", "o", "X", "O", ".", "+", "-", "#", "●", "○", "*", " ", "\n", "//", "\r\n", "a",
        ],
    };
    let mut s = String::new();
    let n = src.below(120);
    for _ in 0..n {
        if src.chance(230) {
            s.push_str(src.pick(alphabet));
        } else {
            s.push(src.byte() as char);
        }
    }
    let (w, h) = (1 + src.below(40), 1 + src.below(40));
    // Pos notation round trip.
    if let Ok(moves) = parse_pos_moves(&s) {
        let on: Vec<(usize, usize)> = moves
            .iter()
            .copied()
            .filter(|&(x, y)| x < MAX_SIDE && y < MAX_SIDE)
            .collect();
        let text: String = on
            .iter()
            .map(|&(x, y)| pos_to_str(Pos::new(x, y)))
            .collect();
        assert_eq!(parse_pos_moves(&text).unwrap(), on, "{s:?}");
    }
    // Offsets land on the board.
    if let Ok(moves) = parse_offset_moves(&s, w, h) {
        for &(x, y) in &moves {
            assert!(x < w && y < h, "{s:?} gave {x},{y} on {w}x{h}");
        }
    }
    // Diagrams round-trip through a board.
    if let Ok(d) = parse_diagram(&s) {
        assert!(d.height > 0);
        for &(x, y, _) in &d.stones {
            assert!(x < d.width && y < d.height);
        }
        if let Ok(b) = d.to_board(Rule::Freestyle) {
            let again = parse_diagram(&to_ascii(&b)).unwrap();
            assert_eq!((again.width, again.height), (d.width, d.height));
            let mut s1 = d.stones.clone();
            let mut s2 = again.stones.clone();
            s1.sort();
            s2.sort();
            assert_eq!(s1, s2, "{s:?}");
            assert_eq!(again.walls.len(), d.walls.len());
        }
    }
}

// ------------------------------------------------------------------------------------------
// Stored files: the opening book and the Yixin-Board database

/// A small database of a few records with texts, as a file.
fn sample_database() -> Vec<u8> {
    use pentad::database::{Database, Mask, Record, LABEL_WIN};
    let mut db = Database::default();
    let mut b = Board::square(15, Rule::Freestyle).unwrap();
    for (x, y) in [(7, 7), (8, 8), (6, 8)] {
        b.play(b.pos(x, y).unwrap());
        let r = Record {
            label: LABEL_WIN,
            value: -29_990 + x as i32,
            depth: 9,
            bound: 3,
            comment: format!("after {x},{y}"),
            ..Record::default()
        };
        db.edit(&b, &r, Mask(15));
        db.set_board_text(&b, b.pos(1, 1).unwrap(), "t");
    }
    db.to_bytes()
}

/// `Book::parse`, `Database::parse` and `Weights::parse` on arbitrary bytes, or on a real file
/// (the embedded book, a sample database, the embedded weights) cut, spliced or with bytes changed: never a panic; what reads writes back
/// to the same bytes, and reads again the same; a book that reads answers probes of positions
/// on every board size without a panic, its moves on empty squares.
pub fn stored_files(data: &[u8]) {
    use pentad::book::{Book, EMBEDDED};
    use pentad::database::Database;
    let mut src = Src::new(data);
    let kind = src.below(3);
    let base: Vec<u8> = match kind {
        0 => EMBEDDED.to_vec(),
        1 => sample_database(),
        _ => pentad::eval::weights::EMBEDDED.to_vec(),
    };
    let bytes: Vec<u8> = match src.below(4) {
        // Raw bytes (a foreign file), sometimes behind the right magic word.
        0 => {
            let mut v = if src.chance(128) {
                base[..10.min(base.len())].to_vec()
            } else {
                Vec::new()
            };
            while !src.done() {
                v.push(src.byte());
            }
            v
        }
        // Truncated.
        1 => base[..src.below(base.len() + 1)].to_vec(),
        // Bytes changed.
        2 => {
            let mut v = base.clone();
            for _ in 0..1 + src.below(8) {
                let i = src.below(v.len());
                v[i] ^= 1 | src.byte();
            }
            v
        }
        // Whole: must read.
        _ => base.clone(),
    };
    if kind == 0 {
        match Book::parse(&bytes) {
            Ok(book) => {
                assert_eq!(book.to_bytes(), bytes, "a book writes back as read");
                assert_eq!(Book::parse(&book.to_bytes()).as_ref(), Ok(&book));
                let size = MIN_SIDE + src.below(MAX_SIDE - MIN_SIDE + 1);
                let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][src.below(3)];
                let mut b = Board::square(size, rule).unwrap();
                for _ in 0..src.below(8) {
                    let p = b
                        .pos(src.below(size) as i64, src.below(size) as i64)
                        .unwrap();
                    if b.is_empty(p) {
                        b.play(p);
                    }
                    for m in book.probe(&b) {
                        assert!(b.is_empty(m.pos));
                    }
                }
            }
            Err(e) => assert!(bytes != base, "the whole book reads: {e}"),
        }
    } else if kind == 2 {
        match pentad::eval::Weights::parse(&bytes) {
            Ok(w) => {
                assert_eq!(w.to_bytes(), bytes, "a weights file writes back as read");
                assert_eq!(w.families.len(), 3);
            }
            Err(e) => assert!(bytes != base, "the whole weights file reads: {e}"),
        }
    } else {
        match Database::parse(&bytes) {
            Ok(db) => {
                assert_eq!(db.to_bytes(), bytes, "a database writes back as read");
                assert_eq!(Database::parse(&db.to_bytes()).as_ref(), Ok(&db));
                let mut b = Board::square(15, Rule::Freestyle).unwrap();
                for (x, y) in [(7, 7), (8, 8)] {
                    b.play(b.pos(x, y).unwrap());
                    let _ = db.children(&b);
                    let _ = db.board_texts(&b);
                }
            }
            Err(e) => assert!(bytes != base, "the whole database reads: {e}"),
        }
    }
}
