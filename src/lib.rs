//! Pentad: a Gomoku engine for the Gomocup (pbrain) protocol.
//!
//! The library has no I/O: the protocol front end (`protocol`) turns lines into commands and the
//! search's results into lines; everything else is the game and the search.
#![warn(missing_docs)]

pub mod board;
pub mod eval;
pub mod gamefile;
pub mod notation;
pub mod pattern;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod time;
pub mod tt;
pub mod types;

pub use board::Board;
pub use pattern::{Pattern, Threat};
pub use rules::Rule;
pub use types::{Color, Pos};
