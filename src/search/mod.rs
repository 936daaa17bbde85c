//! The search: iterative deepening principal variation search over a shared transposition table,
//! with threat searches (VCF, VCT) at the root and Lazy SMP threads.
//!
//! The front end calls [`Searcher::search`] with a board, limits and a stop flag it may raise from
//! another thread; progress comes back through a callback, once per completed iteration.
//!
//! Where each part lives, in the order a search runs them:
//! * [`searcher`]: the entry point and the order of the root steps; the [`Engine`] trait;
//! * `root_threats`: the VCF and VCT at the root, and the check of the root moves against the
//!   opponent's VCF;
//! * `threads`: what the Lazy SMP threads share; the helper that runs the root threat searches;
//! * `iterate`: iterative deepening, aspiration windows, the soft time limit's scaling;
//! * `node`: the node search, step by step;
//! * `movegen`: legal moves, root moves, and each node's ordered, flagged moves;
//! * [`policy`]: the learned shape scores the moves are ordered by;
//! * `worker`: one thread's state;
//! * [`vcf`], [`vct`]: the threat solvers; [`multipv`]: several searches for one answer;
//! * [`limits`], [`outcome`]: what a search is asked and what it answers.

mod iterate;
pub mod limits;
mod movegen;
pub mod multipv;
mod node;
pub mod outcome;
pub mod policy;
mod root_threats;
pub mod searcher;
mod threads;
pub mod vcf;
pub mod vct;
mod worker;

#[cfg(test)]
pub(crate) mod testing;

pub use limits::Limits;
pub use movegen::{legal_moves, quick_move};
pub use outcome::{Info, Outcome};
pub use searcher::{Engine, Searcher};
