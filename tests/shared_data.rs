//! Measurements on the team's shared test material (outside the repository, see
//! shared/data/README.md): the GomocupJudge rule checks, the renju problems whose answers are
//! forbidden points, and the first moves of the renju win problems. The folder is found through
//! `PENTAD_SHARED`, else `../shared` beside the crate; when it is absent every test here prints a
//! note and passes.

mod common;

use common::show;
use pentad::notation::pos_to_str;
use pentad::search::{Limits, Searcher};
use pentad::{Board, Color, Pos, Rule};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

// ------------------------------------------------------------------------------------------
// A small JSON reader (objects, arrays, strings, numbers, true/false/null).

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(v) => v.iter().find(|(k, _)| k == key).map(|(_, j)| j),
            _ => None,
        }
    }
    fn str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
    fn arr(&self) -> Option<&[Json]> {
        match self {
            Json::Arr(v) => Some(v),
            _ => None,
        }
    }
    fn num(&self) -> Option<f64> {
        match self {
            Json::Num(n) => Some(*n),
            _ => None,
        }
    }
    /// A `[x, y]` pair.
    fn xy(&self) -> Option<(i64, i64)> {
        let a = self.arr()?;
        if a.len() != 2 {
            return None;
        }
        Some((a[0].num()? as i64, a[1].num()? as i64))
    }
    /// A list of `[x, y]` pairs (missing or null: empty).
    fn xys(&self) -> Option<Vec<(i64, i64)>> {
        match self {
            Json::Null => Some(vec![]),
            _ => self.arr()?.iter().map(Json::xy).collect(),
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(format!("trailing text at {}", p.i));
        }
        Ok(v)
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        let Some(&c) = self.s.get(self.i) else {
            return Err("unexpected end".into());
        };
        match c {
            b'{' => {
                self.i += 1;
                let mut v = Vec::new();
                self.ws();
                if self.eat("}") {
                    return Ok(Json::Obj(v));
                }
                loop {
                    self.ws();
                    let Json::Str(k) = self.value()? else {
                        return Err(format!("object key expected at {}", self.i));
                    };
                    self.ws();
                    if !self.eat(":") {
                        return Err(format!("':' expected at {}", self.i));
                    }
                    let val = self.value()?;
                    v.push((k, val));
                    self.ws();
                    if self.eat(",") {
                        continue;
                    }
                    if self.eat("}") {
                        return Ok(Json::Obj(v));
                    }
                    return Err(format!("',' or '}}' expected at {}", self.i));
                }
            }
            b'[' => {
                self.i += 1;
                let mut v = Vec::new();
                self.ws();
                if self.eat("]") {
                    return Ok(Json::Arr(v));
                }
                loop {
                    v.push(self.value()?);
                    self.ws();
                    if self.eat(",") {
                        continue;
                    }
                    if self.eat("]") {
                        return Ok(Json::Arr(v));
                    }
                    return Err(format!("',' or ']' expected at {}", self.i));
                }
            }
            b'"' => {
                self.i += 1;
                let mut out: Vec<u8> = Vec::new();
                loop {
                    let Some(&c) = self.s.get(self.i) else {
                        return Err("unterminated string".into());
                    };
                    self.i += 1;
                    match c {
                        b'"' => break,
                        b'\\' => {
                            let e = *self.s.get(self.i).ok_or("bad escape")?;
                            self.i += 1;
                            let ch = match e {
                                b'n' => '\n',
                                b't' => '\t',
                                b'r' => '\r',
                                b'b' => '\u{8}',
                                b'f' => '\u{c}',
                                b'u' => {
                                    let mut cp = self.hex4()?;
                                    if (0xD800..0xDC00).contains(&cp) && self.eat("\\u") {
                                        let lo = self.hex4()?;
                                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                                    }
                                    char::from_u32(cp).unwrap_or('\u{fffd}')
                                }
                                other => other as char,
                            };
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        _ => out.push(c),
                    }
                }
                String::from_utf8(out)
                    .map(Json::Str)
                    .map_err(|e| e.to_string())
            }
            b't' if self.eat("true") => Ok(Json::Bool(true)),
            b'f' if self.eat("false") => Ok(Json::Bool(false)),
            b'n' if self.eat("null") => Ok(Json::Null),
            _ => {
                let start = self.i;
                while self.i < self.s.len()
                    && matches!(
                        self.s[self.i],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.i += 1;
                }
                std::str::from_utf8(&self.s[start..self.i])
                    .ok()
                    .and_then(|t| t.parse::<f64>().ok())
                    .map(Json::Num)
                    .ok_or_else(|| format!("bad value at {start}"))
            }
        }
    }
    fn hex4(&mut self) -> Result<u32, String> {
        let t = self
            .s
            .get(self.i..self.i + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or("bad \\u escape")?;
        self.i += 4;
        Ok(t)
    }
}

#[test]
fn json_reader() {
    let j =
        Parser::parse(r#" {"a": [1, -2.5e1, true, null], "b": "x\"\u00e9\ud83d\ude00", "c": {}} "#)
            .unwrap();
    assert_eq!(j.get("a").unwrap().arr().unwrap()[1], Json::Num(-25.0));
    assert_eq!(j.get("b").unwrap().str(), Some("x\"é😀"));
    assert_eq!(j.get("c"), Some(&Json::Obj(vec![])));
    assert!(Parser::parse("[1,").is_err());
}

// ------------------------------------------------------------------------------------------
// Finding the data.

fn shared_root() -> PathBuf {
    match std::env::var_os("PENTAD_SHARED") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

/// The lines of a puzzle file (`data/puzzles/<name>`, or `puzzles/<name>`), or `None` with a
/// note when the shared folder does not have it.
fn records(name: &str) -> Option<Vec<Json>> {
    let root = shared_root();
    let path = [
        root.join("data").join("puzzles").join(name),
        root.join("puzzles").join(name),
    ]
    .into_iter()
    .find(|p| p.is_file());
    let Some(path) = path else {
        println!(
            "note: {name} not found under {} (set PENTAD_SHARED); skipped",
            root.display()
        );
        return None;
    };
    let text = std::fs::read_to_string(&path).expect("readable puzzle file");
    let v: Vec<Json> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            Parser::parse(l).unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), i + 1))
        })
        .collect();
    println!("{}: {} records", path.display(), v.len());
    Some(v)
}

/// The position of a record on a `size` board: `moves` in order when given (black first), else
/// the `black` and `white` lists. Fails on off-board or doubled stones.
fn position(r: &Json, rule: Rule, size: usize) -> Result<Board, String> {
    let mut b = Board::square(size, rule).map_err(|e| e.to_string())?;
    let moves = r.get("moves").and_then(Json::xys).unwrap_or_default();
    let black = r.get("black").and_then(Json::xys).unwrap_or_default();
    let white = r.get("white").and_then(Json::xys).unwrap_or_default();
    let sq = |b: &Board, (x, y): (i64, i64)| -> Result<Pos, String> {
        let p = b.pos(x, y).ok_or(format!("{x},{y} off the board"))?;
        if !b.is_empty(p) {
            return Err(format!("{x},{y} occupied twice"));
        }
        Ok(p)
    };
    if !moves.is_empty() {
        for &m in &moves {
            let p = sq(&b, m)?;
            b.play(p);
        }
        // The lists, when given, must be the same stones.
        for (list, c) in [(&black, Color::Black), (&white, Color::White)] {
            for &(x, y) in list.iter() {
                let p = b.pos(x, y).ok_or("stone off the board")?;
                if b.cell(p) != pentad::types::Cell::stone(c) {
                    return Err(format!("moves and stone lists differ at {x},{y}"));
                }
            }
        }
        if !black.is_empty() && black.len() + white.len() != moves.len() {
            return Err("moves and stone lists differ in number".into());
        }
    } else {
        for &m in &black {
            let p = sq(&b, m)?;
            b.put(p, Color::Black);
        }
        for &m in &white {
            let p = sq(&b, m)?;
            b.put(p, Color::White);
        }
    }
    if let Some(side) = r.get("side_to_move").and_then(Json::str) {
        b.set_side_to_move(if side == "white" {
            Color::White
        } else {
            Color::Black
        });
    }
    Ok(b)
}

// ------------------------------------------------------------------------------------------
// (a) GomocupJudge rule checks.

/// `freestyle20` → (Freestyle, 20); `fastgame` is freestyle; `caro` is rule 8 as the judge sends it.
fn rule_and_size(s: &str) -> Option<(Rule, usize)> {
    let digits = s.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let name = &s[..s.len() - digits.len()];
    let size = digits.parse().ok()?;
    let rule = match name {
        "fastgame" => Rule::Freestyle,
        other => Rule::parse(other)?,
    };
    Some((rule, size))
}

#[test]
fn shared_rule_checks() {
    let Some(recs) = records("rule_checks.jsonl") else {
        return;
    };
    let mut failures = Vec::new();
    let mut runs = 0;
    for r in &recs {
        let id = r.get("id").and_then(Json::str).unwrap_or("?");
        let accept = r.get("accept").and_then(Json::xys).unwrap_or_default();
        let reject = r.get("reject").and_then(Json::xys).unwrap_or_default();
        for rs in r.get("rules").and_then(Json::arr).unwrap_or(&[]) {
            let rs = rs.str().unwrap();
            let Some((rule, size)) = rule_and_size(rs) else {
                failures.push(format!("{id}: unknown rule {rs}"));
                continue;
            };
            let b = match position(r, rule, size) {
                Ok(b) => b,
                Err(e) => {
                    failures.push(format!("{id} {rs}: {e}"));
                    continue;
                }
            };
            let side = r.get("side_to_move").and_then(Json::str).unwrap_or("?");
            let mut played = Board::square(size, rule).unwrap();
            for m in r.get("moves").and_then(Json::xys).unwrap() {
                played.play(played.pos(m.0, m.1).unwrap());
            }
            assert_eq!(
                pentad::types::Cell::stone(played.side_to_move()),
                if side == "white" {
                    pentad::types::Cell::White
                } else {
                    pentad::types::Cell::Black
                },
                "{id}: side to move"
            );
            let stop = AtomicBool::new(false);
            let out = Searcher::new(16 << 20).search(&b, &Limits::depth(4), &stop, &mut |_| {});
            let p = out.best;
            let xy = (p.x() as i64, p.y() as i64);
            let ok = !p.is_none()
                && b.is_empty(p)
                && (accept.is_empty() || accept.contains(&xy))
                && !reject.contains(&xy);
            runs += 1;
            println!(
                "{id} {rs}: {} -> {}",
                pos_to_str(p),
                if ok { "pass" } else { "FAIL" }
            );
            if !ok {
                failures.push(format!(
                    "{id} {rs}: played {}\n{}",
                    pos_to_str(p),
                    show(&b, Some((p, '@')))
                ));
            }
        }
    }
    println!("{runs} rule checks run, {} failed", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ------------------------------------------------------------------------------------------
// (b) Renju problems whose answers are forbidden points.

/// The problem asks which of the lettered points are forbidden (`图中字母属于33禁手的是`, "which
/// letters are double-three fouls", and the same for 三三, 44, 四四): every answer point must be a
/// foul. (The letters that are not answers are not in the data, so only this direction can be
/// checked.)
fn answers_are_fouls(r: &Json) -> bool {
    let task = r.get("task").and_then(Json::str).unwrap_or("");
    let c = r.get("comment").and_then(Json::str).unwrap_or("");
    task.starts_with("BASE")
        && c.contains("属于")
        && ["33禁手", "三三禁手", "44禁手", "四四禁手"]
            .iter()
            .any(|k| c.contains(k))
}

/// Problems about how deep the foul judgement of a point goes (`两层禁手判断`, "judged in two
/// layers", …) or which point holds the most kinds of foul: the answer is a point whose judgement
/// is interesting, foul or not (a fake double three resolved two layers down is not a foul).
/// Reported only. Multiple-choice problems (`A: 2层`…) are left out: their answer point marks an
/// option, not a square of the position.
fn answers_concern_fouls(r: &Json) -> bool {
    let task = r.get("task").and_then(Json::str).unwrap_or("");
    let c = r.get("comment").and_then(Json::str).unwrap_or("");
    task.starts_with("BASE")
        && !answers_are_fouls(r)
        && !c.contains("A:")
        && (c.contains("禁手判断") || c.contains("禁手层数") || c.contains("禁手类型"))
}

#[test]
fn shared_renju_forbidden_points() {
    let Some(recs) = records("renju_puzzles.jsonl") else {
        return;
    };
    let (mut points, mut agree, mut problems) = (0, 0, 0);
    let mut report = Vec::new();
    for r in recs.iter().filter(|r| answers_are_fouls(r)) {
        problems += 1;
        let id = r.get("id").and_then(Json::str).unwrap_or("?");
        let size = r.get("board_size").and_then(Json::num).unwrap_or(15.0) as usize;
        let b = position(r, Rule::Renju, size).unwrap_or_else(|e| panic!("{id}: {e}"));
        for (x, y) in r.get("answer_points").and_then(Json::xys).unwrap() {
            let p = b.pos(x, y).expect("answer on the board");
            points += 1;
            let judge = b.is_empty(p) && b.grid().is_renju_foul(p);
            assert_eq!(judge, b.is_foul(Color::Black, p), "{id}: board and judge");
            if judge {
                agree += 1;
            } else {
                report.push(format!(
                    "{id} ({}): answer {} not judged foul\n{}",
                    r.get("comment").and_then(Json::str).unwrap_or(""),
                    pos_to_str(p),
                    show(&b, Some((p, '?')))
                ));
            }
        }
    }
    println!("forbidden-point problems: {problems}, answer points {points}, judged foul {agree}");
    for line in &report {
        println!("{line}");
    }
    let mut others = 0;
    for r in recs.iter().filter(|r| answers_concern_fouls(r)) {
        let id = r.get("id").and_then(Json::str).unwrap_or("?");
        let size = r.get("board_size").and_then(Json::num).unwrap_or(15.0) as usize;
        let Ok(b) = position(r, Rule::Renju, size) else {
            continue;
        };
        for (x, y) in r.get("answer_points").and_then(Json::xys).unwrap() {
            let p = b.pos(x, y).unwrap();
            others += 1;
            println!(
                "(report only) {id}: {} {} — {}",
                pos_to_str(p),
                if b.is_empty(p) && b.grid().is_renju_foul(p) {
                    "foul"
                } else {
                    "not foul"
                },
                r.get("comment")
                    .and_then(Json::str)
                    .unwrap_or("")
                    .replace('\n', " / ")
            );
        }
    }
    println!("{others} answer points of foul-depth problems reported");
    if points > 0 {
        assert!(
            agree * 10 >= points * 9,
            "only {agree} of {points} forbidden-point answers judged foul"
        );
    }
}

// ------------------------------------------------------------------------------------------
// (c) Renju win problems: positions load, the proven first move is an empty, legal square.

#[test]
fn shared_renju_win_problems_first_moves() {
    let Some(recs) = records("renju_puzzles.jsonl") else {
        return;
    };
    let mut failures = Vec::new();
    let (mut loaded, mut checked, mut black_moves) = (0, 0, 0);
    for r in &recs {
        let id = r.get("id").and_then(Json::str).unwrap_or("?");
        let size = r.get("board_size").and_then(Json::num).unwrap_or(15.0) as usize;
        let b = match position(r, Rule::Renju, size) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{id}: does not load: {e}"));
                continue;
            }
        };
        loaded += 1;
        let Some(first) = r
            .get("proven_win")
            .and_then(|w| w.get("renju"))
            .and_then(|w| w.get("first_move"))
            .and_then(Json::xy)
        else {
            continue;
        };
        checked += 1;
        let side = if r.get("side_to_move").and_then(Json::str) == Some("white") {
            Color::White
        } else {
            Color::Black
        };
        let Some(p) = b.pos(first.0, first.1) else {
            failures.push(format!("{id}: first move {first:?} off the board"));
            continue;
        };
        if !b.is_empty(p) {
            failures.push(format!("{id}: first move {} is occupied", pos_to_str(p)));
            continue;
        }
        if side == Color::Black {
            black_moves += 1;
            let foul = b.grid().is_renju_foul(p);
            assert_eq!(foul, b.is_foul(Color::Black, p), "{id}: board and judge");
            if foul {
                failures.push(format!(
                    "{id} ({}): black's proven first move {} is judged a foul\n{}",
                    r.get("task").and_then(Json::str).unwrap_or(""),
                    pos_to_str(p),
                    show(&b, Some((p, '!')))
                ));
            }
        }
    }
    println!(
        "{loaded} of {} positions load; {checked} proven first moves checked ({black_moves} by \
         black); {} problems",
        recs.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
