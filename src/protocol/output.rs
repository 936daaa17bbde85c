//! The one writer every protocol line goes through: whole lines, LF only, flushed at once, under
//! one lock so that the search's `MESSAGE` lines and the session's answers never interleave.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A cloneable handle on the output stream.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Inner>,
}

struct Inner {
    w: Mutex<Box<dyn Write + Send>>,
    /// After `END`: everything is dropped. Outside the lock, so that closing never waits for a
    /// write blocked on a full pipe.
    closed: AtomicBool,
    /// A write failed (the manager closed the pipe): everything is dropped.
    broken: AtomicBool,
}

impl Output {
    /// Wraps a writer (stdout, or a buffer in tests).
    pub fn new<W: Write + Send + 'static>(w: W) -> Output {
        Output {
            inner: Arc::new(Inner {
                w: Mutex::new(Box::new(w)),
                closed: AtomicBool::new(false),
                broken: AtomicBool::new(false),
            }),
        }
    }

    fn dead(&self) -> bool {
        self.inner.closed.load(Ordering::SeqCst) || self.inner.broken.load(Ordering::SeqCst)
    }

    /// Writes one line (a line end is added) and flushes. The text is made safe first: control
    /// characters become blanks and trailing blanks go.
    pub fn line(&self, text: &str) {
        if self.dead() {
            return;
        }
        let mut s = sanitize(text);
        let mut w = self.inner.w.lock().unwrap_or_else(|e| e.into_inner());
        if self.dead() {
            return;
        }
        log::debug!(">> {s}");
        s.push('\n');
        if let Err(e) = w.write_all(s.as_bytes()).and_then(|()| w.flush()) {
            log::debug!("output failed: {e}");
            self.inner.broken.store(true, Ordering::SeqCst);
        }
    }

    /// `MESSAGE <text>`.
    pub fn message(&self, text: &str) {
        self.line(&format!("MESSAGE {text}"));
    }

    /// `ERROR <text>`.
    pub fn error(&self, text: &str) {
        self.line(&format!("ERROR {text}"));
    }

    /// Drops every later line (after `END`).
    pub fn close(&self) {
        self.inner.closed.store(true, Ordering::SeqCst);
    }

    /// True once a write failed.
    pub fn is_broken(&self) -> bool {
        self.inner.broken.load(Ordering::SeqCst)
    }
}

/// One protocol line from any text: no CR/LF or other control characters inside, no trailing
/// blanks.
pub fn sanitize(text: &str) -> String {
    let s: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    s.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    struct Broken;
    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_are_clean() {
        let b = Buf::default();
        let o = Output::new(b.clone());
        o.line("OK");
        o.message("a\r\nb  ");
        o.error("x\ty");
        o.close();
        o.line("after end");
        let s = String::from_utf8(b.0.lock().unwrap().clone()).unwrap();
        assert_eq!(s, "OK\nMESSAGE a  b\nERROR x y\n");
    }

    #[test]
    fn broken_pipe_is_remembered() {
        let o = Output::new(Broken);
        assert!(!o.is_broken());
        o.line("OK");
        assert!(o.is_broken());
        o.line("OK");
    }
}
