//! pentad-tournament: a Gomocup-style match runner for pbrain engines.
//!
//! The engines are child processes spoken to exactly as the Gomocup managers do
//! (`/work/shared/docs/protocol.md` §4); every rule decision (fives, renju fouls) comes from the
//! `pentad` library. See `README.md` for usage.

pub mod engine;
pub mod game;
pub mod iolog;
pub mod opening;
pub mod play;
pub mod record;
pub mod report;
pub mod rng;
pub mod run;
pub mod schedule;
pub mod spec;
pub mod stats;
