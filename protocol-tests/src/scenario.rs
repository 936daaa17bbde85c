//! The scenario file format (documented in README.md) and its parser.

use crate::track::{board_order, moves_order, parse_pos, parse_pos_run, parse_xy};
use regex::Regex;
use std::collections::HashSet;
use std::fmt;

/// A piece of text to send or expect: bytes, or a placeholder filled in at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Bytes(Vec<u8>),
    /// `{free}`, `{last}` or a name saved by `move … as NAME`.
    Var(String),
}

/// Text with escapes already decoded and placeholders kept apart.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Template(pub Vec<Piece>);

impl Template {
    pub fn literal(bytes: &[u8]) -> Template {
        Template(vec![Piece::Bytes(bytes.to_vec())])
    }

    fn push_bytes(&mut self, bytes: &[u8]) {
        if let Some(Piece::Bytes(b)) = self.0.last_mut() {
            b.extend_from_slice(bytes);
        } else {
            self.0.push(Piece::Bytes(bytes.to_vec()));
        }
    }

    fn vars(&self) -> impl Iterator<Item = &str> {
        self.0.iter().filter_map(|p| match p {
            Piece::Var(v) => Some(v.as_str()),
            Piece::Bytes(_) => None,
        })
    }
}

/// A square named in a scenario: `x,y`, pos notation `h8`, or `{NAME}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareRef {
    At(i64, i64),
    Var(String),
}

impl fmt::Display for SquareRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareRef::At(x, y) => write!(f, "{x},{y}"),
            SquareRef::Var(v) => write!(f, "{{{v}}}"),
        }
    }
}

/// What an expectation step wants from the next reply line (MESSAGE lines are skipped).
#[derive(Clone, Debug)]
pub enum Expect {
    /// The line, byte for byte (without its `\n`).
    Exact(Template),
    /// The line matches the regular expression.
    Match(Regex),
    /// A move `x,y` on an empty on-board square of the tracked position.
    Move {
        inside: Vec<SquareRef>,
        not: Vec<SquareRef>,
        save: Option<String>,
    },
    /// A reply to SWAP2BOARD with 0 (case 1), 3 (case 2) or 5 (case 3) stones.
    Swap2(u8),
}

/// One step of a scenario.
#[derive(Clone, Debug)]
pub enum Step {
    /// Write bytes to the engine's stdin (one write).
    Send(Template),
    Expect {
        within_ms: Option<u64>,
        what: Expect,
    },
    /// No output for this long.
    Silence {
        ms: u64,
        messages_ok: bool,
        else_skip: bool,
    },
    /// Check how many MESSAGE lines were skipped since the start or the previous `messages`.
    Messages {
        at_most: bool,
        n: usize,
    },
    Sleep(u64),
    /// Close the engine's stdin (EOF).
    Close,
    /// The engine exits with code 0 within `ms` of the last thing sent.
    Exit {
        ms: u64,
        output_ok: bool,
    },
    /// Kill the engine and start a fresh process.
    Respawn,
    /// Peak resident memory (Linux VmHWM) below this many bytes.
    PeakRssBelow(u64),
    /// A name for the following steps, shown in failure reports.
    Label(String),
    /// Read lines until one matches (MESSAGE lines included); only MESSAGE lines may come before
    /// it.
    Seek(Regex),
}

/// A step with where it came from.
#[derive(Clone, Debug)]
pub struct StepAt {
    pub line: usize,
    pub src: String,
    pub step: Step,
}

/// Checks applied to everything the engine wrote during the scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    pub no_stderr: bool,
    pub no_cr: bool,
    pub no_trailing_blanks: bool,
    pub lf_terminated: bool,
}

/// A parsed scenario file.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    pub covers: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub timeout_ms: u64,
    pub checks: Checks,
    pub steps: Vec<StepAt>,
}

/// Default time to wait for a reply when a step gives no `within` bound.
pub const DEFAULT_TIMEOUT_MS: u64 = 5000;

/// Decodes `\r \n \t \s \\ \xHH \{ \}` and splits out `{NAME}` placeholders.
pub fn unescape(s: &str) -> Result<Template, String> {
    let mut t = Template::default();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                let c = *b.get(i + 1).ok_or("a lone '\\' ends the text")?;
                i += 2;
                match c {
                    b'r' => t.push_bytes(b"\r"),
                    b'n' => t.push_bytes(b"\n"),
                    b't' => t.push_bytes(b"\t"),
                    b's' => t.push_bytes(b" "),
                    b'0' => t.push_bytes(b"\0"),
                    b'\\' | b'{' | b'}' => t.push_bytes(&[c]),
                    b'x' => {
                        let hex = s.get(i..i + 2).ok_or("\\x needs two hex digits")?;
                        let v = u8::from_str_radix(hex, 16)
                            .map_err(|_| format!("bad hex escape \\x{hex}"))?;
                        t.push_bytes(&[v]);
                        i += 2;
                    }
                    other => return Err(format!("unknown escape \\{}", other as char)),
                }
            }
            b'{' => {
                let end = s[i..]
                    .find('}')
                    .ok_or("'{' without '}' (write \\{ for a literal brace)")?;
                let name = &s[i + 1..i + end];
                if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(format!("bad placeholder {{{name}}}"));
                }
                t.0.push(Piece::Var(name.to_string()));
                i += end + 1;
            }
            _ => {
                let start = i;
                while i < b.len() && b[i] != b'\\' && b[i] != b'{' {
                    i += 1;
                }
                t.push_bytes(&b[start..i]);
            }
        }
    }
    Ok(t)
}

/// Splits a command line like a POSIX shell would for plain words: blanks separate words,
/// single quotes are literal, double quotes allow `\"` and `\\`, a backslash escapes outside.
pub fn split_command_line(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
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
                        None => return Err("unterminated ' quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => cur.push(c),
                            Some(c) => {
                                cur.push('\\');
                                cur.push(c);
                            }
                            None => return Err("unterminated \" quote".into()),
                        },
                        Some(c) => cur.push(c),
                        None => return Err("unterminated \" quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => cur.push(c),
                    None => return Err("command line ends with '\\'".into()),
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
    Ok(words)
}

fn parse_ms(s: &str, what: &str) -> Result<u64, String> {
    s.parse()
        .map_err(|_| format!("{what}: '{s}' is not a whole number of milliseconds"))
}

fn parse_square(tok: &str) -> Result<SquareRef, String> {
    if let Some(name) = tok.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        return Ok(SquareRef::Var(name.to_string()));
    }
    if let Some((x, y)) = parse_xy(tok).filter(|_| !tok.contains(' ')) {
        return Ok(SquareRef::At(x, y));
    }
    if let Some((x, y)) = parse_pos(tok) {
        return Ok(SquareRef::At(x, y));
    }
    Err(format!(
        "'{tok}' is not a square (write x,y or pos notation like h8)"
    ))
}

fn parse_move(rest: &str) -> Result<Expect, String> {
    let mut inside = Vec::new();
    let mut not = Vec::new();
    let mut save = None;
    let mut list: Option<&mut Vec<SquareRef>> = None;
    let mut toks = rest.split_whitespace();
    while let Some(tok) = toks.next() {
        match tok {
            "in" => list = Some(&mut inside),
            "not" => list = Some(&mut not),
            "as" => {
                let name = toks.next().ok_or("'as' needs a name")?;
                if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    || name == "free"
                    || name == "last"
                    || name == "dir"
                {
                    return Err(format!("bad variable name '{name}'"));
                }
                save = Some(name.to_string());
                list = None;
            }
            sq => match list.as_deref_mut() {
                Some(l) => l.push(parse_square(sq)?),
                None => {
                    return Err(format!(
                        "unexpected '{sq}' (use: move [in SQ…] [not SQ…] [as NAME])"
                    ))
                }
            },
        }
    }
    Ok(Expect::Move { inside, not, save })
}

fn parse_expect(kw: &str, rest: &str) -> Result<Option<Expect>, String> {
    Ok(Some(match kw {
        "expect" => Expect::Exact(unescape(rest)?),
        "match" => {
            Expect::Match(Regex::new(rest).map_err(|e| format!("bad regular expression: {e}"))?)
        }
        "move" => parse_move(rest)?,
        "swap2" => match rest {
            "1" => Expect::Swap2(1),
            "2" => Expect::Swap2(2),
            "3" => Expect::Swap2(3),
            _ => return Err("swap2 takes the case number 1, 2 or 3".into()),
        },
        _ => return Ok(None),
    }))
}

/// Splits off the first word; the rest is trimmed.
fn first_word(s: &str) -> (&str, &str) {
    match s.split_once(char::is_whitespace) {
        Some((a, b)) => (a, b.trim()),
        None => (s, ""),
    }
}

/// Options shared by `board` and `board-moves`: `crlf` line ends, `lower` case commands, `yx`
/// for YXBOARD (a position without a move request) instead of BOARD.
struct BoardStyle {
    crlf: bool,
    lower: bool,
    yx: bool,
}

fn board_style(rest: &str) -> Result<(BoardStyle, &str), String> {
    let mut style = BoardStyle {
        crlf: false,
        lower: false,
        yx: false,
    };
    let mut rest = rest;
    loop {
        let (w, r) = first_word(rest);
        match w {
            "crlf" => style.crlf = true,
            "lower" => style.lower = true,
            "yx" => style.yx = true,
            _ => return Ok((style, rest)),
        }
        rest = r;
    }
}

fn board_bytes(style: &BoardStyle, stones: &[(i64, i64, u8)]) -> Vec<u8> {
    let end = if style.crlf { "\r\n" } else { "\n" };
    let (board, done) = match (style.yx, style.lower) {
        (false, false) => ("BOARD", "DONE"),
        (false, true) => ("board", "done"),
        (true, false) => ("YXBOARD", "DONE"),
        (true, true) => ("yxboard", "done"),
    };
    let mut s = format!("{board}{end}");
    for (x, y, f) in stones {
        s.push_str(&format!("{x},{y},{f}{end}"));
    }
    s.push_str(&format!("{done}{end}"));
    s.into_bytes()
}

/// Parses one diagram row: `X`/`x` own, `O`/`o` opponent, `#` wall, `.`/`+`/`-`/`_` empty;
/// blanks between cells are ignored.
fn diagram_row(
    row: &str,
    y: i64,
    own: &mut Vec<(i64, i64)>,
    opp: &mut Vec<(i64, i64)>,
    walls: &mut Vec<(i64, i64)>,
) -> Result<(), String> {
    for (x, c) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
        let p = (x as i64, y);
        match c {
            'X' | 'x' => own.push(p),
            'O' | 'o' => opp.push(p),
            '#' => walls.push(p),
            '.' | '+' | '-' | '_' => {}
            c => return Err(format!("diagram: unknown cell '{c}' (use X O # .)")),
        }
    }
    Ok(())
}

/// Parses a scenario file's text. `default_name` is used when there is no `name` line.
pub fn parse(text: &str, default_name: &str) -> Result<Scenario, String> {
    let mut sc = Scenario {
        name: default_name.to_string(),
        covers: String::new(),
        args: Vec::new(),
        env: Vec::new(),
        timeout_ms: DEFAULT_TIMEOUT_MS,
        checks: Checks::default(),
        steps: Vec::new(),
    };
    let mut vars: HashSet<String> = ["free", "last", "dir"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let lineno = i + 1;
        let line = lines[i].trim();
        i += 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |m: String| format!("line {lineno}: {m}");
        let (kw, rest) = first_word(line);
        let header = matches!(kw, "name" | "covers" | "args" | "env" | "timeout" | "check");
        if header && !sc.steps.is_empty() {
            return Err(err(format!(
                "'{kw}' belongs in the header, before the first step"
            )));
        }
        let mut push = |step: Step| {
            sc.steps.push(StepAt {
                line: lineno,
                src: line.to_string(),
                step,
            })
        };
        match kw {
            "name" => sc.name = rest.to_string(),
            "covers" => sc.covers = rest.to_string(),
            "args" => sc.args.extend(split_command_line(rest).map_err(err)?),
            "env" => {
                let (k, v) = rest
                    .split_once('=')
                    .ok_or_else(|| err("env needs KEY=VALUE".into()))?;
                sc.env.push((k.trim().to_string(), v.trim().to_string()));
            }
            "timeout" => sc.timeout_ms = parse_ms(rest, "timeout").map_err(err)?,
            "check" => {
                for w in rest.split_whitespace() {
                    match w {
                        "no-stderr" => sc.checks.no_stderr = true,
                        "no-cr" => sc.checks.no_cr = true,
                        "no-trailing-blanks" => sc.checks.no_trailing_blanks = true,
                        "lf-terminated" => sc.checks.lf_terminated = true,
                        "all" => {
                            sc.checks = Checks {
                                no_stderr: true,
                                no_cr: true,
                                no_trailing_blanks: true,
                                lf_terminated: true,
                            }
                        }
                        other => return Err(err(format!("unknown check '{other}'"))),
                    }
                }
            }
            "send" | "send-raw" => {
                let mut t = unescape(rest).map_err(err)?;
                if let Some(v) = t.vars().find(|v| !vars.contains(*v)) {
                    return Err(err(format!("{{{v}}} is not defined before this line")));
                }
                if kw == "send" {
                    t.push_bytes(b"\n");
                }
                push(Step::Send(t));
            }
            "board-moves" => {
                let (style, list) = board_style(rest).map_err(err)?;
                let moves = parse_pos_run(list)
                    .or_else(|| {
                        list.split_whitespace()
                            .map(parse_xy)
                            .collect::<Option<Vec<_>>>()
                    })
                    .ok_or_else(|| err(format!("board-moves: cannot read squares '{list}'")))?;
                let bytes = board_bytes(&style, &moves_order(&moves));
                push(Step::Send(Template::literal(&bytes)));
            }
            "board" => {
                let (style, extra) = board_style(rest).map_err(err)?;
                if !extra.is_empty() {
                    return Err(err(format!("board: unknown option '{extra}'")));
                }
                let (mut own, mut opp, mut walls) = (Vec::new(), Vec::new(), Vec::new());
                let mut y = 0;
                loop {
                    let row = lines
                        .get(i)
                        .ok_or_else(|| err("board: diagram without 'end'".into()))?
                        .trim();
                    i += 1;
                    if row == "end" {
                        break;
                    }
                    diagram_row(row, y, &mut own, &mut opp, &mut walls)
                        .map_err(|m| format!("line {}: {m}", i))?;
                    y += 1;
                }
                let bytes = board_bytes(&style, &board_order(&own, &opp, &walls));
                sc.steps.push(StepAt {
                    line: lineno,
                    src: format!("board (diagram, {} stones)", own.len() + opp.len()),
                    step: Step::Send(Template::literal(&bytes)),
                });
            }
            "within" => {
                let (ms, rest) = first_word(rest);
                let ms = parse_ms(ms, "within").map_err(err)?;
                let (kw2, rest2) = first_word(rest);
                let what = parse_expect(kw2, rest2).map_err(err)?.ok_or_else(|| {
                    err(format!(
                        "'within' must precede expect/match/move/swap2, not '{kw2}'"
                    ))
                })?;
                check_expect_vars(&what, &mut vars).map_err(err)?;
                push(Step::Expect {
                    within_ms: Some(ms),
                    what,
                });
            }
            "expect" | "match" | "move" | "swap2" => {
                let what = parse_expect(kw, rest).map_err(err)?.unwrap();
                check_expect_vars(&what, &mut vars).map_err(err)?;
                push(Step::Expect {
                    within_ms: None,
                    what,
                });
            }
            "silence" => {
                let mut words = rest.split_whitespace();
                let ms = parse_ms(words.next().unwrap_or(""), "silence").map_err(err)?;
                let (mut messages_ok, mut else_skip) = (false, false);
                for w in words {
                    match w {
                        "messages-ok" => messages_ok = true,
                        "else-skip" => else_skip = true,
                        other => return Err(err(format!("silence: unknown option '{other}'"))),
                    }
                }
                push(Step::Silence {
                    ms,
                    messages_ok,
                    else_skip,
                });
            }
            "messages" => {
                let (a, b) = first_word(rest);
                let (at_most, n) = if a == "max" { (true, b) } else { (false, a) };
                let n = n.parse().map_err(|_| err("messages [max] N".to_string()))?;
                push(Step::Messages { at_most, n });
            }
            "sleep" => push(Step::Sleep(parse_ms(rest, "sleep").map_err(err)?)),
            "close" => push(Step::Close),
            "exit" => {
                let (ms, opt) = first_word(rest);
                let ms = parse_ms(ms, "exit").map_err(err)?;
                let output_ok = match opt {
                    "" => false,
                    "output-ok" => true,
                    other => return Err(err(format!("exit: unknown option '{other}'"))),
                };
                push(Step::Exit { ms, output_ok });
            }
            "respawn" => push(Step::Respawn),
            "peak-rss-below" => {
                let n = rest
                    .replace('_', "")
                    .parse()
                    .map_err(|_| err("peak-rss-below needs a number of bytes".into()))?;
                push(Step::PeakRssBelow(n));
            }
            "label" => push(Step::Label(rest.to_string())),
            "seek" => push(Step::Seek(
                Regex::new(rest).map_err(|e| err(format!("bad regular expression: {e}")))?,
            )),
            other => return Err(err(format!("unknown keyword '{other}'"))),
        }
    }
    if sc.steps.is_empty() {
        return Err("the scenario has no steps".into());
    }
    Ok(sc)
}

/// Placeholders used by an expectation must be defined; `move … as NAME` defines NAME.
fn check_expect_vars(what: &Expect, vars: &mut HashSet<String>) -> Result<(), String> {
    let used: Vec<&str> = match what {
        Expect::Exact(t) => t.vars().collect(),
        Expect::Move { inside, not, .. } => inside
            .iter()
            .chain(not)
            .filter_map(|s| match s {
                SquareRef::Var(v) => Some(v.as_str()),
                SquareRef::At(..) => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    if let Some(v) = used.iter().find(|v| !vars.contains(**v)) {
        return Err(format!("{{{v}}} is not defined before this line"));
    }
    if let Expect::Move {
        save: Some(name), ..
    } = what
    {
        vars.insert(name.clone());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(t: &Template) -> Vec<u8> {
        let mut v = Vec::new();
        for p in &t.0 {
            match p {
                Piece::Bytes(b) => v.extend_from_slice(b),
                Piece::Var(n) => v.extend_from_slice(format!("<{n}>").as_bytes()),
            }
        }
        v
    }

    #[test]
    fn escapes() {
        let t = unescape(r"START 15\r").unwrap();
        assert_eq!(bytes(&t), b"START 15\r");
        let t = unescape(r"\tTURN\s7,7\s\s\x41\\\{x\}").unwrap();
        assert_eq!(bytes(&t), b"\tTURN 7,7  A\\{x}");
        assert!(unescape(r"bad\q").is_err());
        assert!(unescape(r"bad\x4").is_err());
        assert!(unescape("trailing\\").is_err());
    }

    #[test]
    fn placeholders() {
        let t = unescape("TURN {free}").unwrap();
        assert_eq!(
            t.0,
            vec![Piece::Bytes(b"TURN ".to_vec()), Piece::Var("free".into())]
        );
        assert!(unescape("TURN {free").is_err());
        assert!(unescape("TURN {a b}").is_err());
    }

    #[test]
    fn command_line_split() {
        assert_eq!(
            split_command_line(r#"a 'b c' "d \"e\"" f\ g  "#).unwrap(),
            vec!["a", "b c", "d \"e\"", "f g"]
        );
        assert_eq!(split_command_line("").unwrap(), Vec::<String>::new());
        assert_eq!(split_command_line("''").unwrap(), vec![""]);
        assert!(split_command_line("'open").is_err());
    }

    #[test]
    fn header_and_steps() {
        let sc = parse(
            "# comment\nname  P1 start\ncovers P1\nargs --x 'y z'\nenv A=1\ntimeout 2000\n\
             check no-stderr no-cr\n\nsend START 15\nexpect OK\n",
            "file",
        )
        .unwrap();
        assert_eq!(sc.name, "P1 start");
        assert_eq!(sc.covers, "P1");
        assert_eq!(sc.args, vec!["--x", "y z"]);
        assert_eq!(sc.env, vec![("A".to_string(), "1".to_string())]);
        assert_eq!(sc.timeout_ms, 2000);
        assert!(sc.checks.no_stderr && sc.checks.no_cr && !sc.checks.lf_terminated);
        assert_eq!(sc.steps.len(), 2);
        match &sc.steps[0].step {
            Step::Send(t) => assert_eq!(bytes(t), b"START 15\n"),
            s => panic!("{s:?}"),
        }
        assert_eq!(sc.steps[1].line, 10);
    }

    #[test]
    fn default_name_and_errors() {
        let sc = parse("send ABOUT\n", "P14_about").unwrap();
        assert_eq!(sc.name, "P14_about");
        assert!(parse("", "x").is_err());
        assert!(parse("bogus 1\n", "x").unwrap_err().contains("line 1"));
        assert!(parse("send A\nname late\n", "x").is_err());
        assert!(parse("check everything\nsend A\n", "x").is_err());
        assert!(parse("match (\n", "x").is_err());
        assert!(parse("within 10 sleep 5\n", "x").is_err());
        assert!(parse("send TAKEBACK {m}\n", "x")
            .unwrap_err()
            .contains("{m}"));
    }

    #[test]
    fn send_raw_and_blank() {
        let sc = parse("send-raw AB\nsend\n", "x").unwrap();
        match (&sc.steps[0].step, &sc.steps[1].step) {
            (Step::Send(a), Step::Send(b)) => {
                assert_eq!(bytes(a), b"AB");
                assert_eq!(bytes(b), b"\n");
            }
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn moves_and_vars() {
        let sc = parse(
            "move in 6,7 l8 not h8 as m1\nsend TAKEBACK {m1}\nwithin 500 move not {m1}\n",
            "x",
        )
        .unwrap();
        match &sc.steps[0].step {
            Step::Expect {
                within_ms: None,
                what: Expect::Move { inside, not, save },
            } => {
                assert_eq!(inside, &vec![SquareRef::At(6, 7), SquareRef::At(11, 7)]);
                assert_eq!(not, &vec![SquareRef::At(7, 7)]);
                assert_eq!(save.as_deref(), Some("m1"));
            }
            s => panic!("{s:?}"),
        }
        match &sc.steps[2].step {
            Step::Expect {
                within_ms: Some(500),
                what: Expect::Move { not, .. },
            } => assert_eq!(not, &vec![SquareRef::Var("m1".into())]),
            s => panic!("{s:?}"),
        }
        assert!(parse("move 7,7\n", "x").is_err());
        assert!(parse("move in zz\n", "x").is_err());
        assert!(parse("move as free\n", "x").is_err());
    }

    #[test]
    fn other_steps() {
        let sc = parse(
            "silence 300 messages-ok else-skip\nmessages max 1\nmessages 0\nsleep 5\nclose\n\
             exit 500 output-ok\nexit 200\nrespawn\npeak-rss-below 367_001_600\nlabel hi there\n\
             swap2 2\nmatch ^\\d+,\\d+$\nseek ^MESSAGE REALTIME BEST \\d+,\\d+$\n",
            "x",
        )
        .unwrap();
        let steps: Vec<&Step> = sc.steps.iter().map(|s| &s.step).collect();
        assert!(matches!(
            steps[0],
            Step::Silence {
                ms: 300,
                messages_ok: true,
                else_skip: true
            }
        ));
        assert!(matches!(
            steps[1],
            Step::Messages {
                at_most: true,
                n: 1
            }
        ));
        assert!(matches!(
            steps[2],
            Step::Messages {
                at_most: false,
                n: 0
            }
        ));
        assert!(matches!(steps[3], Step::Sleep(5)));
        assert!(matches!(steps[4], Step::Close));
        assert!(matches!(
            steps[5],
            Step::Exit {
                ms: 500,
                output_ok: true
            }
        ));
        assert!(matches!(
            steps[6],
            Step::Exit {
                ms: 200,
                output_ok: false
            }
        ));
        assert!(matches!(steps[7], Step::Respawn));
        assert!(matches!(steps[8], Step::PeakRssBelow(367_001_600)));
        assert!(matches!(steps[9], Step::Label(l) if l == "hi there"));
        assert!(matches!(steps[12], Step::Seek(re) if re.is_match("MESSAGE REALTIME BEST 7,7")));
        assert!(matches!(
            steps[10],
            Step::Expect {
                what: Expect::Swap2(2),
                ..
            }
        ));
        match steps[11] {
            Step::Expect {
                what: Expect::Match(r),
                ..
            } => assert!(r.is_match("7,7") && !r.is_match("7,7 ")),
            s => panic!("{s:?}"),
        }
        assert!(parse("silence 10 loud\n", "x").is_err());
        assert!(parse("exit soon\n", "x").is_err());
    }

    #[test]
    fn board_diagram_expands_to_board_command() {
        let sc = parse("board crlf\n. . X\n. O O\n# . .\nend\nsend DONE\n", "x").unwrap();
        assert_eq!(sc.steps.len(), 2);
        match &sc.steps[0].step {
            Step::Send(t) => assert_eq!(
                String::from_utf8(bytes(t)).unwrap(),
                "BOARD\r\n0,2,3\r\n1,1,2\r\n2,0,1\r\n2,1,2\r\nDONE\r\n"
            ),
            s => panic!("{s:?}"),
        }
        assert!(parse("board\n. X\n", "x").is_err(), "no end");
        assert!(parse("board\n. Z\nend\n", "x").is_err());
    }

    #[test]
    fn board_moves_in_pos_and_xy() {
        let sc = parse(
            "board-moves lower h8h9i8\nboard-moves 7,7 8,8\nboard-moves yx crlf h8\n",
            "x",
        )
        .unwrap();
        let texts: Vec<String> = sc
            .steps
            .iter()
            .map(|s| match &s.step {
                Step::Send(t) => String::from_utf8(bytes(t)).unwrap(),
                s => panic!("{s:?}"),
            })
            .collect();
        assert_eq!(texts[0], "board\n7,7,2\n7,8,1\n8,7,2\ndone\n");
        assert_eq!(texts[1], "BOARD\n7,7,1\n8,8,2\nDONE\n");
        assert_eq!(texts[2], "YXBOARD\r\n7,7,2\r\nDONE\r\n");
        assert!(parse("board-moves h8 zz\n", "x").is_err());
    }
}
