//! What a game leaves behind: the record kept in the JSON results, and the Piskvork `.psq` and
//! SGF files.

use serde::{Deserialize, Serialize};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// A winning line under the rule.
    Five,
    /// Drawn: the board is full.
    Draw,
    /// Drawn: the stone limit (`--draw-after`) was reached.
    DrawLimit,
    /// A renju black foul.
    Foul,
    /// A move off the board or on a stone.
    IllegalMove,
    /// A line that the engine's judge reads as the answer and that is not a move.
    NotAMove,
    /// No move within `tolerance + min(time_left, timeout_turn)`.
    Timeout,
    /// The engine exited or closed its output.
    Crash,
    /// No `OK` to START (silence, ERROR, or another line).
    NoOk,
    /// Peak resident memory of the engine's process tree over its limit.
    Memory,
}

impl Reason {
    /// Every reason, in table order.
    pub const ALL: [Reason; 10] = [
        Reason::Five,
        Reason::Draw,
        Reason::DrawLimit,
        Reason::Foul,
        Reason::IllegalMove,
        Reason::NotAMove,
        Reason::Timeout,
        Reason::Crash,
        Reason::NoOk,
        Reason::Memory,
    ];

    /// The name used in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::Draw => "draw",
            Reason::DrawLimit => "draw-limit",
            Reason::Foul => "foul",
            Reason::IllegalMove => "illegal-move",
            Reason::NotAMove => "not-a-move",
            Reason::Timeout => "timeout",
            Reason::Crash => "crash",
            Reason::NoOk => "no-ok",
            Reason::Memory => "memory",
        }
    }

    /// True for a loss caused by the engine's misbehaviour rather than by the game.
    pub fn is_fault(self) -> bool {
        !matches!(
            self,
            Reason::Five | Reason::Draw | Reason::DrawLimit | Reason::Foul
        )
    }

    /// SGF `RE` suffix for a win by this reason.
    fn sgf_suffix(self) -> &'static str {
        match self {
            Reason::Five => "",
            Reason::Timeout => "T",
            _ => "F",
        }
    }
}

/// The winner of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// Black won.
    Black,
    /// White won.
    White,
    /// Nobody.
    Draw,
}

/// One move by an engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Column.
    pub x: usize,
    /// Row.
    pub y: usize,
    /// Thinking time in ms (command sent to move received).
    pub ms: u64,
    /// Lines sent with the move that the engine's judge records as messages: a MESSAGE line's
    /// text, or the whole line of another kind (c-gomoku-cli's ERROR, GomocupJudgeLocal's
    /// UNKNOWN...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<String>,
    /// Lines sent before the move that the judge passed over, whole.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Index in the schedule (the same in every shard).
    pub id: usize,
    /// Index of the pairing.
    pub pairing: usize,
    /// Index of the game pair within the pairing (the two games of a pair share the opening).
    pub pair: usize,
    /// Engine index of black.
    pub black: usize,
    /// Engine index of white.
    pub white: usize,
    /// Black's name.
    pub black_name: String,
    /// White's name.
    pub white_name: String,
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// `INFO rule` value.
    pub rule: i64,
    /// Where the opening came from (`file:line`), empty for none.
    pub opening_source: String,
    /// Symmetry applied to the opening.
    pub symmetry: String,
    /// The opening stones (black first).
    pub opening: Vec<(usize, usize)>,
    /// The engines' moves after the opening.
    pub moves: Vec<MoveRecord>,
    /// Who won.
    pub winner: Winner,
    /// Why the game ended.
    pub reason: Reason,
    /// Details (the offending line, the square, the time used...).
    pub detail: String,
    /// Match time left at the end (ms) for black and white; `None` when unlimited.
    pub time_left: [Option<i64>; 2],
    /// Peak resident memory of each engine's process tree (bytes) for black and white.
    pub peak_memory: [u64; 2],
    /// Lines black and white printed that their judge passed over and that no recorded move
    /// followed (the game ended while waiting for their OK or move).
    #[serde(default, skip_serializing_if = "no_lines")]
    pub ignored_at_end: [Vec<String>; 2],
    /// Wall-clock length of the game in ms.
    pub duration_ms: u64,
}

impl GameRecord {
    /// The score of engine `e` in this game (1, ½, 0), if it played.
    pub fn score_of(&self, e: usize) -> Option<f64> {
        let black = match self.winner {
            Winner::Black => 1.0,
            Winner::White => 0.0,
            Winner::Draw => 0.5,
        };
        if e == self.black {
            Some(black)
        } else if e == self.white {
            Some(1.0 - black)
        } else {
            None
        }
    }

    /// The colour index (0 black, 1 white) of the engine that made engine move `i`.
    pub fn mover(&self, i: usize) -> usize {
        (self.opening.len() + i) % 2
    }

    /// How many lines engine `e` printed that its judge passed over (0 if it did not play).
    pub fn lines_ignored(&self, e: usize) -> usize {
        let side = if e == self.black {
            0
        } else if e == self.white {
            1
        } else {
            return 0;
        };
        let before_moves: usize = self
            .moves
            .iter()
            .enumerate()
            .filter(|(i, _)| self.mover(*i) == side)
            .map(|(_, m)| m.ignored.len())
            .sum();
        before_moves + self.ignored_at_end[side].len()
    }

    /// PGN-like result: `1-0` (black won), `0-1`, `1/2-1/2`.
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Winner::Black => "1-0",
            Winner::White => "0-1",
            Winner::Draw => "1/2-1/2",
        }
    }

    /// A file name stem: `00012-a-vs-b`.
    pub fn file_stem(&self) -> String {
        format!("{:05}-{}-vs-{}", self.id, self.black_name, self.white_name)
    }

    /// The game in Piskvork's `.psq` format, as Piskvork and the GomocupJudge server write it:
    /// `Piskvorky WxH, 11:11, 0`, then one `x,y,ms` line per stone with 1-based coordinates
    /// (opening stones with 0 ms), then black's and white's names and `-1`.
    pub fn to_psq(&self) -> String {
        let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", self.width, self.height);
        for &(x, y) in &self.opening {
            s.push_str(&format!("{},{},0\n", x + 1, y + 1));
        }
        for m in &self.moves {
            s.push_str(&format!("{},{},{}\n", m.x + 1, m.y + 1, m.ms));
        }
        s.push_str(&format!("{}\n{}\n-1\n", self.black_name, self.white_name));
        s
    }

    /// The game in SGF (FF[4], GM[4] = Gomoku): coordinates as letters from `a` at the top
    /// left, `B[..]`/`W[..]` alternating from black; the result `RE` is `B+`/`W+` for a five,
    /// `B+T`/`W+T` on time, `B+F`/`W+F` for any other fault or foul, `0` for a draw.
    pub fn to_sgf(&self, event: &str) -> String {
        let letter = |v: usize| -> char {
            // a..z then A..Z (SGF's convention beyond 26 lines).
            if v < 26 {
                (b'a' + v as u8) as char
            } else {
                (b'A' + (v - 26) as u8) as char
            }
        };
        let size = if self.width == self.height {
            format!("{}", self.width)
        } else {
            format!("{}:{}", self.width, self.height)
        };
        let re = match self.winner {
            Winner::Black => format!("B+{}", self.reason.sgf_suffix()),
            Winner::White => format!("W+{}", self.reason.sgf_suffix()),
            Winner::Draw => "0".into(),
        };
        let mut s = format!(
            "(;GM[4]FF[4]CA[UTF-8]AP[pentad-tournament]SZ[{size}]RU[{}]PB[{}]PW[{}]RE[{re}]EV[{}]GN[{}]GC[{}]",
            sgf_escape(pentad::Rule::from_info(self.rule).name()),
            sgf_escape(&self.black_name),
            sgf_escape(&self.white_name),
            sgf_escape(event),
            self.id,
            sgf_escape(&format!(
                "{} ({}); opening {} {}",
                self.reason.name(),
                self.detail,
                self.opening_source,
                self.symmetry
            ))
        );
        for (side, lines) in ["black", "white"].iter().zip(&self.ignored_at_end) {
            if !lines.is_empty() {
                let quoted: Vec<String> = lines.iter().map(|l| format!("'{l}'")).collect();
                s.insert_str(
                    s.len() - 1,
                    &sgf_escape(&format!(
                        "; {side}'s ignored lines at the end: {}",
                        quoted.join(", ")
                    )),
                );
            }
        }
        let mut n = 0;
        let mut push = |x: usize, y: usize, comment: Option<String>, s: &mut String| {
            let c = if n % 2 == 0 { 'B' } else { 'W' };
            s.push_str(&format!(";{c}[{}{}]", letter(x), letter(y)));
            if let Some(t) = comment {
                s.push_str(&format!("C[{}]", sgf_escape(&t)));
            }
            n += 1;
        };
        for &(x, y) in &self.opening {
            push(x, y, None, &mut s);
        }
        for m in &self.moves {
            let mut c = format!("{} ms", m.ms);
            for msg in &m.messages {
                c.push('\n');
                c.push_str(msg);
            }
            for l in &m.ignored {
                c.push_str("\nignored: ");
                c.push_str(l);
            }
            push(m.x, m.y, Some(c), &mut s);
        }
        s.push_str(")\n");
        s
    }
}

fn no_lines(l: &[Vec<String>; 2]) -> bool {
    l.iter().all(Vec::is_empty)
}

fn sgf_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            id: 3,
            pairing: 0,
            pair: 1,
            black: 1,
            white: 0,
            black_name: "b".into(),
            white_name: "a".into(),
            width: 15,
            height: 15,
            rule: 0,
            opening_source: "o.txt:2".into(),
            symmetry: "identity".into(),
            opening: vec![(7, 7), (8, 8)],
            moves: vec![
                MoveRecord {
                    x: 0,
                    y: 14,
                    ms: 12,
                    messages: vec!["depth 3".into()],
                    ignored: vec!["ERROR Unknown command: TIME_LEFT".into()],
                },
                MoveRecord {
                    x: 14,
                    y: 0,
                    ms: 7,
                    messages: vec![],
                    ignored: vec![],
                },
            ],
            winner: Winner::White,
            reason: Reason::Timeout,
            detail: "no move".into(),
            time_left: [Some(100), None],
            peak_memory: [1, 2],
            ignored_at_end: [vec![], vec!["junk".into()]],
            duration_ms: 40,
        }
    }

    #[test]
    fn psq_format() {
        let g = sample();
        assert_eq!(
            g.to_psq(),
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n1,15,12\n15,1,7\nb\na\n-1\n"
        );
    }

    #[test]
    fn sgf_format() {
        let g = sample();
        let s = g.to_sgf("test");
        assert!(s.starts_with("(;GM[4]FF[4]"), "{s}");
        assert!(s.contains("SZ[15]"));
        assert!(s.contains("PB[b]PW[a]RE[W+T]"));
        assert!(
            s.contains(
                ";B[hh];W[ii];B[ao]C[12 ms\ndepth 3\nignored: ERROR Unknown command: TIME_LEFT];W[oa]C[7 ms])"
            ),
            "{s}"
        );
        let mut d = sample();
        d.winner = Winner::Draw;
        d.width = 20;
        assert!(d.to_sgf("").contains("SZ[20:15]"));
        assert!(d.to_sgf("").contains("RE[0]"));
        assert_eq!(sgf_escape("a]b\\"), "a\\]b\\\\");
    }

    #[test]
    fn scores_and_movers() {
        let g = sample();
        assert_eq!(g.score_of(0), Some(1.0));
        assert_eq!(g.score_of(1), Some(0.0));
        assert_eq!(g.score_of(2), None);
        assert_eq!(g.mover(0), 0);
        assert_eq!(g.mover(1), 1);
        assert_eq!(g.result_text(), "0-1");
        // Black (engine 1) had one line ignored before a move, white one at the end.
        assert_eq!(
            (g.lines_ignored(1), g.lines_ignored(0), g.lines_ignored(2)),
            (1, 1, 0)
        );
        assert!(g
            .to_sgf("")
            .contains("white's ignored lines at the end: 'junk'"));
        let j = serde_json::to_string(&g).unwrap();
        assert!(j.contains("\"reason\":\"timeout\""));
        let back: GameRecord = serde_json::from_str(&j).unwrap();
        assert_eq!(back, g);
    }
}
