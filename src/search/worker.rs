//! One search thread's state: its board, its share of the limits, the principal variation,
//! killers and history. The root driver (`iterate`), the node search (`node`) and the move
//! generator (`movegen`) are its methods, each in its own file.

use super::limits::{stopped, Limits};
use super::threads::Shared;
use crate::board::Board;
use crate::tt::Table;
use crate::types::{Pos, AREA};
use std::sync::atomic::{AtomicBool, Ordering};

/// Deepest ply a search line may reach.
pub(super) const MAX_PLY: usize = 128;
/// Nodes between two looks at the clock.
const CHECK_EVERY: u64 = 1024;

/// A search thread.
pub(super) struct Worker<'a> {
    /// The position, moves made and taken back as the search walks the tree.
    pub(super) board: Board,
    /// The table every thread shares.
    pub(super) tt: &'a Table,
    pub(super) limits: &'a Limits,
    pub(super) stop: &'a AtomicBool,
    pub(super) shared: &'a Shared,
    /// 0 for the main thread (it alone reports and watches the clock).
    pub(super) id: usize,
    /// Whether the root moves that lose to a VCF have been removed.
    pub(super) losing_applied: bool,
    /// Nodes searched by this thread, and the part of them added to the shared count.
    pub(super) nodes: u64,
    pub(super) flushed: u64,
    /// Node count at which the limits are looked at next.
    pub(super) next_check: u64,
    /// Raised when a limit or the stop flag ends the search: every node returns at once.
    pub(super) aborted: bool,
    /// Deepest ply reached in the current iteration.
    pub(super) seldepth: i32,
    /// Cut-off history per colour and square (kept across iterations).
    pub(super) history: Box<[[i32; AREA]; 2]>,
    /// Two quiet moves per ply that last caused a cut-off.
    pub(super) killers: [[Pos; 2]; MAX_PLY],
    /// The principal variation from each ply (triangular table) and its lengths.
    pub(super) pv: Box<[[Pos; MAX_PLY]; MAX_PLY]>,
    pub(super) pv_len: [usize; MAX_PLY],
    /// The move left out at each ply while a singular extension tests the others.
    pub(super) excluded: [Pos; MAX_PLY],
    /// The iteration's depth: extensions stop at twice it.
    pub(super) root_depth: crate::types::Depth,
}

impl<'a> Worker<'a> {
    pub(super) fn new(
        board: Board,
        tt: &'a Table,
        limits: &'a Limits,
        stop: &'a AtomicBool,
        shared: &'a Shared,
        id: usize,
    ) -> Self {
        Worker {
            board,
            tt,
            limits,
            stop,
            shared,
            id,
            losing_applied: false,
            nodes: 0,
            flushed: 0,
            next_check: CHECK_EVERY,
            aborted: false,
            seldepth: 0,
            history: Box::new([[0; AREA]; 2]),
            killers: [[Pos::NONE; 2]; MAX_PLY],
            pv: Box::new([[Pos::NONE; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            excluded: [Pos::NONE; MAX_PLY],
            root_depth: 0,
        }
    }

    pub(super) fn flush_nodes(&mut self) {
        self.shared
            .total_nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    #[inline]
    pub(super) fn check_limits(&mut self) {
        // Node counts jump by whole threat searches, so compare, don't take a remainder.
        if self.nodes < self.next_check {
            return;
        }
        self.next_check = self.nodes + CHECK_EVERY;
        if stopped(self.stop)
            || (self.id != 0 && self.shared.done.load(Ordering::Relaxed))
            || self.shared.threats.found.load(Ordering::Relaxed)
        {
            self.aborted = true;
            return;
        }
        self.flush_nodes();
        if self.id == 0 {
            if self.limits.start.elapsed() >= self.limits.budget.hard {
                self.aborted = true;
            }
            if let Some(n) = self.limits.max_nodes {
                if self.shared.total_nodes.load(Ordering::Relaxed) >= n {
                    self.aborted = true;
                }
            }
        }
    }

    pub(super) fn set_pv(&mut self, ply: usize, mv: Pos) {
        self.pv[ply][0] = mv;
        let n = self.pv_len[ply + 1].min(MAX_PLY - ply - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }
}
