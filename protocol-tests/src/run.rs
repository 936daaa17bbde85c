//! Runs one scenario against a fresh engine process and decides pass, fail or skip.

use crate::engine::{describe_exit, Engine, Event, Line, Recv};
use crate::scenario::{Expect, Piece, Scenario, SquareRef, Step, StepAt, Template};
use crate::track::{Cell, Tracker};
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How the runner was asked to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The engine command line, already split into words.
    pub engine: Vec<String>,
    /// Working directory for the engine (default: the runner's).
    pub cwd: Option<PathBuf>,
    pub verbose: bool,
    /// Multiplies reply timeouts, `within` bounds and `exit` bounds (not `silence`/`sleep`).
    pub time_scale: f64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail(String),
    Skip(String),
}

/// Why a step stopped the scenario.
enum Stop {
    Fail(String),
    Skip(String),
}

type StepResult = Result<(), Stop>;

fn fail<T>(msg: impl Into<String>) -> Result<T, Stop> {
    Err(Stop::Fail(msg.into()))
}

/// `MESSAGE` lines (upper case, as GomocupJudgeLocal requires) are information, not answers.
pub fn is_message(text: &str) -> bool {
    text == "MESSAGE" || text.starts_with("MESSAGE ")
}

/// Shows control characters and keeps the line readable in reports.
pub fn show(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars() {
        match c {
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            '\n' => s.push_str("\\n"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                s.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => s.push(c),
        }
    }
    const MAX: usize = 200;
    if s.chars().count() > MAX {
        let cut: String = s.chars().take(MAX).collect();
        return format!("{cut}… ({} chars)", text.len());
    }
    s
}

enum Wait {
    Timeout,
    Closed,
}

struct Session<'a> {
    opts: &'a Options,
    sc: &'a Scenario,
    engine: Option<Engine>,
    tracker: Tracker,
    unread: VecDeque<Line>,
    stdout_all: Vec<Line>,
    stderr_all: Vec<Line>,
    closed: bool,
    started: Instant,
    last_send: Instant,
    messages: usize,
    vars: HashMap<String, (i64, i64)>,
    label: Option<String>,
    /// `{dir}`: a directory of this scenario's own, made on first use, removed at the end.
    scratch: std::cell::OnceCell<PathBuf>,
}

/// A fresh directory for one scenario's files.
fn make_scratch() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("protocol-tests-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::create_dir_all(&dir);
    dir
}

impl<'a> Session<'a> {
    fn scaled(&self, ms: u64) -> Duration {
        Duration::from_secs_f64(ms as f64 * self.opts.time_scale / 1000.0)
    }

    fn stamp(&self, at: Instant) -> String {
        format!(
            "[{:>6} ms]",
            at.saturating_duration_since(self.started).as_millis()
        )
    }

    fn spawn(&mut self) -> StepResult {
        let mut argv = self.opts.engine.clone();
        argv.extend(self.sc.args.iter().cloned());
        let e = Engine::spawn(&argv, self.opts.cwd.as_deref(), &self.sc.env).map_err(Stop::Fail)?;
        if self.opts.verbose {
            say!(
                "  {} spawned pid {}: {}",
                self.stamp(Instant::now()),
                e.pid,
                argv.join(" ")
            );
        }
        self.engine = Some(e);
        self.tracker = Tracker::new();
        self.unread.clear();
        self.closed = false;
        self.last_send = Instant::now();
        Ok(())
    }

    fn engine(&mut self) -> Result<&mut Engine, Stop> {
        self.engine
            .as_mut()
            .ok_or_else(|| Stop::Fail("no engine process".into()))
    }

    /// Takes one event off the channel; false on timeout or when nothing more can come.
    fn pump(&mut self, deadline: Instant) -> bool {
        let Some(e) = self.engine.as_ref() else {
            return false;
        };
        if self.closed && Instant::now() >= deadline {
            return false;
        }
        match e.recv_until(deadline) {
            Recv::Event(Event::Stdout(l)) => {
                if self.opts.verbose {
                    say!("  {} < {}", self.stamp(l.at), show(&l.text));
                }
                if self.stdout_all.len() < 100_000 {
                    self.stdout_all.push(l.clone());
                }
                self.unread.push_back(l);
                true
            }
            Recv::Event(Event::Stderr(l)) => {
                if self.opts.verbose {
                    say!("  {} ! {}", self.stamp(l.at), show(&l.text));
                }
                if self.stderr_all.len() < 100_000 {
                    self.stderr_all.push(l);
                }
                true
            }
            Recv::Event(Event::StdoutClosed(at)) => {
                if self.opts.verbose {
                    say!("  {} < (end of output)", self.stamp(at));
                }
                self.closed = true;
                true
            }
            Recv::Timeout => false,
            Recv::Disconnected => {
                self.closed = true;
                false
            }
        }
    }

    /// Takes everything that has already arrived, waiting at most `ms`.
    fn drain(&mut self, ms: u64) {
        self.drain_until(Instant::now() + Duration::from_millis(ms), false);
    }

    /// Pumps until the deadline (or end of output, if `until_closed`). Bounded even when the
    /// engine writes without end: past the deadline at most a fixed number of events are taken.
    fn drain_until(&mut self, deadline: Instant, until_closed: bool) {
        let mut late = 0;
        while !(until_closed && self.closed) && self.pump(deadline) {
            if Instant::now() >= deadline {
                late += 1;
                if late > 10_000 {
                    break;
                }
            }
        }
    }

    /// The next output line; MESSAGE lines are counted and skipped when `skip_messages`.
    fn next_line(&mut self, deadline: Instant, skip_messages: bool) -> Result<Line, Wait> {
        loop {
            if let Some(l) = self.unread.pop_front() {
                if skip_messages && is_message(&l.text) {
                    self.messages += 1;
                    continue;
                }
                return Ok(l);
            }
            if self.closed {
                return Err(Wait::Closed);
            }
            // Checked here too, so that endless MESSAGE lines cannot keep the wait going.
            if Instant::now() >= deadline || !self.pump(deadline) {
                return Err(if self.closed {
                    Wait::Closed
                } else {
                    Wait::Timeout
                });
            }
        }
    }

    fn closed_reason(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        match self
            .engine
            .as_mut()
            .and_then(|e| e.wait_exit_until(deadline))
        {
            Some((st, _)) => format!("the engine closed its output ({})", describe_exit(&st)),
            None => "the engine closed its output".to_string(),
        }
    }

    fn resolve_var(&self, name: &str) -> Result<(i64, i64), Stop> {
        let board = self.tracker.board.as_ref();
        let found = match name {
            "free" => board.and_then(|b| b.nearest_free()),
            "last" => board.and_then(|b| b.last()),
            v => {
                return self
                    .vars
                    .get(v)
                    .copied()
                    .ok_or_else(|| Stop::Fail(format!("{{{v}}} has no value")))
            }
        };
        found
            .map(|(x, y)| (x as i64, y as i64))
            .ok_or_else(|| Stop::Fail(format!("{{{name}}}: no such square on the tracked board")))
    }

    fn resolve(&self, t: &Template) -> Result<Vec<u8>, Stop> {
        let mut out = Vec::new();
        for p in &t.0 {
            match p {
                Piece::Bytes(b) => out.extend_from_slice(b),
                Piece::Var(v) if v == "dir" => {
                    let dir = self.scratch.get_or_init(make_scratch);
                    out.extend_from_slice(dir.to_string_lossy().as_bytes());
                }
                Piece::Var(v) => {
                    let (x, y) = self.resolve_var(v)?;
                    out.extend_from_slice(format!("{x},{y}").as_bytes());
                }
            }
        }
        Ok(out)
    }

    fn square(&self, s: &SquareRef) -> Result<(i64, i64), Stop> {
        match s {
            SquareRef::At(x, y) => Ok((*x, *y)),
            SquareRef::Var(v) => self.resolve_var(v),
        }
    }

    fn send(&mut self, bytes: &[u8]) -> StepResult {
        if self.opts.verbose {
            let now = self.stamp(Instant::now());
            let text = String::from_utf8_lossy(bytes);
            let mut parts: Vec<&str> = text.split('\n').collect();
            let ends_lf = text.ends_with('\n');
            if ends_lf {
                parts.pop();
            }
            for (i, p) in parts.iter().enumerate() {
                let more = if i + 1 == parts.len() && !ends_lf {
                    " (no LF)"
                } else {
                    ""
                };
                say!("  {now} > {}{more}", show(p));
            }
        }
        let r = self.engine()?.write(bytes);
        self.last_send = Instant::now();
        if let Err(e) = r {
            let why = self.closed_reason();
            return fail(format!("{e}; {why}"));
        }
        self.tracker.feed(bytes);
        Ok(())
    }

    fn step(&mut self, st: &StepAt) -> StepResult {
        match &st.step {
            Step::Send(t) => {
                let bytes = self.resolve(t)?;
                self.send(&bytes)
            }
            Step::Expect { within_ms, what } => self.expect(*within_ms, what),
            Step::Silence {
                ms,
                messages_ok,
                else_skip,
            } => self.silence(*ms, *messages_ok, *else_skip),
            Step::Messages { at_most, n } => {
                self.drain(0);
                while self.unread.front().is_some_and(|l| is_message(&l.text)) {
                    self.unread.pop_front();
                    self.messages += 1;
                }
                let got = std::mem::take(&mut self.messages);
                let ok = if *at_most { got <= *n } else { got == *n };
                if ok {
                    Ok(())
                } else {
                    let want = if *at_most { "at most" } else { "exactly" };
                    fail(format!("{got} MESSAGE line(s), wanted {want} {n}"))
                }
            }
            Step::Sleep(ms) => {
                std::thread::sleep(Duration::from_millis(*ms));
                Ok(())
            }
            Step::Close => {
                if self.opts.verbose {
                    say!("  {} > (close stdin)", self.stamp(Instant::now()));
                }
                self.engine()?.close_stdin();
                self.last_send = Instant::now();
                Ok(())
            }
            Step::Exit { ms, output_ok } => self.exit(*ms, *output_ok),
            Step::Respawn => {
                self.finish_process()?;
                self.spawn()
            }
            Step::PeakRssBelow(limit) => match self.engine()?.peak_rss() {
                Ok(None) => Err(Stop::Skip("peak memory is only measured on Linux".into())),
                Err(e) => fail(e),
                Ok(Some(v)) if v >= *limit => fail(format!(
                    "peak RSS {v} bytes ({:.1} MiB) is not below {limit} ({:.1} MiB)",
                    v as f64 / 1048576.0,
                    *limit as f64 / 1048576.0
                )),
                Ok(Some(v)) => {
                    if self.opts.verbose {
                        say!("  peak RSS {:.1} MiB", v as f64 / 1048576.0);
                    }
                    Ok(())
                }
            },
            Step::Seek(re) => self.seek(re),
            Step::Label(l) => {
                self.label = Some(l.clone());
                if self.opts.verbose {
                    say!("  -- {l}");
                }
                Ok(())
            }
        }
    }

    fn expect(&mut self, within_ms: Option<u64>, what: &Expect) -> StepResult {
        let timeout = self.scaled(self.sc.timeout_ms);
        let mut deadline = Instant::now() + timeout;
        if let Some(w) = within_ms {
            deadline = deadline.max(self.last_send + self.scaled(w) + Duration::from_millis(1000));
        }
        let waited_from = Instant::now();
        let line = match self.next_line(deadline, true) {
            Ok(l) => l,
            Err(Wait::Timeout) => {
                let waited = deadline
                    .saturating_duration_since(waited_from)
                    .as_secs_f64();
                return fail(format!("no reply within {:.0} ms", waited * 1000.0));
            }
            Err(Wait::Closed) => {
                let why = self.closed_reason();
                return fail(format!("no reply: {why}"));
            }
        };
        let r = self.check_reply(within_ms, what, &line);
        if line.at < self.last_send {
            // Say so when the line is older than the command: a left-over from an earlier reply.
            let early = self.last_send.duration_since(line.at).as_millis();
            return r.map_err(|e| match e {
                Stop::Fail(m) => Stop::Fail(format!(
                    "{m} (that line was written {early} ms before the last command: a left-over reply?)"
                )),
                other => other,
            });
        }
        r
    }

    /// Reads lines, MESSAGE lines included, until one matches `re`; a line other than MESSAGE
    /// before it fails the step.
    fn seek(&mut self, re: &regex::Regex) -> StepResult {
        let deadline = Instant::now() + self.scaled(self.sc.timeout_ms);
        loop {
            match self.next_line(deadline, false) {
                Ok(l) => {
                    let message = is_message(&l.text);
                    if message {
                        self.messages += 1;
                    }
                    if re.is_match(&l.text) {
                        return Ok(());
                    }
                    if !message {
                        return fail(format!(
                            "'{}' came before a line matching /{}/",
                            show(&l.text),
                            re.as_str()
                        ));
                    }
                }
                Err(Wait::Timeout) => {
                    return fail(format!("no line matching /{}/ in time", re.as_str()))
                }
                Err(Wait::Closed) => {
                    let why = self.closed_reason();
                    return fail(format!("no line matching /{}/: {why}", re.as_str()));
                }
            }
        }
    }

    fn check_reply(&mut self, within_ms: Option<u64>, what: &Expect, line: &Line) -> StepResult {
        let elapsed = line.at.saturating_duration_since(self.last_send);
        if let Some(w) = within_ms {
            let limit = self.scaled(w);
            if elapsed > limit {
                return fail(format!(
                    "reply '{}' came {} ms after the last command, limit {} ms",
                    show(&line.text),
                    elapsed.as_millis(),
                    limit.as_millis()
                ));
            }
        }
        let text = line.text.as_str();
        match what {
            Expect::Exact(t) => {
                let want = self.resolve(t)?;
                if text.as_bytes() != want.as_slice() {
                    return fail(format!(
                        "expected '{}', got '{}'",
                        show(&String::from_utf8_lossy(&want)),
                        show(text)
                    ));
                }
            }
            Expect::Match(re) => {
                if !re.is_match(text) {
                    return fail(format!("'{}' does not match /{}/", show(text), re.as_str()));
                }
            }
            Expect::Move { inside, not, save } => {
                let (x, y) = self.check_move(text)?;
                let mut allowed = Vec::new();
                for s in inside {
                    allowed.push(self.square(s)?);
                }
                if !allowed.is_empty() && !allowed.contains(&(x, y)) {
                    let list: Vec<String> =
                        allowed.iter().map(|(a, b)| format!("{a},{b}")).collect();
                    return Err(self.move_failure(format!(
                        "move {x},{y} is not one of {{{}}}",
                        list.join(" ")
                    )));
                }
                for s in not {
                    if self.square(s)? == (x, y) {
                        return Err(
                            self.move_failure(format!("move {x},{y} is one it must not play"))
                        );
                    }
                }
                self.tracker.engine_move(x, y);
                if let Some(name) = save {
                    self.vars.insert(name.clone(), (x, y));
                }
            }
            Expect::Swap2(case) => self.check_swap2(*case, text)?,
        }
        Ok(())
    }

    fn move_failure(&self, msg: String) -> Stop {
        if self.opts.verbose {
            if let Some(b) = &self.tracker.board {
                say!("  position before the move (X = engine, O = opponent):");
                for row in b.diagram().lines() {
                    say!("    {row}");
                }
            }
        }
        Stop::Fail(msg)
    }

    /// A move line is `x,y`: plain decimal numbers, no blanks, on an empty square.
    fn check_move(&self, text: &str) -> Result<(i64, i64), Stop> {
        let parsed = text.split_once(',').and_then(|(a, b)| {
            let digits =
                |s: &str| !s.is_empty() && s.len() <= 6 && s.bytes().all(|c| c.is_ascii_digit());
            if digits(a) && digits(b) {
                Some((a.parse().ok()?, b.parse().ok()?))
            } else {
                None
            }
        });
        let Some((x, y)) = parsed else {
            return fail(format!("'{}' is not a move line 'x,y'", show(text)));
        };
        self.check_square(x, y)?;
        Ok((x, y))
    }

    fn check_square(&self, x: i64, y: i64) -> StepResult {
        let Some(b) = &self.tracker.board else {
            return fail(format!(
                "move {x},{y}: no board is tracked (no START was sent)"
            ));
        };
        match b.get(x, y) {
            None => Err(self.move_failure(format!(
                "move {x},{y} is off the {}x{} board",
                b.width, b.height
            ))),
            Some(Cell::Empty) => Ok(()),
            Some(c) => {
                Err(self.move_failure(format!("move {x},{y} is on an occupied square ({c:?})")))
            }
        }
    }

    fn check_swap2(&self, case: u8, text: &str) -> StepResult {
        if text == "SWAP" {
            return if case == 1 {
                fail("SWAP is not a reply to an empty SWAP2BOARD (case 1 wants three moves)")
            } else {
                Ok(())
            };
        }
        let toks: Vec<&str> = text.split(' ').collect();
        let allowed: &[usize] = match case {
            1 => &[3],
            2 => &[1, 2],
            _ => &[1],
        };
        if !allowed.contains(&toks.len()) {
            return fail(format!(
                "'{}' is not a SWAP2BOARD case {case} reply (expected {})",
                show(text),
                match case {
                    1 => "three moves 'x,y x,y x,y' separated by single spaces",
                    2 => "SWAP, 'x,y' or 'x,y x,y'",
                    _ => "SWAP or 'x,y'",
                }
            ));
        }
        let mut seen = Vec::new();
        for t in toks {
            let (x, y) = self.check_move(t)?;
            if seen.contains(&(x, y)) {
                return fail(format!("'{}' names {x},{y} twice", show(text)));
            }
            seen.push((x, y));
        }
        Ok(())
    }

    fn silence(&mut self, ms: u64, messages_ok: bool, else_skip: bool) -> StepResult {
        let deadline = Instant::now() + Duration::from_millis(ms);
        match self.next_line(deadline, messages_ok) {
            Ok(l) => {
                let after = l.at.saturating_duration_since(self.last_send).as_millis();
                let msg = format!(
                    "output '{}' {after} ms after the last command",
                    show(&l.text)
                );
                if else_skip {
                    Err(Stop::Skip(format!(
                        "{msg}: the engine answered before the condition under test could be set up"
                    )))
                } else {
                    fail(format!("expected no output for {ms} ms, got {msg}"))
                }
            }
            Err(Wait::Timeout) => Ok(()),
            Err(Wait::Closed) => {
                let why = self.closed_reason();
                fail(format!("expected no output for {ms} ms, but {why}"))
            }
        }
    }

    fn exit(&mut self, ms: u64, output_ok: bool) -> StepResult {
        let deadline = self.last_send + self.scaled(ms);
        let last_send = self.last_send;
        let engine = self.engine()?;
        let Some((st, at)) = engine.wait_exit_until(deadline) else {
            return fail(format!("still running {ms} ms after the last command"));
        };
        if self.opts.verbose {
            say!(
                "  {} exited: {} after {} ms",
                self.stamp(at),
                describe_exit(&st),
                at.saturating_duration_since(last_send).as_millis()
            );
        }
        if st.code() != Some(0) {
            return fail(format!("exited with {}, not code 0", describe_exit(&st)));
        }
        self.drain(300);
        if !output_ok {
            self.unexpected_output("before exiting")?;
        }
        self.unread.clear();
        Ok(())
    }

    /// Fails on unread lines other than MESSAGE.
    fn unexpected_output(&mut self, when: &str) -> StepResult {
        if let Some(l) = self.unread.iter().find(|l| !is_message(&l.text)) {
            let after = l.at.saturating_duration_since(self.last_send).as_millis();
            return fail(format!(
                "unexpected output {when}: '{}' ({after} ms after the last command)",
                show(&l.text)
            ));
        }
        Ok(())
    }

    /// Checks the rest of the output of the current process, then ends it.
    fn finish_process(&mut self) -> StepResult {
        self.drain(20);
        let r = self.unexpected_output("at the end");
        if let Some(e) = self.engine.as_mut() {
            e.kill();
        }
        // Collect what is left (stderr, a last partial line) for the final checks.
        if self.engine.is_some() {
            self.drain_until(Instant::now() + Duration::from_millis(300), true);
            self.drain(0);
        }
        self.engine = None;
        r
    }

    fn final_checks(&self) -> StepResult {
        let c = &self.sc.checks;
        if c.no_stderr {
            if let Some(l) = self.stderr_all.first() {
                return fail(format!("wrote to stderr: '{}'", show(&l.text)));
            }
        }
        for l in &self.stdout_all {
            if c.no_cr && l.text.contains('\r') {
                return fail(format!("output line contains CR: '{}'", show(&l.text)));
            }
            if c.no_trailing_blanks && l.text.trim_end_matches('\r').ends_with([' ', '\t']) {
                return fail(format!(
                    "output line ends with a blank: '{}'",
                    show(&l.text)
                ));
            }
            if c.lf_terminated && !l.terminated {
                return fail(format!("last output line has no LF: '{}'", show(&l.text)));
            }
        }
        Ok(())
    }
}

/// Runs a scenario in fresh engine processes.
pub fn run(sc: &Scenario, opts: &Options) -> Outcome {
    let now = Instant::now();
    let mut s = Session {
        opts,
        sc,
        engine: None,
        tracker: Tracker::new(),
        unread: VecDeque::new(),
        stdout_all: Vec::new(),
        stderr_all: Vec::new(),
        closed: false,
        started: now,
        last_send: now,
        messages: 0,
        vars: HashMap::new(),
        label: None,
        scratch: std::cell::OnceCell::new(),
    };
    let mut result = s.spawn();
    if result.is_ok() {
        for st in &sc.steps {
            if let Err(e) = s.step(st) {
                let at = match &s.label {
                    Some(l) => format!("[{l}] line {} `{}`", st.line, st.src),
                    None => format!("line {} `{}`", st.line, st.src),
                };
                result = Err(match e {
                    Stop::Fail(m) => Stop::Fail(format!("{at}: {m}")),
                    Stop::Skip(m) => Stop::Skip(format!("{at}: {m}")),
                });
                break;
            }
        }
    }
    let finished = s.finish_process();
    let result = result.and(finished).and_then(|_| s.final_checks());
    if let Some(dir) = s.scratch.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
    match result {
        Ok(()) => Outcome::Pass,
        Err(Stop::Fail(m)) => Outcome::Fail(m),
        Err(Stop::Skip(m)) => Outcome::Skip(m),
    }
}
