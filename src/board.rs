//! The board: stones, Zobrist key, and the incrementally maintained line shapes of every square.
//!
//! `play`/`undo` keep, for each empty square and colour, the pattern on each of the four lines,
//! their combination, the threat class it makes, the evaluation's totals of the combinations'
//! values (`crate::eval`), and per-colour counts of every threat class (so "can the opponent
//! make five?" is one lookup). Placing a stone keeps what it changed, so taking the last stone
//! back copies it back rather than recomputing it (make+undo 3.83 M to 4.49 M a second).
//! Debug builds check all of it against a recomputation after every change.

use crate::eval::{self, unpack, EvalTables, TABLE_SCALE};
use crate::pattern::{
    code, slot, PairTable, Pattern, Shape, ShapeTables, Threat, COMBO, COMBOS, COMBO_KEYS,
    COMBO_WEIGHT, COMPACT_SPACE, KEY_SPACE,
};
use crate::rules::{Grid, Rule};
use crate::types::{Cell, Color, Pos, AREA, DIRS, MAX_SIDE, MIN_SIDE, STRIDE};
use std::fmt;

/// Zobrist keys: stone of each colour (and wall) on each square, from a fixed seed.
struct Zobrist {
    keys: [[u64; AREA]; 3],
    side: u64,
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const ZOBRIST: Zobrist = {
    let mut s = 0x05EE_D0F9_E7AD_u64;
    let mut keys = [[0u64; AREA]; 3];
    let mut c = 0;
    while c < 3 {
        let mut i = 0;
        while i < AREA {
            keys[c][i] = splitmix(&mut s);
            i += 1;
        }
        c += 1;
    }
    let side = splitmix(&mut s);
    Zobrist { keys, side }
};

#[inline]
fn zkey(c: Cell, p: Pos) -> u64 {
    match c {
        Cell::Black => ZOBRIST.keys[0][p.idx()],
        Cell::White => ZOBRIST.keys[1][p.idx()],
        Cell::Wall => ZOBRIST.keys[2][p.idx()],
        Cell::Empty => 0,
    }
}

/// Per-square incremental state: 32 bytes, half a cache line.
#[derive(Clone, Copy, Default)]
#[repr(align(32))]
struct SquareState {
    /// Line keys, one per direction.
    keys: [u32; 4],
    /// Black's and white's shapes per direction, packed as in `ShapeTables`, so one load or
    /// store serves both colours.
    shapes: [u16; 4],
    /// Per colour (black's in bits 0-15, white's in bits 16-31), the combination key of the four
    /// lines' patterns (`crate::pattern::COMBO_WEIGHT`).
    combos: u32,
    /// Threat class per colour (kept for empty squares).
    threat: [u8; 2],
}

const _: () = assert!(std::mem::size_of::<SquareState>() == 32);

/// Per colour and threat class, a bit per square.
type ThreatSets = [[[u64; AREA / 64]; Threat::COUNT]; 2];

/// Squares a stone's line update touches: ten on each of the four lines.
const LINE_SQUARES: usize = 40;

/// What a stone's placing changed, kept so that taking it back restores it instead of
/// recomputing it (a copy costs less than the table lookups).
#[derive(Clone, Copy)]
struct Saved {
    /// The history's length once the stone was placed: the record is used only while that
    /// stone is the last one.
    after: usize,
    /// The squares around the stone before it, in `LineUpdate`'s order.
    squares: [SquareState; LINE_SQUARES],
    counts: [[u16; Threat::COUNT]; 2],
    totals: [u64; 2],
}

/// The records of the stones placed since the last change that was not a placing or the
/// taking back of the last stone. A clone starts empty: its takebacks recompute.
#[derive(Default)]
struct SavedStack {
    /// Records in use, then spare ones (their memory is reused).
    items: Vec<Saved>,
    top: usize,
}

impl Clone for SavedStack {
    fn clone(&self) -> Self {
        SavedStack::default()
    }
}

impl SavedStack {
    /// A record to fill (its contents are stale).
    fn push(&mut self) -> &mut Saved {
        if self.top == self.items.len() {
            self.items.push(Saved {
                after: 0,
                squares: [SquareState::default(); LINE_SQUARES],
                counts: [[0; Threat::COUNT]; 2],
                totals: [0; 2],
            });
        }
        self.top += 1;
        &mut self.items[self.top - 1]
    }

    /// The record of the last stone when it is the last of `history_len`, taken off.
    fn pop_for(&mut self, history_len: usize) -> Option<&Saved> {
        if self.top > 0 && self.items[self.top - 1].after == history_len {
            self.top -= 1;
            Some(&self.items[self.top])
        } else {
            None
        }
    }

    fn clear(&mut self) {
        self.top = 0;
    }
}

/// A position with its history.
#[derive(Clone)]
pub struct Board {
    grid: Grid,
    rule: Rule,
    tables: &'static ShapeTables,
    eval: &'static EvalTables,
    sq: Box<[SquareState; AREA]>,
    /// Per square, the stones within two squares (Chebyshev distance), for candidate moves.
    /// Eight bytes longer than the squares, so that a row of five is one `u64` (see
    /// `adjust_near`).
    near: Box<[u8; AREA + 8]>,
    counts: [[u16; Threat::COUNT]; 2],
    /// The empty squares of each threat class from `Threat::Flex3` up, per colour, as bit sets.
    sets: Box<ThreatSets>,
    /// Per colour, the `own` and `opp` values of its empty squares' combinations, summed
    /// packed (`eval::pack`).
    totals: [u64; 2],
    hash: u64,
    side: Color,
    history: Vec<(Pos, Color)>,
    stones: usize,
    walls: usize,
    /// Smallest rectangle holding every stone (x0, y0, x1, y1), and its value before each stone.
    bbox: Option<(u8, u8, u8, u8)>,
    bbox_stack: Vec<Option<(u8, u8, u8, u8)>>,
    saved: SavedStack,
}

fn tables(rule: Rule) -> &'static ShapeTables {
    use std::sync::OnceLock;
    static T: [OnceLock<ShapeTables>; 5] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let i = match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 2,
        Rule::Caro => 3,
        Rule::CaroExact => 4,
    };
    T[i].get_or_init(|| ShapeTables::for_rule(rule))
}

/// Error for a board that cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeError(pub String);

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for SizeError {}

impl Board {
    /// An empty board, black to move. Sides from `MIN_SIDE` to `MAX_SIDE`.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, SizeError> {
        let ok = |s: usize| (MIN_SIDE..=MAX_SIDE).contains(&s);
        if !ok(width) || !ok(height) {
            return Err(SizeError(format!(
                "unsupported board size {width}x{height} (sides {MIN_SIDE} to {MAX_SIDE})"
            )));
        }
        let mut b = Board {
            grid: Grid::new(width, height),
            rule,
            tables: tables(rule),
            eval: eval::tables(rule),
            sq: Box::new([SquareState::default(); AREA]),
            near: Box::new([0; AREA + 8]),
            counts: [[0; Threat::COUNT]; 2],
            sets: Box::new([[[0; AREA / 64]; Threat::COUNT]; 2]),
            totals: [0; 2],
            hash: 0,
            side: Color::Black,
            history: Vec::with_capacity(width * height),
            stones: 0,
            walls: 0,
            bbox: None,
            bbox_stack: Vec::with_capacity(width * height),
            saved: SavedStack::default(),
        };
        b.rebuild();
        Ok(b)
    }

    /// A square board.
    pub fn square(size: usize, rule: Rule) -> Result<Board, SizeError> {
        Board::new(size, size, rule)
    }

    /// Columns.
    #[inline]
    pub fn width(&self) -> usize {
        self.grid.width()
    }
    /// Rows.
    #[inline]
    pub fn height(&self) -> usize {
        self.grid.height()
    }
    /// The rule.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }
    /// The squares.
    #[inline]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }
    /// Changes the rule, keeping the stones.
    pub fn set_rule(&mut self, rule: Rule) {
        if rule != self.rule {
            self.rule = rule;
            self.tables = tables(rule);
            self.eval = eval::tables(rule);
            self.rebuild();
        }
    }
    /// What is on a square.
    #[inline]
    pub fn cell(&self, p: Pos) -> Cell {
        self.grid.get(p)
    }
    /// The square at (x, y), if it is on the board.
    pub fn pos(&self, x: i64, y: i64) -> Option<Pos> {
        if x >= 0 && y >= 0 && (x as usize) < self.width() && (y as usize) < self.height() {
            Some(Pos::new(x as usize, y as usize))
        } else {
            None
        }
    }
    /// True for an empty on-board square.
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.grid.get(p) == Cell::Empty
    }
    /// The player to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// Sets the player to move (for positions given as a set of stones).
    pub fn set_side_to_move(&mut self, c: Color) {
        if c != self.side {
            self.side = c;
            self.hash ^= ZOBRIST.side;
        }
    }
    /// Zobrist key of the position (stones, walls and side to move).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Stones on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.stones
    }
    /// Empty squares left.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.width() * self.height() - self.stones - self.walls
    }
    /// The stones in the order they were placed.
    pub fn history(&self) -> &[(Pos, Color)] {
        &self.history
    }
    /// The last stone placed.
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|&(p, _)| p)
    }
    /// Every on-board square.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        self.grid.squares()
    }

    /// The pattern `color` would make on line `dir` by playing the empty square `p`.
    #[inline]
    pub fn pattern(&self, color: Color, p: Pos, dir: usize) -> Pattern {
        Shape::of_pair(self.sq[p.idx()].shapes[dir], color.idx()).pattern()
    }
    /// The threat `color` would make by playing the empty square `p`.
    #[inline]
    pub fn threat(&self, color: Color, p: Pos) -> Threat {
        THREATS[self.sq[p.idx()].threat[color.idx()] as usize]
    }
    /// Shape value of the empty square `p` for `color`, for move ordering: the evaluation's
    /// `opp` value of its combination, in points.
    #[inline]
    pub fn value(&self, color: Color, p: Pos) -> i32 {
        unpack(self.square_values(p)[color.idx()])[1] / TABLE_SCALE
    }
    /// The combination (index into `crate::pattern::COMBO`) of the empty square `p` for `color`.
    #[inline]
    pub fn combo(&self, color: Color, p: Pos) -> usize {
        COMBO.of_key[lane(self.sq[p.idx()].combos, color.idx())] as usize
    }
    /// The `own` and `opp` totals of `color`'s empty squares (`crate::eval`), in table units.
    #[inline]
    pub fn totals(&self, color: Color) -> [i32; 2] {
        unpack(self.totals[color.idx()])
    }
    /// The evaluation tables of the board's rule.
    #[inline]
    pub fn eval_tables(&self) -> &'static EvalTables {
        self.eval
    }
    /// How many empty squares give `color` each threat class.
    #[inline]
    pub fn counts(&self, color: Color) -> &[u16; Threat::COUNT] {
        &self.counts[color.idx()]
    }
    /// How many empty squares give `color` this threat.
    #[inline]
    pub fn count(&self, color: Color, t: Threat) -> usize {
        self.counts[color.idx()][t as usize] as usize
    }
    /// Empty squares within two of a stone (where moves worth searching are).
    #[inline]
    pub fn is_near(&self, p: Pos) -> bool {
        self.near[p.idx()] > 0
    }

    /// The box the candidate squares lie in: the stones' box grown by two, clipped to the
    /// board (empty on an empty board).
    #[inline]
    fn candidate_box(&self) -> (usize, usize, usize, usize) {
        match self.bbox {
            Some((x0, y0, x1, y1)) => (
                (x0 as usize).saturating_sub(2),
                (y0 as usize).saturating_sub(2),
                (x1 as usize + 2).min(self.width() - 1),
                (y1 as usize + 2).min(self.height() - 1),
            ),
            None => (1, 1, 0, 0),
        }
    }

    /// Empty squares within two of a stone, row by row (none on an empty board).
    pub fn candidates(&self) -> impl Iterator<Item = Pos> + '_ {
        let (x0, y0, x1, y1) = self.candidate_box();
        (y0..=y1)
            .flat_map(move |y| (x0..=x1).map(move |x| Pos::new(x, y)))
            .filter(move |&q| self.is_empty(q) && self.is_near(q))
    }

    /// Calls `f` on each of [`Board::candidates`], in the same order (plain loops: the search
    /// generates moves at every node).
    #[inline]
    pub fn for_each_candidate(&self, mut f: impl FnMut(Pos)) {
        let (x0, y0, x1, y1) = self.candidate_box();
        for y in y0..=y1 {
            for x in x0..=x1 {
                let q = Pos::new(x, y);
                if self.is_near(q) && self.is_empty(q) {
                    f(q);
                }
            }
        }
    }

    /// True when `color` could need the renju foul judge at the empty square `p` (a cheap filter:
    /// only squares with two fours or threes, an open four or an overline can be fouls).
    #[inline]
    pub fn may_be_foul(&self, color: Color, p: Pos) -> bool {
        if self.rule != Rule::Renju || color != Color::Black {
            return false;
        }
        let s = &self.sq[p.idx()];
        let t = THREATS[s.threat[0] as usize];
        matches!(
            t,
            Threat::OpenFour | Threat::DoubleThree | Threat::FourThree
        ) || s
            .shapes
            .iter()
            .any(|&pair| Shape::of_pair(pair, 0).overline())
    }

    /// True when `color` may not play the empty square `p`: a renju foul for black.
    pub fn is_foul(&self, color: Color, p: Pos) -> bool {
        self.may_be_foul(color, p) && self.grid.is_renju_foul(p)
    }

    /// True when the side to move may play `p`: an empty on-board square, not a renju foul.
    pub fn is_legal(&self, p: Pos) -> bool {
        self.is_empty(p) && !self.is_foul(self.side, p)
    }

    /// True when `color` playing the empty square `p` wins on the spot.
    #[inline]
    pub fn wins_by(&self, color: Color, p: Pos) -> bool {
        self.threat(color, p) == Threat::Five
    }

    /// The hash the position would have after the side to move plays `p`.
    #[inline]
    pub fn hash_after(&self, p: Pos) -> u64 {
        self.hash ^ zkey(Cell::stone(self.side), p) ^ ZOBRIST.side
    }

    /// The side to move plays `p` (an empty on-board square).
    pub fn play(&mut self, p: Pos) {
        let c = self.side;
        self.put(p, c);
        self.side = c.opp();
        self.hash ^= ZOBRIST.side;
    }

    /// Takes back the last stone; the side to move becomes its owner.
    pub fn undo(&mut self) {
        if let Some(&(p, c)) = self.history.last() {
            self.remove(p);
            if self.side != c {
                self.side = c;
                self.hash ^= ZOBRIST.side;
            }
        }
    }

    /// Places a stone of `color` on the empty square `p`, keeping the side to move.
    pub fn put(&mut self, p: Pos, color: Color) {
        debug_assert!(self.is_empty(p), "put on a non-empty square {p:?}");
        self.place(p, Cell::stone(color));
        self.history.push((p, color));
        self.saved.items[self.saved.top - 1].after = self.history.len();
        self.bbox_stack.push(self.bbox);
        let (x, y) = (p.x() as u8, p.y() as u8);
        self.bbox = Some(match self.bbox {
            None => (x, y, x, y),
            Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
        });
        self.stones += 1;
        self.debug_verify();
    }

    /// Removes the stone on `p` (any stone of the history), keeping the side to move.
    pub fn remove(&mut self, p: Pos) -> bool {
        let Some(i) = self.history.iter().rposition(|&(q, _)| q == p) else {
            return false;
        };
        let last = i + 1 == self.history.len();
        let restored = if last {
            self.restore(p)
        } else {
            // Later stones' records no longer hold.
            self.saved.clear();
            false
        };
        self.history.remove(i);
        let saved = self.bbox_stack.remove(i);
        if i == self.history.len() {
            self.bbox = saved;
        } else {
            self.bbox = bounding_box(self.history.iter().map(|&(q, _)| q));
            // The saved boxes of later stones may now be too large; a larger box only costs time.
        }
        self.stones -= 1;
        if !restored {
            self.unplace(p);
        }
        self.debug_verify();
        true
    }

    /// Makes the empty square `p` a wall for both sides (BOARD field 3).
    pub fn put_wall(&mut self, p: Pos) {
        debug_assert!(self.is_empty(p));
        self.place(p, Cell::Wall);
        // A wall is no stone: no record, and the stones' records no longer hold.
        self.saved.clear();
        self.walls += 1;
        self.debug_verify();
    }

    /// Removes every stone and wall; black to move.
    pub fn clear(&mut self) {
        self.grid = Grid::new(self.width(), self.height());
        self.history.clear();
        self.bbox_stack.clear();
        self.bbox = None;
        self.stones = 0;
        self.walls = 0;
        self.side = Color::Black;
        self.rebuild();
    }

    fn place(&mut self, p: Pos, c: Cell) {
        self.hash ^= zkey(c, p);
        self.grid.set(p, c);
        let (counts, totals) = (self.counts, self.totals);
        let record = self.saved.push();
        record.counts = counts;
        record.totals = totals;
        self.forget(p);
        self.update_lines::<true>(p, code(c));
        if c != Cell::Wall {
            self.adjust_near(p, true);
        }
    }

    fn unplace(&mut self, p: Pos) {
        let c = self.grid.get(p);
        self.hash ^= zkey(c, p);
        self.grid.set(p, Cell::Empty);
        self.update_lines::<false>(p, code(Cell::Empty));
        self.refresh_square(p);
        self.learn(p);
        if c != Cell::Wall {
            self.adjust_near(p, false);
        }
    }

    /// Takes back the last stone `p` from its record, if it has one: the squares around it, the
    /// threat counts and totals as they were, and the threat sets moved to match. False when
    /// there is no record (the caller recomputes).
    fn restore(&mut self, p: Pos) -> bool {
        let Some(record) = self.saved.pop_for(self.history.len()) else {
            return false;
        };
        let c = self.grid.get(p);
        self.hash ^= zkey(c, p);
        self.grid.set(p, Cell::Empty);
        let mut j = 0;
        for d in DIRS {
            for k in [-5isize, -4, -3, -2, -1, 1, 2, 3, 4, 5] {
                let q = p.step(d, -k);
                let (now, old) = (self.sq[q.idx()].threat, record.squares[j].threat);
                if now != old && self.grid.get(q) == Cell::Empty {
                    for c in 0..2 {
                        Self::mark(&mut self.sets, c, now[c], q, false);
                        Self::mark(&mut self.sets, c, old[c], q, true);
                    }
                }
                self.sq[q.idx()] = record.squares[j];
                j += 1;
            }
        }
        // The stone's own square kept its state while occupied (its keys never change with
        // its own placing, and later stones were taken back); it is in its sets again.
        let threat = self.sq[p.idx()].threat;
        for (c, &t) in threat.iter().enumerate() {
            Self::mark(&mut self.sets, c, t, p, true);
        }
        self.counts = record.counts;
        self.totals = record.totals;
        if c != Cell::Wall {
            self.adjust_near(p, false);
        }
        true
    }

    /// Writes `code` (a stone, a wall, or empty: `PLACE` false) into the line keys of the
    /// squares around `p` and refreshes their shapes, threats and values.
    #[inline]
    fn update_lines<const PLACE: bool>(&mut self, p: Pos, code: u32) {
        let tables = self.tables;
        // The reach is `ShapeTables::reach` of each kind of table.
        match tables.table() {
            PairTable::Compact(t) => {
                LineUpdate::<COMPACT_SPACE, 2, 4, PLACE>::new(self, t, p, code).run()
            }
            PairTable::Full(t) => LineUpdate::<KEY_SPACE, 0, 5, PLACE>::new(self, t, p, code).run(),
        }
    }

    /// Counts a stone on `p` in the near counts of the squares around it (`add`) or takes it
    /// out.
    #[inline]
    fn adjust_near(&mut self, p: Pos, add: bool) {
        // One add per row of five: a count never passes 25 or goes below 0, so no byte carries
        // into the next.
        const ROW: u64 = 0x01_0101_0101;
        for dy in -2isize..=2 {
            let i = (p.0 as isize + dy * STRIDE as isize - 2) as usize & (AREA - 1);
            let row: &mut [u8; 8] = (&mut self.near[i..i + 8]).try_into().unwrap();
            let counts = u64::from_le_bytes(*row);
            *row = if add { counts + ROW } else { counts - ROW }.to_le_bytes();
        }
    }

    /// Recomputes the square `q`'s shapes and combination keys from its keys (its threats and
    /// value are left to the caller).
    #[inline]
    fn refresh_square(&mut self, q: Pos) {
        let s = &mut self.sq[q.idx()];
        s.shapes = self.tables.pairs(s.keys);
        s.combos = entry_sum(s.shapes);
    }

    /// The packed evaluation values of the empty square `q` for black and white.
    #[inline]
    fn square_values(&self, q: Pos) -> [u64; 2] {
        let combos = self.sq[q.idx()].combos;
        [0, 1].map(|c| self.eval.value(c, lane(combos, c)))
    }

    /// Removes the empty square `q`'s threat and value from the totals.
    #[inline]
    fn forget(&mut self, q: Pos) {
        let threats = self.sq[q.idx()].threat;
        let values = self.square_values(q);
        for c in 0..2 {
            self.counts[c][threats[c] as usize] -= 1;
            self.totals[c] = self.totals[c].wrapping_sub(values[c]);
            Self::mark(&mut self.sets, c, threats[c], q, false);
        }
    }

    /// Adds or removes `q` from the set of class `t` squares of colour `c` (kept from Flex3 up).
    #[inline]
    fn mark(sets: &mut ThreatSets, c: usize, t: u8, q: Pos, on: bool) {
        if t >= Threat::Flex3 as u8 {
            let w = &mut sets[c][t as usize][q.idx() >> 6];
            let bit = 1u64 << (q.idx() & 63);
            if on {
                *w |= bit;
            } else {
                *w &= !bit;
            }
        }
    }

    /// The empty squares where `color` makes threat `t` (`Threat::Flex3` or stronger), in
    /// square order.
    pub fn squares_with(&self, color: Color, t: Threat) -> impl Iterator<Item = Pos> + '_ {
        debug_assert!(t >= Threat::Flex3);
        self.sets[color.idx()][t as usize]
            .iter()
            .enumerate()
            .flat_map(|(i, &w)| {
                let mut w = w;
                std::iter::from_fn(move || {
                    if w == 0 {
                        return None;
                    }
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Some(Pos((i * 64 + b) as u16))
                })
            })
    }

    /// Computes the empty square `q`'s threat and value from its shapes and adds them to the totals.
    #[inline]
    fn learn(&mut self, q: Pos) {
        let s = &mut self.sq[q.idx()];
        let threats = [0, 1].map(|c| THREAT_OF[lane(s.combos, c)]);
        s.threat = threats;
        let values = self.square_values(q);
        for c in 0..2 {
            self.counts[c][threats[c] as usize] += 1;
            self.totals[c] = self.totals[c].wrapping_add(values[c]);
            Self::mark(&mut self.sets, c, threats[c], q, true);
        }
    }

    /// Recomputes all incremental state from the squares.
    fn rebuild(&mut self) {
        self.saved.clear();
        self.sq.iter_mut().for_each(|s| *s = SquareState::default());
        *self.near = [0; AREA + 8];
        self.counts = [[0; Threat::COUNT]; 2];
        *self.sets = [[[0; AREA / 64]; Threat::COUNT]; 2];
        self.totals = [0; 2];
        self.hash = if self.side == Color::White {
            ZOBRIST.side
        } else {
            0
        };
        let squares: Vec<Pos> = self.grid.squares().collect();
        for &q in &squares {
            let (x, y) = (q.x() as isize, q.y() as isize);
            for d in 0..4 {
                let (dx, dy) = crate::rules::dir_xy(d);
                let mut key = 0;
                for k in -5isize..=5 {
                    if k != 0 {
                        key |= code(self.grid.at(x + k * dx, y + k * dy)) << (2 * slot(k));
                    }
                }
                self.sq[q.idx()].keys[d] = key;
            }
            let c = self.grid.get(q);
            self.hash ^= zkey(c, q);
            if matches!(c, Cell::Black | Cell::White) {
                self.adjust_near(q, true);
            }
        }
        for &q in &squares {
            self.refresh_square(q);
            if self.grid.get(q) == Cell::Empty {
                // Counted as if it had been forgotten: learn adds it.
                self.learn(q);
            }
        }
    }

    /// Debug builds: checks every incremental field against a recomputation.
    #[inline]
    fn debug_verify(&self) {
        #[cfg(debug_assertions)]
        {
            let mut fresh = self.clone();
            fresh.rebuild();
            assert_eq!(fresh.hash, self.hash, "hash drifted");
            assert_eq!(fresh.counts, self.counts, "threat counts drifted");
            assert_eq!(fresh.totals, self.totals, "evaluation totals drifted");
            assert!(fresh.sets == self.sets, "threat square sets drifted");
            for q in self.grid.squares() {
                let (a, b) = (&fresh.sq[q.idx()], &self.sq[q.idx()]);
                assert_eq!(a.keys, b.keys, "line keys drifted at {q:?}");
                let near = (fresh.near[q.idx()], self.near[q.idx()]);
                assert_eq!(near.0, near.1, "near count drifted at {q:?}");
                if self.is_empty(q) {
                    assert_eq!(a.shapes, b.shapes, "shapes drifted at {q:?}");
                    assert_eq!(a.combos, b.combos, "combination keys drifted at {q:?}");
                    assert_eq!(a.threat, b.threat, "threat drifted at {q:?}");
                }
            }
        }
    }
}

fn bounding_box(it: impl Iterator<Item = Pos>) -> Option<(u8, u8, u8, u8)> {
    it.fold(None, |b, q| {
        let (x, y) = (q.x() as u8, q.y() as u8);
        Some(match b {
            None => (x, y, x, y),
            Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
        })
    })
}

/// One stone's update of the squares around it (`Board::update_lines`), with a shape table of
/// `N` entries indexed by the key shifted right by `SHIFT`, whose shapes change up to `REACH`
/// squares away; `PLACE` when the stone is placed, not removed. Holds the parts of the board it
/// changes, so that they stay in registers.
struct LineUpdate<'a, const N: usize, const SHIFT: u32, const REACH: isize, const PLACE: bool> {
    sq: &'a mut [SquareState; AREA],
    counts: &'a mut [[u16; Threat::COUNT]; 2],
    sets: &'a mut ThreatSets,
    totals: &'a mut [u64; 2],
    /// Placing: where the squares' states before the update go (`Saved`).
    save: Option<&'a mut [SquareState; LINE_SQUARES]>,
    eval: &'static EvalTables,
    table: &'a [u16; N],
    p: Pos,
    code: u32,
    /// Per colour, the packed value changes of the empty squares.
    delta: [u64; 2],
}

impl<'a, const N: usize, const SHIFT: u32, const REACH: isize, const PLACE: bool>
    LineUpdate<'a, N, SHIFT, REACH, PLACE>
{
    #[inline(always)]
    fn new(board: &'a mut Board, table: &'a [u16; N], p: Pos, code: u32) -> Self {
        let save = match (PLACE, board.saved.top) {
            (true, top) if top > 0 => Some(&mut board.saved.items[top - 1].squares),
            _ => None,
        };
        LineUpdate {
            sq: &mut board.sq,
            counts: &mut board.counts,
            sets: &mut board.sets,
            totals: &mut board.totals,
            save,
            eval: board.eval,
            table,
            p,
            code,
            delta: [0; 2],
        }
    }

    #[inline(always)]
    fn run(mut self) {
        self.line::<0>();
        self.line::<1>();
        self.line::<2>();
        self.line::<3>();
        for c in 0..2 {
            self.totals[c] = self.totals[c].wrapping_add(self.delta[c]);
        }
    }

    /// The ten squares within five steps of `p` on line `D`.
    #[inline(always)]
    fn line<const D: usize>(&mut self) {
        // The squares along the line as `p` sees them (its own keys never change here).
        let around = self.sq[self.p.idx()].keys[D];
        self.square::<D, -5>(around);
        self.square::<D, -4>(around);
        self.square::<D, -3>(around);
        self.square::<D, -2>(around);
        self.square::<D, -1>(around);
        self.square::<D, 1>(around);
        self.square::<D, 2>(around);
        self.square::<D, 3>(around);
        self.square::<D, 4>(around);
        self.square::<D, 5>(around);
    }

    /// The square `K` steps before `p` on line `D` (so `p` is `K` steps after it): its key, and
    /// within reach its shapes, combination keys and threats. Occupied squares are refreshed too
    /// (their state is not used until they are emptied, which recomputes it): that costs less
    /// than the mispredicted branches of skipping them. Only empty ones count in the value
    /// change and the threats. (`around` is `p`'s key on line `D`.)
    #[inline(always)]
    fn square<const D: usize, const K: isize>(&mut self, around: u32) {
        let q = self.p.step(DIRS[D], -K);
        let shift = 2 * slot(K);
        let s = &mut self.sq[q.idx()];
        if let Some(save) = self.save.as_deref_mut() {
            save[D * 10 + if K < 0 { K + 5 } else { K + 4 } as usize] = *s;
        }
        // Placing, the square's slot is empty; removing, `code` is empty.
        let key = if PLACE {
            s.keys[D] | (self.code << shift)
        } else {
            s.keys[D] & !(3 << shift)
        };
        s.keys[D] = key;
        if K.abs() > REACH {
            return;
        }
        let empty = (around >> (2 * slot(-K))) & 3 == 0;
        let new = self.table[(key >> SHIFT) as usize & (N - 1)];
        let old = std::mem::replace(&mut s.shapes[D], new);
        let change =
            PAIR_ENTRIES[new as usize & 0xFF].wrapping_sub(PAIR_ENTRIES[old as usize & 0xFF]);
        let before = s.combos;
        let combos = before.wrapping_add(change);
        s.combos = combos;
        let threats = THREAT_OF[lane(combos, 0)] as u16 | (THREAT_OF[lane(combos, 1)] as u16) << 8;
        // Branch-free: whether the square is empty or its key moved is unpredictable.
        let counted = (empty as u64).wrapping_neg();
        for c in 0..2 {
            let v = self.eval.value(c, lane(combos, c));
            let was = self.eval.value(c, lane(before, c));
            self.delta[c] = self.delta[c].wrapping_add(v.wrapping_sub(was) & counted);
        }
        if (threats != u16::from_le_bytes(s.threat)) & empty {
            change_threats(self.sq, self.counts, self.sets, q, threats.to_le_bytes());
        }
    }
}

/// The empty square `q`'s threat classes became `threats` (black's, white's): updates them and
/// the counts and sets.
#[cold]
#[inline(never)]
fn change_threats(
    sq: &mut [SquareState; AREA],
    counts: &mut [[u16; Threat::COUNT]; 2],
    sets: &mut ThreatSets,
    q: Pos,
    threats: [u8; 2],
) {
    for (c, &t) in threats.iter().enumerate() {
        let s = &mut sq[q.idx()];
        let old = s.threat[c];
        if t != old {
            s.threat[c] = t;
            counts[c][old as usize] -= 1;
            counts[c][t as usize] += 1;
            Board::mark(sets, c, old, q, false);
            Board::mark(sets, c, t, q, true);
        }
    }
}

/// The threat class of every combination key (`crate::pattern::COMBO`; keys that are no
/// combination have none). 16 KiB, of which a game touches a few lines.
static THREAT_OF: [u8; COMBO_KEYS] = {
    let mut table = [0u8; COMBO_KEYS];
    let mut n = 0;
    while n < COMBOS {
        table[COMBO.key[n] as usize] = Threat::of_patterns(COMBO.patterns[n]) as u8;
        n += 1;
    }
    table
};

/// For a packed shape pair's patterns (its low byte: black's pattern, then white's), both
/// colours' `COMBO_WEIGHT`s: black's in bits 0-15, white's in bits 16-31. The sum over a
/// square's four lines is its `combos` (each lane stays below 2^14, so none carries into the
/// next), and a line's change moves it by the difference of the new and the old entry
/// (wrapping: the result is the exact packed sum).
static PAIR_ENTRIES: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let (b, w) = (i & 15, i >> 4);
        if b < 10 && w < 10 {
            table[i] = COMBO_WEIGHT[b] | COMBO_WEIGHT[w] << 16;
        }
        i += 1;
    }
    table
};

/// The sum of the `PAIR_ENTRIES` of a square's four shape pairs: both colours' combination keys.
#[inline]
fn entry_sum(shapes: [u16; 4]) -> u32 {
    shapes
        .iter()
        .map(|&pair| PAIR_ENTRIES[pair as usize & 0xFF])
        .sum()
}

/// Colour `c`'s combination key (0 black, 1 white) from a square's packed `combos`.
#[inline]
fn lane(combos: u32, c: usize) -> usize {
    (combos >> (16 * c)) as usize & (COMBO_KEYS - 1)
}

const THREATS: [Threat; Threat::COUNT] = [
    Threat::None,
    Threat::Low,
    Threat::Flex3,
    Threat::Block4,
    Threat::DoubleThree,
    Threat::FourThree,
    Threat::OpenFour,
    Threat::Five,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every ordered choice of four patterns: the packed entries sum to its combination's key
    /// for each colour, the key names that combination, and its threat is the one the counts
    /// of fives, fours and threes give (counted here directly).
    #[test]
    fn combination_keys_name_the_four_patterns() {
        for i in 0..10_000usize {
            let digits = [i / 1000, i / 100 % 10, i / 10 % 10, i % 10];
            let pats = digits.map(|d| Pattern::ALL[d]);
            // Black's pattern in the low nibble, white's (here the weakest but one) above.
            let shapes = pats.map(|p| p as u16 | (Pattern::Flex1 as u16) << 4);
            let combos = entry_sum(shapes);
            let key = lane(combos, 0);
            assert_eq!(
                lane(combos, 1),
                4 * COMBO_WEIGHT[Pattern::Flex1 as usize] as usize
            );
            let combo = COMBO.of_key[key] as usize;
            let mut sorted = pats;
            sorted.sort();
            assert_eq!(COMBO.patterns[combo], sorted, "{pats:?}");
            let n = |x: Pattern| pats.iter().filter(|&&q| q == x).count();
            let low = pats
                .iter()
                .filter(|&&q| q > Pattern::Dead && q < Pattern::Flex3)
                .count();
            let t = Threat::of_counts(
                n(Pattern::Five),
                n(Pattern::Flex4),
                n(Pattern::Block4),
                n(Pattern::Flex3),
                low,
            );
            assert_eq!(THREAT_OF[key], t as u8, "{pats:?}");
        }
    }

    /// `hash_after` foretells the hash of every move, whoever is to move.
    #[test]
    fn hash_after_is_the_hash_once_played() {
        let mut b = Board::new(9, 7, Rule::Freestyle).unwrap();
        for (x, y) in [(4, 3), (5, 3), (3, 2), (0, 0), (8, 6)] {
            for q in (0..7).flat_map(|y| (0..9).map(move |x| Pos::new(x, y))) {
                if b.is_empty(q) {
                    let foretold = b.hash_after(q);
                    b.play(q);
                    assert_eq!(b.hash(), foretold, "{q:?}");
                    b.undo();
                }
            }
            b.play(Pos::new(x, y));
        }
    }

    /// Everything the board keeps, compared with a board recomputed from its squares.
    fn assert_fresh(b: &Board) {
        let mut fresh = b.clone();
        fresh.rebuild();
        assert_eq!(fresh.hash, b.hash);
        assert_eq!(fresh.counts, b.counts);
        assert_eq!(fresh.totals, b.totals);
        assert!(fresh.sets == b.sets);
        for q in b.squares().filter(|&q| b.is_empty(q)) {
            assert_eq!(fresh.sq[q.idx()].threat, b.sq[q.idx()].threat, "{q:?}");
        }
    }

    #[test]
    fn taking_stones_back_restores_what_placing_them_changed() {
        // Stones played and taken back in a crowded corner (threats come and go), with the
        // changes that void the kept records between them: a wall, a stone taken from the
        // middle of the history, a clone (which keeps no records).
        for rule in [Rule::Freestyle, Rule::Renju, Rule::Standard] {
            let mut b = Board::new(15, 15, rule).unwrap();
            let mut state = 7u64;
            let mut pick = |n: u64| (splitmix(&mut state) % n) as usize;
            for step in 0..600 {
                match (step % 97, b.stone_count()) {
                    (40, _) => {
                        let q = Pos::new(pick(8), pick(8));
                        if b.is_empty(q) {
                            b.put_wall(q);
                        }
                    }
                    (70, n) if n > 3 => {
                        let (q, _) = b.history()[pick(n as u64 - 1)];
                        assert!(b.remove(q));
                    }
                    (80, _) => b = b.clone(),
                    (_, n) if n > 0 && (n > 30 || pick(3) == 0) => b.undo(),
                    _ => {
                        let q = Pos::new(pick(8), pick(8));
                        if b.is_empty(q) {
                            b.play(q);
                        }
                    }
                }
                assert_fresh(&b);
            }
        }
    }
}
