//! Time management: how long a move may take, from the Gomocup clock settings (`timeout_turn`,
//! `timeout_match`, `time_left`, `time_increment`; protocol.md §2.7, §6).
//!
//! Every budget counts from the moment the command that asked for a move was read, so start-up
//! cost (which GomocupJudge charges to the first move) and the time spent frozen by the manager
//! between moves are handled alike.

use std::time::Duration;

/// Time kept back from the turn limit for reading, writing and the operating system.
pub const TURN_RESERVE_MS: i64 = 60;
/// Time kept back from the match clock.
pub const MATCH_RESERVE_MS: i64 = 150;
/// The match clock is spread over about this many further moves (range 10-60). 30 (with 90% of
/// the increment) against 20 (with 75%), 1 s + 10 s + 0.1 s, 240 games: +11.6 [-20, +43], SPRT
/// (0, 10) undecided (LLR 0.25); moves 20-60 then averaged 124 ms against 444 ms for moves
/// 1-20, and games ended with about 5 s of the clock unused: not kept. Spreading it over the
/// moves the game will last, `max(20, 50 - moves played)` further moves: -6.2 [-65, +52] in
/// 112 games (343 ms over moves 1-20, 122 over 21-60, 5.2 s left at the end); `max(12, 40 -
/// moves played)` with a hard limit of two shares (not three): -11.3 [-41, +18] in 400 games
/// (361 and 117 ms, 5.0 s left), against 20 (428 and 90 ms, 4.0 s left). Neither kept.
/// Spreading it over `max(20, 80 - the side's own moves played)` further moves (moves 1-20 then
/// averaged 294 ms and 21-60 156 ms, meeting the strength issue's clock-use target): -19.2
/// [-57.7, +18.9] in 236 games (LLR -0.64), against 06757b1, with both engines at about a
/// third of their speed (a node-limited match shared the cores; 0.55 M nodes a move over
/// moves 1-20 fell to 0.16 M); again on an idle machine: -32.5 [-64.3, -1.3] in 268 games
/// (LLR -1.48), against c269ceb, with moves 1-20 at 282 ms (depth 8.60) against 449 (9.17),
/// moves 21-60 at 152 ms (5.46) against 98 (5.08), and 5.8 s of the clock left at the end
/// against 3.5 s: the opening's depth is worth more than the middle game's. Not kept.
pub const MATCH_MOVES_TO_GO: i64 = 20;
/// Share of the increment spent on the move it comes with, in percent (range 50-100).
pub const INCREMENT_SPENT_PCT: i64 = 75;
/// A match clock at or above this is unlimited (`time_left 2147483647`).
pub const UNLIMITED_MS: i64 = 2_147_483_647;
/// Limit per move when neither a turn limit nor a match clock bounds the search and no depth or
/// node limit was given (the Gomocup skeleton's default turn limit).
pub const DEFAULT_TURN_MS: i64 = 30_000;
/// An iteration is not started after this share of the hard limit has been used (percent).
/// It binds when the turn limit does (the match clock's share is below it). An iteration cut
/// short by the hard limit is not wasted: a move that beat the previous best is kept. At 1 s
/// a move, 70 beat 45 by +75 Elo (pentanomial [+17, +137], 80 games) and 85 beat 70 by +35
/// ([-26, +98]).
pub const SOFT_SHARE_PCT: i64 = 85;

/// The clock settings a manager sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// `INFO timeout_turn`: limit per move in ms; 0 = as fast as possible; `None` = never sent.
    pub turn_ms: Option<i64>,
    /// `INFO timeout_match`: limit per game in ms; 0 = unlimited; `None` = never sent.
    pub match_ms: Option<i64>,
    /// `INFO time_left`: what is left of the match clock in ms; negative = move now.
    pub left_ms: Option<i64>,
    /// `INFO time_increment`: added to the match clock after each move, in ms.
    pub increment_ms: i64,
    /// The increment as the clock showed it when the manager sends none (c-gomoku-cli adds it
    /// into `time_left` and never says so): see [`TimeControl::learn_increment`].
    pub learned_increment_ms: i64,
}

/// How long one search may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// No new iteration starts after this.
    pub soft: Duration,
    /// The search stops at this, whatever it is doing.
    pub hard: Duration,
}

impl Budget {
    /// No limit.
    pub const UNLIMITED: Budget = Budget {
        soft: Duration::MAX,
        hard: Duration::MAX,
    };
    /// Move at once (static evaluation only).
    pub const INSTANT: Budget = Budget {
        soft: Duration::ZERO,
        hard: Duration::ZERO,
    };
}

impl TimeControl {
    /// The increment per move: as sent, else as learned from the clock.
    pub fn increment(&self) -> i64 {
        if self.increment_ms > 0 {
            self.increment_ms
        } else {
            self.learned_increment_ms.max(0)
        }
    }

    /// Learns the increment from a new `time_left`: `expected` is what the clock would show
    /// had nothing been added since the last move (the last `time_left` less the time that
    /// move took, as measured here). The manager measures a little more than we do (its
    /// reading and writing), so the estimate errs low.
    pub fn learn_increment(&mut self, expected: i64, left: i64) {
        if expected < UNLIMITED_MS && left < UNLIMITED_MS {
            self.learned_increment_ms = left.saturating_sub(expected).max(0);
        }
    }

    /// True when the match clock does not limit the game.
    pub fn match_unlimited(&self) -> bool {
        match (self.match_ms, self.left_ms) {
            (_, Some(l)) if l >= UNLIMITED_MS => true,
            (Some(m), _) if m <= 0 || m >= UNLIMITED_MS => true,
            (None, None) => true,
            _ => false,
        }
    }

    /// The budget for the next move. `bounded` tells whether a depth or node limit already ends
    /// the search (then an unlimited clock stays unlimited).
    pub fn budget(&self, bounded: bool) -> Budget {
        let mut hard = i64::MAX;
        if let Some(t) = self.turn_ms {
            if t <= 0 {
                return Budget::INSTANT;
            }
            hard = hard.min(t - TURN_RESERVE_MS.min(t / 3));
        }
        if !self.match_unlimited() {
            let left = self.left_ms.or(self.match_ms).unwrap_or(0);
            if left <= 0 {
                return Budget::INSTANT;
            }
            let usable = (left - MATCH_RESERVE_MS.min(left / 4)).max(1);
            // Saturating throughout: managers may send any 64-bit value.
            let share = (usable / MATCH_MOVES_TO_GO)
                .saturating_add(percent(self.increment(), INCREMENT_SPENT_PCT));
            // A hard limit of a few shares, never more than a third of what is left.
            hard = hard.min(share.saturating_mul(3).min(usable / 3).max(1));
            let soft = share.min(hard);
            return Budget {
                soft: ms(soft
                    .min(percent(hard, SOFT_SHARE_PCT))
                    .max(1)
                    .max(percent(soft, SOFT_SHARE_PCT))),
                hard: ms(hard),
            };
        }
        if hard == i64::MAX {
            if bounded {
                return Budget::UNLIMITED;
            }
            hard = DEFAULT_TURN_MS - TURN_RESERVE_MS;
        }
        Budget {
            soft: ms(percent(hard, SOFT_SHARE_PCT).max(1)),
            hard: ms(hard),
        }
    }
}

/// `p` percent of `v` without overflow.
fn percent(v: i64, p: i64) -> i64 {
    v / 100 * p + v % 100 * p / 100
}

fn ms(v: i64) -> Duration {
    Duration::from_millis(v.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(turn: Option<i64>, matc: Option<i64>, left: Option<i64>) -> TimeControl {
        TimeControl {
            turn_ms: turn,
            match_ms: matc,
            left_ms: left,
            increment_ms: 0,
            learned_increment_ms: 0,
        }
    }

    #[test]
    fn turn_limit_only() {
        let b = tc(Some(1000), Some(0), Some(UNLIMITED_MS)).budget(false);
        assert_eq!(b.hard, Duration::from_millis(940));
        assert!(b.soft < b.hard);
        // Short turns keep two thirds.
        let b = tc(Some(90), None, None).budget(false);
        assert_eq!(b.hard, Duration::from_millis(60));
    }

    #[test]
    fn zero_turn_or_negative_left_is_instant() {
        assert_eq!(tc(Some(0), None, None).budget(false), Budget::INSTANT);
        assert_eq!(
            tc(Some(5000), Some(60000), Some(-500)).budget(false),
            Budget::INSTANT
        );
    }

    #[test]
    fn match_clock_is_spread() {
        let b = tc(Some(30_000), Some(180_000), Some(180_000)).budget(false);
        assert!(b.hard <= Duration::from_millis(30_000 - TURN_RESERVE_MS as u64));
        assert!(b.hard >= Duration::from_millis(15_000));
        let b = tc(Some(30_000), Some(180_000), Some(3_000)).budget(false);
        assert!(b.hard <= Duration::from_millis(1_000));
        assert!(b.soft <= b.hard);
    }

    #[test]
    fn the_increment_is_spent_on_every_move() {
        // 10 s + 0.1 s a move, 1 s a turn, late in the game: 600 ms left.
        let mut t = tc(Some(1000), Some(10_000), Some(600));
        let without = t.budget(false).soft;
        t.increment_ms = 100;
        let with = t.budget(false).soft;
        assert!(
            with >= without + Duration::from_millis(60),
            "{without:?} {with:?}"
        );
        // Learned from the clock when never sent: the same budget.
        let mut learned = tc(Some(1000), Some(10_000), Some(600));
        learned.learn_increment(500, 600);
        assert_eq!(learned.increment(), 100);
        assert_eq!(learned.budget(false), t.budget(false));
        // A clock that only went down teaches nothing; one sent explicitly wins.
        learned.learn_increment(650, 600);
        assert_eq!(learned.increment(), 0);
        t.learn_increment(500, 800);
        assert_eq!(t.increment(), 100);
    }

    #[test]
    fn unlimited_clock() {
        assert!(tc(None, Some(0), None).match_unlimited());
        assert!(tc(None, Some(100), Some(UNLIMITED_MS)).match_unlimited());
        assert_eq!(tc(None, Some(0), None).budget(true), Budget::UNLIMITED);
        let b = tc(None, Some(0), None).budget(false);
        assert_eq!(
            b.hard,
            Duration::from_millis((DEFAULT_TURN_MS - TURN_RESERVE_MS) as u64)
        );
    }
}
