//! The referee: a game's position and the judgement of every move. All rule decisions (wins,
//! renju fouls) come from the `pentad` library; this module only orders them as the Gomocup
//! judges do: a move off the board or on a stone is illegal, a renju black foul loses before
//! the stone counts, then a winning line wins, then the draw limit.

use pentad::{Board, Color, Pos, Rule};

/// Why a move cannot be placed at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// Outside the board.
    OffBoard,
    /// On a stone.
    Occupied,
}

/// What a legal placement leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The game goes on.
    Continue,
    /// The mover made a winning line.
    Win,
    /// A renju foul by black (double three, double four or overline without a five): black loses.
    Foul,
    /// Drawn: the board is full (`full`) or the stone limit was reached.
    Draw {
        /// True when no empty square is left.
        full: bool,
    },
}

/// A game in progress.
#[derive(Clone)]
pub struct Game {
    board: Board,
    rule: Rule,
    draw_after: usize,
}

impl Game {
    /// The stone count at which a game is drawn by default: `width·height − 25` for renju (as
    /// GomocupJudge: 200 stones on 15×15), the full board otherwise.
    pub fn default_draw_after(width: usize, height: usize, rule: Rule) -> usize {
        if rule == Rule::Renju {
            (width * height).saturating_sub(25).max(1)
        } else {
            width * height
        }
    }

    /// An empty board. `draw_after` defaults as in [`Game::default_draw_after`].
    pub fn new(
        width: usize,
        height: usize,
        rule: Rule,
        draw_after: Option<usize>,
    ) -> Result<Game, String> {
        let board = Board::new(width, height, rule).map_err(|e| e.to_string())?;
        let draw_after = draw_after
            .unwrap_or_else(|| Game::default_draw_after(width, height, rule))
            .clamp(1, width * height);
        Ok(Game {
            board,
            rule,
            draw_after,
        })
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.board.width()
    }
    /// Rows.
    pub fn height(&self) -> usize {
        self.board.height()
    }
    /// The rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }
    /// The stone count that draws.
    pub fn draw_after(&self) -> usize {
        self.draw_after
    }
    /// The colour to move.
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }
    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.board.stone_count()
    }
    /// The stones in play order as (x, y).
    pub fn moves(&self) -> Vec<(usize, usize)> {
        self.board
            .history()
            .iter()
            .map(|&(p, _)| (p.x(), p.y()))
            .collect()
    }
    /// The last stone.
    pub fn last_move(&self) -> Option<(usize, usize)> {
        self.board.last_move().map(|p| (p.x(), p.y()))
    }

    /// The square a move names, if it can take a stone.
    pub fn square(&self, x: i64, y: i64) -> Result<Pos, Illegal> {
        let p = self.board.pos(x, y).ok_or(Illegal::OffBoard)?;
        if self.board.is_empty(p) {
            Ok(p)
        } else {
            Err(Illegal::Occupied)
        }
    }

    /// The side to move places a stone on the empty square `p`; judges the result. After a
    /// foul the stone is not placed.
    pub fn play(&mut self, p: Pos) -> Verdict {
        let color = self.board.side_to_move();
        if self.rule == Rule::Renju && color == Color::Black {
            // The library's referee judge (Piskvork renju.cpp / GomocupJudge check_forbid.py):
            // an exact five is never a foul.
            let foul = self.board.grid().is_renju_foul(p);
            debug_assert_eq!(
                foul,
                self.board.is_foul(Color::Black, p),
                "Board::is_foul disagrees with the judge at {p:?}"
            );
            if foul {
                return Verdict::Foul;
            }
        }
        self.board.play(p);
        if self.board.grid().makes_win(p, color, self.rule) {
            Verdict::Win
        } else if self.board.empty_count() == 0 {
            Verdict::Draw { full: true }
        } else if self.board.stone_count() >= self.draw_after {
            Verdict::Draw { full: false }
        } else {
            Verdict::Continue
        }
    }

    /// Plays an opening; fails on a move that is off the board, occupied, a renju foul, wins, or
    /// ends the game by the draw limit (an opening must leave a game to play).
    pub fn play_opening(&mut self, moves: &[(usize, usize)]) -> Result<(), String> {
        for (i, &(x, y)) in moves.iter().enumerate() {
            let n = i + 1;
            let p = self.square(x as i64, y as i64).map_err(|e| match e {
                Illegal::OffBoard => format!("stone {n} ({x},{y}) is off the board"),
                Illegal::Occupied => format!("stone {n} ({x},{y}) is on a stone"),
            })?;
            match self.play(p) {
                Verdict::Continue => {}
                Verdict::Win => return Err(format!("stone {n} ({x},{y}) already wins")),
                Verdict::Foul => return Err(format!("stone {n} ({x},{y}) is a renju foul")),
                Verdict::Draw { .. } => {
                    return Err(format!("stone {n} ({x},{y}) reaches the draw limit"))
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `moves` (alternating, black first) and returns the verdict of the last one.
    fn last_verdict(rule: Rule, moves: &[(usize, usize)]) -> Verdict {
        let mut g = Game::new(15, 15, rule, None).unwrap();
        let (last, head) = moves.split_last().unwrap();
        for &(x, y) in head {
            let p = g.square(x as i64, y as i64).unwrap();
            assert_eq!(g.play(p), Verdict::Continue, "at {x},{y}");
        }
        let p = g.square(last.0 as i64, last.1 as i64).unwrap();
        g.play(p)
    }

    /// Interleaves black and white stones into a move list (black first).
    fn seq(black: &[(usize, usize)], white: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for i in 0..black.len().max(white.len()) {
            if i < black.len() {
                v.push(black[i]);
            }
            if i < white.len() {
                v.push(white[i]);
            }
        }
        v
    }

    const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    #[test]
    fn exact_five_wins_under_every_rule() {
        // Black x=3..7 on row 7; white stones far away on row 12, none next to the five.
        let black = [(3, 7), (4, 7), (5, 7), (6, 7), (7, 7)];
        let white = [(0, 12), (2, 12), (4, 12), (6, 12)];
        for rule in ALL {
            assert_eq!(
                last_verdict(rule, &seq(&black, &white)),
                Verdict::Win,
                "{rule:?}"
            );
        }
    }

    #[test]
    fn overline() {
        // Black fills x=2..4 and x=6..8 on row 7, then x=5: six in a row.
        let black = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7), (8, 7)];
        let white = [(0, 0), (2, 0), (4, 0), (6, 0), (8, 0), (10, 0)];
        let mut moves = seq(&black, &white);
        moves.push((5, 7));
        assert_eq!(last_verdict(Rule::Freestyle, &moves), Verdict::Win);
        assert_eq!(last_verdict(Rule::Caro, &moves), Verdict::Win);
        assert_eq!(last_verdict(Rule::Standard, &moves), Verdict::Continue);
        assert_eq!(last_verdict(Rule::CaroExact, &moves), Verdict::Continue);
        // Renju: a black overline is a foul.
        assert_eq!(last_verdict(Rule::Renju, &moves), Verdict::Foul);
        // Renju: a white overline wins. White builds the same shape; black plays elsewhere.
        let black_w = [
            (0, 14),
            (2, 14),
            (4, 14),
            (6, 14),
            (8, 14),
            (10, 14),
            (12, 14),
        ];
        let white_w = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7), (8, 7), (5, 7)];
        assert_eq!(
            last_verdict(Rule::Renju, &seq(&black_w, &white_w)),
            Verdict::Win
        );
    }

    #[test]
    fn caro_five_blocked_at_both_ends() {
        // White at (2,7) and (8,7); black fills x=3..7 on row 7: o x x x x x o.
        let black = [(3, 7), (4, 7), (5, 7), (6, 7), (10, 10), (7, 7)];
        let white = [(2, 7), (8, 7), (0, 0), (0, 2), (0, 4)];
        let moves = seq(&black, &white);
        assert_eq!(last_verdict(Rule::Caro, &moves), Verdict::Continue);
        assert_eq!(last_verdict(Rule::CaroExact, &moves), Verdict::Continue);
        assert_eq!(last_verdict(Rule::Freestyle, &moves), Verdict::Win);
        assert_eq!(last_verdict(Rule::Standard, &moves), Verdict::Win);
        // The edge is no block: a five from the left edge blocked on the right only wins.
        let black = [(0, 7), (1, 7), (2, 7), (3, 7), (4, 7)];
        let white = [(5, 7), (0, 0), (0, 2), (0, 4)];
        assert_eq!(last_verdict(Rule::Caro, &seq(&black, &white)), Verdict::Win);
        assert_eq!(
            last_verdict(Rule::CaroExact, &seq(&black, &white)),
            Verdict::Win
        );
    }

    #[test]
    fn renju_double_three_is_a_foul_but_five_is_not() {
        // Black at (6,7),(7,7) and (8,5),(8,6): black (8,7) makes two open threes, horizontal
        // (x=6..8) and vertical (y=5..7).
        let black = [(6, 7), (7, 7), (8, 5), (8, 6)];
        let white = [(0, 0), (0, 2), (0, 4), (0, 6)];
        let mut moves = seq(&black, &white);
        moves.push((8, 7));
        assert_eq!(last_verdict(Rule::Renju, &moves), Verdict::Foul);
        // The same move is fine under the other rules.
        assert_eq!(last_verdict(Rule::Freestyle, &moves), Verdict::Continue);
        assert_eq!(last_verdict(Rule::Standard, &moves), Verdict::Continue);
        // White may make a double three.
        let black_w = [(14, 14), (0, 0), (0, 2), (0, 4), (0, 6)];
        let white_w = [(6, 7), (7, 7), (8, 5), (8, 6), (8, 7)];
        assert_eq!(
            last_verdict(Rule::Renju, &seq(&black_w, &white_w)),
            Verdict::Continue
        );
        // A black move that makes a five and an open three at once wins.
        let black = [(3, 7), (4, 7), (5, 7), (6, 7), (7, 5), (7, 6)];
        let white = [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10)];
        let mut moves = seq(&black, &white);
        moves.push((7, 7));
        assert_eq!(last_verdict(Rule::Renju, &moves), Verdict::Win);
    }

    #[test]
    fn renju_exact_five_with_overline_elsewhere_wins() {
        // Black (7,7) completes an exact five on row 7 (x=3..7) and an overline on column 7
        // (y=4..9 with the move). Piskvork and GomocupJudge look for the five first: a win.
        let black = [
            (3, 7),
            (4, 7),
            (5, 7),
            (6, 7),
            (7, 4),
            (7, 5),
            (7, 6),
            (7, 8),
            (7, 9),
        ];
        let white = [
            (0, 0),
            (0, 2),
            (0, 4),
            (0, 6),
            (0, 8),
            (0, 10),
            (0, 12),
            (0, 14),
            (2, 14),
        ];
        let mut moves = seq(&black, &white);
        moves.push((7, 7));
        assert_eq!(last_verdict(Rule::Renju, &moves), Verdict::Win);
    }

    #[test]
    fn draws() {
        let g = Game::new(15, 15, Rule::Renju, None).unwrap();
        assert_eq!(g.draw_after(), 200);
        let g = Game::new(15, 15, Rule::Freestyle, None).unwrap();
        assert_eq!(g.draw_after(), 225);
        let mut g = Game::new(15, 15, Rule::Freestyle, Some(3)).unwrap();
        assert_eq!(g.play(g.square(0, 0).unwrap()), Verdict::Continue);
        assert_eq!(g.play(g.square(5, 5).unwrap()), Verdict::Continue);
        assert_eq!(
            g.play(g.square(10, 10).unwrap()),
            Verdict::Draw { full: false }
        );
        // A full 5x5 board without five: fill by columns pairs so no line of five forms.
        let mut g = Game::new(5, 5, Rule::Freestyle, None).unwrap();
        let mut order = Vec::new();
        // Pattern by rows: rows alternate "XXOOX"/"OOXXO" style shifts; play black/white squares
        // alternately from precomputed colour lists.
        let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XOXOX"];
        let mut b = Vec::new();
        let mut w = Vec::new();
        for (y, r) in rows.iter().enumerate() {
            for (x, c) in r.chars().enumerate() {
                if c == 'X' {
                    b.push((x, y));
                } else {
                    w.push((x, y));
                }
            }
        }
        assert_eq!((b.len(), w.len()), (13, 12));
        for i in 0..13 {
            order.push(b[i]);
            if i < 12 {
                order.push(w[i]);
            }
        }
        let n = order.len();
        for (i, &(x, y)) in order.iter().enumerate() {
            let v = g.play(g.square(x as i64, y as i64).unwrap());
            if i + 1 < n {
                assert_eq!(v, Verdict::Continue, "move {i}");
            } else {
                assert_eq!(v, Verdict::Draw { full: true });
            }
        }
    }

    #[test]
    fn illegal_squares_and_openings() {
        let mut g = Game::new(15, 15, Rule::Freestyle, None).unwrap();
        assert_eq!(g.square(15, 0), Err(Illegal::OffBoard));
        assert_eq!(g.square(-1, 3), Err(Illegal::OffBoard));
        g.play_opening(&[(7, 7), (8, 8)]).unwrap();
        assert_eq!(g.square(7, 7), Err(Illegal::Occupied));
        assert_eq!(g.side_to_move(), Color::Black);
        assert_eq!(g.moves(), vec![(7, 7), (8, 8)]);
        // Openings that are not playable.
        let mut g = Game::new(15, 15, Rule::Freestyle, None).unwrap();
        assert!(g.play_opening(&[(7, 7), (7, 7)]).is_err());
        let mut g = Game::new(15, 15, Rule::Renju, None).unwrap();
        let foul = seq(
            &[(6, 7), (7, 7), (8, 5), (8, 6), (8, 7)],
            &[(0, 0), (0, 2), (0, 4), (0, 6)],
        );
        assert!(g.play_opening(&foul).unwrap_err().contains("foul"));
        let mut g = Game::new(15, 15, Rule::Freestyle, None).unwrap();
        let won = seq(
            &[(3, 7), (4, 7), (5, 7), (6, 7), (7, 7)],
            &[(0, 0), (0, 2), (0, 4), (0, 6)],
        );
        assert!(g.play_opening(&won).unwrap_err().contains("wins"));
    }
}
