//! What a search is asked for: its time budget, depth and node limits, and threads. The stop
//! flag, raised from another thread, ends any search.

use crate::time::Budget;
use crate::types::Depth;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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

/// Stop flag helper: true once raised.
#[inline]
pub(crate) fn stopped(flag: &AtomicBool) -> bool {
    flag.load(Ordering::Relaxed)
}
