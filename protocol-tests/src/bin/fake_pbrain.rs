//! fake-pbrain: a tiny, deliberately simple pbrain used by the runner's own tests. It plays the
//! empty square nearest to the centre and speaks the protocol plainly. Flags inject faults so
//! the tests can check that the runner notices them:
//!
//! `--crlf` end lines with CR LF · `--stderr` write to stderr at start-up · `--banner` print a
//! line before the first command · `--slow MS` wait before every move · `--ignore-end` do not
//! exit on END · `--exit-code N` exit with N · `--two-moves` answer every move twice ·
//! `--messages` print a MESSAGE line before every move · `--alloc MB` touch this much memory ·
//! `--flood` on end of input, print UNKNOWN lines without end (a classic Rust pitfall).

use std::io::{BufRead, Write};
use std::time::Duration;

struct Fake {
    w: usize,
    h: usize,
    cells: Vec<u8>,
    crlf: bool,
    slow: u64,
    two_moves: bool,
    messages: bool,
}

impl Fake {
    fn say(&self, s: &str) {
        let mut out = std::io::stdout().lock();
        let end = if self.crlf { "\r\n" } else { "\n" };
        let _ = write!(out, "{s}{end}");
        let _ = out.flush();
    }

    fn at(&mut self, x: i64, y: i64) -> Option<&mut u8> {
        if x < 0 || y < 0 || x as usize >= self.w || y as usize >= self.h {
            return None;
        }
        Some(&mut self.cells[y as usize * self.w + x as usize])
    }

    fn play(&mut self) {
        std::thread::sleep(Duration::from_millis(self.slow));
        let (cx, cy) = (self.w as i64 - 1, self.h as i64 - 1);
        let mut best: Option<((i64, i64), (i64, i64))> = None;
        for y in 0..self.h as i64 {
            for x in 0..self.w as i64 {
                if self.cells[y as usize * self.w + x as usize] != 0 {
                    continue;
                }
                let d = (
                    (2 * x - cx).abs().max((2 * y - cy).abs()),
                    (2 * x - cx).pow(2) + (2 * y - cy).pow(2),
                );
                if best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, (x, y)));
                }
            }
        }
        match best {
            Some((_, (x, y))) => {
                *self.at(x, y).unwrap() = 1;
                if self.messages {
                    self.say("MESSAGE thinking done");
                }
                self.say(&format!("{x},{y}"));
                if self.two_moves {
                    self.say(&format!("{x},{y}"));
                }
            }
            None => self.say("ERROR board is full"),
        }
    }
}

fn xy(s: &str) -> Option<(i64, i64)> {
    let (a, b) = s.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let value = |f: &str| {
        args.iter()
            .position(|a| a == f)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let mut f = Fake {
        w: 0,
        h: 0,
        cells: Vec::new(),
        crlf: flag("--crlf"),
        slow: value("--slow").unwrap_or(0),
        two_moves: flag("--two-moves"),
        messages: flag("--messages"),
    };
    let exit_code = value("--exit-code").unwrap_or(0) as i32;
    let _memory: Vec<u8> = match value("--alloc") {
        Some(mb) => vec![1u8; (mb as usize) << 20],
        None => Vec::new(),
    };
    if flag("--stderr") {
        eprintln!("fake-pbrain starting");
    }
    if flag("--banner") {
        f.say("fake-pbrain ready");
    }
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while let Some(Ok(raw)) = lines.next() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c.to_ascii_uppercase(), r.trim()),
            None => (line.to_ascii_uppercase(), ""),
        };
        match cmd.as_str() {
            "START" => match rest.parse::<usize>() {
                Ok(n) if (5..=32).contains(&n) => {
                    (f.w, f.h, f.cells) = (n, n, vec![0; n * n]);
                    f.say("OK");
                }
                _ => f.say("ERROR unsupported size"),
            },
            "RESTART" => {
                f.cells = vec![0; f.w * f.h];
                f.say("OK");
            }
            "INFO" => {}
            "ABOUT" => f.say("name=\"fake\", version=\"1\""),
            "BEGIN" => f.play(),
            "TURN" => match xy(rest) {
                Some((x, y)) if f.at(x, y) == Some(&mut 0) => {
                    *f.at(x, y).unwrap() = 2;
                    f.play();
                }
                _ => f.say("ERROR bad coordinates"),
            },
            "BOARD" => {
                f.cells = vec![0; f.w * f.h];
                for l in lines.by_ref() {
                    let Ok(l) = l else { break };
                    let l = l.trim();
                    if l.eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    let v: Vec<i64> = l.split(',').filter_map(|t| t.trim().parse().ok()).collect();
                    if let [x, y, c] = v[..] {
                        if let Some(cell) = f.at(x, y) {
                            *cell = c as u8;
                        }
                    }
                }
                f.play();
            }
            "TAKEBACK" => match xy(rest) {
                Some((x, y)) if f.at(x, y).is_some_and(|c| *c != 0) => {
                    *f.at(x, y).unwrap() = 0;
                    f.say("OK");
                }
                _ => f.say("ERROR bad coordinates"),
            },
            "END" => {
                if !flag("--ignore-end") {
                    std::process::exit(exit_code);
                }
            }
            "YXSTOP" | "STOP" => {}
            _ => f.say(&format!("UNKNOWN {cmd}")),
        }
    }
    if flag("--flood") {
        loop {
            f.say("UNKNOWN No command provided");
        }
    }
    std::process::exit(exit_code);
}
