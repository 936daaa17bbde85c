//! How a manager reads an engine's lines before an answer (protocol.md §1.3): each profile
//! follows one manager's own code, so that a game is lost only where that manager would lose
//! it. A line is the answer (`OK`, a move), a message the manager records, a line it passes
//! over, or a fault. The deadline is the runner's in every profile: lines passed over do not
//! stop the clock.

use serde::{Deserialize, Serialize};

/// The manager whose rule judges an engine's lines.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum,
)]
pub enum Judge {
    /// Piskvork: only blank, `message ` and `debug ` lines may precede the answer; any other
    /// line is read as the answer and loses.
    #[serde(rename = "piskvork")]
    #[value(name = "piskvork")]
    Piskvork,
    /// c-gomoku-cli: MESSAGE, UNKNOWN, DEBUG and ERROR lines are recorded, anything else that is
    /// not a move is passed over; ERROR before `OK` loses.
    #[serde(rename = "cgomokucli")]
    #[value(name = "cgomokucli", alias = "c-gomoku-cli")]
    CGomokuCli,
    /// GomocupJudge (the Gomocup referee): MESSAGE lines are recorded, whatever fails to parse
    /// is passed over (the engine only risks its clock).
    #[default]
    #[serde(rename = "gomocupjudge")]
    #[value(name = "gomocupjudge")]
    GomocupJudge,
    /// GomocupJudgeLocal: MESSAGE, ERROR and UNKNOWN lines are messages; any other line (DEBUG
    /// too) is parsed as the answer and loses.
    #[serde(rename = "jlocal")]
    #[value(name = "jlocal", alias = "gomocupjudgelocal")]
    JLocal,
}

/// What the engine was asked, so what its answer must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// START or RECTSTART: the answer is `OK`.
    Start,
    /// BEGIN, TURN or BOARD: the answer is a move.
    Move,
}

/// A line read while waiting for an answer, as the manager sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// Blank: every manager skips it.
    Blank,
    /// `OK` to START.
    Ok,
    /// A move `x,y`.
    Move(i64, i64),
    /// Recorded as a message (a MESSAGE line's text, or the whole line of another kind the
    /// manager records).
    Message(String),
    /// Passed over without a record (kept whole by the runner).
    Ignored(String),
    /// Loses the game under this manager.
    Fault,
}

impl Judge {
    /// Every profile, in the order of the README.
    pub const ALL: [Judge; 4] = [
        Judge::Piskvork,
        Judge::CGomokuCli,
        Judge::GomocupJudge,
        Judge::JLocal,
    ];

    /// The name on the command line, in tables and in results.json.
    pub fn name(self) -> &'static str {
        match self {
            Judge::Piskvork => "piskvork",
            Judge::CGomokuCli => "cgomokucli",
            Judge::GomocupJudge => "gomocupjudge",
            Judge::JLocal => "jlocal",
        }
    }

    /// A profile from its name (or an alias).
    pub fn parse(s: &str) -> Option<Judge> {
        match s.trim().to_ascii_lowercase().as_str() {
            "piskvork" => Some(Judge::Piskvork),
            "cgomokucli" | "c-gomoku-cli" => Some(Judge::CGomokuCli),
            "gomocupjudge" => Some(Judge::GomocupJudge),
            "jlocal" | "gomocupjudgelocal" => Some(Judge::JLocal),
            _ => None,
        }
    }

    /// How this manager reads `line` (its end of line already removed) while waiting for the
    /// answer to `asked`.
    pub fn hear(self, line: &str, asked: Asked) -> Heard {
        if line.trim().is_empty() {
            return Heard::Blank;
        }
        match self {
            Judge::Piskvork => piskvork(line, asked),
            Judge::CGomokuCli => c_gomoku_cli(line, asked),
            Judge::GomocupJudge => gomocup_judge(line, asked),
            Judge::JLocal => judge_local(line, asked),
        }
    }
}

pub(crate) fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len() && s.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// The text of a MESSAGE line (the keyword's length is ASCII, so the cut is on a boundary).
fn message_text(line: &str) -> String {
    line.trim_start()[7..].trim().to_string()
}

/// Piskvork (`protocol.cpp`): `message `/`debug ` lines (any case, with the space) are skipped,
/// the first other line is the answer: `OK` compared whole, case-insensitively; a move is
/// `sscanf("%d,%d") == 2`.
fn piskvork(line: &str, asked: Asked) -> Heard {
    if starts_with_ci(line, "message ") {
        return Heard::Message(message_text(line));
    }
    if starts_with_ci(line, "debug ") {
        return Heard::Ignored(line.to_string());
    }
    match asked {
        Asked::Start if line.eq_ignore_ascii_case("OK") => Heard::Ok,
        Asked::Move => match scanf_move(line) {
            Some((x, y)) => Heard::Move(x, y),
            None => Heard::Fault,
        },
        Asked::Start => Heard::Fault,
    }
}

/// c-gomoku-cli (`engine.cpp`): exactly `OK`; an ERROR before it loses; MESSAGE, UNKNOWN, DEBUG
/// and ERROR lines (case-sensitive prefixes) are recorded; a move is one comma with both sides
/// whole `strtol` numbers; anything else is passed over.
fn c_gomoku_cli(line: &str, asked: Asked) -> Heard {
    // The reader has removed a CR at the end; c-gomoku-cli drops every CR.
    let line = line.replace('\r', "");
    if asked == Asked::Start {
        if line == "OK" {
            return Heard::Ok;
        }
        if line.starts_with("ERROR") {
            return Heard::Fault;
        }
    }
    if line.starts_with("MESSAGE") {
        return Heard::Message(message_text(&line));
    }
    if ["UNKNOWN", "DEBUG", "ERROR"]
        .iter()
        .any(|k| line.starts_with(k))
    {
        return Heard::Message(line);
    }
    if asked == Asked::Move {
        if let Some((x, y)) = strtol_move(&line) {
            return Heard::Move(x, y);
        }
    }
    Heard::Ignored(line)
}

/// GomocupJudge (`new_protocol.py`): it never waits for `OK` (read later, passed over);
/// `message` lines (any case) are collected; a move is `x, y = line.split(",")` with Python's
/// `int()` on each; whatever fails to parse is passed over.
fn gomocup_judge(line: &str, asked: Asked) -> Heard {
    if starts_with_ci(line, "message") {
        return Heard::Message(message_text(line));
    }
    match asked {
        Asked::Start if line.trim().eq_ignore_ascii_case("OK") => Heard::Ok,
        Asked::Move => match split_move(line) {
            Some((x, y)) => Heard::Move(x, y),
            None => Heard::Ignored(line.to_string()),
        },
        Asked::Start => Heard::Ignored(line.to_string()),
    }
}

/// GomocupJudgeLocal (`Player.py`): lines starting with `MESSAGE`, `ERROR` or `UNKNOWN`
/// (case-sensitive) are messages; the next line must be exactly `OK`, or split on `,` into two
/// Python `int()`s; anything else raises and loses.
fn judge_local(line: &str, asked: Asked) -> Heard {
    if line.starts_with("MESSAGE") {
        return Heard::Message(message_text(line));
    }
    if line.starts_with("ERROR") || line.starts_with("UNKNOWN") {
        return Heard::Message(line.to_string());
    }
    match asked {
        Asked::Start if line == "OK" => Heard::Ok,
        Asked::Move => match split_move(line) {
            Some((x, y)) => Heard::Move(x, y),
            None => Heard::Fault,
        },
        Asked::Start => Heard::Fault,
    }
}

/// C's `%d` at the start of `s`: blanks, a sign, digits; returns the value and the rest.
fn scan_int(s: &str) -> Option<(i64, &str)> {
    let s = s.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    // Saturate as glibc does for out-of-range numbers; the square is then off the board.
    let v = body[..digits].bytes().fold(0i64, |v, d| {
        v.saturating_mul(10).saturating_add((d - b'0') as i64)
    });
    Some((if neg { -v } else { v }, &body[digits..]))
}

/// `sscanf(line, "%d,%d") == 2`: the comma right after the first number, trailing text ignored.
pub fn scanf_move(line: &str) -> Option<(i64, i64)> {
    let (x, rest) = scan_int(line)?;
    let (y, _) = scan_int(rest.strip_prefix(',')?)?;
    Some((x, y))
}

/// c-gomoku-cli's move: exactly one comma, each side a whole `strtol` number (leading blanks
/// and a sign allowed, nothing after the digits).
pub fn strtol_move(line: &str) -> Option<(i64, i64)> {
    let (a, b) = line.split_once(',')?;
    let whole = |t: &str| -> Option<i64> {
        let (v, rest) = scan_int(t)?;
        rest.is_empty().then_some(v)
    };
    Some((whole(a)?, whole(b)?))
}

/// Python's `int()` of a text: surrounding blanks, a sign, digits with single underscores
/// between them.
fn python_int(t: &str) -> Option<i64> {
    let t = t.trim();
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let b = body.as_bytes();
    let ok = !b.is_empty()
        && b[0].is_ascii_digit()
        && b[b.len() - 1].is_ascii_digit()
        && b.iter().all(|&c| c.is_ascii_digit() || c == b'_')
        && !body.contains("__");
    if !ok {
        return None;
    }
    let v = b.iter().filter(|c| c.is_ascii_digit()).fold(0i64, |v, &d| {
        v.saturating_mul(10).saturating_add((d - b'0') as i64)
    });
    Some(if neg { -v } else { v })
}

/// The judges' `x, y = line.split(",")` with `int()` on each: exactly two parts.
pub fn split_move(line: &str) -> Option<(i64, i64)> {
    let (a, b) = line.split_once(',')?;
    if b.contains(',') {
        return None;
    }
    Some((python_int(a)?, python_int(b)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Asked::{Move as M, Start as S};
    use Heard::*;

    fn msg(s: &str) -> Heard {
        Message(s.into())
    }
    fn ign(s: &str) -> Heard {
        Ignored(s.into())
    }

    #[test]
    fn names_round_trip() {
        for j in Judge::ALL {
            assert_eq!(Judge::parse(j.name()), Some(j));
            assert_eq!(
                serde_json::to_string(&j).unwrap(),
                format!("\"{}\"", j.name())
            );
        }
        assert_eq!(Judge::parse("c-gomoku-cli"), Some(Judge::CGomokuCli));
        assert_eq!(Judge::parse("bogus"), None);
        assert_eq!(Judge::default(), Judge::GomocupJudge);
    }

    #[test]
    fn move_syntaxes() {
        assert_eq!(scanf_move("7,8"), Some((7, 8)));
        assert_eq!(scanf_move("  7, 8 junk"), Some((7, 8)));
        assert_eq!(scanf_move("7 ,8"), None);
        assert_eq!(scanf_move("+7,-8"), Some((7, -8)));
        assert_eq!(scanf_move("x7,8"), None);
        assert_eq!(strtol_move(" 7, 8"), Some((7, 8)));
        assert_eq!(strtol_move("7,8 "), None);
        assert_eq!(strtol_move("7,8,9"), None);
        assert_eq!(strtol_move("7,"), None);
        assert_eq!(split_move(" 7 , 8 "), Some((7, 8)));
        assert_eq!(split_move("1_0,3"), Some((10, 3)));
        assert_eq!(split_move("1__0,3"), None);
        assert_eq!(split_move("7,8,9"), None);
        assert_eq!(split_move("7 8"), None);
        assert_eq!(split_move("99999999999999999999,1"), Some((i64::MAX, 1)));
        // Never a panic on odd bytes.
        for j in Judge::ALL {
            for l in [
                "é,ü", "MESSAGE", "message", "\u{0}", ",", "-", "+,-", "DEBUG",
            ] {
                let _ = j.hear(l, M);
                let _ = j.hear(l, S);
            }
        }
    }

    /// The rule of every profile for the lines an engine may print before its move.
    #[test]
    fn lines_before_a_move() {
        use Judge::*;
        let rows: [(&str, [Heard; 4]); 9] = [
            ("7,8", [Move(7, 8), Move(7, 8), Move(7, 8), Move(7, 8)]),
            ("7,8 ", [Move(7, 8), ign("7,8 "), Move(7, 8), Move(7, 8)]),
            (
                "7,8 best",
                [Move(7, 8), ign("7,8 best"), ign("7,8 best"), Fault],
            ),
            (
                "MESSAGE depth 3",
                [
                    msg("depth 3"),
                    msg("depth 3"),
                    msg("depth 3"),
                    msg("depth 3"),
                ],
            ),
            (
                "ERROR Unknown command: TIME_LEFT",
                [
                    Fault,
                    msg("ERROR Unknown command: TIME_LEFT"),
                    ign("ERROR Unknown command: TIME_LEFT"),
                    msg("ERROR Unknown command: TIME_LEFT"),
                ],
            ),
            (
                "UNKNOWN x",
                [Fault, msg("UNKNOWN x"), ign("UNKNOWN x"), msg("UNKNOWN x")],
            ),
            (
                "DEBUG eval 3",
                [
                    ign("DEBUG eval 3"),
                    msg("DEBUG eval 3"),
                    ign("DEBUG eval 3"),
                    Fault,
                ],
            ),
            (
                "hello world",
                [Fault, ign("hello world"), ign("hello world"), Fault],
            ),
            (
                "error lower",
                [Fault, ign("error lower"), ign("error lower"), Fault],
            ),
        ];
        for (line, want) in rows {
            for (j, w) in [Piskvork, CGomokuCli, GomocupJudge, JLocal]
                .iter()
                .zip(want)
            {
                assert_eq!(j.hear(line, M), w, "{} on '{line}'", j.name());
            }
        }
        for j in Judge::ALL {
            assert_eq!(j.hear("  \t", M), Blank);
        }
        // Piskvork wants the blank after the keyword; the judges do not.
        assert_eq!(Piskvork.hear("MESSAGEx", M), Fault);
        assert_eq!(GomocupJudge.hear("messagex", M), msg("x"));
    }

    /// The rule of every profile for the lines before `OK`.
    #[test]
    fn lines_before_ok() {
        use Judge::*;
        let rows: [(&str, [Heard; 4]); 7] = [
            ("OK", [Ok, Ok, Ok, Ok]),
            ("ok", [Ok, ign("ok"), Ok, Fault]),
            (
                "MESSAGE Load config",
                [
                    msg("Load config"),
                    msg("Load config"),
                    msg("Load config"),
                    msg("Load config"),
                ],
            ),
            ("ERROR no", [Fault, Fault, ign("ERROR no"), msg("ERROR no")]),
            (
                "DEBUG x",
                [ign("DEBUG x"), msg("DEBUG x"), ign("DEBUG x"), Fault],
            ),
            (
                "UNKNOWN x",
                [Fault, msg("UNKNOWN x"), ign("UNKNOWN x"), msg("UNKNOWN x")],
            ),
            ("banner", [Fault, ign("banner"), ign("banner"), Fault]),
        ];
        for (line, want) in rows {
            for (j, w) in [Piskvork, CGomokuCli, GomocupJudge, JLocal]
                .iter()
                .zip(want)
            {
                assert_eq!(j.hear(line, S), w, "{} on '{line}'", j.name());
            }
        }
        // A move is not an answer to START.
        assert_eq!(Piskvork.hear("7,8", S), Fault);
        assert_eq!(GomocupJudge.hear("7,8", S), ign("7,8"));
    }
}
