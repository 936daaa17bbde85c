//! The Gomocup/Piskvork ("pbrain") front end: lines from the manager become [`Command`]s, the
//! [`session`](session::Session) keeps the position and the settings and runs searches on a
//! worker thread, and every line goes out through one locked [`Output`]. The contract is
//! `docs/protocol.md`; the choices where managers disagree are listed in [`session`].
//!
//! Threads: a reader thread turns stdin into timestamped lines ([`input`]), the search runs on a
//! worker thread, and the session loop (the caller's thread) receives both on one channel, so it
//! hears `YXSTOP`, `END` or `INFO timeout_turn 0` while a search runs.
//!
//! Logging goes to a file only, when `PENTAD_LOG` names one ([`init_logging`]); nothing is ever
//! written to stderr.

pub mod command;
pub mod database;
pub mod input;
pub mod output;
pub mod session;
pub mod tasks;

pub use command::{parse_command, Command, Info};
pub use output::Output;
pub use session::{about_line, Exit, AUTHOR, COUNTRY, NAME};

use crate::book::Book;
use crate::search::{Engine, Searcher};
use std::io::{Read, Write};
use std::sync::mpsc;

/// Runs the protocol on `input`/`output` (stdin/stdout for the engine, buffers or pipes in
/// tests) until `END`, the end of input, or a broken output, with the real searcher and the
/// embedded opening book.
pub fn run<R, W>(input: R, output: W) -> Exit
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    run_with_book(input, output, Searcher::new, Some(crate::book::embedded()))
}

/// [`run`] with any engine and no opening book (every move is the engine's);
/// `make_engine(hash_bytes)` is called when the first search needs one.
pub fn run_with<R, W, E, F>(input: R, output: W, make_engine: F) -> Exit
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
    E: Engine,
    F: FnMut(usize) -> E + 'static,
{
    run_with_book(input, output, make_engine, None)
}

/// [`run_with`] with an opening book.
pub fn run_with_book<R, W, E, F>(
    input: R,
    output: W,
    make_engine: F,
    book: Option<&'static Book>,
) -> Exit
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
    E: Engine,
    F: FnMut(usize) -> E + 'static,
{
    let (tx, rx) = mpsc::channel::<session::Event<E>>();
    let out = Output::new(output);
    if let Err(e) = input::spawn_reader(input, tx.clone()) {
        log::error!("cannot start the input thread: {e}");
        return Exit::Eof;
    }
    let mut s = session::Session::new(out, tx, Box::new(make_engine), book);
    let exit = s.run(&rx);
    s.finish();
    log::debug!("session ended: {exit:?}");
    exit
}

/// Starts logging when the environment variable `PENTAD_LOG` names a file (appended to), at the
/// level or filter in `PENTAD_LOG_LEVEL` (default `debug`). Otherwise logging stays off. Never
/// logs to stdout or stderr.
pub fn init_logging() {
    let Some(path) = std::env::var_os("PENTAD_LOG").filter(|p| !p.is_empty()) else {
        return;
    };
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    else {
        return;
    };
    let level = std::env::var("PENTAD_LOG_LEVEL").unwrap_or_else(|_| "debug".into());
    let _ = env_logger::Builder::new()
        .parse_filters(&level)
        .write_style(env_logger::WriteStyle::Never)
        .format_timestamp_millis()
        .target(env_logger::Target::Pipe(Box::new(file)))
        .try_init();
}

#[cfg(test)]
mod tests;
