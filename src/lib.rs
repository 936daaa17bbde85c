//! Pentad: a Gomoku engine for the Gomocup (pbrain) protocol.
//!
//! The engine (types, rules, pattern, board, eval, search, tt, time, notation) does no I/O.
//! Nor do the opening book (`book`, embedded at build time), the Yixin-Board position database
//! (`database`), the symmetric position key they share (`symmetry`) and their byte layout
//! (`storage`): they turn files' bytes into values and back; the front ends read and write the
//! files. Beside them: `gamefile` reads and writes game and puzzle files, and the protocol front end
//! (`protocol`) turns lines into commands and the search's results into lines, speaking only
//! through the reader and writer it is given. The subcommands for people are modules of the
//! binary (`src/cli/`). Imports run one way: protocol → book, database → search → eval → board → pattern, rules →
//! types.
#![warn(missing_docs)]

pub mod board;
pub mod book;
pub mod database;
pub mod eval;
pub mod gamefile;
pub mod notation;
pub mod pattern;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod storage;
pub mod symmetry;
pub mod time;
pub mod tt;
pub mod types;

pub use board::Board;
pub use pattern::{Pattern, Threat};
pub use rules::Rule;
pub use types::{Color, Pos};
