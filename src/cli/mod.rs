//! The subcommands for people and scripts: each parses its own options, calls the engine library
//! and prints. None of them reaches into the protocol front end.

pub mod analyze;
pub mod bench;
pub mod play;
pub mod puzzles;
pub mod tune;
