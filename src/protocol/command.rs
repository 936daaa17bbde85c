//! Manager commands: one input line in, one [`Command`] out. Pure functions, no state: the
//! multi-line commands (`BOARD`, `YXBOARD`, `SWAP2BOARD`) are only *opened* here; the session
//! reads their stone lines with [`parse_stone_line`] until `DONE`.
//!
//! Accepted framing (protocol.md §1.2, §9): command words and `INFO` keys in any case, CR LF or
//! LF, blanks and tabs anywhere between tokens, `TURN 10, 10`. Nothing here panics, whatever the
//! bytes.

/// One manager command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A blank or whitespace-only line: no reply.
    Blank,
    /// `START n`: a new empty n×n board.
    Start {
        /// Board side as sent (checked by the session).
        size: i64,
    },
    /// `RECTSTART w,h`: a new empty w×h board.
    RectStart {
        /// Columns (x).
        width: i64,
        /// Rows (y).
        height: i64,
    },
    /// `RESTART`: empty the board, same size.
    Restart,
    /// `BEGIN`: play the first move.
    Begin,
    /// `TURN x,y`: the opponent played x,y; answer a move.
    Turn {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
    },
    /// `BOARD`: a position follows as `x,y,field` lines up to `DONE`; answer a move.
    Board,
    /// `YXBOARD`: like `BOARD`, but only set the position (no reply).
    YxBoard,
    /// `SWAP2BOARD`: 0, 3 or 5 opening stones follow as `x,y` lines up to `DONE`.
    Swap2Board,
    /// `INFO key value`.
    Info(Info),
    /// `END`: exit at once, no more output.
    End,
    /// `ABOUT`: one line describing the engine.
    About,
    /// `TAKEBACK x,y`: remove that stone, answer `OK`.
    Takeback {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
    },
    /// `PLAY x,y`: make this move for the engine and echo it.
    Play {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
    },
    /// `YXSTOP` or `STOP`: answer now if searching; nothing when idle.
    Stop,
    /// `YXSHOWFORBID`: list black's renju fouls.
    YxShowForbid,
    /// `YXHASHCLEAR`: empty the transposition table.
    YxHashClear,
    /// `YXSHOWINFO`: Yixin-Board's GUI handshake: a few `MESSAGE` lines, and unknown `YX…`
    /// commands are answered by silence from then on (as Rapfi does).
    YxShowInfo,
    /// `YXSHOWHASHUSAGE`: `MESSAGE Transposition table full: x.y%`.
    YxShowHashUsage,
    /// `YXNBEST n`: search the n best moves (multi-PV), report each line, answer and play the
    /// best.
    YxNBest {
        /// Lines wanted (clamped by the session).
        n: i64,
    },
    /// `YXBALANCEONE bias`: the move after which the score is closest to `bias`; answered and
    /// played.
    YxBalanceOne {
        /// Wanted score for the side to move.
        bias: i64,
    },
    /// `YXBALANCETWO bias`: the two moves (side to move, then the opponent) after which the score
    /// is closest to `bias`; answered as `x,y x,y` and played.
    YxBalanceTwo {
        /// Wanted score for the side to move.
        bias: i64,
    },
    /// `YXSEARCHDEFEND`: every sensible move evaluated (which ones hold), the best answered and
    /// played.
    YxSearchDefend,
    /// `YXBLOCK`: squares follow as `x,y` lines up to `DONE`; searches never play them.
    YxBlock,
    /// `YXBLOCKUNDO`: squares follow as `x,y` lines up to `DONE`; they may be played again.
    YxBlockUndo,
    /// `YXBLOCKRESET`: no square is blocked any more.
    YxBlockReset,
    /// A Yixin-Board database command (`YXQUERYDATABASEALL` …): a position follows as `x,y`
    /// moves up to `DONE` (protocol/database.rs).
    YxDatabase {
        /// The command word, upper case.
        word: String,
        /// The rest of the line (`YXEDITTVDDATABASE`'s numbers, `YXEDITTEXTDATABASE`'s text …).
        args: String,
    },
    /// `YXSETDATABASE <path>`: the database file to use.
    YxSetDatabase {
        /// The path, the rest of the line.
        path: String,
    },
    /// `YXSAVEDATABASE`: write the database file now.
    YxSaveDatabase,
    /// A known command with unusable arguments: one `ERROR` line.
    Malformed {
        /// The command word, upper case.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// Anything else: one `UNKNOWN` line.
    Unknown {
        /// The command word as received (sanitised, shortened).
        word: String,
    },
}

impl Command {
    /// True for the commands that open a block of stone lines ended by `DONE`.
    pub fn opens_block(&self) -> bool {
        matches!(
            self,
            Command::Board
                | Command::YxBoard
                | Command::Swap2Board
                | Command::YxBlock
                | Command::YxBlockUndo
                | Command::YxDatabase { .. }
        )
    }

    /// True for the commands that must interrupt a running search (protocol.md §13.8): they
    /// change or replace the position. The search's move is printed before they are handled.
    pub fn interrupts_search(&self) -> bool {
        matches!(
            self,
            Command::Start { .. }
                | Command::RectStart { .. }
                | Command::Restart
                | Command::Begin
                | Command::Turn { .. }
                | Command::Board
                | Command::YxBoard
                | Command::Swap2Board
                | Command::Takeback { .. }
                | Command::Play { .. }
                | Command::YxNBest { .. }
                | Command::YxBalanceOne { .. }
                | Command::YxBalanceTwo { .. }
                | Command::YxSearchDefend
        )
    }
}

/// An `INFO` setting (protocol.md §2.7). Keys are matched case-insensitively; numbers are read as
/// i64 (negative values and values beyond 2^31 included; longer ones saturate).
#[derive(Clone, Debug, PartialEq)]
pub enum Info {
    /// `timeout_turn` ms (0 = as fast as possible).
    TimeoutTurn(i64),
    /// `timeout_match` ms (0 = unlimited).
    TimeoutMatch(i64),
    /// `time_left` ms (may be negative).
    TimeLeft(i64),
    /// `max_memory` bytes (0 = no limit).
    MaxMemory(i64),
    /// `game_type` 0..3.
    GameType(i64),
    /// `rule` bitmask.
    Rule(i64),
    /// `evaluate x,y` (mouse position; never answered).
    Evaluate {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
    },
    /// `folder` path (rest of the line, spaces included).
    Folder(String),
    /// `max_depth` plies.
    MaxDepth(i64),
    /// `max_node` (-1 or 0 = unlimited).
    MaxNode(i64),
    /// `thread_num`.
    ThreadNum(i64),
    /// `time_increment` ms.
    TimeIncrement(i64),
    /// `hash_size` KB.
    HashSize(i64),
    /// `pondering` 0/1 (Yixin-Board): think on the opponent's time.
    Pondering(i64),
    /// `show_detail` 0..3 (Yixin-Board): bit 0 the realtime lines (`MESSAGE REALTIME …`), bit 1
    /// the `INFO PV …` blocks.
    ShowDetail(i64),
    /// A known extension key the engine does not use (Yixin-Board, Rapfi, AlphaGomoku), with
    /// its numeric value.
    Extension {
        /// The key, lower case.
        key: &'static str,
        /// The value as sent.
        value: String,
    },
    /// An unknown key: ignored silently.
    UnknownKey {
        /// The key as sent.
        key: String,
    },
    /// A known key whose value does not parse (or a missing key): ignored silently.
    BadValue {
        /// The key, lower case.
        key: String,
        /// The value as sent.
        value: String,
    },
}

/// Extension keys that real managers and GUIs send (protocol.md §2.7, second table); all numeric.
const EXTENSION_KEYS: &[&str] = &[
    "caution_factor",
    "vcthread",
    "checkmate",
    "nbestsym",
    "start_depth",
    "thread_split_depth",
    "usedatabase",
    "database_readonly",
    "swapable",
    "strength",
    "max_moves",
    "draw_result",
    "evaluator_draw_black_winrate",
    "evaluator_draw_ratio",
    "search_type",
    "analysis_mode",
    "auto_pondering",
    "protocol_lag",
];

/// Yixin-Board database commands: each is followed by a position (`x,y` lines) and `DONE`.
const DATABASE_COMMANDS: &[&str] = &[
    "YXQUERYDATABASEALL",
    "YXQUERYDATABASEONE",
    "YXQUERYDATABASETEXT",
    "YXQUERYDATABASEALLT",
    "YXEDITTVDDATABASE",
    "YXEDITTEXTDATABASE",
    "YXEDITLABELDATABASE",
    "YXDELETEDATABASEONE",
    "YXDELETEDATABASEALL",
];

/// A stone line inside a `BOARD`/`YXBOARD`/`SWAP2BOARD`/`YXBLOCK` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoneLine {
    /// `DONE`: the block ends.
    Done,
    /// `x,y` or `x,y,field`.
    Stone {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
        /// The third number, if any (1 own, 2 opponent, 3 wall).
        field: Option<i64>,
    },
    /// A blank line (skipped without complaint).
    Blank,
    /// Anything else.
    Bad,
}

/// Parses one line (without or with its line terminator).
pub fn parse_command(line: &str) -> Command {
    let line = clean_line(line);
    if line.is_empty() {
        return Command::Blank;
    }
    let (word, rest) = split_word(line);
    let upper = word.to_ascii_uppercase();
    let coords = |command: &'static str, make: fn(i64, i64) -> Command| match parse_xy(rest) {
        Some((x, y)) => make(x, y),
        None => Command::Malformed {
            command,
            reason: format!("{command} expects x,y, got '{}'", excerpt(rest)),
        },
    };
    match upper.as_str() {
        "START" => match parse_int(rest) {
            Some(size) => Command::Start { size },
            None => Command::Malformed {
                command: "START",
                reason: format!("START expects a board size, got '{}'", excerpt(rest)),
            },
        },
        "RECTSTART" => match parse_pair(rest) {
            Some((width, height)) => Command::RectStart { width, height },
            None => Command::Malformed {
                command: "RECTSTART",
                reason: format!("RECTSTART expects width,height, got '{}'", excerpt(rest)),
            },
        },
        "RESTART" => Command::Restart,
        "BEGIN" => Command::Begin,
        "TURN" => coords("TURN", |x, y| Command::Turn { x, y }),
        "BOARD" => Command::Board,
        "YXBOARD" => Command::YxBoard,
        "SWAP2BOARD" => Command::Swap2Board,
        "INFO" => Command::Info(parse_info(rest)),
        "END" => Command::End,
        "ABOUT" => Command::About,
        "TAKEBACK" => coords("TAKEBACK", |x, y| Command::Takeback { x, y }),
        "PLAY" => coords("PLAY", |x, y| Command::Play { x, y }),
        "YXSTOP" | "STOP" => Command::Stop,
        "YXSHOWFORBID" => Command::YxShowForbid,
        "YXHASHCLEAR" => Command::YxHashClear,
        "YXSHOWINFO" => Command::YxShowInfo,
        "YXSHOWHASHUSAGE" => Command::YxShowHashUsage,
        "YXNBEST" => match parse_int(rest) {
            Some(n) => Command::YxNBest { n },
            None => Command::Malformed {
                command: "YXNBEST",
                reason: format!("YXNBEST expects a count, got '{}'", excerpt(rest)),
            },
        },
        "YXBALANCEONE" | "YXBALANCETWO" => {
            let two = upper == "YXBALANCETWO";
            let command = if two { "YXBALANCETWO" } else { "YXBALANCEONE" };
            match parse_number(rest) {
                Some(bias) if two => Command::YxBalanceTwo { bias },
                Some(bias) => Command::YxBalanceOne { bias },
                None => Command::Malformed {
                    command,
                    reason: format!("{command} expects a bias, got '{}'", excerpt(rest)),
                },
            }
        }
        "YXSEARCHDEFEND" => Command::YxSearchDefend,
        "YXBLOCK" => Command::YxBlock,
        "YXBLOCKUNDO" => Command::YxBlockUndo,
        "YXBLOCKRESET" => Command::YxBlockReset,
        w if DATABASE_COMMANDS.contains(&w) => Command::YxDatabase {
            word: upper.clone(),
            args: rest.trim().to_string(),
        },
        "YXSETDATABASE" if !rest.trim().is_empty() => Command::YxSetDatabase {
            path: rest.trim().to_string(),
        },
        "YXSETDATABASE" => Command::Malformed {
            command: "YXSETDATABASE",
            reason: "YXSETDATABASE expects a path".into(),
        },
        "YXSAVEDATABASE" => Command::YxSaveDatabase,
        _ => Command::Unknown {
            word: excerpt(word),
        },
    }
}

/// Parses the text after `INFO`: a key, blanks, and the value (the rest of the line).
pub fn parse_info(rest: &str) -> Info {
    let (key, value) = split_word(rest);
    let key_lc = key.to_ascii_lowercase();
    let value = value.trim();
    let int = |make: fn(i64) -> Info| match parse_int(value) {
        Some(v) => make(v),
        None => Info::BadValue {
            key: key_lc.clone(),
            value: value.to_string(),
        },
    };
    match key_lc.as_str() {
        "timeout_turn" => int(Info::TimeoutTurn),
        "timeout_match" => int(Info::TimeoutMatch),
        "time_left" => int(Info::TimeLeft),
        "max_memory" => int(Info::MaxMemory),
        "game_type" => int(Info::GameType),
        "rule" => int(Info::Rule),
        "max_depth" => int(Info::MaxDepth),
        "max_node" => int(Info::MaxNode),
        "thread_num" => int(Info::ThreadNum),
        "time_increment" => int(Info::TimeIncrement),
        "hash_size" => int(Info::HashSize),
        "pondering" => int(Info::Pondering),
        "show_detail" => int(Info::ShowDetail),
        "evaluate" => match parse_xy(value) {
            Some((x, y)) => Info::Evaluate { x, y },
            None => Info::BadValue {
                key: key_lc,
                value: value.to_string(),
            },
        },
        "folder" if !value.is_empty() => Info::Folder(value.to_string()),
        "folder" => Info::BadValue {
            key: key_lc,
            value: String::new(),
        },
        _ => match EXTENSION_KEYS.iter().find(|&&k| k == key_lc) {
            Some(&k) if is_number(value) => Info::Extension {
                key: k,
                value: value.to_string(),
            },
            Some(_) => Info::BadValue {
                key: key_lc,
                value: value.to_string(),
            },
            None if key.is_empty() => Info::BadValue {
                key: String::new(),
                value: value.to_string(),
            },
            None => Info::UnknownKey { key: excerpt(key) },
        },
    }
}

/// Parses a line inside a stone block: `DONE`, `x,y` or `x,y,field` (blanks allowed around the
/// numbers and commas).
pub fn parse_stone_line(line: &str) -> StoneLine {
    let line = clean_line(line);
    if line.is_empty() {
        return StoneLine::Blank;
    }
    if line.eq_ignore_ascii_case("done") {
        return StoneLine::Done;
    }
    let mut parts = line.split(',');
    let mut nums = [0i64; 3];
    let mut n = 0;
    for part in parts.by_ref() {
        if n == 3 {
            return StoneLine::Bad;
        }
        match parse_int_exact(part.trim()) {
            Some(v) => nums[n] = v,
            None => return StoneLine::Bad,
        }
        n += 1;
    }
    match n {
        2 => StoneLine::Stone {
            x: nums[0],
            y: nums[1],
            field: None,
        },
        3 => StoneLine::Stone {
            x: nums[0],
            y: nums[1],
            field: Some(nums[2]),
        },
        _ => StoneLine::Bad,
    }
}

/// True when the line is a `DONE` (the end of a stone block).
pub fn is_done_line(line: &str) -> bool {
    parse_stone_line(line) == StoneLine::Done
}

/// Trims blanks (CR, tabs, a byte-order mark) at both ends.
fn clean_line(line: &str) -> &str {
    line.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}' || c == '\0')
}

/// The first blank-separated word and the rest (trimmed).
fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim();
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], s[i..].trim()),
        None => (s, ""),
    }
}

/// `x,y` with optional blanks around both numbers.
pub fn parse_xy(s: &str) -> Option<(i64, i64)> {
    let (a, b) = s.trim().split_once(',')?;
    Some((parse_int_exact(a.trim())?, parse_int_exact(b.trim())?))
}

/// `w,h` or `w h` (RECTSTART; the skeleton reads `%d ,%d`).
fn parse_pair(s: &str) -> Option<(i64, i64)> {
    if let Some(p) = parse_xy(s) {
        return Some(p);
    }
    let mut it = s.split_whitespace();
    let a = parse_int_exact(it.next()?)?;
    let b = parse_int_exact(it.next()?)?;
    if it.next().is_some() {
        return None;
    }
    Some((a, b))
}

/// The first blank-separated token of `s` as an integer (`INFO key 1000 ms` reads 1000).
pub fn parse_int(s: &str) -> Option<i64> {
    parse_int_exact(s.split_whitespace().next()?)
}

/// The first token as a number, integer or decimal (rounded): `YXBALANCEONE 12.5`.
fn parse_number(s: &str) -> Option<i64> {
    let t = s.split_whitespace().next()?;
    parse_int_exact(t).or_else(|| {
        t.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && v.abs() < 1e15)
            .map(|v| v.round() as i64)
    })
}

/// A whole token as a decimal integer with an optional sign; values beyond i64 saturate.
fn parse_int_exact(t: &str) -> Option<i64> {
    let (neg, digits) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut v: i64 = 0;
    for b in digits.bytes() {
        let d = i64::from(b - b'0');
        v = if neg {
            v.saturating_mul(10).saturating_sub(d)
        } else {
            v.saturating_mul(10).saturating_add(d)
        };
    }
    Some(v)
}

/// A decimal number (integer or fraction) as the first token of `s`.
fn is_number(s: &str) -> bool {
    s.split_whitespace()
        .next()
        .is_some_and(|t| parse_int_exact(t).is_some() || t.parse::<f64>().is_ok_and(f64::is_finite))
}

/// A short printable excerpt of untrusted text, for messages: control characters replaced,
/// at most 40 characters.
pub fn excerpt(s: &str) -> String {
    const MAX: usize = 40;
    let mut out: String = s
        .chars()
        .take(MAX)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if s.chars().nth(MAX).is_some() {
        out.push_str("...");
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_words_any_case_and_framing() {
        for l in [
            "START 15",
            "start 15",
            "Start\t15\r\n",
            "  START   15  ",
            "START 15\r",
        ] {
            assert_eq!(parse_command(l), Command::Start { size: 15 }, "{l:?}");
        }
        for l in [
            "TURN 10,10",
            "turn 10, 10",
            "TURN\t10 ,\t10\r\n",
            "TURN 10 , 10 ",
        ] {
            assert_eq!(parse_command(l), Command::Turn { x: 10, y: 10 }, "{l:?}");
        }
        assert_eq!(parse_command("board"), Command::Board);
        assert_eq!(parse_command("YxBoard\r"), Command::YxBoard);
        assert_eq!(parse_command("swap2board"), Command::Swap2Board);
        assert_eq!(parse_command("BEGIN"), Command::Begin);
        assert_eq!(parse_command("restart"), Command::Restart);
        assert_eq!(parse_command("end\r\n"), Command::End);
        assert_eq!(parse_command("ABOUT"), Command::About);
        assert_eq!(parse_command("yxstop"), Command::Stop);
        assert_eq!(parse_command("STOP"), Command::Stop);
        assert_eq!(parse_command("yxshowforbid"), Command::YxShowForbid);
        assert_eq!(parse_command("YXHASHCLEAR"), Command::YxHashClear);
        assert_eq!(parse_command("yxshowinfo"), Command::YxShowInfo);
        assert_eq!(parse_command("yxnbest 3"), Command::YxNBest { n: 3 });
        assert_eq!(parse_command("YXNBEST\t5\r"), Command::YxNBest { n: 5 });
        assert_eq!(
            parse_command("yxbalanceone -20"),
            Command::YxBalanceOne { bias: -20 }
        );
        assert_eq!(
            parse_command("yxbalancetwo 12.6"),
            Command::YxBalanceTwo { bias: 13 }
        );
        assert_eq!(parse_command("yxsearchdefend"), Command::YxSearchDefend);
        assert_eq!(parse_command("yxblock"), Command::YxBlock);
        assert_eq!(parse_command("YXBLOCKUNDO"), Command::YxBlockUndo);
        assert_eq!(parse_command("yxblockreset"), Command::YxBlockReset);
        assert_eq!(parse_command("yxshowhashusage"), Command::YxShowHashUsage);
        assert_eq!(
            parse_command("yxquerydatabaseallt"),
            Command::YxDatabase {
                word: "YXQUERYDATABASEALLT".into(),
                args: String::new(),
            }
        );
        assert!(parse_command("yxblock").opens_block());
        assert!(parse_command("yxquerydatabaseone").opens_block());
        assert!(parse_command("yxnbest 2").interrupts_search());
        assert_eq!(
            parse_command("TAKEBACK 3,4"),
            Command::Takeback { x: 3, y: 4 }
        );
        assert_eq!(parse_command("play 0,19"), Command::Play { x: 0, y: 19 });
        assert_eq!(
            parse_command("RECTSTART 20,15"),
            Command::RectStart {
                width: 20,
                height: 15
            }
        );
        assert_eq!(
            parse_command("rectstart 20 , 15"),
            Command::RectStart {
                width: 20,
                height: 15
            }
        );
    }

    #[test]
    fn blank_lines() {
        for l in ["", "\r\n", "   ", "\t \r", "\n"] {
            assert_eq!(parse_command(l), Command::Blank, "{l:?}");
        }
    }

    #[test]
    fn malformed_and_unknown() {
        assert!(matches!(
            parse_command("START"),
            Command::Malformed {
                command: "START",
                ..
            }
        ));
        assert!(matches!(
            parse_command("START abc"),
            Command::Malformed { .. }
        ));
        assert!(matches!(
            parse_command("TURN 10"),
            Command::Malformed {
                command: "TURN",
                ..
            }
        ));
        assert!(matches!(
            parse_command("TURN 1,2,3"),
            Command::Malformed { .. }
        ));
        assert!(matches!(
            parse_command("TAKEBACK"),
            Command::Malformed { .. }
        ));
        assert_eq!(
            parse_command("FOO bar"),
            Command::Unknown { word: "FOO".into() }
        );
        assert!(matches!(
            parse_command("yxnbest"),
            Command::Malformed {
                command: "YXNBEST",
                ..
            }
        ));
        assert!(matches!(
            parse_command("YXBALANCEONE x"),
            Command::Malformed { .. }
        ));
        // A stray DONE outside a block is not a command.
        assert!(matches!(parse_command("DONE"), Command::Unknown { .. }));
    }

    #[test]
    fn negative_coordinates_parse_and_are_checked_later() {
        assert_eq!(parse_command("TURN -1,-1"), Command::Turn { x: -1, y: -1 });
    }

    #[test]
    fn info_keys_and_values() {
        let i = |l: &str| match parse_command(l) {
            Command::Info(i) => i,
            c => panic!("{l:?} gave {c:?}"),
        };
        assert_eq!(i("INFO timeout_turn 1000"), Info::TimeoutTurn(1000));
        assert_eq!(i("info TIMEOUT_MATCH 0"), Info::TimeoutMatch(0));
        assert_eq!(i("INFO time_left -500"), Info::TimeLeft(-500));
        assert_eq!(i("INFO time_left 2147483647"), Info::TimeLeft(2147483647));
        assert_eq!(i("INFO max_memory 4294967296"), Info::MaxMemory(4294967296));
        assert_eq!(i("INFO max_memory 0"), Info::MaxMemory(0));
        assert_eq!(i("INFO game_type 3"), Info::GameType(3));
        assert_eq!(i("INFO rule 4\r"), Info::Rule(4));
        assert_eq!(i("INFO evaluate 3,4"), Info::Evaluate { x: 3, y: 4 });
        assert_eq!(
            i("INFO folder C:\\My Documents\\x y"),
            Info::Folder("C:\\My Documents\\x y".into())
        );
        assert_eq!(i("INFO max_depth 12"), Info::MaxDepth(12));
        assert_eq!(i("INFO max_node -1"), Info::MaxNode(-1));
        assert_eq!(
            i("INFO max_node 18446744073709551615"),
            Info::MaxNode(i64::MAX)
        );
        assert_eq!(i("INFO thread_num 4"), Info::ThreadNum(4));
        assert_eq!(i("INFO time_increment 2000"), Info::TimeIncrement(2000));
        assert_eq!(i("INFO hash_size 1048576"), Info::HashSize(1048576));
        assert_eq!(i("INFO show_detail 3"), Info::ShowDetail(3));
        assert_eq!(i("INFO pondering 1"), Info::Pondering(1));
        assert_eq!(
            i("INFO evaluator_draw_black_winrate 0.5"),
            Info::Extension {
                key: "evaluator_draw_black_winrate",
                value: "0.5".into()
            }
        );
        assert!(matches!(i("INFO foo_bar 3"), Info::UnknownKey { .. }));
        assert!(matches!(i("INFO timeout_turn abc"), Info::BadValue { .. }));
        assert!(matches!(i("INFO timeout_turn"), Info::BadValue { .. }));
        assert!(matches!(i("INFO"), Info::BadValue { .. }));
        assert!(matches!(i("INFO pondering x"), Info::BadValue { .. }));
    }

    #[test]
    fn every_section_2_7_key_is_known() {
        for k in [
            "timeout_turn",
            "timeout_match",
            "time_left",
            "max_memory",
            "game_type",
            "rule",
            "max_depth",
            "max_node",
            "thread_num",
            "time_increment",
            "hash_size",
            "pondering",
            "show_detail",
        ]
        .iter()
        .chain(EXTENSION_KEYS)
        {
            let up = k.to_ascii_uppercase();
            for key in [k.to_string(), up] {
                match parse_info(&format!("{key} 1")) {
                    Info::UnknownKey { .. } | Info::BadValue { .. } => panic!("{key}"),
                    _ => {}
                }
            }
        }
    }

    #[test]
    fn stone_lines() {
        assert_eq!(
            parse_stone_line("7,7,1"),
            StoneLine::Stone {
                x: 7,
                y: 7,
                field: Some(1)
            }
        );
        assert_eq!(
            parse_stone_line(" 7 , 8 ,2\r\n"),
            StoneLine::Stone {
                x: 7,
                y: 8,
                field: Some(2)
            }
        );
        assert_eq!(
            parse_stone_line("7,8"),
            StoneLine::Stone {
                x: 7,
                y: 8,
                field: None
            }
        );
        assert_eq!(parse_stone_line("done"), StoneLine::Done);
        assert_eq!(parse_stone_line(" DONE\r"), StoneLine::Done);
        assert_eq!(parse_stone_line(""), StoneLine::Blank);
        for bad in ["7", "7,", "a,b,c", "1,2,3,4", "7,7,1 x", "END", "1;2"] {
            assert_eq!(parse_stone_line(bad), StoneLine::Bad, "{bad:?}");
        }
    }

    #[test]
    fn integers_saturate() {
        assert_eq!(parse_int("99999999999999999999999"), Some(i64::MAX));
        assert_eq!(parse_int("-99999999999999999999999"), Some(i64::MIN));
        assert_eq!(parse_int("+7"), Some(7));
        assert_eq!(parse_int("-"), None);
        assert_eq!(parse_int("1.5"), None);
    }

    #[test]
    fn excerpt_is_printable_and_short() {
        let e = excerpt("a\u{1}b\u{7f}c");
        assert_eq!(e, "a?b?c");
        assert!(excerpt(&"x".repeat(1000)).len() < 50);
    }

    /// A small deterministic PRNG (xorshift64*).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    #[test]
    fn random_bytes_never_panic() {
        const PIECES: &[&str] = &[
            "START",
            "start",
            "TURN",
            "BOARD",
            "INFO",
            "info",
            "rule",
            "timeout_turn",
            "DONE",
            "RECTSTART",
            "TAKEBACK",
            "PLAY",
            "SWAP2BOARD",
            "YXSTOP",
            "-",
            "+",
            ",",
            " ",
            "\t",
            "\r",
            "\n",
            "0",
            "7",
            "-1",
            "99999999999999999999",
            "\u{feff}",
            "é",
            "\u{0}",
        ];
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        for _ in 0..20_000 {
            let len = (rng.next() % 40) as usize;
            let mut bytes = Vec::with_capacity(len * 4);
            for _ in 0..len {
                if rng.next().is_multiple_of(3) {
                    let p = PIECES[(rng.next() % PIECES.len() as u64) as usize];
                    bytes.extend_from_slice(p.as_bytes());
                } else {
                    bytes.push(rng.next() as u8);
                }
            }
            let line = String::from_utf8_lossy(&bytes);
            let c = parse_command(&line);
            let _ = c.opens_block() || c.interrupts_search();
            let _ = parse_stone_line(&line);
            let _ = parse_info(&line);
            if let Command::Unknown { word } = &c {
                assert!(!word.chars().any(char::is_control));
            }
        }
    }
}
