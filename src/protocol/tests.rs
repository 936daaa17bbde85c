//! In-process session tests: lines in, lines out (protocol.md §10 checklist).

use super::session::{legal_answer, Exit};
use super::{about_line, run, run_with};
use crate::board::Board;
use crate::rules::Rule;
use crate::search::Engine;
use crate::search::{Info as SearchInfo, Limits, Outcome};
use crate::types::{Color, Pos, Value};
use std::io::{Cursor, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

// ------------------------------------------------------------------------------------------
// Harness

/// A shared output buffer.
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

impl Buf {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).expect("UTF-8 output")
    }
    /// Every output line.
    fn lines(&self) -> Vec<String> {
        let t = self.text();
        assert!(
            t.is_empty() || t.ends_with('\n'),
            "unterminated output {t:?}"
        );
        assert!(!t.contains('\r'), "CR in output {t:?}");
        t.lines().map(str::to_string).collect()
    }
    /// Output lines other than MESSAGE lines.
    fn answers(&self) -> Vec<String> {
        answers(&self.lines())
    }
}

fn answers(lines: &[String]) -> Vec<String> {
    for l in lines {
        assert_eq!(l.trim_end(), l, "trailing blank in {l:?}");
        assert!(!l.is_empty(), "empty output line");
    }
    lines
        .iter()
        .filter(|l| !l.starts_with("MESSAGE "))
        .cloned()
        .collect()
}

/// Runs a whole script (read in one go, then end of input) with the real searcher.
fn script(s: &str) -> (Vec<String>, Exit) {
    let out = Buf::default();
    let exit = run(Cursor::new(s.as_bytes().to_vec()), out.clone());
    (out.answers(), exit)
}

/// Runs a whole script with a deterministic fake engine; returns the answers.
fn fake_script(s: &str) -> Vec<String> {
    let out = Buf::default();
    let probe = Probe::default();
    run_with(Cursor::new(s.as_bytes().to_vec()), out.clone(), move |_| {
        Fake {
            probe: probe.clone(),
            slow: false,
            score: 0,
            panic: false,
        }
    });
    out.answers()
}

/// Answers of a script, after `START 15` (whose OK is checked and dropped).
fn after_start(s: &str) -> Vec<String> {
    let (a, _) = script(&format!("START 15\n{s}"));
    assert_eq!(a.first().map(String::as_str), Some("OK"), "{a:?}");
    a[1..].to_vec()
}

/// A reader fed line by line from the test.
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

/// A session running on its own thread, fed interactively.
struct Live {
    tx: Option<Sender<Vec<u8>>>,
    out: Buf,
    handle: thread::JoinHandle<Exit>,
}

impl Live {
    fn real() -> Live {
        Live::spawn(run)
    }
    fn fake(probe: &Probe, slow: bool, score: Value) -> Live {
        let probe = probe.clone();
        Live::spawn(move |i, o| {
            run_with(i, o, move |bytes| {
                probe.lock().made.push(bytes);
                Fake {
                    probe: probe.clone(),
                    slow,
                    score,
                    panic: false,
                }
            })
        })
    }
    fn spawn(f: impl FnOnce(Pipe, Buf) -> Exit + Send + 'static) -> Live {
        let (tx, rx) = channel();
        let out = Buf::default();
        let o = out.clone();
        let handle = thread::spawn(move || {
            f(
                Pipe {
                    rx,
                    buf: Vec::new(),
                    pos: 0,
                },
                o,
            )
        });
        Live {
            tx: Some(tx),
            out,
            handle,
        }
    }
    fn send(&self, s: &str) {
        let mut b = s.as_bytes().to_vec();
        b.push(b'\n');
        self.tx.as_ref().unwrap().send(b).unwrap();
    }
    /// Waits until there are at least `n` answers (non-MESSAGE lines); returns them.
    fn wait_answers(&self, n: usize) -> Vec<String> {
        let t0 = Instant::now();
        loop {
            let a = self.out.answers();
            if a.len() >= n {
                return a;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "timed out waiting for {n} answers: {a:?}"
            );
            thread::sleep(Duration::from_millis(2));
        }
    }
    /// Waits for the session to end (input closed first if `eof`), at most `limit`.
    fn join(mut self, eof: bool, limit: Duration) -> (Exit, Vec<String>) {
        if eof {
            self.tx = None;
        }
        let t0 = Instant::now();
        while !self.handle.is_finished() {
            assert!(t0.elapsed() < limit, "session did not end in {limit:?}");
            thread::sleep(Duration::from_millis(1));
        }
        let exit = self.handle.join().unwrap();
        (exit, self.out.answers())
    }
}

/// What fake engines saw.
#[derive(Clone, Default)]
struct Probe(Arc<Mutex<ProbeState>>);

#[derive(Default)]
struct ProbeState {
    made: Vec<usize>,
    resized: Vec<usize>,
    cleared: usize,
    limits: Vec<Limits>,
    excluded: Vec<Vec<Pos>>,
    searching: bool,
    /// Searches without a clock (pondering) run until stopped.
    slow_unlimited: bool,
}

impl Probe {
    fn lock(&self) -> std::sync::MutexGuard<'_, ProbeState> {
        self.0.lock().unwrap()
    }
    fn wait_searching(&self) {
        let t0 = Instant::now();
        while !self.lock().searching {
            assert!(t0.elapsed() < Duration::from_secs(20), "no search started");
            thread::sleep(Duration::from_millis(1));
        }
    }
}

/// A fake engine: optionally runs until stopped, returns a fixed score.
struct Fake {
    probe: Probe,
    slow: bool,
    score: Value,
    panic: bool,
}

impl Engine for Fake {
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Outcome {
        self.search_excluding(board, limits, &[], stop, report)
    }
    fn search_excluding(
        &mut self,
        board: &Board,
        limits: &Limits,
        exclude: &[Pos],
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Outcome {
        self.probe.lock().limits.push(*limits);
        self.probe.lock().excluded.push(exclude.to_vec());
        self.probe.lock().searching = true;
        report(&SearchInfo {
            depth: 1,
            seldepth: 2,
            score: self.score,
            nodes: 10,
            elapsed: Duration::from_millis(1),
            pv: vec![Pos::NONE],
        });
        let t0 = Instant::now();
        let slow =
            self.slow || (self.probe.lock().slow_unlimited && limits.budget.hard == Duration::MAX);
        while slow && !stop.load(Ordering::Relaxed) && t0.elapsed() < Duration::from_secs(30) {
            thread::sleep(Duration::from_millis(1));
        }
        self.probe.lock().searching = false;
        if self.panic {
            panic!("fake engine panic (expected by the test)");
        }
        let best = crate::search::legal_moves(board)
            .into_iter()
            .filter(|p| !exclude.contains(p))
            .min_by_key(|&p| {
                let (dx, dy) = (p.x() as i64 - 7, p.y() as i64 - 7);
                (dx.abs().max(dy.abs()), p)
            })
            .unwrap_or(Pos::NONE);
        Outcome {
            best,
            score: self.score,
            depth: 1,
            nodes: 10,
            pv: vec![best],
        }
    }
    fn resize(&mut self, bytes: usize) {
        self.probe.lock().resized.push(bytes);
    }
    fn clear(&mut self) {
        self.probe.lock().cleared += 1;
    }
}

/// Parses a move line `x,y` strictly (what c-gomoku-cli accepts).
fn mv(line: &str) -> (usize, usize) {
    let (a, b) = line
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {line:?}"));
    let ok = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    assert!(ok(a) && ok(b), "not a move: {line:?}");
    (a.parse().unwrap(), b.parse().unwrap())
}

fn is_move(line: &str) -> bool {
    line.split_once(',').is_some_and(|(a, b)| {
        !a.is_empty()
            && !b.is_empty()
            && a.bytes().all(|c| c.is_ascii_digit())
            && b.bytes().all(|c| c.is_ascii_digit())
    })
}

fn is_error(line: &str) -> bool {
    line.starts_with("ERROR ")
}

// ------------------------------------------------------------------------------------------
// START, RESTART, sizes

#[test]
fn protocol_start_answers_exactly_ok() {
    assert_eq!(script("START 20\n").0, ["OK"]);
    assert_eq!(script("start 15\r\n").0, ["OK"]);
    assert_eq!(script("  START\t15  \r\n").0, ["OK"]);
    assert_eq!(
        script("START 15\nRESTART\nstart 5\nSTART 32\n").0,
        ["OK", "OK", "OK", "OK"]
    );
    assert_eq!(script("RECTSTART 20,15\nrectstart 7, 30\n").0, ["OK", "OK"]);
}

#[test]
fn protocol_bad_start_is_one_error() {
    for s in [
        "START 4",
        "START 33",
        "START 0",
        "START -15",
        "START",
        "START x",
        "RECTSTART 40,10",
        "RECTSTART 10",
        "START 99999999999999999999999",
    ] {
        let (a, _) = script(&format!("{s}\n"));
        assert_eq!(a.len(), 1, "{s}: {a:?}");
        assert!(is_error(&a[0]), "{s}: {a:?}");
    }
}

#[test]
fn protocol_commands_before_start_are_errors() {
    let (a, _) = script("TURN 7,7\nBEGIN\nRESTART\nTAKEBACK 1,1\nPLAY 1,1\n");
    assert_eq!(a.len(), 5, "{a:?}");
    assert!(a.iter().all(|l| is_error(l)), "{a:?}");
    // A BOARD before START is read to DONE and refused once.
    let (a, _) = script("BOARD\n7,7,1\n8,8,2\nDONE\nYXBOARD\n1,1,1\nDONE\n");
    assert_eq!(a.len(), 2, "{a:?}");
    assert!(a.iter().all(|l| is_error(l)), "{a:?}");
    // And nothing was left behind: START still works.
    assert_eq!(
        script("BOARD\n7,7,1\nDONE\nSTART 15\n").0.last().unwrap(),
        "OK"
    );
}

// ------------------------------------------------------------------------------------------
// Silence: INFO, blank lines, YXSTOP idle, YXSHOWINFO, YXBOARD

#[test]
fn protocol_info_is_silent() {
    let infos = "INFO timeout_turn 1000\ninfo TIMEOUT_MATCH 0\nINFO time_left -500\n\
        INFO time_left 2147483647\nINFO max_memory 4294967296\nINFO max_memory 0\n\
        INFO game_type 3\nINFO rule 1\nINFO evaluate 3,4\nINFO folder C:\\a b\\c\n\
        INFO max_depth 99999999999\nINFO max_node -1\nINFO thread_num 0\n\
        INFO time_increment 2000\nINFO hash_size 1048576\nINFO caution_factor 2\n\
        INFO pondering 0\nINFO vcthread 1\nINFO show_detail 3\nINFO usedatabase 0\n\
        INFO swapable 1\nINFO evaluator_draw_ratio 0.5\nINFO protocol_lag 100\n\
        INFO unknown_key 42\nINFO timeout_turn abc\nINFO\nINFO rule\nINFO max_memory 1e9\n";
    // Before START, after START, and as the only input.
    assert!(script(infos).0.is_empty());
    assert_eq!(script(&format!("{infos}START 15\n{infos}")).0, ["OK"]);
}

#[test]
fn protocol_blank_lines_and_idle_stop_are_silent() {
    assert!(script("\n\r\n   \n\t\r\nYXSTOP\nstop\nyxshowinfo\n")
        .0
        .is_empty());
    assert_eq!(after_start("\n\nYXSTOP\n\r\n"), Vec::<String>::new());
    assert_eq!(
        after_start("YXBOARD\n7,7,1\n8,8,2\nDONE\n"),
        Vec::<String>::new()
    );
}

#[test]
fn protocol_unknown_is_one_line() {
    let (a, _) = script("FOO\nyxresign\nDONE\n\u{1}\u{2}x y\n");
    assert_eq!(a.len(), 4, "{a:?}");
    assert!(a.iter().all(|l| l.starts_with("UNKNOWN ")), "{a:?}");
}

#[test]
fn protocol_no_output_at_startup_and_eof_exits() {
    let (a, exit) = script("");
    assert!(a.is_empty());
    assert_eq!(exit, Exit::Eof);
    assert_eq!(script("END\nSTART 15\n"), (vec![], Exit::End));
}

#[test]
fn protocol_about_format() {
    let re_ok = |l: &str| {
        // ^(\w+="[^",=]*")(, \w+="[^",=]*")*$ without a regex crate.
        l.split(", ").all(|f| {
            let Some((k, v)) = f.split_once('=') else {
                return false;
            };
            !k.is_empty()
                && k.chars().all(|c| c.is_alphanumeric() || c == '_')
                && v.len() >= 2
                && v.starts_with('"')
                && v.ends_with('"')
                && !v[1..v.len() - 1].contains([',', '"', '='])
        })
    };
    let line = about_line();
    assert!(re_ok(&line), "{line}");
    assert!(line.starts_with("name=\"pentad\", version=\""), "{line}");
    assert!(line.contains(&format!("version=\"{}\"", env!("CARGO_PKG_VERSION"))));
    let (a, _) = script("ABOUT\nSTART 15\nabout\n");
    assert_eq!(a, [line.clone(), "OK".into(), line]);
}

// ------------------------------------------------------------------------------------------
// Moves

#[test]
fn protocol_begin_and_turn() {
    let a = after_start("BEGIN\n");
    assert_eq!(a.len(), 1);
    let (x, y) = mv(&a[0]);
    assert!(x < 15 && y < 15);
    // TURN as the first command: a one-stone board, the answer elsewhere.
    let a = after_start("TURN 7,7\n");
    assert_eq!(a.len(), 1);
    assert_ne!(mv(&a[0]), (7, 7));
    // The documented smoke test.
    let (a, exit) = script("START 15\nBEGIN\nEND\n");
    assert_eq!(a.len(), 2);
    assert_eq!(a[0], "OK");
    assert!(is_move(&a[1]), "{a:?}");
    assert_eq!(exit, Exit::End);
}

#[test]
fn protocol_bad_turn_is_one_error_and_changes_nothing() {
    let a = after_start("TURN 7,7\nTURN 7,7\nTURN 15,0\nTURN -1,3\nTURN 1\nTURN 0, 0\n");
    assert_eq!(a.len(), 6, "{a:?}");
    assert!(is_move(&a[0]));
    for l in &a[1..5] {
        assert!(is_error(l), "{a:?}");
    }
    let m = mv(&a[5]);
    assert!(m != (7, 7) && m != (0, 0) && m != mv(&a[0]));
}

#[test]
fn protocol_moves_never_hit_stones() {
    // A whole game on a small board against a scripted opponent: every answer is a free square,
    // until the board is full.
    let live = Live::real();
    live.send("START 7");
    live.send("INFO max_depth 2");
    live.send("INFO timeout_turn 300");
    live.send("BEGIN");
    let mut taken = [false; 49];
    let mut n = 2;
    loop {
        let a = live.wait_answers(n);
        let last = &a[n - 1];
        if is_error(last) {
            assert!(taken.iter().all(|&t| t), "{a:?}");
            break;
        }
        let (x, y) = mv(last);
        assert!(x < 7 && y < 7 && !taken[y * 7 + x], "{last} is taken");
        taken[y * 7 + x] = true;
        let Some(free) = (0..49).rev().find(|&i| !taken[i]) else {
            break;
        };
        taken[free] = true;
        live.send(&format!("TURN {},{}", free % 7, free / 7));
        n += 1;
    }
    live.send("END");
    live.join(false, Duration::from_secs(5));
}

#[test]
fn protocol_full_board_is_an_error() {
    let mut s = String::from("START 5\nBOARD\n");
    for i in 0..25 {
        s.push_str(&format!("{},{},{}\n", i % 5, i / 5, 1 + (i % 2)));
    }
    s.push_str("DONE\n");
    let (a, _) = script(&s);
    assert_eq!(a.len(), 2, "{a:?}");
    assert!(is_error(&a[1]), "{a:?}");
    // The last square filled by TURN.
    let mut s = String::from("START 5\nBOARD\n");
    for i in 0..24 {
        s.push_str(&format!("{},{},{}\n", i % 5, i / 5, 1 + (i % 2)));
    }
    s.push_str("DONE\n");
    let (a, _) = script(&format!("{s}TAKEBACK 4,4\nTURN 4,4\n"));
    assert_eq!(a.len(), 4, "{a:?}");
    assert_eq!(a[1], "4,4");
    assert_eq!(a[2], "OK");
    assert!(is_error(&a[3]), "{a:?}");
}

#[test]
fn protocol_takeback_and_play() {
    let a = after_start(
        "BOARD\n7,7,1\n8,8,2\nDONE\nTAKEBACK 8,8\nTAKEBACK 7,7\nTURN 7,7\nTAKEBACK 7,7\n\
         TAKEBACK 7,7\nTAKEBACK 20,20\nTAKEBACK 1\n",
    );
    assert_eq!(a.len(), 8, "{a:?}");
    assert!(is_move(&a[0]), "{a:?}");
    assert_eq!(a[1..3], ["OK", "OK"]);
    // 7,7 was free again.
    assert!(is_move(&a[3]), "{a:?}");
    assert_eq!(a[4], "OK");
    assert!(a[5..].iter().all(|l| is_error(l)), "{a:?}");
    // PLAY echoes the move and makes it.
    let a = after_start("PLAY 3,4\nTURN 3,4\nPLAY 3,4\nPLAY 5,5\nPLAY 15,1\n");
    assert_eq!(a[0], "3,4");
    assert!(is_error(&a[1]) && is_error(&a[2]), "{a:?}");
    assert_eq!(a[3], "5,5");
    assert!(is_error(&a[4]), "{a:?}");
}

#[test]
fn protocol_board_replaces_position() {
    let a = after_start("BOARD\n7,7,1\nDONE\nBOARD\n8,8,2\nDONE\nTURN 7,7\n");
    assert_eq!(a.len(), 3, "{a:?}");
    let m = mv(&a[1]);
    assert_ne!(m, (8, 8));
    // 7,7 is free after the second BOARD (unless the engine just took it).
    assert_eq!(is_move(&a[2]), m != (7, 7), "{a:?}");
    // Zero stones: the first move; lower case and CRLF.
    let a = after_start("board\r\ndone\r\n");
    assert_eq!(a.len(), 1);
    assert!(is_move(&a[0]));
}

#[test]
fn protocol_board_with_bad_lines_still_moves() {
    let (lines, _) = {
        let out = Buf::default();
        let exit = run(
            Cursor::new(
                b"START 15\nBOARD\n7,7,1\n99,99,1\n7,7,2\n8,8,5\nabc\n-1,0,2\n8,8,2\n\nDONE\n"
                    .to_vec(),
            ),
            out.clone(),
        );
        (out.lines(), exit)
    };
    let a = answers(&lines);
    assert_eq!(a.len(), 2, "{lines:?}");
    let m = mv(&a[1]);
    assert!(m != (7, 7) && m != (8, 8));
    let msgs: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("MESSAGE BOARD"))
        .collect();
    assert_eq!(msgs.len(), 1, "{lines:?}");
    assert!(msgs[0].contains("skipped 5 bad lines"), "{msgs:?}");
}

/// The GomocupJudge renju probe (protocol.md §7.4): `h8h9i7i9h10i6i11i12`, black to move must
/// not play g9 (6,8).
const RENJU_BLACK: [(usize, usize); 4] = [(7, 7), (8, 6), (7, 9), (8, 10)];
const RENJU_WHITE: [(usize, usize); 4] = [(7, 8), (8, 8), (8, 5), (8, 11)];

fn renju_board(own_is_black: bool, white_stones: usize) -> String {
    let (own, opp) = if own_is_black { (1, 2) } else { (2, 1) };
    let mut s = String::new();
    for i in 0..4 {
        let (x, y) = RENJU_BLACK[i];
        s.push_str(&format!("{x},{y},{own}\n"));
        if i < white_stones {
            let (x, y) = RENJU_WHITE[i];
            s.push_str(&format!("{x},{y},{opp}\n"));
        }
    }
    s
}

#[test]
fn protocol_renju_colour_inference_and_forbid() {
    // The probe position really has g9 as a foul.
    let mut b = Board::square(15, Rule::Renju).unwrap();
    for i in 0..4 {
        b.play(Pos::new(RENJU_BLACK[i].0, RENJU_BLACK[i].1));
        b.play(Pos::new(RENJU_WHITE[i].0, RENJU_WHITE[i].1));
    }
    assert!(b.is_foul(Color::Black, Pos::new(6, 8)));

    // Equal counts: I am black; the answer is not the foul, and YXSHOWFORBID lists it.
    let a = after_start(&format!(
        "INFO rule 4\nYXBOARD\n{}DONE\nYXSHOWFORBID\nBOARD\n{}DONE\n",
        renju_board(true, 4),
        renju_board(true, 4)
    ));
    assert_eq!(a.len(), 2, "{a:?}");
    let f = &a[0];
    assert!(f.starts_with("FORBID ") && f.ends_with('.'), "{f}");
    let body = &f["FORBID ".len()..f.len() - 1];
    assert!(
        body.len().is_multiple_of(4) && body.bytes().all(|c| c.is_ascii_digit()),
        "{f}"
    );
    assert!(
        body.as_bytes().chunks(4).any(|c| c == b"0608"),
        "g9 missing: {f}"
    );
    assert_ne!(mv(&a[1]), (6, 8));

    // Opponent one stone ahead: I am white, no fouls for me.
    let a = after_start(&format!(
        "INFO rule 4\nYXBOARD\n{}DONE\nYXSHOWFORBID\n",
        renju_board(false, 3)
    ));
    assert_eq!(a, ["FORBID ."]);
    // Yixin-Board's rule 2 is renju too; freestyle has no fouls.
    let a = after_start(&format!(
        "INFO rule 2\nYXBOARD\n{}DONE\nyxshowforbid\nINFO rule 0\nYXSHOWFORBID\n",
        renju_board(true, 4)
    ));
    assert_eq!(a.len(), 2);
    assert!(a[0].contains("0608"), "{a:?}");
    assert_eq!(a[1], "FORBID .");
    // Before START.
    assert_eq!(script("YXSHOWFORBID\n").0, ["FORBID ."]);
}

// ------------------------------------------------------------------------------------------
// SWAP2BOARD

fn swap2_moves(line: &str) -> Vec<(usize, usize)> {
    assert!(!line.contains("  ") && !line.starts_with(' '), "{line:?}");
    line.split(' ').map(mv).collect()
}

#[test]
fn protocol_swap2_case1_three_stones() {
    let a = after_start("SWAP2BOARD\nDONE\n");
    assert_eq!(a.len(), 1);
    let m = swap2_moves(&a[0]);
    assert_eq!(m.len(), 3);
    assert!(m[0] != m[1] && m[1] != m[2] && m[0] != m[2]);
    for &(x, y) in &m {
        assert!((5..=10).contains(&x) && (5..=10).contains(&y), "{m:?}");
    }
    // Also on the smallest board.
    let (a, _) = script("START 5\nSWAP2BOARD\nDONE\n");
    assert_eq!(swap2_moves(&a[1]).len(), 3);
}

#[test]
fn protocol_swap2_cases_2_and_3() {
    let three = "SWAP2BOARD\n7,7\n8,8\n7,9\nDONE\n";
    let five = "SWAP2BOARD\n7,7\n8,8\n7,9\n6,8\n9,9\nDONE\n";
    // Real searcher: SWAP or one legal move.
    for (s, stones) in [(three, 3), (five, 5)] {
        let a = after_start(s);
        assert_eq!(a.len(), 1, "{a:?}");
        if a[0] != "SWAP" {
            let m = swap2_moves(&a[0]);
            assert_eq!(m.len(), 1, "{a:?}");
            let given = [(7, 7), (8, 8), (7, 9), (6, 8), (9, 9)];
            assert!(!given[..stones].contains(&m[0]), "{a:?}");
        }
    }
    // Fake engines: a bad score for white swaps, a good one plays.
    for (score, want_swap) in [(-50, true), (50, false)] {
        for s in [three, five] {
            let probe = Probe::default();
            let live = Live::fake(&probe, false, score);
            live.send("START 15");
            live.send(s.trim_end());
            let a = live.wait_answers(2);
            assert_eq!(a[1] == "SWAP", want_swap, "{a:?}");
            if !want_swap {
                assert_eq!(swap2_moves(&a[1]).len(), 1);
            }
            live.send("END");
            live.join(false, Duration::from_secs(5));
        }
    }
    // Wrong stone counts or bad stones: one ERROR.
    for s in [
        "SWAP2BOARD\n7,7\nDONE\n",
        "SWAP2BOARD\n7,7\n7,7\n8,8\nDONE\n",
        "SWAP2BOARD\n7,7\n8,8\n99,9\nDONE\n",
        "SWAP2BOARD\n7,7\n8,8\nxx\n9,9\nDONE\n",
    ] {
        let a = after_start(s);
        assert_eq!(a.len(), 1, "{s}: {a:?}");
        assert!(is_error(&a[0]), "{s}: {a:?}");
    }
}

// ------------------------------------------------------------------------------------------
// Stopping, interrupting, ending

#[test]
fn protocol_yxstop_during_search_real_searcher() {
    let live = Live::real();
    live.send("START 15");
    live.send("INFO max_depth 100");
    live.send("INFO timeout_turn 1000000");
    live.send("INFO timeout_match 0");
    live.send("BOARD");
    live.send("7,7,2");
    live.send("DONE");
    thread::sleep(Duration::from_millis(30));
    live.send("YXSTOP");
    let a = live.wait_answers(2);
    live.send("YXSTOP");
    thread::sleep(Duration::from_millis(30));
    live.send("END");
    let (exit, a2) = live.join(false, Duration::from_secs(5));
    assert_eq!(exit, Exit::End);
    assert_eq!(a, a2);
    assert_eq!(a.len(), 2, "{a:?}");
    assert!(is_move(&a[1]));
}

#[test]
fn protocol_yxstop_during_search_answers_once() {
    let probe = Probe::default();
    let live = Live::fake(&probe, true, 0);
    live.send("START 15");
    live.send("BEGIN");
    probe.wait_searching();
    live.send("yxstop");
    let a = live.wait_answers(2);
    assert!(is_move(&a[1]));
    live.send("YXSTOP");
    live.send("STOP");
    thread::sleep(Duration::from_millis(20));
    live.send("END");
    let (exit, a) = live.join(false, Duration::from_secs(5));
    assert_eq!(exit, Exit::End);
    assert_eq!(a.len(), 2, "{a:?}");
}

#[test]
fn protocol_timeout_turn_zero_answers_now() {
    let probe = Probe::default();
    let live = Live::fake(&probe, true, 0);
    live.send("START 15");
    live.send("INFO timeout_turn 100000");
    live.send("TURN 7,7");
    probe.wait_searching();
    live.send("INFO timeout_turn 0");
    let a = live.wait_answers(2);
    assert!(is_move(&a[1]));
    // Other INFO during a search is applied without stopping it.
    live.send("INFO timeout_turn 100000");
    live.send("TURN 0,0");
    probe.wait_searching();
    live.send("INFO time_left 5000");
    live.send("INFO max_memory 100000000");
    thread::sleep(Duration::from_millis(30));
    assert_eq!(live.out.answers().len(), 2);
    live.send("STOP");
    let a = live.wait_answers(3);
    assert!(is_move(&a[2]));
    live.send("END");
    live.join(false, Duration::from_secs(5));
    // The table was resized after the search that was running when max_memory came.
    assert_eq!(
        probe.lock().resized,
        [100000000 / 100 * 45 / (1 << 20) * (1 << 20)]
    );
}

#[test]
fn protocol_end_during_search_exits_silently() {
    let probe = Probe::default();
    let live = Live::fake(&probe, true, 0);
    live.send("START 15");
    live.send("BEGIN");
    probe.wait_searching();
    let t0 = Instant::now();
    live.send("END");
    let (exit, a) = live.join(false, Duration::from_millis(500));
    assert!(t0.elapsed() < Duration::from_millis(500));
    assert_eq!(exit, Exit::End);
    assert_eq!(a, ["OK"]);
    // No MESSAGE either after END (give the stopped engine time to report).
    thread::sleep(Duration::from_millis(30));
}

#[test]
fn protocol_eof_during_search_exits_promptly() {
    let probe = Probe::default();
    let live = Live::fake(&probe, true, 0);
    live.send("START 15");
    live.send("BEGIN");
    probe.wait_searching();
    let (exit, a) = live.join(true, Duration::from_millis(500));
    assert_eq!(exit, Exit::Eof);
    // The stopped search still answers its one move.
    assert_eq!(a.len(), 2, "{a:?}");
}

#[test]
fn protocol_commands_during_search_get_the_move_first() {
    let probe = Probe::default();
    let live = Live::fake(&probe, true, 0);
    live.send("START 15");
    live.send("BEGIN");
    probe.wait_searching();
    live.send("START 15");
    let a = live.wait_answers(3);
    assert!(is_move(&a[1]), "{a:?}");
    assert_eq!(a[2], "OK");
    // BOARD arriving during a search: the old move, then the new position's move.
    live.send("TURN 7,7");
    probe.wait_searching();
    live.send("BOARD");
    live.send("7,7,1");
    live.send("8,8,2");
    let a = live.wait_answers(4);
    assert!(is_move(&a[3]), "{a:?}");
    live.send("DONE");
    probe.wait_searching();
    // ABOUT does not stop a search; it is answered after the move.
    live.send("ABOUT");
    thread::sleep(Duration::from_millis(30));
    assert_eq!(live.out.answers().len(), 4);
    live.send("YXSTOP");
    let a = live.wait_answers(6);
    let m = mv(&a[4]);
    assert!(m != (7, 7) && m != (8, 8), "{a:?}");
    assert!(a[5].starts_with("name="), "{a:?}");
    live.send("END");
    let (exit, a) = live.join(false, Duration::from_secs(5));
    assert_eq!(exit, Exit::End);
    assert_eq!(a.len(), 6);
}

#[test]
fn protocol_piped_lines_wait_for_the_move() {
    // Lines read in the same go as the command do not interrupt its search, and end of input
    // stops every search at once, so a piped script gets one move per request.
    let (a, exit) =
        script("START 15\r\nBOARD\r\n7,7,1\r\n8,8,2\r\nDONE\r\nTURN 1,1\r\nYXSTOP\r\nBEGIN\r\n");
    assert_eq!(exit, Exit::Eof);
    assert_eq!(a.len(), 4, "{a:?}");
    assert!(a[1..].iter().all(|l| is_move(l)), "{a:?}");
}

#[test]
fn protocol_crlf_tabs_and_case_give_identical_output() {
    let clean = "START 15\nINFO rule 1\nBOARD\n7,7,1\n7,8,2\nDONE\nTURN 9,9\nABOUT\n";
    let messy =
        "  start\t15 \r\n\r\ninfo RULE 1\r\n\tBoard \r\n 7 , 7 , 1\r\n7,8,2\r\n\r\ndone\r\n\
                 turn 9, 9\r\nabout\r\n";
    let a = fake_script(clean);
    assert_eq!(a.len(), 4, "{a:?}");
    assert_eq!(a, fake_script(messy));
}

// ------------------------------------------------------------------------------------------
// Settings reaching the search

#[test]
fn protocol_settings_reach_the_engine() {
    let probe = Probe::default();
    let live = Live::fake(&probe, false, 0);
    live.send("INFO max_memory 367001600");
    live.send("INFO max_depth 7");
    live.send("INFO max_node 5000");
    live.send("INFO thread_num 4");
    live.send("START 15");
    live.send("BEGIN");
    live.wait_answers(2);
    live.send("INFO max_node -1");
    live.send("INFO max_depth 0");
    live.send("INFO thread_num -3");
    live.send("INFO hash_size 2048");
    live.send("INFO timeout_turn 2000");
    live.send("TURN 0,0");
    live.wait_answers(3);
    live.send("YXHASHCLEAR");
    live.send("END");
    let (_, a) = live.join(false, Duration::from_secs(5));
    assert_eq!(a.len(), 3, "{a:?}");
    let p = probe.lock();
    assert_eq!(p.made, [157 << 20]);
    assert_eq!(p.resized, [2 << 20]);
    assert_eq!(p.cleared, 1);
    let l = &p.limits;
    assert_eq!(l[0].max_depth, Some(7));
    assert_eq!(l[0].max_nodes, Some(5000));
    assert_eq!(l[0].threads, 4);
    assert_eq!(l[1].max_depth, None);
    assert_eq!(l[1].max_nodes, None);
    assert_eq!(l[1].threads, 1);
    assert_eq!(l[1].budget.hard, Duration::from_millis(1940));
    assert!(l[1].start <= Instant::now());
}

#[test]
fn protocol_engine_panic_still_answers() {
    let probe = Probe::default();
    let p2 = probe.clone();
    let live = Live::spawn(move |i, o| {
        run_with(i, o, move |_| Fake {
            probe: p2.clone(),
            slow: false,
            score: 0,
            panic: true,
        })
    });
    live.send("START 15");
    live.send("TURN 7,7");
    let a = live.wait_answers(2);
    assert!(is_move(&a[1]));
    assert_ne!(mv(&a[1]), (7, 7));
    live.send("TURN 0,0");
    let a = live.wait_answers(3);
    assert!(is_move(&a[2]));
    live.send("END");
    live.join(false, Duration::from_secs(5));
}

#[test]
fn protocol_broken_pipe_exits_quietly() {
    struct Broken;
    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let exit = run(Cursor::new(b"START 15\nBEGIN\nBEGIN\n".to_vec()), Broken);
    assert_eq!(exit, Exit::BrokenPipe);
}

#[test]
fn protocol_legal_answer_repairs_bad_moves() {
    let mut b = Board::square(5, Rule::Freestyle).unwrap();
    b.play(Pos::new(2, 2));
    assert_eq!(legal_answer(&b, Pos::new(1, 1)), Some(Pos::new(1, 1)));
    for bad in [
        Pos::NONE,
        Pos::new(2, 2),
        Pos::new(7, 7),
        Pos(u16::MAX),
        Pos(3),
    ] {
        let p = legal_answer(&b, bad).unwrap();
        assert!(p.x() < 5 && p.y() < 5 && b.is_empty(p), "{bad:?} -> {p:?}");
    }
}

// ------------------------------------------------------------------------------------------
// Random sessions

/// A small deterministic PRNG (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn coord(&mut self) -> i64 {
        // Mostly on small boards, sometimes off them.
        match self.below(10) {
            0 => -1,
            1 => 40,
            _ => self.below(9) as i64,
        }
    }
}

/// A random script: commands from the whole vocabulary, right and wrong.
fn random_script(rng: &mut Rng) -> String {
    let mut s = String::new();
    let n = 5 + rng.below(40);
    for _ in 0..n {
        let line = match rng.below(24) {
            0 => format!("START {}", 4 + rng.below(6)),
            1 => format!("RECTSTART {},{}", 5 + rng.below(4), 5 + rng.below(4)),
            2 => "RESTART".into(),
            3 => "BEGIN".into(),
            4..=6 => format!("TURN {},{}", rng.coord(), rng.coord()),
            7 | 8 => {
                let kind = ["BOARD", "YXBOARD", "board"][rng.below(3) as usize];
                let mut b = format!("{kind}\n");
                for _ in 0..rng.below(12) {
                    b.push_str(&format!(
                        "{},{},{}\n",
                        rng.coord(),
                        rng.coord(),
                        rng.below(5)
                    ));
                }
                b.push_str("DONE");
                b
            }
            9 => {
                let mut b = String::from("SWAP2BOARD\n");
                for _ in 0..[0, 3, 5, 2][rng.below(4) as usize] {
                    b.push_str(&format!("{},{}\n", rng.coord(), rng.coord()));
                }
                b.push_str("DONE");
                b
            }
            10 => format!("INFO rule {}", rng.below(10)),
            11 => format!(
                "INFO {} {}",
                [
                    "timeout_turn",
                    "time_left",
                    "max_memory",
                    "max_depth",
                    "hash_size",
                    "foo"
                ][rng.below(6) as usize],
                rng.below(3000) as i64 - 100
            ),
            12 => format!("TAKEBACK {},{}", rng.coord(), rng.coord()),
            13 => format!("PLAY {},{}", rng.coord(), rng.coord()),
            14 => "YXSTOP".into(),
            15 => "YXSHOWFORBID".into(),
            16 => "YXHASHCLEAR".into(),
            17 => "ABOUT".into(),
            18 => "DONE".into(),
            19 => String::new(),
            20 => "FOO 1,2".into(),
            21 => "TURN 1".into(),
            _ => (0..rng.below(12))
                .map(|_| (b' ' + rng.below(95) as u8) as char)
                .collect(),
        };
        s.push_str(&line);
        s.push_str(if rng.below(2) == 0 { "\n" } else { "\r\n" });
    }
    s
}

/// True when `line` is something the engine may print.
fn valid_output(line: &str) -> bool {
    let moves = |l: &str| l.split(' ').all(is_move);
    line == "OK"
        || line == "SWAP"
        || is_move(line)
        || (moves(line) && line.split(' ').count() == 3)
        || line.starts_with("ERROR ")
        || line.starts_with("UNKNOWN ")
        || line.starts_with("MESSAGE ")
        || line.starts_with("name=\"pentad\"")
        || (line.starts_with("FORBID ") && line.ends_with('.'))
}

/// The real searcher, with its panics made visible to the test.
struct Checked(crate::search::Searcher, Arc<AtomicBool>);

impl Engine for Checked {
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Outcome {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.0.search(board, limits, stop, report)
        }));
        r.unwrap_or_else(|e| {
            self.1.store(true, Ordering::SeqCst);
            std::panic::resume_unwind(e)
        })
    }
    fn resize(&mut self, bytes: usize) {
        self.0.resize(bytes)
    }
    fn clear(&mut self) {
        self.0.clear()
    }
}

#[test]
fn protocol_random_sessions_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for i in 0..400 {
        let text = random_script(&mut rng);
        let out = Buf::default();
        let real = i % 10 == 0;
        let panicked = Arc::new(AtomicBool::new(false));
        let flag = panicked.clone();
        let probe = Probe::default();
        if real {
            // A small table: this is about robustness, not strength.
            run_with(
                Cursor::new(text.clone().into_bytes()),
                out.clone(),
                move |_| Checked(crate::search::Searcher::new(1 << 20), flag.clone()),
            );
        } else {
            run_with(
                Cursor::new(text.clone().into_bytes()),
                out.clone(),
                move |_| Fake {
                    probe: probe.clone(),
                    slow: false,
                    score: 0,
                    panic: false,
                },
            );
        }
        assert!(
            !panicked.load(Ordering::SeqCst),
            "search panicked on:\n{text}"
        );
        for l in out.lines() {
            assert!(
                valid_output(&l) && l.trim_end() == l,
                "bad output {l:?} for:\n{text}"
            );
        }
    }
}

// ------------------------------------------------------------------------------------------
// Yixin-Board: analysis commands, GUI lines, blocks, pondering

/// Every output line of a whole script run with the real searcher (MESSAGE lines included).
fn script_lines(s: &str) -> Vec<String> {
    let out = Buf::default();
    run(Cursor::new(s.as_bytes().to_vec()), out.clone());
    out.lines()
}

/// A live session with the real searcher, fed `lines`, waited for `n` answers, then ended;
/// returns every output line.
fn live_lines(lines: &[&str], n: usize) -> Vec<String> {
    let live = Live::real();
    for l in lines {
        live.send(l);
    }
    // Answers other than the GUI's INFO lines.
    let t0 = Instant::now();
    while live
        .out
        .answers()
        .iter()
        .filter(|l| !l.starts_with("INFO "))
        .count()
        < n
    {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "{:?}",
            live.out.lines()
        );
        thread::sleep(Duration::from_millis(2));
    }
    live.send("END");
    let out = live.out.clone();
    live.join(false, Duration::from_secs(20));
    out.lines()
}

#[test]
fn protocol_yxshowinfo_messages_and_silent_unknown_commands() {
    let l = script_lines("yxshowinfo\nSTART 15\nyxdraw\nfoo 1,2\nINFO show_detail 3\n");
    assert!(
        l.contains(&"MESSAGE INFO MAX_THREAD_NUM 256".to_string()),
        "{l:?}"
    );
    assert!(
        l.iter()
            .any(|x| x.starts_with("MESSAGE INFO MAX_HASH_SIZE ")),
        "{l:?}"
    );
    assert_eq!(answers(&l), ["OK", "UNKNOWN command foo"]);
    // Without the GUI handshake an unknown YX command is answered too.
    let l = script_lines("START 15\nyxdraw\n");
    assert_eq!(answers(&l), ["OK", "UNKNOWN command yxdraw"]);
}

#[test]
fn protocol_gui_lines_only_when_asked() {
    // The book off: the opening would be answered from it, without a search.
    let base = [
        "START 15",
        "INFO usedatabase 0",
        "INFO max_depth 3",
        "INFO timeout_turn 5000",
        "TURN 7,7",
    ];
    let plain = live_lines(&base, 2);
    assert!(
        !plain
            .iter()
            .any(|l| l.starts_with("INFO ") || l.contains("REALTIME")),
        "{plain:?}"
    );
    let mut gui = vec!["INFO show_detail 3"];
    gui.extend(base);
    let l = live_lines(&gui, 2);
    for want in [
        "INFO PV 0",
        "INFO NUMPV 1",
        "INFO PV DONE",
        "MESSAGE REALTIME REFRESH",
    ] {
        assert!(l.iter().any(|x| x == want), "{want}: {l:?}");
    }
    assert!(l.iter().any(|x| x.starts_with("INFO BESTLINE ")), "{l:?}");
    assert!(l.iter().any(|x| x.starts_with("INFO EVAL ")), "{l:?}");
    assert!(
        l.iter().any(|x| x.starts_with("MESSAGE REALTIME BEST ")),
        "{l:?}"
    );
    // One move answer; the INFO lines are not answers a manager must read, but they are
    // the only other lines.
    let real: Vec<&String> = l
        .iter()
        .filter(|x| !x.starts_with("MESSAGE ") && !x.starts_with("INFO "))
        .collect();
    assert_eq!(real.len(), 2, "{l:?}");
    assert!(is_move(real[1]));
}

/// A position with black (the engine, to move) attacked: white has 7,3 8,3 9,3 10,3 (a four,
/// open at 6,3 only: 11,3 is black).
const FOUR_BOARD: &str = "yxboard\n7,7,1\n7,3,2\n8,7,1\n8,3,2\n9,8,1\n9,3,2\n11,3,1\n10,3,2\ndone";

#[test]
fn protocol_yxnbest_reports_lines_and_plays_one_move() {
    let l = live_lines(
        &[
            "START 15",
            // Only the depth bounds the searches (and the root threat searches' budgets): with a
            // turn limit, a loaded machine running a debug build could spend it on the first
            // line's threat searches and leave the other lines unsearched.
            "INFO max_depth 2",
            "yxboard",
            "7,7,1",
            "8,8,2",
            "8,7,1",
            "done",
            "yxnbest 3",
            "TURN 9,7",
        ],
        3,
    );
    let a = answers(&l);
    assert_eq!(a[0], "OK");
    assert!(is_move(&a[1]), "{l:?}");
    for k in 1..=3 {
        assert!(
            l.iter().any(|x| x.starts_with(&format!("MESSAGE ({k}) "))),
            "line {k}: {l:?}"
        );
    }
    // The answer is the first move of a reported line, and it was played: TURN there fails.
    let (x, y) = mv(&a[1]);
    let name = crate::notation::pos_to_str(Pos::new(x, y));
    assert!(
        l.iter()
            .any(|x| x.starts_with("MESSAGE (") && x.contains(&format!("| {name}"))),
        "{name}: {l:?}"
    );
    if a[1] == "9,7" {
        assert!(is_error(&a[2]), "{l:?}");
    }
}

#[test]
fn protocol_yxsearchdefend_finds_the_only_block() {
    let mut lines = vec!["START 15", "INFO max_depth 2", "INFO show_detail 1"];
    lines.extend(FOUR_BOARD.lines());
    lines.push("yxsearchdefend");
    let l = live_lines(&lines, 2);
    let a = answers(&l);
    assert_eq!(a[1], "6,3", "{l:?}");
    assert!(
        l.iter().any(|x| x.starts_with("MESSAGE REALTIME LOST ")),
        "{l:?}"
    );
    assert!(l.iter().any(|x| x == "MESSAGE REALTIME POS 6,3"), "{l:?}");
}

#[test]
fn protocol_yxbalance_answers_one_or_two_moves() {
    let setup = [
        "START 15",
        "INFO max_depth 1",
        "yxboard",
        "7,7,1",
        "8,8,2",
        "done",
    ];
    let mut one = setup.to_vec();
    one.push("yxbalanceone 0");
    let a = answers(&live_lines(&one, 2));
    assert!(is_move(&a[1]), "{a:?}");
    let mut two = setup.to_vec();
    two.push("yxbalancetwo 0");
    let a = answers(&live_lines(&two, 2));
    let m = swap2_moves(&a[1]);
    assert_eq!(m.len(), 2, "{a:?}");
    assert_ne!(m[0], m[1]);
    for p in &m {
        assert!(*p != (7, 7) && *p != (8, 8), "{a:?}");
    }
}

#[test]
fn protocol_yxblock_keeps_moves_out_of_every_search() {
    let probe = Probe::default();
    let live = Live::fake(&probe, false, 0);
    live.send("START 15");
    live.send("yxblock");
    live.send("7,7");
    live.send("8,8");
    live.send("done");
    live.send("BEGIN");
    let a = live.wait_answers(2);
    assert_ne!(a[1], "7,7");
    live.send("yxblockundo");
    live.send("8,8");
    live.send("done");
    live.send("RESTART");
    live.send("BEGIN");
    live.wait_answers(4);
    live.send("yxblockreset");
    live.send("RESTART");
    live.send("BEGIN");
    let a = live.wait_answers(6);
    assert_eq!(a[5], "7,7", "{a:?}");
    live.send("END");
    live.join(false, Duration::from_secs(5));
    let p = probe.lock();
    let seven = Pos::new(7, 7);
    let eight = Pos::new(8, 8);
    assert_eq!(p.excluded[0], [seven, eight]);
    assert_eq!(p.excluded[1], [seven]);
    assert!(p.excluded[2].is_empty());
    drop(p);
    // The real searcher never plays a blocked square, even the only sensible one.
    let l = live_lines(&["START 15", "yxblock", "7,7", "done", "BEGIN"], 2);
    let a = answers(&l);
    assert!(is_move(&a[1]) && a[1] != "7,7", "{l:?}");
    let mut lines = vec!["START 15", "INFO max_depth 2", "yxblock", "6,3", "done"];
    lines.extend(FOUR_BOARD.lines());
    lines.push("yxnbest 2");
    let l = live_lines(&lines, 2);
    let a = answers(&l);
    assert!(is_move(&a[1]) && a[1] != "6,3", "{l:?}");
}

#[test]
fn protocol_yxstop_during_analysis_answers_once() {
    for cmd in [
        "yxnbest 3",
        "yxbalanceone 0",
        "yxbalancetwo 0",
        "yxsearchdefend",
    ] {
        let probe = Probe::default();
        let live = Live::fake(&probe, true, 0);
        live.send("START 15");
        live.send("yxboard");
        live.send("7,7,1");
        live.send("8,8,2");
        live.send("done");
        live.send(cmd);
        probe.wait_searching();
        live.send("yxstop");
        let a = live.wait_answers(2);
        thread::sleep(Duration::from_millis(50));
        live.send("YXSTOP");
        thread::sleep(Duration::from_millis(20));
        live.send("END");
        let (_, a2) = live.join(false, Duration::from_secs(5));
        assert_eq!(a, a2, "{cmd}");
        assert_eq!(a.len(), 2, "{cmd}: {a:?}");
        let n = a[1].split(' ').count();
        assert_eq!(n, if cmd.contains("two") { 2 } else { 1 }, "{cmd}: {a:?}");
        swap2_moves(&a[1]);
    }
}

#[test]
fn protocol_pondering_is_silent_and_ends_at_the_next_command() {
    let probe = Probe::default();
    probe.lock().slow_unlimited = true;
    let live = Live::fake(&probe, false, 0);
    live.send("INFO pondering 1");
    live.send("START 15");
    live.send("TURN 7,7");
    live.wait_answers(2);
    probe.wait_searching();
    // Pondering: no output, YXSTOP ends it without a move.
    thread::sleep(Duration::from_millis(100));
    assert_eq!(live.out.lines().len(), 2 + 1, "{:?}", live.out.lines());
    live.send("YXSTOP");
    thread::sleep(Duration::from_millis(100));
    assert!(!probe.lock().searching);
    assert_eq!(live.out.answers().len(), 2);
    // A TURN during the ponder is answered at once.
    live.send("TURN 0,0");
    live.wait_answers(3);
    probe.wait_searching();
    let t0 = Instant::now();
    live.send("INFO time_left 1000");
    live.send("TURN 1,1");
    live.wait_answers(4);
    assert!(t0.elapsed() < Duration::from_secs(5));
    // Turned off: no more pondering after the next move.
    live.send("INFO pondering 0");
    live.send("TURN 2,2");
    live.wait_answers(5);
    thread::sleep(Duration::from_millis(50));
    assert!(!probe.lock().searching);
    live.send("END");
    let (exit, a) = live.join(false, Duration::from_secs(5));
    assert_eq!(exit, Exit::End);
    assert_eq!(a.len(), 5, "{a:?}");
    // Pondering searches run without a clock; move searches keep theirs.
    let p = probe.lock();
    assert!(p.limits.iter().any(|l| l.budget.hard == Duration::MAX));
    assert!(p.limits.iter().any(|l| l.budget.hard != Duration::MAX));
}

#[test]
fn protocol_hash_usage_database_commands_and_hash_size() {
    let l = script_lines(
        "START 15\nyxshowhashusage\nyxquerydatabaseall\n7,7\n8,8\ndone\nyxshowforbid\n",
    );
    assert!(
        l.contains(&"MESSAGE Transposition table full: 0.0%".to_string()),
        "{l:?}"
    );
    assert_eq!(answers(&l), ["OK", "FORBID ."]);
    // INFO hash_size alone sets the table; with max_memory the smaller limit wins.
    let probe = Probe::default();
    let live = Live::fake(&probe, false, 0);
    live.send("INFO hash_size 524288");
    live.send("START 15");
    live.send("BEGIN");
    live.wait_answers(2);
    live.send("INFO max_memory 104857600");
    live.send("END");
    live.join(false, Duration::from_secs(5));
    let p = probe.lock();
    assert_eq!(p.made, [512 << 20]);
    assert_eq!(p.resized, [45 << 20]);
}
