//! `--log-io FILE`: every line sent to and received from every engine, with the time since the
//! start of the tournament, the game id, the engine's name and process id.
//!
//! Format: `<seconds> g<game> <engine>#<pid> > <line sent>`, `... < <line received>`,
//! `... * <event>` (start, SIGSTOP/SIGCONT, kill, EOF). `g-` means between games.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

/// A shared log file.
pub struct IoLog {
    start: Instant,
    out: Mutex<BufWriter<File>>,
}

impl IoLog {
    /// Creates (truncates) the log file.
    pub fn create(path: &Path) -> std::io::Result<IoLog> {
        Ok(IoLog {
            start: Instant::now(),
            out: Mutex::new(BufWriter::new(File::create(path)?)),
        })
    }

    fn write(&self, game: usize, engine: &str, pid: i32, dir: char, text: &str) {
        let t = self.start.elapsed().as_secs_f64();
        let g = if game == usize::MAX {
            "-".to_string()
        } else {
            game.to_string()
        };
        let mut out = self.out.lock().unwrap();
        let _ = writeln!(out, "{t:.3} g{g} {engine}#{pid} {dir} {text}");
        let _ = out.flush();
    }

    /// A protocol line: `dir` is `>` (to the engine) or `<` (from it).
    pub fn line(&self, game: usize, engine: &str, pid: i32, dir: char, text: &str) {
        self.write(game, engine, pid, dir, text);
    }

    /// Something that happened to the engine.
    pub fn event(&self, game: usize, engine: &str, pid: i32, what: &str) {
        self.write(game, engine, pid, '*', what);
    }
}
