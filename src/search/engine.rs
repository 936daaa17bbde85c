//! Temporary one-ply searcher (replaced by the real search).
use super::{legal_moves, Info, Limits, Outcome};
use crate::board::Board;
use std::sync::atomic::AtomicBool;

/// Owns the transposition table and runs searches.
pub struct Searcher {
    hash_bytes: usize,
}

impl Searcher {
    /// A searcher whose table takes at most `hash_bytes`.
    pub fn new(hash_bytes: usize) -> Searcher {
        Searcher { hash_bytes }
    }
    /// Resizes the table (clears it).
    pub fn resize(&mut self, hash_bytes: usize) {
        self.hash_bytes = hash_bytes;
    }
    /// Bytes the table takes.
    pub fn hash_bytes(&self) -> usize {
        self.hash_bytes
    }
    /// Empties the table.
    pub fn clear(&mut self) {}
    /// Share of the table in use, in permille.
    pub fn hash_usage_permille(&self) -> u32 {
        0
    }
    /// Searches `board` for the side to move.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        _stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        let me = board.side_to_move();
        let moves = legal_moves(board);
        let best = moves
            .iter()
            .copied()
            .max_by_key(|&p| {
                (
                    board.value(me, p) * 2 + board.value(me.opp(), p),
                    std::cmp::Reverse(p),
                )
            })
            .unwrap_or(crate::types::Pos::NONE);
        let info = Info {
            depth: 1,
            seldepth: 1,
            score: 0,
            nodes: moves.len() as u64,
            elapsed: limits.start.elapsed(),
            pv: vec![best],
        };
        report(&info);
        Outcome {
            best,
            score: 0,
            depth: 1,
            nodes: info.nodes,
            pv: info.pv,
        }
    }
}
