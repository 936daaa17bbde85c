//! An engine's process: spawning it in its own process group, writing command lines, reading
//! its lines with deadlines (a reader thread feeds a channel), freezing and thawing it
//! (SIGSTOP/SIGCONT on the group, as GomocupJudge suspends the brain), measuring the peak
//! resident memory of its process tree, and ending it (END, grace period, SIGKILL).

use crate::iolog::IoLog;
use crate::spec::{split_command, EngineSpec};
use ahash::AHashSet;
use anyhow::{Context, Result};
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, TrySendError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;

/// Process groups of the engines alive now, so that an interrupted tournament can kill them.
fn live_groups() -> &'static Mutex<AHashSet<i32>> {
    static LIVE: OnceLock<Mutex<AHashSet<i32>>> = OnceLock::new();
    LIVE.get_or_init(|| Mutex::new(AHashSet::new()))
}

/// Kills every engine process group still alive (on Ctrl-C or a fatal error).
pub fn kill_all_engines() {
    let groups: Vec<i32> = live_groups().lock().unwrap().drain().collect();
    for g in groups {
        // SAFETY: plain syscalls on a process group id we created.
        unsafe {
            libc::kill(-g, libc::SIGCONT);
            libc::kill(-g, libc::SIGKILL);
        }
    }
}

/// What the reader thread passes on.
enum Msg {
    Line(String, Instant),
    Eof,
}

/// The result of waiting for a line.
#[derive(Debug)]
pub enum Recv {
    /// A line (without its end), and when it arrived.
    Line(String, Instant),
    /// The engine closed its output (it exited or crashed).
    Eof,
    /// Nothing before the deadline.
    Timeout,
}

/// Options for spawning that are not per engine.
#[derive(Clone, Default)]
pub struct SpawnOptions {
    /// End lines with CR LF instead of LF.
    pub crlf: bool,
    /// Let the engines' stderr through to ours (default: discarded).
    pub stderr: bool,
    /// Where to log every line.
    pub log: Option<Arc<IoLog>>,
}

/// A running engine.
pub struct Proc {
    /// The tournament's name for it.
    pub name: String,
    child: Child,
    pid: i32,
    stdin: Option<ChildStdin>,
    rx: Receiver<Msg>,
    eof: bool,
    frozen: bool,
    crlf: bool,
    game: Arc<AtomicUsize>,
    log: Option<Arc<IoLog>>,
    /// The engine's answer to ABOUT.
    pub about: Option<String>,
    /// Games started on this process.
    pub games: usize,
}

impl Proc {
    /// Starts the engine's command (in `dir` if given) in a new process group.
    pub fn spawn(spec: &EngineSpec, opts: &SpawnOptions) -> Result<Proc> {
        let words = split_command(&spec.cmd).map_err(anyhow::Error::msg)?;
        let mut cmd = Command::new(&words[0]);
        cmd.args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if opts.stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .process_group(0);
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        // SAFETY: prctl is async-signal-safe; it asks the kernel to kill the engine if the
        // thread that started it (a tournament worker) dies, so no engine outlives a crash.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(
                    libc::PR_SET_PDEATHSIG,
                    libc::SIGKILL as libc::c_ulong,
                    0,
                    0,
                    0,
                );
                Ok(())
            });
        }
        let mut child = cmd
            .spawn()
            .with_context(|| format!("cannot start engine '{}' ({})", spec.name, spec.cmd))?;
        let pid = child.id() as i32;
        live_groups().lock().unwrap().insert(pid);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = sync_channel::<Msg>(4096);
        let game = Arc::new(AtomicUsize::new(usize::MAX));
        let (log, name, g2) = (opts.log.clone(), spec.name.clone(), game.clone());
        std::thread::Builder::new()
            .name(format!("read-{}-{pid}", spec.name))
            .spawn(move || read_lines(stdout, tx, log, name, pid, g2))
            .context("cannot start a reader thread")?;
        if let Some(l) = &opts.log {
            l.event(
                usize::MAX,
                &spec.name,
                pid,
                &format!("started: {}", spec.cmd),
            );
        }
        Ok(Proc {
            name: spec.name.clone(),
            child,
            pid,
            stdin,
            rx,
            eof: false,
            frozen: false,
            crlf: opts.crlf,
            game,
            log: opts.log.clone(),
            about: None,
            games: 0,
        })
    }

    /// Process id (also the process group id).
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// Sets the game id used in the I/O log.
    pub fn set_game(&self, id: usize) {
        self.game.store(id, Ordering::Relaxed);
    }

    fn game_id(&self) -> usize {
        self.game.load(Ordering::Relaxed)
    }

    /// Logs an event about this engine.
    pub fn note(&self, what: &str) {
        if let Some(l) = &self.log {
            l.event(self.game_id(), &self.name, self.pid, what);
        }
    }

    /// Writes command lines; false if the engine no longer reads them.
    pub fn send(&mut self, lines: &[String]) -> bool {
        let end = if self.crlf { "\r\n" } else { "\n" };
        let mut buf = String::new();
        for l in lines {
            if let Some(log) = &self.log {
                log.line(self.game_id(), &self.name, self.pid, '>', l);
            }
            buf.push_str(l);
            buf.push_str(end);
        }
        match &mut self.stdin {
            Some(s) => s.write_all(buf.as_bytes()).and_then(|_| s.flush()).is_ok(),
            None => false,
        }
    }

    /// Waits for the next line until `deadline` (`None`: no deadline).
    pub fn recv(&mut self, deadline: Option<Instant>) -> Recv {
        if self.eof {
            return Recv::Eof;
        }
        let msg = match deadline {
            None => self.rx.recv().ok(),
            Some(d) => {
                let now = Instant::now();
                let wait = d.saturating_duration_since(now);
                match self.rx.recv_timeout(wait) {
                    Ok(m) => Some(m),
                    Err(RecvTimeoutError::Timeout) => return Recv::Timeout,
                    Err(RecvTimeoutError::Disconnected) => None,
                }
            }
        };
        match msg {
            Some(Msg::Line(s, t)) => Recv::Line(s, t),
            Some(Msg::Eof) | None => {
                self.eof = true;
                Recv::Eof
            }
        }
    }

    /// Drops lines already received (stale output between games); returns how many.
    pub fn drain(&mut self) -> usize {
        let mut n = 0;
        while let Ok(m) = self.rx.try_recv() {
            match m {
                Msg::Line(..) => n += 1,
                Msg::Eof => {
                    self.eof = true;
                    break;
                }
            }
        }
        n
    }

    /// Suspends the engine's process group (SIGSTOP).
    pub fn freeze(&mut self) {
        if !self.frozen {
            // SAFETY: signal to our own child's process group.
            unsafe { libc::kill(-self.pid, libc::SIGSTOP) };
            self.frozen = true;
            self.note("SIGSTOP");
        }
    }

    /// Resumes the engine's process group (SIGCONT).
    pub fn thaw(&mut self) {
        if self.frozen {
            // SAFETY: as above.
            unsafe { libc::kill(-self.pid, libc::SIGCONT) };
            self.frozen = false;
            self.note("SIGCONT");
        }
    }

    /// True when the process has exited (reaping it).
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// How the process ended, if it has.
    pub fn exit_text(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(st)) => Some(describe_status(st)),
            _ => None,
        }
    }

    /// Peak resident memory of the process tree in bytes: VmHWM of the engine and of every
    /// descendant found through /proc/<pid>/task/*/children (VmRSS where VmHWM is missing).
    pub fn peak_memory(&self) -> u64 {
        tree_peak_memory(self.pid)
    }

    /// Kills the process group now and reaps the process.
    pub fn kill(&mut self) {
        // SAFETY: signals to our own child's process group.
        unsafe {
            libc::kill(-self.pid, libc::SIGCONT);
            libc::kill(-self.pid, libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.stdin = None;
        live_groups().lock().unwrap().remove(&self.pid);
        self.note("killed");
    }

    /// Sends END (after thawing) without waiting.
    pub fn send_end(&mut self) {
        self.thaw();
        self.send(&["END".to_string()]);
    }

    /// Waits until the process exits or `deadline` passes, then kills what is left.
    pub fn finish(&mut self, deadline: Instant) {
        while Instant::now() < deadline {
            if self.has_exited() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Whatever the engine left behind in its group goes too.
        self.kill();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if live_groups().lock().unwrap().contains(&self.pid) {
            self.kill();
        }
    }
}

fn describe_status(st: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    if let Some(c) = st.code() {
        format!("exit code {c}")
    } else if let Some(s) = st.signal() {
        format!("killed by signal {s}")
    } else {
        "ended".into()
    }
}

fn read_lines(
    mut out: std::process::ChildStdout,
    tx: std::sync::mpsc::SyncSender<Msg>,
    log: Option<Arc<IoLog>>,
    name: String,
    pid: i32,
    game: Arc<AtomicUsize>,
) {
    let mut buf = [0u8; 8192];
    let mut line: Vec<u8> = Vec::new();
    let mut overflow = false;
    let emit = |line: &mut Vec<u8>| -> bool {
        while line.last() == Some(&b'\r') {
            line.pop();
        }
        let s = String::from_utf8_lossy(line).into_owned();
        line.clear();
        if let Some(l) = &log {
            l.line(game.load(Ordering::Relaxed), &name, pid, '<', &s);
        }
        let mut msg = Msg::Line(s, Instant::now());
        // Block when the channel is full (an engine flooding output waits for us).
        loop {
            match tx.try_send(msg) {
                Ok(()) => return true,
                Err(TrySendError::Full(m)) => {
                    msg = m;
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(TrySendError::Disconnected(_)) => return false,
            }
        }
    };
    loop {
        let n = match out.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        for &b in &buf[..n] {
            if b == b'\n' {
                overflow = false;
                if !emit(&mut line) {
                    return;
                }
            } else if line.len() < MAX_LINE {
                line.push(b);
            } else if !overflow {
                overflow = true;
            }
        }
    }
    if !line.is_empty() {
        emit(&mut line);
    }
    if let Some(l) = &log {
        l.event(game.load(Ordering::Relaxed), &name, pid, "EOF on output");
    }
    let _ = tx.send(Msg::Eof);
}

/// Reads a `Vm...:  1234 kB` field of /proc/<pid>/status, in bytes.
fn status_field(status: &str, key: &str) -> Option<u64> {
    status.lines().find_map(|l| {
        let rest = l.strip_prefix(key)?.strip_prefix(':')?;
        let kb: u64 = rest.trim().trim_end_matches("kB").trim().parse().ok()?;
        Some(kb * 1024)
    })
}

/// Children of a process, from every thread's `children` list.
fn children(pid: i32) -> Vec<i32> {
    let mut out = Vec::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in tasks.flatten() {
            if let Ok(s) = std::fs::read_to_string(t.path().join("children")) {
                out.extend(s.split_whitespace().filter_map(|w| w.parse::<i32>().ok()));
            }
        }
    }
    out
}

/// Sum over a process tree of each process's peak resident set (VmHWM, else VmRSS), in bytes.
pub fn tree_peak_memory(root: i32) -> u64 {
    let mut total = 0;
    let mut stack = vec![root];
    let mut seen = AHashSet::new();
    while let Some(pid) = stack.pop() {
        if !seen.insert(pid) {
            continue;
        }
        if let Ok(st) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
            total += status_field(&st, "VmHWM")
                .or_else(|| status_field(&st, "VmRSS"))
                .unwrap_or(0);
        }
        stack.extend(children(pid));
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_parsing() {
        let st = "Name:\tx\nVmPeak:\t  100 kB\nVmHWM:\t    2048 kB\nVmRSS:\t  1024 kB\n";
        assert_eq!(status_field(st, "VmHWM"), Some(2048 * 1024));
        assert_eq!(status_field(st, "VmRSS"), Some(1024 * 1024));
        assert_eq!(status_field(st, "VmSwap"), None);
        // Our own process has a measurable peak.
        let me = tree_peak_memory(std::process::id() as i32);
        assert!(me > 100 * 1024, "{me}");
    }

    #[test]
    fn talks_to_a_shell_engine() {
        let mut spec = EngineSpec::template();
        spec.name = "sh".into();
        // A tiny "engine": answers the first line with its upper-case echo, then exits.
        spec.cmd = "sh -c 'read l; echo \"got $l\"; printf \"partial\"'".into();
        let mut p = Proc::spawn(&spec, &SpawnOptions::default()).unwrap();
        assert!(p.send(&["hello".into()]));
        let dl = Some(Instant::now() + Duration::from_secs(5));
        match p.recv(dl) {
            Recv::Line(s, _) => assert_eq!(s, "got hello"),
            r => panic!("{r:?}"),
        }
        match p.recv(dl) {
            Recv::Line(s, _) => assert_eq!(s, "partial"),
            r => panic!("{r:?}"),
        }
        assert!(matches!(p.recv(dl), Recv::Eof));
        p.finish(Instant::now() + Duration::from_secs(2));
        assert!(p.exit_text().is_some());
    }

    #[test]
    fn deadline_and_freeze() {
        let mut spec = EngineSpec::template();
        spec.name = "cat".into();
        spec.cmd = "cat".into();
        let mut p = Proc::spawn(&spec, &SpawnOptions::default()).unwrap();
        let t = Instant::now();
        assert!(matches!(
            p.recv(Some(t + Duration::from_millis(100))),
            Recv::Timeout
        ));
        assert!(t.elapsed() >= Duration::from_millis(100));
        // Frozen, cat does not echo; thawed, it does.
        p.freeze();
        assert!(p.send(&["ping".into()]));
        assert!(matches!(
            p.recv(Some(Instant::now() + Duration::from_millis(200))),
            Recv::Timeout
        ));
        p.thaw();
        match p.recv(Some(Instant::now() + Duration::from_secs(5))) {
            Recv::Line(s, _) => assert_eq!(s, "ping"),
            r => panic!("{r:?}"),
        }
        assert!(p.peak_memory() > 0);
        p.kill();
        assert!(p.has_exited());
    }
}
