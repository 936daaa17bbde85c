//! `pbrain-pentad analyze` on the VCF problems of the shared renju set
//! (`shared/data/puzzles/renju_puzzles.jsonl`, task `VCF`), 1 s each: the command must report a
//! forced win whose line, replayed here move by move under the rule, is a proof. Every attacker
//! move is legal (renju fouls included), answers any four of the defender, and makes a four (or
//! the five); every defender move comes when the defender has no five of its own, and is the
//! only block when there is one; the line ends in a five (or a double four nobody can stop).
//!
//! The shared folder is found through `PENTAD_SHARED`, else `../shared` beside the crate; when it
//! is absent the tests print a note and pass. `cargo test` runs a spread sample (every 12th
//! problem); the whole set is a measurement:
//! `cargo test --release --test analyze_vcf_puzzles -- --ignored --nocapture`.

use pentad::gamefile::{parse_puzzles, Puzzle};
use pentad::{Board, Color, Pos};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("PENTAD_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let f = dir.join("data/puzzles/renju_puzzles.jsonl");
    f.is_file().then_some(f)
}

/// The VCF problems: (the JSON line, the puzzle).
fn vcf_puzzles() -> Option<Vec<(String, Puzzle)>> {
    let Some(f) = shared() else {
        println!("skipped: no shared puzzle set (set PENTAD_SHARED or put it in ../shared)");
        return None;
    };
    let text = std::fs::read_to_string(&f).expect("read the puzzle set");
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let puzzles = parse_puzzles(&text).expect("parse the puzzle set");
    assert_eq!(lines.len(), puzzles.len());
    Some(
        lines
            .into_iter()
            .zip(puzzles)
            .filter(|(_, p)| p.task == "VCF")
            .map(|(l, p)| (l.to_string(), p))
            .collect(),
    )
}

/// A square in pos notation (`h8`).
fn square(s: &str) -> Option<Pos> {
    let mut c = s.chars();
    let x = c.next()? as i64 - 'a' as i64;
    let y: i64 = c.as_str().parse().ok()?;
    if x < 0 || y < 1 {
        return None;
    }
    Some(Pos::new(x as usize, (y - 1) as usize))
}

/// The empty squares where `color` makes five.
fn fives(b: &Board, color: Color) -> Vec<Pos> {
    b.squares()
        .filter(|&p| b.is_empty(p) && b.wins_by(color, p))
        .collect()
}

/// Checks that `line` wins for the side to move of `board`: see the module notes.
fn verify(board: &Board, line: &[Pos]) -> Result<(), String> {
    let mut b = board.clone();
    let attacker = b.side_to_move();
    let defender = attacker.opp();
    for (i, &m) in line.iter().enumerate() {
        let mover = b.side_to_move();
        let at = format!("ply {} ({})", i + 1, pentad::notation::pos_to_str(m));
        if b.pos(m.x() as i64, m.y() as i64) != Some(m) || !b.is_empty(m) {
            return Err(format!("{at}: not an empty square"));
        }
        if b.is_foul(mover, m) {
            // A black defender whose only block is a foul cannot block: the attacker wins.
            let blocks = fives(&b, attacker);
            if mover == defender && blocks == [m] && fives(&b, defender).is_empty() {
                return Ok(());
            }
            return Err(format!("{at}: a renju foul"));
        }
        if mover == attacker {
            if b.wins_by(attacker, m) {
                return Ok(());
            }
            let threats = fives(&b, defender);
            if !threats.is_empty() && threats != [m] {
                return Err(format!("{at}: leaves the defender's five"));
            }
            b.play(m);
            if fives(&b, attacker).is_empty() {
                return Err(format!("{at}: not a four"));
            }
        } else {
            if !fives(&b, defender).is_empty() {
                return Err(format!("{at}: the defender could make five"));
            }
            let blocks = fives(&b, attacker);
            if blocks.len() == 1 && blocks[0] != m && b.is_legal(blocks[0]) {
                return Err(format!("{at}: not the only block"));
            }
            b.play(m);
        }
    }
    // A line that stops short must leave a win no defence stops.
    let win = fives(&b, attacker);
    let ok = if b.side_to_move() == attacker {
        !win.is_empty()
    } else {
        fives(&b, defender).is_empty() && (win.len() >= 2 || win.iter().any(|&p| !b.is_legal(p)))
    };
    if ok {
        Ok(())
    } else {
        Err("the line ends without a win".into())
    }
}

/// Runs `analyze --stdin --json --time 1000` on the problems; returns (solved, failures).
fn measure(set: &[(String, Puzzle)], max_ms: Option<u64>) -> (usize, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-pentad"))
        .args(["analyze", "--stdin", "--json", "--time", "1000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start pbrain-pentad analyze");
    let mut input = child.stdin.take().unwrap();
    let lines: Vec<String> = set.iter().map(|(l, _)| l.clone()).collect();
    let feeder = std::thread::spawn(move || {
        for l in lines {
            writeln!(input, "{l}").unwrap();
        }
    });
    let out = child.wait_with_output().expect("analyze output");
    feeder.join().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let results: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(results.len(), set.len(), "one result per problem");
    let mut solved = 0;
    let mut failures = Vec::new();
    for ((_, p), r) in set.iter().zip(&results) {
        assert_eq!(r["id"].as_str(), Some(p.id.as_str()));
        let board = p.board(p.rule()).unwrap();
        let time = r["time_ms"].as_u64().unwrap_or(u64::MAX);
        let win = &r["win"];
        let line: Option<Vec<Pos>> = win["line"]
            .as_array()
            .and_then(|a| a.iter().map(|m| m.as_str().and_then(square)).collect());
        let verdict = match line {
            _ if max_ms.is_some_and(|m| time > m) => Err(format!("took {time} ms")),
            _ if win["kind"] != "VCF" => Err(format!("no VCF reported: {win}")),
            None => Err(format!("bad line {win}")),
            Some(line) if r["best"] != win["line"][0] => Err(format!(
                "best {} is not the win's first move {:?}",
                r["best"],
                line.first()
            )),
            Some(line) => verify(&board, &line),
        };
        match verdict {
            Ok(()) => solved += 1,
            Err(e) => failures.push(format!("{}: {e}", p.id)),
        }
    }
    (solved, failures)
}

#[test]
fn analyze_finds_and_proves_vcf_sample() {
    let Some(all) = vcf_puzzles() else { return };
    let sample: Vec<(String, Puzzle)> = all.into_iter().step_by(12).collect();
    // No time condition here: a debug build on a loaded machine may overrun the second; the
    // time is checked by the release measurement below.
    let (solved, failures) = measure(&sample, None);
    println!("VCF sample: {solved}/{} solved and proven", sample.len());
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Problems whose stored answer is not a VCF under renju as judged here: 超级五子棋/0106's only
/// "VCF" fills the board and ends with a white four whose block is black's last empty square, a
/// foul, so black has no legal move and no five is ever made; a complete VCF search finds no
/// other (its stored 55-ply answer is a longer threat sequence).
const NOT_A_VCF: [&str; 1] = ["lfz084/超级五子棋_puzzle/0106"];

#[test]
#[ignore = "measurement: every VCF problem of the shared set (run with --release)"]
fn analyze_finds_and_proves_every_vcf() {
    let Some(all) = vcf_puzzles() else { return };
    let t0 = std::time::Instant::now();
    let (solved, mut failures) = measure(&all, Some(1000 + 100));
    failures.retain(|f| !NOT_A_VCF.iter().any(|id| f.starts_with(&format!("{id}:"))));
    println!(
        "VCF: {solved}/{} solved and proven ({:.1}%), {:.1} s in all",
        all.len(),
        100.0 * solved as f64 / all.len() as f64,
        t0.elapsed().as_secs_f64()
    );
    println!("not VCFs under renju here: {NOT_A_VCF:?}");
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_checker_rejects_bad_lines() {
    // Black h8 i8 j8 k8 (blocked at g8 by white) and white stones elsewhere: l8 wins at once,
    // a line through a non-four fails, a line ending early fails.
    let mut b = Board::square(15, pentad::Rule::Freestyle).unwrap();
    for (x, y, c) in [
        (7, 7, Color::Black),
        (8, 7, Color::Black),
        (9, 7, Color::Black),
        (10, 7, Color::Black),
        (6, 7, Color::White),
        (0, 0, Color::White),
        (0, 2, Color::White),
        (0, 4, Color::White),
    ] {
        b.put(Pos::new(x, y), c);
    }
    b.set_side_to_move(Color::Black);
    assert!(verify(&b, &[Pos::new(11, 7)]).is_ok());
    assert!(verify(&b, &[Pos::new(3, 3)]).is_err());
    assert!(verify(&b, &[Pos::new(7, 7)]).is_err());
    b.set_side_to_move(Color::White);
    assert!(verify(&b, &[Pos::new(14, 14)]).is_err());
}
