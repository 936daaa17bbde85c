//! A running engine process: stdin for the runner, stdout and stderr read on their own threads
//! into one channel, every line stamped with the time it arrived.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// One line the engine wrote.
#[derive(Clone, Debug)]
pub struct Line {
    pub at: Instant,
    /// The line without its `\n` (a `\r` before it is kept), decoded lossily as UTF-8.
    pub text: String,
    /// False for a last line that ended without `\n`.
    pub terminated: bool,
}

/// What the reader threads report.
#[derive(Debug)]
pub enum Event {
    Stdout(Line),
    Stderr(Line),
    /// stdout reached end of file.
    StdoutClosed(Instant),
}

/// The outcome of waiting for the next event.
#[derive(Debug)]
pub enum Recv {
    Event(Event),
    Timeout,
    /// Both reader threads are gone and the channel is empty.
    Disconnected,
}

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    pub pid: u32,
    exit: Option<ExitStatus>,
}

fn reader<R: Read + Send + 'static>(src: R, tx: Sender<Event>, is_stdout: bool) {
    thread::spawn(move || {
        let mut r = BufReader::new(src);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let at = Instant::now();
                    let terminated = buf.last() == Some(&b'\n');
                    if terminated {
                        buf.pop();
                    }
                    let line = Line {
                        at,
                        text: String::from_utf8_lossy(&buf).into_owned(),
                        terminated,
                    };
                    let ev = if is_stdout {
                        Event::Stdout(line)
                    } else {
                        Event::Stderr(line)
                    };
                    if tx.send(ev).is_err() {
                        return;
                    }
                }
            }
        }
        if is_stdout {
            let _ = tx.send(Event::StdoutClosed(Instant::now()));
        }
    });
}

impl Engine {
    /// Starts `argv[0]` with the rest as arguments, in `cwd` if given, with extra environment.
    pub fn spawn(
        argv: &[String],
        cwd: Option<&Path>,
        env: &[(String, String)],
    ) -> Result<Engine, String> {
        let (prog, args) = argv.split_first().ok_or("empty engine command line")?;
        let mut cmd = Command::new(prog);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(d) = cwd {
            cmd.current_dir(d);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own process group, so that helpers the engine starts die with it.
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start engine '{prog}': {e}"))?;
        let (tx, rx) = channel();
        reader(child.stdout.take().unwrap(), tx.clone(), true);
        reader(child.stderr.take().unwrap(), tx, false);
        let pid = child.id();
        Ok(Engine {
            stdin: child.stdin.take(),
            child,
            rx,
            pid,
            exit: None,
        })
    }

    /// Writes and flushes; an error means the engine no longer reads its input.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stdin was already closed")?;
        stdin
            .write_all(bytes)
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write to the engine: {e}"))
    }

    /// Closes the engine's stdin (it sees end of file).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    pub fn recv_until(&self, deadline: Instant) -> Recv {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(ev) => Recv::Event(ev),
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
            Err(RecvTimeoutError::Disconnected) => Recv::Disconnected,
        }
    }

    /// The exit status if the process has ended.
    pub fn try_exit(&mut self) -> Option<ExitStatus> {
        if self.exit.is_none() {
            self.exit = self.child.try_wait().ok().flatten();
        }
        self.exit
    }

    /// Polls until the process ends or the deadline passes.
    pub fn wait_exit_until(&mut self, deadline: Instant) -> Option<(ExitStatus, Instant)> {
        loop {
            if let Some(st) = self.try_exit() {
                return Some((st, Instant::now()));
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Peak resident set size in bytes (Linux `VmHWM`); `Err` with a reason where unavailable.
    pub fn peak_rss(&self) -> Result<Option<u64>, String> {
        if !cfg!(target_os = "linux") {
            return Ok(None);
        }
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid))
            .map_err(|e| format!("cannot read /proc/{}/status: {e}", self.pid))?;
        let line = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .ok_or("no VmHWM line in /proc/PID/status")?;
        let kb: u64 = line
            .trim_start_matches("VmHWM:")
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .map_err(|_| format!("cannot read '{line}'"))?;
        Ok(Some(kb * 1024))
    }

    /// Kills the engine (and its process group) if it still runs, and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        if self.try_exit().is_none() {
            #[cfg(unix)]
            // SAFETY: kill(2) with the negated id of the process group we created in spawn.
            unsafe {
                libc::kill(-(self.pid as i32), libc::SIGKILL);
            }
            let _ = self.child.kill();
            self.exit = self.child.wait().ok();
        }
        // Once the leader is reaped its id may be reused, so the group is not signalled then.
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Describes an exit status for reports.
pub fn describe_exit(st: &ExitStatus) -> String {
    if let Some(c) = st.code() {
        return format!("exit code {c}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(s) = st.signal() {
            return format!("killed by signal {s}");
        }
    }
    format!("{st}")
}
