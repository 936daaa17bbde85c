//! pentad-tournament: a Gomocup-style match runner for pbrain engines.
//!
//! The engines are child processes spoken to exactly as the Gomocup managers do
//! (`../shared/docs/protocol.md` §4, from the repository root), and their lines are judged as
//! the chosen manager judges them (§1.3, [`judge`]); every rule decision (fives, renju fouls)
//! comes from the `pentad` library. See `README.md` for usage.

pub mod engine;
pub mod game;
pub mod iolog;
pub mod judge;
pub mod opening;
pub mod play;
pub mod record;
pub mod report;
pub mod rng;
pub mod run;
pub mod schedule;
pub mod spec;
pub mod stats;
