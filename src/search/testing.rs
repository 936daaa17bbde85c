//! Helpers of the search's tests: positions and searches shared by several files' tests.

use super::limits::Limits;
use super::outcome::Outcome;
use super::searcher::Searcher;
use super::threads::{RootThreats, Shared};
use super::worker::Worker;
use crate::board::Board;
use crate::notation::parse_diagram;
use crate::rules::Rule;
use crate::tt::Table;
use crate::types::{Depth, Pos};
use std::sync::atomic::AtomicBool;

/// A fixed-depth search of a diagram's position on one thread.
pub(super) fn search(diagram: &str, rule: Rule, depth: Depth) -> Outcome {
    let b = parse_diagram(diagram).unwrap().to_board(rule).unwrap();
    let mut s = Searcher::new(1 << 20);
    s.search(
        &b,
        &Limits::depth(depth),
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

/// A node limit and no clock.
pub(super) fn by_nodes(n: u64) -> Limits {
    Limits {
        max_nodes: Some(n),
        ..Limits::time(crate::time::Budget::UNLIMITED)
    }
}

/// A fixed-depth search of `b` on one thread.
pub(super) fn search_board(b: &Board, depth: Depth) -> Outcome {
    search_threads(b, depth, 1)
}

/// A fixed-depth search of `b` on `threads` threads.
pub(super) fn search_threads(b: &Board, depth: Depth, threads: usize) -> Outcome {
    let mut s = Searcher::new(1 << 20);
    let mut limits = Limits::depth(depth);
    limits.threads = threads;
    s.search(b, &limits, &AtomicBool::new(false), &mut |_| {})
}

/// Runs `f` on a main-thread worker for `b` with a depth limit and a small table.
pub(super) fn with_worker<R>(b: &Board, depth: Depth, f: impl FnOnce(&mut Worker) -> R) -> R {
    let limits = Limits::depth(depth);
    let stop = AtomicBool::new(false);
    let shared = Shared::new(0, RootThreats::default());
    let tt = Table::new(1 << 16);
    f(&mut Worker::new(b.clone(), &tt, &limits, &stop, &shared, 0))
}

/// The moves the generator gives at `depth` (ply 1, no table move).
pub(super) fn generated(b: &Board, depth: Depth) -> Vec<(Pos, bool, bool)> {
    with_worker(b, depth, |w| {
        w.generate(1, Pos::NONE, depth, w.must_defend())
    })
}

/// Black's three on row 7 (6..8) whose open-four squares (5,7) and (9,7) are both double
/// fours with black's closed threes on columns 5 and 9: a foul under renju. White to move.
pub(crate) fn fake_three(rule: Rule) -> Board {
    parse_diagram(
        "
        . . . . . . . . . . . . . . .
        . o . . . . . . . . . . . o .
        . . o . . . . . . . . . . . .
        . . . . . o . . . . . . . . .
        . . . . . x . . . . . . . . .
        . . . . . x . . . . . . . . .
        . . . . . x . . . . . . . . .
        . . . . . . x x x . . . . . .
        . . . . . . . . . x . . . . .
        . . . . . . . . . x . . . . .
        . . . . . . . . . x . . . . .
        . . . . . . . . . o . . . . .
        . . . . . . . . . . . . o . .
        . o . . . . . . . . . . . o .
        . . . . . . . . . . . . . . .",
    )
    .unwrap()
    .to_board(rule)
    .unwrap()
}

/// White threatens a double four at (5,2) (row and column, each blocked at one end); black
/// to move: only (5,2), (6,2) and (5,1) keep the game going.
pub(super) fn double_four_threat() -> Board {
    parse_diagram(
        "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . x o o o . . . . . . . . . .
    . . . . . o . . . . . . . . .
    . . . . . o . . . . . . . . .
    . . . . . o . . . . . . . . .
    . . . . . x . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . x . .
    . . . . . . . . . . . . . . .
    . . . . . . . . x . . . . . .
    . . . . . . . . . . x . . . .
    . . . . . . . . . . . . . . x",
    )
    .unwrap()
    .to_board(Rule::Freestyle)
    .unwrap()
}
