//! Engine descriptions: `--engine name=X cmd="..." turn=200 ...` tokens, on top of global
//! defaults and `--each` tokens.

use crate::judge::Judge;
use anyhow::{anyhow, bail, Result};
use serde::{Deserialize, Serialize};

/// What to do with an engine's process between games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Restart {
    /// A new process for every game (GomocupJudge, Piskvork tournaments): END, 0.5 s, kill.
    Fresh,
    /// Keep the process and send START again for the next game (c-gomoku-cli).
    Reuse,
}

/// Everything about one engine of the tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineSpec {
    /// Name in tables and game records (unique).
    pub name: String,
    /// Command line: program and arguments, split like a shell does (quotes, backslashes).
    pub cmd: String,
    /// Working directory (default: the tournament's).
    pub dir: Option<String>,
    /// `INFO timeout_turn` in ms; `None`: not sent, no per-move limit.
    pub turn_ms: Option<u64>,
    /// `INFO timeout_match` in ms; 0 = unlimited (`time_left` 2147483647).
    pub match_ms: u64,
    /// Increment added to the match clock before each move (c-gomoku-cli), in ms.
    pub inc_ms: u64,
    /// Grace beyond `min(time_left, timeout_turn)` before a move is a time loss, in ms.
    pub tolerance_ms: u64,
    /// `INFO max_memory` in bytes, also the enforced limit; 0 = unlimited.
    pub memory: u64,
    /// `INFO thread_num`; also what the engine costs in cores.
    pub threads: u32,
    /// `INFO max_depth`.
    pub depth: Option<u64>,
    /// `INFO max_node`.
    pub nodes: Option<u64>,
    /// Extra `INFO key value` lines, in order.
    pub options: Vec<(String, String)>,
    /// Process per game or reused.
    pub restart: Restart,
    /// Send BOARD before every move instead of TURN.
    pub board_every_move: bool,
    /// Whose rule judges the lines before its answers (files without it: GomocupJudge).
    #[serde(default)]
    pub judge: Judge,
}

impl EngineSpec {
    /// A template with the given defaults and no name or command.
    pub fn template() -> EngineSpec {
        EngineSpec {
            name: String::new(),
            cmd: String::new(),
            dir: None,
            turn_ms: Some(5000),
            match_ms: 120_000,
            inc_ms: 0,
            tolerance_ms: 1000,
            memory: 367_001_600,
            threads: 1,
            depth: None,
            nodes: None,
            options: Vec::new(),
            restart: Restart::Fresh,
            board_every_move: false,
            judge: Judge::default(),
        }
    }

    /// Applies `key=value` tokens (see README: name, cmd, dir, turn, match, inc, tolerance,
    /// memory, threads, depth, nodes, option.KEY, restart, board-every-move, judge).
    pub fn apply(&mut self, tokens: &[String]) -> Result<()> {
        for tok in tokens {
            let (key, value) = match tok.split_once('=') {
                Some((k, v)) => (k.trim(), Some(unquote(v.trim()))),
                None => (tok.trim(), None),
            };
            let need = || {
                value
                    .clone()
                    .ok_or_else(|| anyhow!("engine option '{key}' needs =VALUE"))
            };
            match key {
                "name" => self.name = need()?,
                "cmd" => self.cmd = need()?,
                "dir" => self.dir = Some(need()?),
                "turn" | "timeout_turn" => {
                    let v = need()?;
                    self.turn_ms = if v == "none" || v == "-" {
                        None
                    } else {
                        Some(parse_ms(&v)?)
                    };
                }
                "match" | "timeout_match" => self.match_ms = parse_ms(&need()?)?,
                "inc" | "increment" => self.inc_ms = parse_ms(&need()?)?,
                "tolerance" => self.tolerance_ms = parse_ms(&need()?)?,
                "memory" | "max_memory" => self.memory = parse_bytes(&need()?)?,
                "threads" | "thread_num" => {
                    self.threads = need()?
                        .parse()
                        .map_err(|_| anyhow!("bad threads in '{tok}'"))?;
                    if self.threads == 0 {
                        bail!("threads must be at least 1");
                    }
                }
                "depth" | "max_depth" => {
                    self.depth = Some(
                        need()?
                            .parse()
                            .map_err(|_| anyhow!("bad depth in '{tok}'"))?,
                    )
                }
                "nodes" | "max_node" => {
                    self.nodes = Some(
                        need()?
                            .parse()
                            .map_err(|_| anyhow!("bad nodes in '{tok}'"))?,
                    )
                }
                "restart" => {
                    self.restart = match need()?.as_str() {
                        "fresh" | "on" => Restart::Fresh,
                        "reuse" | "off" => Restart::Reuse,
                        v => bail!("restart must be fresh or reuse, not '{v}'"),
                    }
                }
                "board-every-move" | "board_every_move" | "sendbyboard" => {
                    self.board_every_move = match value.as_deref() {
                        None | Some("true") | Some("1") | Some("on") => true,
                        Some("false") | Some("0") | Some("off") => false,
                        Some(v) => bail!("board-every-move takes true or false, not '{v}'"),
                    }
                }
                "judge" => {
                    let v = need()?;
                    self.judge = Judge::parse(&v).ok_or_else(|| {
                        anyhow!(
                            "judge must be piskvork, cgomokucli, gomocupjudge or jlocal, not '{v}'"
                        )
                    })?;
                }
                k if k.starts_with("option.") && k.len() > 7 => {
                    let v = need()?;
                    let k = k[7..].to_string();
                    if k.contains(char::is_whitespace) {
                        bail!("option key '{k}' has blanks");
                    }
                    self.options.retain(|(old, _)| *old != k);
                    self.options.push((k, v));
                }
                _ => bail!("unknown engine option '{key}' (in '{tok}')"),
            }
        }
        Ok(())
    }

    /// Checks that the description is complete.
    pub fn validate(&self) -> Result<()> {
        if self.name.is_empty() {
            bail!("an engine has no name= (cmd '{}')", self.cmd);
        }
        if self
            .name
            .chars()
            .any(|c| c.is_whitespace() || c == '/' || c == '"')
        {
            bail!(
                "engine name '{}' may not contain blanks, '/' or '\"'",
                self.name
            );
        }
        if self.cmd.trim().is_empty() {
            bail!("engine '{}' has no cmd=", self.name);
        }
        split_command(&self.cmd).map_err(|e| anyhow!("engine '{}': {e}", self.name))?;
        Ok(())
    }

    /// The turn budget before the tolerance: `min(time_left, timeout_turn)`, or `None` when
    /// neither limits the move.
    pub fn budget_ms(&self, time_left: Option<i64>) -> Option<i64> {
        match (self.turn_ms.map(|t| t as i64), time_left) {
            (Some(t), Some(l)) => Some(t.min(l)),
            (Some(t), None) => Some(t),
            (None, Some(l)) => Some(l),
            (None, None) => None,
        }
    }
}

fn unquote(v: &str) -> String {
    let b = v.as_bytes();
    if b.len() >= 2 && (b[0] == b'"' || b[0] == b'\'') && b[b.len() - 1] == b[0] {
        v[1..v.len() - 1].to_string()
    } else {
        v.to_string()
    }
}

/// Milliseconds: `500`, `500ms`, `2s`, `1.5s`, `3m`.
pub fn parse_ms(s: &str) -> Result<u64> {
    let s = s.trim();
    let (num, mult) = if let Some(n) = s.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1000.0)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60_000.0)
    } else {
        (s, 1.0)
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| anyhow!("'{s}' is not a duration (ms, or with s/m suffix)"))?;
    if v < 0.0 || !v.is_finite() {
        bail!("'{s}' is not a duration");
    }
    Ok((v * mult).round() as u64)
}

/// Bytes: `367001600`, `64M`/`64MiB`/`64MB` (binary multiples), `1G`, `512K`.
pub fn parse_bytes(s: &str) -> Result<u64> {
    let t = s.trim().to_ascii_lowercase();
    let t = t.trim_end_matches("ib").trim_end_matches('b').to_string();
    let (num, mult) = match t.chars().last() {
        Some('k') => (&t[..t.len() - 1], 1u64 << 10),
        Some('m') => (&t[..t.len() - 1], 1 << 20),
        Some('g') => (&t[..t.len() - 1], 1 << 30),
        _ => (&t[..], 1),
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| anyhow!("'{s}' is not a memory size"))?;
    if v < 0.0 || !v.is_finite() {
        bail!("'{s}' is not a memory size");
    }
    Ok((v * mult as f64).round() as u64)
}

/// Splits a command line like a POSIX shell does for words: blanks separate, single quotes
/// keep everything, double quotes keep blanks (backslash escapes `"` and `\` inside), a
/// backslash outside quotes escapes the next character.
pub fn split_command(cmd: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err(format!("unclosed ' in command: {cmd}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.peek() {
                            Some(&n) if n == '"' || n == '\\' => {
                                cur.push(n);
                                chars.next();
                            }
                            _ => cur.push('\\'),
                        },
                        Some(c) => cur.push(c),
                        None => return Err(format!("unclosed \" in command: {cmd}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err("empty command".into());
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &[&str]) -> Vec<String> {
        s.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn engine_tokens() {
        let mut e = EngineSpec::template();
        e.apply(&toks(&[
            "name=a",
            "cmd=\"/bin/x --y 'z w'\"",
            "turn=200",
            "match=10s",
            "inc=50ms",
            "memory=64M",
            "threads=2",
            "depth=9",
            "nodes=1000",
            "option.hash_size=1024",
            "restart=reuse",
            "board-every-move",
            "dir=/tmp",
            "judge=jlocal",
        ]))
        .unwrap();
        e.validate().unwrap();
        assert_eq!(e.name, "a");
        assert_eq!(split_command(&e.cmd).unwrap(), vec!["/bin/x", "--y", "z w"]);
        assert_eq!(e.turn_ms, Some(200));
        assert_eq!(e.match_ms, 10_000);
        assert_eq!(e.inc_ms, 50);
        assert_eq!(e.memory, 64 << 20);
        assert_eq!(e.threads, 2);
        assert_eq!((e.depth, e.nodes), (Some(9), Some(1000)));
        assert_eq!(e.options, vec![("hash_size".into(), "1024".into())]);
        assert_eq!(e.restart, Restart::Reuse);
        assert!(e.board_every_move);
        assert_eq!(e.dir.as_deref(), Some("/tmp"));
        assert_eq!(e.judge, Judge::JLocal);
        assert!(e.apply(&toks(&["judge=arbiter"])).is_err());
        e.apply(&toks(&["turn=none", "board-every-move=false"]))
            .unwrap();
        assert_eq!(e.turn_ms, None);
        assert!(!e.board_every_move);
        assert!(e.apply(&toks(&["bogus=1"])).is_err());
        assert!(e.apply(&toks(&["threads=0"])).is_err());
        assert!(e.apply(&toks(&["name"])).is_err());
        let mut bad = EngineSpec::template();
        bad.apply(&toks(&["cmd=x"])).unwrap();
        assert!(bad.validate().is_err());
    }

    #[test]
    fn units_and_budgets() {
        assert_eq!(parse_ms("1.5s").unwrap(), 1500);
        assert_eq!(parse_ms("2m").unwrap(), 120_000);
        assert_eq!(parse_ms("250").unwrap(), 250);
        assert!(parse_ms("abc").is_err());
        assert_eq!(parse_bytes("350MiB").unwrap(), 350 << 20);
        assert_eq!(parse_bytes("1g").unwrap(), 1 << 30);
        assert_eq!(parse_bytes("367001600").unwrap(), 367_001_600);
        assert!(parse_bytes("lots").is_err());
        let mut e = EngineSpec::template();
        e.turn_ms = Some(300);
        assert_eq!(e.budget_ms(Some(1000)), Some(300));
        assert_eq!(e.budget_ms(Some(100)), Some(100));
        assert_eq!(e.budget_ms(None), Some(300));
        e.turn_ms = None;
        assert_eq!(e.budget_ms(None), None);
    }

    #[test]
    fn command_splitting() {
        assert_eq!(split_command("a b  c").unwrap(), vec!["a", "b", "c"]);
        assert_eq!(
            split_command(r#"python3 "my engine.py" --x\ y ''"#).unwrap(),
            vec!["python3", "my engine.py", "--x y", ""]
        );
        assert!(split_command("'open").is_err());
        assert!(split_command("   ").is_err());
    }
}
