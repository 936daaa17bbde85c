//! The four rule checks GomocupJudge runs on every submitted engine (`test_zip_rules.py`;
//! protocol.md §7.3–7.5, §10 R3), from `tests/fixtures/rule_checks.txt`, answered by the searcher
//! with a short fixed-depth search.

mod common;

use common::{load, show, Fixture};
use pentad::notation::{parse_pos_moves, play_moves, pos_to_str};
use pentad::search::{Limits, Searcher};
use pentad::{Board, Color, Pos, Rule};
use std::sync::atomic::AtomicBool;

/// Depth of the searches.
const DEPTH: i32 = 4;

fn check(name: &str) -> Fixture {
    let all = load("rule_checks.txt");
    all.into_iter()
        .find(|f| f.title.split(':').next() == Some(name))
        .unwrap_or_else(|| panic!("no rule check named {name}"))
}

fn squares(s: &str) -> Vec<Pos> {
    parse_pos_moves(s)
        .unwrap()
        .into_iter()
        .map(|(x, y)| Pos::new(x, y))
        .collect()
}

/// Builds the position of a check for one rule and board size, and checks it against the diagram.
fn position(f: &Fixture, rule: Rule, size: usize) -> Board {
    let moves = parse_pos_moves(f.get("moves").unwrap()).unwrap();
    let mut b = Board::square(size, rule).unwrap();
    play_moves(&mut b, &moves).unwrap();
    for &(x, y, c) in &f.diagram.stones {
        assert_eq!(
            b.cell(Pos::new(x, y)),
            pentad::types::Cell::stone(c),
            "{}: diagram and moves differ at {x},{y}",
            f.title
        );
    }
    assert_eq!(b.stone_count(), f.diagram.stones.len(), "{}", f.title);
    let side = match f.get("side").unwrap() {
        "black" => Color::Black,
        "white" => Color::White,
        s => panic!("bad side {s}"),
    };
    assert_eq!(b.side_to_move(), side, "{}: side to move", f.title);
    b
}

fn parse_rule(s: &str) -> (Rule, usize) {
    let (r, n) = s.split_once('@').expect("rule@size");
    (Rule::parse(r).expect("rule name"), n.parse().expect("size"))
}

/// Runs one check under every rule it lists; returns the failures.
fn run(name: &str) -> Vec<String> {
    let f = check(name);
    let accept = f.get("accept").map(squares).unwrap_or_default();
    let reject = f.get("reject").map(squares).unwrap_or_default();
    assert!(!accept.is_empty() || !reject.is_empty());
    for p in &accept {
        assert!(f.diagram.marked('a').contains(p), "diagram marks");
    }
    for p in &reject {
        assert!(f.diagram.marked('r').contains(p), "diagram marks");
    }
    let mut failures = Vec::new();
    for rs in f.get("rules").unwrap().split_whitespace() {
        let (rule, size) = parse_rule(rs);
        let b = position(&f, rule, size);
        let mut searcher = Searcher::new(16 << 20);
        let stop = AtomicBool::new(false);
        let out = searcher.search(&b, &Limits::depth(DEPTH), &stop, &mut |_| {});
        let p = out.best;
        let ok = !p.is_none()
            && b.is_empty(p)
            && (accept.is_empty() || accept.contains(&p))
            && !reject.contains(&p);
        println!(
            "{name} {rs}: played {} (score {}, depth {}, {} nodes) -> {}",
            if p.is_none() {
                "none".into()
            } else {
                pos_to_str(p)
            },
            out.score,
            out.depth,
            out.nodes,
            if ok { "pass" } else { "FAIL" }
        );
        if !ok {
            failures.push(format!(
                "{name} under {rs}: played {} ({p:?}); accept {:?}, reject {:?}\n{}",
                if p.is_none() {
                    "none".into()
                } else {
                    pos_to_str(p)
                },
                accept.iter().map(|&q| pos_to_str(q)).collect::<Vec<_>>(),
                reject.iter().map(|&q| pos_to_str(q)).collect::<Vec<_>>(),
                show(&b, (!p.is_none()).then_some((p, '@')))
            ));
        }
    }
    failures
}

fn assert_passes(name: &str) {
    let failures = run(name);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn all_rules_complete_the_open_four() {
    assert_passes("all");
}

#[test]
fn standard_blocks_the_three_instead_of_an_overline() {
    assert_passes("standard");
}

#[test]
fn renju_black_avoids_the_double_three() {
    // The position itself: g9 is a foul by the judge.
    let f = check("renju");
    let b = position(&f, Rule::Renju, 15);
    let g9 = squares("g9")[0];
    assert!(b.grid().is_renju_foul(g9) && b.is_foul(Color::Black, g9));
    assert_passes("renju");
}

#[test]
fn caro_blocks_the_three_instead_of_a_blocked_five() {
    // k8 is no win for black under either caro rule, but is under freestyle.
    let f = check("caro");
    let k8 = squares("k8")[0];
    for (rule, wins) in [
        (Rule::Caro, false),
        (Rule::CaroExact, false),
        (Rule::Freestyle, true),
    ] {
        let b = position(&f, rule, 15);
        assert_eq!(b.grid().makes_win(k8, Color::Black, rule), wins, "{rule:?}");
        assert_eq!(b.wins_by(Color::Black, k8), wins, "{rule:?}");
    }
    assert_passes("caro");
}
