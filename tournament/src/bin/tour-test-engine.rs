//! A small pbrain engine for the tournament runner's tests: a simple legal strategy (win,
//! block a five, else the best shape square next to the stones), and modes that misbehave on
//! purpose at a chosen move.
//!
//! Usage: `tour-test-engine [--mode MODE] [--at N] [--ms MS] [--mb MB] [--seed S] [--say LINE]
//! [--say-start LINE] [--no-debug]`
//! Modes: `good` (default), `random` (a random legal square near the stones), `crash` (exit
//! at move N), `hang` (never answer move N), `garbage` (answer move N with a sentence),
//! `occupied` (answer move N with a square holding a stone), `offboard`, `slow` (sleep MS
//! before move N), `memory` (touch MB megabytes before move N and keep them), `no-ok` (never
//! answer START), `error-start` (answer START with ERROR), `foul` (as renju black, play a foul
//! square whenever there is one), `extra` (print the move N twice: the second line is
//! unrequested output). Any mode: `--say LINE` prints LINE just before move N (the stray
//! `ERROR`/`UNKNOWN`/`DEBUG`/junk lines that managers judge differently), `--say-start LINE`
//! before its `OK`, and `--no-debug` leaves out the DEBUG line it prints with every move.

use pentad::{Board, Color, Pos, Rule};
use std::io::{BufRead, Write};

struct Opts {
    mode: String,
    at: usize,
    ms: u64,
    mb: usize,
    seed: u64,
    say: Option<String>,
    say_start: Option<String>,
    debug: bool,
}

fn parse_opts() -> Opts {
    let mut o = Opts {
        mode: "good".into(),
        at: 1,
        ms: 3000,
        mb: 200,
        seed: 0,
        say: None,
        say_start: None,
        debug: true,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--mode" => o.mode = v,
            "--at" => o.at = v.parse().unwrap_or(1),
            "--ms" => o.ms = v.parse().unwrap_or(3000),
            "--mb" => o.mb = v.parse().unwrap_or(200),
            "--seed" => o.seed = v.parse().unwrap_or(0),
            "--say" => o.say = Some(v),
            "--say-start" => o.say_start = Some(v),
            "--no-debug" => {
                o.debug = false;
                i += 1;
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    o
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

struct Engine {
    o: Opts,
    board: Board,
    rule: Rule,
    moves_asked: usize,
    rng: Rng,
    hoard: Vec<Vec<u8>>,
    out: std::io::Stdout,
}

impl Engine {
    fn say(&mut self, s: &str) {
        let mut l = self.out.lock();
        let _ = writeln!(l, "{s}");
        let _ = l.flush();
    }

    fn reset(&mut self, w: usize, h: usize) -> bool {
        match Board::new(w, h, self.rule) {
            Ok(b) => {
                self.board = b;
                true
            }
            Err(_) => false,
        }
    }

    fn legal_squares(&self) -> Vec<Pos> {
        let me = self.board.side_to_move();
        let empty: Vec<Pos> = self
            .board
            .squares()
            .filter(|&p| self.board.is_empty(p))
            .collect();
        let near: Vec<Pos> = empty
            .iter()
            .copied()
            .filter(|&p| self.board.is_near(p) && !self.board.is_foul(me, p))
            .collect();
        if !near.is_empty() {
            return near;
        }
        let legal: Vec<Pos> = empty
            .iter()
            .copied()
            .filter(|&p| !self.board.is_foul(me, p))
            .collect();
        if legal.is_empty() {
            empty
        } else {
            legal
        }
    }

    fn choose(&mut self) -> Pos {
        let me = self.board.side_to_move();
        let opp = me.opp();
        if self.board.stone_count() == 0 {
            return Pos::new(self.board.width() / 2, self.board.height() / 2);
        }
        let cands = self.legal_squares();
        if self.o.mode == "random" {
            return cands[(self.rng.next() % cands.len() as u64) as usize];
        }
        if self.o.mode == "foul" && self.rule == Rule::Renju && me == Color::Black {
            if let Some(p) = self
                .board
                .squares()
                .find(|&p| self.board.is_empty(p) && self.board.is_foul(Color::Black, p))
            {
                return p;
            }
        }
        if let Some(&p) = cands.iter().find(|&&p| self.board.wins_by(me, p)) {
            return p;
        }
        if let Some(&p) = cands.iter().find(|&&p| self.board.wins_by(opp, p)) {
            return p;
        }
        *cands
            .iter()
            .max_by_key(|&&p| {
                (
                    self.board.value(me, p) + self.board.value(opp, p),
                    std::cmp::Reverse(p),
                )
            })
            .expect("a square")
    }

    /// Answers a request for a move, misbehaving if this is the chosen one.
    fn think(&mut self, last_opp: Option<Pos>) {
        self.moves_asked += 1;
        let now = self.moves_asked >= self.o.at;
        let exact = self.moves_asked == self.o.at;
        match self.o.mode.as_str() {
            "crash" if now => std::process::exit(3),
            "hang" if now => loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            },
            "garbage" if now => {
                self.say("I think I will play somewhere nice");
                return;
            }
            "occupied" if now => {
                let p = last_opp
                    .or_else(|| self.board.last_move())
                    .unwrap_or(Pos::new(0, 0));
                if !self.board.is_empty(p) {
                    self.say(&format!("{},{}", p.x(), p.y()));
                    return;
                }
            }
            "offboard" if now => {
                self.say("99,99");
                return;
            }
            "slow" if exact => std::thread::sleep(std::time::Duration::from_millis(self.o.ms)),
            "memory" if exact => {
                let mut v = vec![0u8; self.o.mb << 20];
                for i in (0..v.len()).step_by(4096) {
                    v[i] = 1;
                }
                self.hoard.push(std::hint::black_box(v));
            }
            _ => {}
        }
        let p = self.choose();
        self.board.play(p);
        self.say(&format!("MESSAGE test engine move {}", self.moves_asked));
        if self.o.debug {
            self.say(&format!("DEBUG thinking about {},{}", p.x(), p.y()));
        }
        if exact {
            if let Some(line) = self.o.say.clone() {
                self.say(&line);
            }
        }
        if self.o.mode == "extra" && exact {
            // The move and an unrequested second line in one write.
            self.say(&format!("{},{}\n{},{}", p.x(), p.y(), p.x(), p.y()));
        } else {
            self.say(&format!("{},{}", p.x(), p.y()));
        }
    }
}

fn xy(s: &str) -> Option<(i64, i64)> {
    let mut it = s.split(',').map(|t| t.trim().parse::<i64>().ok());
    Some((it.next()??, it.next()??))
}

fn main() {
    let o = parse_opts();
    let seed = o.seed;
    let mut e = Engine {
        o,
        board: Board::new(15, 15, Rule::Freestyle).unwrap(),
        rule: Rule::Freestyle,
        moves_asked: 0,
        rng: Rng(seed),
        hoard: Vec::new(),
        out: std::io::stdout(),
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while let Some(Ok(line)) = lines.next() {
        let line = line.trim().to_string();
        let upper = line.to_ascii_uppercase();
        let (cmd, rest) = match upper.split_once(' ') {
            Some((c, _)) => (c.to_string(), line[c.len()..].trim().to_string()),
            None => (upper.clone(), String::new()),
        };
        match cmd.as_str() {
            "" => {}
            "ABOUT" => e.say("name=\"tour-test-engine\", version=\"1\", author=\"pentad\""),
            "START" | "RECTSTART" => {
                let (w, h) = if cmd == "START" {
                    let n = rest.parse().unwrap_or(0);
                    (n, n)
                } else {
                    xy(&rest).map_or((0, 0), |(a, b)| (a as usize, b as usize))
                };
                match e.o.mode.as_str() {
                    "no-ok" => {}
                    "error-start" => e.say("ERROR I do not play today"),
                    _ => {
                        if let Some(line) = e.o.say_start.clone() {
                            e.say(&line);
                        }
                        if e.reset(w, h) {
                            e.say("OK");
                        } else {
                            e.say("ERROR unsupported size");
                        }
                    }
                }
            }
            "RESTART" => {
                let (w, h) = (e.board.width(), e.board.height());
                e.reset(w, h);
                e.say("OK");
            }
            "INFO" => {
                let mut it = rest.split_whitespace();
                if let (Some(k), Some(v)) = (it.next(), it.next()) {
                    if k.eq_ignore_ascii_case("rule") {
                        if let Ok(v) = v.parse::<i64>() {
                            e.rule = Rule::from_info(v);
                            e.board.set_rule(e.rule);
                        }
                    }
                }
            }
            "BEGIN" => e.think(None),
            "TURN" => {
                let Some((x, y)) = xy(&rest) else {
                    e.say("ERROR bad TURN");
                    continue;
                };
                match e.board.pos(x, y) {
                    Some(p) if e.board.is_empty(p) => {
                        e.board.play(p);
                        e.think(Some(p));
                    }
                    _ => e.say("ERROR bad coordinates"),
                }
            }
            "BOARD" => {
                let (w, h) = (e.board.width(), e.board.height());
                e.reset(w, h);
                let mut stones = Vec::new();
                for l in lines.by_ref() {
                    let Ok(l) = l else { break };
                    let l = l.trim().to_string();
                    if l.eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    let f: Vec<i64> = l.split(',').filter_map(|t| t.trim().parse().ok()).collect();
                    if f.len() == 3 {
                        stones.push((f[0], f[1], f[2]));
                    }
                }
                let own = stones.iter().filter(|s| s.2 == 1).count();
                let opp = stones.len() - own;
                let me = if own == opp {
                    Color::Black
                } else {
                    Color::White
                };
                let mut last = None;
                for (x, y, f) in stones {
                    if let Some(p) = e.board.pos(x, y) {
                        if e.board.is_empty(p) {
                            e.board.put(p, if f == 1 { me } else { me.opp() });
                            last = Some(p);
                        }
                    }
                }
                e.board.set_side_to_move(me);
                e.think(last);
            }
            "END" => std::process::exit(0),
            _ => e.say(&format!("UNKNOWN {cmd}")),
        }
    }
}
