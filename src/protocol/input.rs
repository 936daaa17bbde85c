//! The stdin reader: a thread that turns bytes into lines and feeds them to the session through a
//! channel, so that the session keeps listening while a search runs.
//!
//! Every line is stamped with the moment the read that delivered it returned: the time budget of
//! a move counts from there (protocol.md §6.3), and lines delivered by one read share one stamp,
//! which tells the session which lines were already waiting when a search started.

use std::io::{ErrorKind, Read};
use std::sync::mpsc::Sender;
use std::thread;
use std::time::Instant;

/// Longest line kept; the rest of a longer line is dropped (such a line is garbage anyway, and
/// the reader must not run out of memory on it).
pub const MAX_LINE: usize = 1 << 20;

/// What the reader delivers.
#[derive(Debug)]
pub enum Input {
    /// One line, without its terminator (`\n`; a `\r` before it is kept and trimmed later).
    /// Invalid UTF-8 is replaced.
    Line {
        /// The text.
        text: String,
        /// When it was read.
        at: Instant,
    },
    /// End of input (or a read error): the manager is gone.
    Eof,
}

/// Starts the reader thread. It ends at end of input, on a read error, or when the receiving
/// side is gone.
pub fn spawn_reader<R, T>(input: R, tx: Sender<T>) -> std::io::Result<thread::JoinHandle<()>>
where
    R: Read + Send + 'static,
    T: From<Input> + Send + 'static,
{
    thread::Builder::new()
        .name("pentad-stdin".into())
        .spawn(move || read_lines(input, |i| tx.send(T::from(i)).is_ok()))
}

/// Reads `input` to its end, calling `emit` for each line and once for the end; stops early when
/// `emit` returns false.
pub fn read_lines<R: Read>(mut input: R, mut emit: impl FnMut(Input) -> bool) {
    let mut chunk = vec![0u8; 64 * 1024];
    let mut line: Vec<u8> = Vec::new();
    let mut overflow = false;
    loop {
        let n = match input.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => {
                log::debug!("input error: {e}");
                0
            }
        };
        let at = Instant::now();
        if n == 0 {
            if !line.is_empty() && !emit(make_line(&line, at)) {
                return;
            }
            log::debug!("<< end of input");
            emit(Input::Eof);
            return;
        }
        for piece in chunk[..n].split_inclusive(|&b| b == b'\n') {
            let (body, complete) = match piece.split_last() {
                Some((b'\n', body)) => (body, true),
                _ => (piece, false),
            };
            if !overflow {
                let room = MAX_LINE - line.len();
                line.extend_from_slice(&body[..body.len().min(room)]);
                overflow = body.len() > room;
            }
            if complete {
                if overflow {
                    log::debug!("input line longer than {MAX_LINE} bytes cut");
                }
                if !emit(make_line(&line, at)) {
                    return;
                }
                line.clear();
                overflow = false;
            }
        }
    }
}

fn make_line(bytes: &[u8], at: Instant) -> Input {
    let text = String::from_utf8_lossy(bytes).into_owned();
    log::debug!("<< {text}");
    Input::Line { text, at }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<String> {
        let mut v = Vec::new();
        read_lines(bytes, |i| {
            match i {
                Input::Line { text, .. } => v.push(text),
                Input::Eof => v.push("<eof>".into()),
            }
            true
        });
        v
    }

    #[test]
    fn splits_lines() {
        assert_eq!(
            lines(b"START 15\r\nBEGIN\nEND"),
            ["START 15\r", "BEGIN", "END", "<eof>"]
        );
        assert_eq!(lines(b""), ["<eof>"]);
        assert_eq!(lines(b"\n\n"), ["", "", "<eof>"]);
    }

    #[test]
    fn invalid_utf8_and_long_lines() {
        let v = lines(b"A\xff\xfeB\n");
        assert_eq!(v[0], "A\u{fffd}\u{fffd}B");
        let mut long = vec![b'x'; MAX_LINE + 100_000];
        long.extend_from_slice(b"\nEND\n");
        let v = lines(&long);
        assert_eq!(v.len(), 3);
        assert_eq!(v[0].len(), MAX_LINE);
        assert_eq!(v[1], "END");
    }
}
