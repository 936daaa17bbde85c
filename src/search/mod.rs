//! The search: iterative deepening principal variation search over a shared transposition table.
//!
//! The front end calls [`Searcher::search`] with a board, limits and a stop flag it may raise from
//! another thread; progress comes back through a callback, once per completed iteration.

use crate::board::Board;
use crate::time::Budget;
use crate::types::{Depth, Pos, Value};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What ends a search, besides the stop flag.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// When the command arrived: the budget counts from here.
    pub start: Instant,
    /// Time budget.
    pub budget: Budget,
    /// Deepest iteration (`INFO max_depth`).
    pub max_depth: Option<Depth>,
    /// Node limit (`INFO max_node`).
    pub max_nodes: Option<u64>,
    /// Search threads (`INFO thread_num`).
    pub threads: usize,
}

impl Limits {
    /// A fixed-depth search on one thread with no clock (bench, tests).
    pub fn depth(d: Depth) -> Limits {
        Limits {
            start: Instant::now(),
            budget: Budget::UNLIMITED,
            max_depth: Some(d),
            max_nodes: None,
            threads: 1,
        }
    }
    /// A search limited by a time budget from now.
    pub fn time(budget: Budget) -> Limits {
        Limits {
            start: Instant::now(),
            budget,
            max_depth: None,
            max_nodes: None,
            threads: 1,
        }
    }
}

/// Progress after a completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Nominal depth of the iteration.
    pub depth: Depth,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Score for the side to move.
    pub score: Value,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the command arrived.
    pub elapsed: Duration,
    /// Principal variation, the best move first.
    pub pv: Vec<Pos>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let ms = self.elapsed.as_millis().max(1) as u64;
        self.nodes * 1000 / ms
    }
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The move to play: always a legal square while one exists, `Pos::NONE` on a full board.
    pub best: Pos,
    /// Its score for the side to move.
    pub score: Value,
    /// Depth of the last completed iteration.
    pub depth: Depth,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Pos>,
}

mod engine;
pub mod multipv;
pub mod vcf;
pub mod vct;
pub use engine::{quick_move, Engine, Searcher};

/// Every legal move of the side to move (renju fouls excluded for black), or every empty square
/// when all of them are fouls (then nothing else can be played).
pub fn legal_moves(board: &Board) -> Vec<Pos> {
    let empties: Vec<Pos> = board.squares().filter(|&p| board.is_empty(p)).collect();
    let legal: Vec<Pos> = empties
        .iter()
        .copied()
        .filter(|&p| board.is_legal(p))
        .collect();
    if legal.is_empty() {
        empties
    } else {
        legal
    }
}

/// Stop flag helper: true once raised.
#[inline]
pub(crate) fn stopped(flag: &AtomicBool) -> bool {
    flag.load(std::sync::atomic::Ordering::Relaxed)
}
