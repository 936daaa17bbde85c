//! What a search answers: progress after each iteration ([`Info`]) and the result
//! ([`Outcome`]).

use crate::types::{Depth, Pos, Value};
use std::time::Duration;

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
