//! The move order's shape score (a "policy"): how likely an empty square is to be the move a
//! deeper search plays there, learned from self-play games by `pbrain-pentad tune --policy`
//! (softmax regression; README "Training the evaluation") and embedded from
//! `eval/pentad.policy`.
//!
//! A square's score sums four learned entries: its combination of four line patterns for the
//! side to move (what playing it makes) and for the opponent (what playing it stops), and its
//! distances to the opponent's last move and to our own. Scores are in the units of the old
//! hand-set order (`5 × own shape value + 4 × the opponent's`), so that the cut-off history and
//! the killers keep their weight beside them. A family without a table orders by the old
//! formula (`movegen`).
//!
//! The file is text: `#` lines describe how it was made (data size, held-out error), then per
//! family a `family NAME` line and four lines of integers, `own` and `opp` (one per
//! combination, in `crate::pattern::COMBO` order) and `near_opp` and `near_own` (one per
//! distance bucket).

use crate::board::Board;
use crate::eval::Family;
use crate::pattern::COMBOS;
use crate::rules::Rule;
use crate::types::{Color, Pos};

/// Distance buckets to a last move: Chebyshev distance 1 to `NEAR - 1`, then farther (or no
/// such move).
pub const NEAR: usize = 7;

/// One family's table.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyTable {
    /// Per combination of the side to move's four line patterns at the square.
    pub own: Vec<i32>,
    /// Per combination of the opponent's.
    pub opp: Vec<i32>,
    /// Per distance bucket to the opponent's last move.
    pub near_opp: [i32; NEAR],
    /// Per distance bucket to our own last move.
    pub near_own: [i32; NEAR],
}

/// The distance bucket of square `q` from `last` (a move, or `Pos::NONE`).
#[inline]
pub fn near_bucket(q: Pos, last: Pos) -> usize {
    if last.is_none() {
        return NEAR - 1;
    }
    (q.king_distance(last) as usize).clamp(1, NEAR) - 1
}

/// Weight of attack against defence in the hand-set order (per 4 of defence).
const HAND_ATTACK_WEIGHT: i32 = 5;

/// The hand-set order's score of the empty square `p` for the side to move `me`: our shape
/// value (the evaluation's, `Board::value`) weighted by `HAND_ATTACK_WEIGHT`, and the
/// opponent's by 4. The learned tables start from it and are in its units.
#[inline]
pub fn hand_score(board: &Board, me: Color, p: Pos) -> i32 {
    board.value(me, p) * HAND_ATTACK_WEIGHT + board.value(me.opp(), p) * 4
}

/// The last moves of the opponent and of the side to move (`Pos::NONE` where there is none).
#[inline]
pub fn last_moves(board: &Board) -> [Pos; 2] {
    let h = board.history();
    let n = h.len();
    [
        if n >= 1 { h[n - 1].0 } else { Pos::NONE },
        if n >= 2 { h[n - 2].0 } else { Pos::NONE },
    ]
}

impl PolicyTable {
    /// The score of the empty square `q` for the side to move `me`; `last` as [`last_moves`].
    #[inline]
    pub fn score(&self, board: &Board, me: Color, q: Pos, last: [Pos; 2]) -> i32 {
        self.own[board.combo(me, q)]
            + self.opp[board.combo(me.opp(), q)]
            + self.near_opp[near_bucket(q, last[0])]
            + self.near_own[near_bucket(q, last[1])]
    }
}

/// Every family's table (None where the file has none), parsed from a file's text.
pub fn parse(text: &str) -> Result<[Option<PolicyTable>; 3], String> {
    let mut out: [Option<PolicyTable>; 3] = [None, None, None];
    let mut family: Option<Family> = None;
    let mut rows: Vec<(String, Vec<i32>)> = Vec::new();
    let mut finish =
        |f: Option<Family>, rows: &mut Vec<(String, Vec<i32>)>| -> Result<(), String> {
            let Some(f) = f else {
                return if rows.is_empty() {
                    Ok(())
                } else {
                    Err("a table before any `family` line".into())
                };
            };
            let get = |name: &str, len: usize| -> Result<Vec<i32>, String> {
                let v = rows
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| format!("{}: no `{name}` line", f.name()))?;
                if v.len() != len {
                    return Err(format!(
                        "{}: `{name}` has {} values, not {len}",
                        f.name(),
                        v.len()
                    ));
                }
                Ok(v)
            };
            let near = |name: &str| -> Result<[i32; NEAR], String> {
                let v = get(name, NEAR)?;
                let mut a = [0; NEAR];
                a.copy_from_slice(&v);
                Ok(a)
            };
            out[f as usize] = Some(PolicyTable {
                own: get("own", COMBOS)?,
                opp: get("opp", COMBOS)?,
                near_opp: near("near_opp")?,
                near_own: near("near_own")?,
            });
            rows.clear();
            Ok(())
        };
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let head = words.next().unwrap_or("");
        if head == "family" {
            finish(family, &mut rows)?;
            let name = words.next().unwrap_or("");
            family = Some(
                Family::ALL
                    .into_iter()
                    .find(|f| f.name() == name)
                    .ok_or_else(|| format!("unknown family `{name}`"))?,
            );
            continue;
        }
        let values = words
            .map(|w| {
                w.parse::<i32>()
                    .map_err(|_| format!("`{w}` is not an integer"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        rows.push((head.to_string(), values));
    }
    finish(family, &mut rows)?;
    Ok(out)
}

/// A file's text: the description's lines as `#` lines, then the tables.
pub fn to_text(info: &str, tables: &[Option<PolicyTable>; 3]) -> String {
    let mut s = String::new();
    for l in info.lines() {
        s.push_str("# ");
        s.push_str(l);
        s.push('\n');
    }
    let row = |s: &mut String, name: &str, v: &[i32]| {
        s.push_str(name);
        for x in v {
            s.push(' ');
            s.push_str(&x.to_string());
        }
        s.push('\n');
    };
    for f in Family::ALL {
        if let Some(t) = &tables[f as usize] {
            s.push_str(&format!("family {}\n", f.name()));
            row(&mut s, "own", &t.own);
            row(&mut s, "opp", &t.opp);
            row(&mut s, "near_opp", &t.near_opp);
            row(&mut s, "near_own", &t.near_own);
        }
    }
    s
}

/// The embedded file's text.
pub const EMBEDDED: &str = include_str!("../../eval/pentad.policy");

/// The embedded tables (parsed on first use).
pub fn embedded() -> &'static [Option<PolicyTable>; 3] {
    use std::sync::OnceLock;
    static T: OnceLock<[Option<PolicyTable>; 3]> = OnceLock::new();
    // The embedded file is checked by a test; a bad one orders by the old formula.
    T.get_or_init(|| parse(EMBEDDED).unwrap_or([None, None, None]))
}

/// The table a rule's move order uses, if its family has one.
pub fn table(rule: Rule) -> Option<&'static PolicyTable> {
    embedded()[Family::of(rule) as usize].as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_file_parses() {
        assert!(parse(EMBEDDED).is_ok());
    }

    #[test]
    fn text_round_trips() {
        let t = PolicyTable {
            own: (0..COMBOS as i32).collect(),
            opp: (0..COMBOS as i32).map(|x| -x).collect(),
            near_opp: [7, 6, 5, 4, 3, 2, 1],
            near_own: [1, 2, 3, 4, 5, 6, 7],
        };
        let tables = [Some(t), None, None];
        let text = to_text("made by a test\nsecond line", &tables);
        assert_eq!(parse(&text).unwrap(), tables);
        assert!(parse("family nosuch\n").is_err());
        assert!(parse("family freestyle\nown 1 2\n").is_err());
    }

    #[test]
    fn distance_buckets() {
        let q = Pos::new(7, 7);
        assert_eq!(near_bucket(q, Pos::new(8, 8)), 0);
        assert_eq!(near_bucket(q, Pos::new(7, 9)), 1);
        assert_eq!(near_bucket(q, Pos::new(0, 7)), NEAR - 1);
        assert_eq!(near_bucket(q, Pos::NONE), NEAR - 1);
    }
}
