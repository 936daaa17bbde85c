//! Line shapes around a square, from precomputed tables.
//!
//! For every square and direction the board keeps a *line key*: the ten squares within five steps
//! on that line, two bits each (empty, black, white, wall). A table per rule maps the key to the
//! shape a stone of one colour would make on that line if placed on the square. Only fives that
//! include the square count, so five squares on each side decide every shape exactly, the square
//! beyond a five included (which exact-five and caro rules need).

use crate::rules::Rule;
use crate::types::{Cell, Color};

/// The shape one stone makes on one line. Ordered from weakest to strongest.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// Nothing that can grow into five here.
    Dead = 0,
    /// One stone that can still grow into a Block2 (`X....` with room).
    Block1,
    /// One stone that can grow into a Flex2.
    Flex1,
    /// Two stones that can grow into a Block3.
    Block2,
    /// Two stones that can grow into a Flex3 (`.XX..`).
    Flex2,
    /// Three that can become a Block4 but not an open four (`OXXX..`).
    Block3,
    /// Open three: one more stone makes an open four (`.XXX..`, `.XX.X.`).
    Flex3,
    /// Four with one square left to make five (`OXXXX.`, `XX.XX`).
    Block4,
    /// Open four: two squares make five (`.XXXX.`).
    Flex4,
    /// Five (as the rule counts it) through this square.
    Five,
}

impl Pattern {
    /// All patterns, weakest first.
    pub const ALL: [Pattern; 10] = [
        Pattern::Dead,
        Pattern::Block1,
        Pattern::Flex1,
        Pattern::Block2,
        Pattern::Flex2,
        Pattern::Block3,
        Pattern::Flex3,
        Pattern::Block4,
        Pattern::Flex4,
        Pattern::Five,
    ];
    #[inline]
    fn from_u8(v: u8) -> Pattern {
        Pattern::ALL[v as usize]
    }
}

/// What the four lines through an empty square give one colour if it plays there.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
#[repr(u8)]
pub enum Threat {
    /// No line that can still become five.
    None = 0,
    /// Only ones, twos or blocked threes.
    Low,
    /// One open three.
    Flex3,
    /// One four.
    Block4,
    /// Two or more open threes.
    DoubleThree,
    /// A four and an open three.
    FourThree,
    /// An open four or two fours: wins next move unless the opponent makes five first.
    OpenFour,
    /// Five.
    Five,
}

impl Threat {
    /// Number of threat classes.
    pub const COUNT: usize = 8;

    /// The threat of a square from how many of its four lines are fives, open fours, fours,
    /// open threes and lesser live shapes: a five wins; an open four or two fours cannot both be
    /// stopped; a four with an open three (four-three); two open threes (three-three).
    pub const fn of_counts(five: usize, f4: usize, b4: usize, f3: usize, low: usize) -> Threat {
        if five > 0 {
            Threat::Five
        } else if f4 > 0 || b4 >= 2 {
            Threat::OpenFour
        } else if b4 == 1 && f3 >= 1 {
            Threat::FourThree
        } else if f3 >= 2 {
            Threat::DoubleThree
        } else if b4 == 1 {
            Threat::Block4
        } else if f3 == 1 {
            Threat::Flex3
        } else if low > 0 {
            Threat::Low
        } else {
            Threat::None
        }
    }
}

/// The combination of the four line patterns through an empty square, for one colour: the
/// unordered multiset of four `Pattern`s, 715 of them. A square's combination is kept as a *key*,
/// the sum of its four lines' [`COMBO_WEIGHT`]s, so that a change of one line moves the key by
/// the difference of two weights (the board adds it in place). The weights are chosen so that
/// every multiset of four has its own sum (a greedy B4 sequence): the key identifies the
/// combination.
pub const COMBO_WEIGHT: [u32; 10] = [0, 1, 5, 21, 55, 153, 368, 856, 1424, 2603];
/// Bits of a combination key (the largest is 4 × 2603 = 10,412).
pub const COMBO_KEY_BITS: u32 = 14;
/// Number of possible keys (a power of two, so a masked key needs no bounds check).
pub const COMBO_KEYS: usize = 1 << COMBO_KEY_BITS;
/// Number of combinations: multisets of four out of ten patterns, C(13, 4).
pub const COMBOS: usize = 715;

/// The combinations in a fixed order (each as its patterns, weakest first, ordered
/// lexicographically), and the combination of every key (`u16::MAX` for a key that is none).
pub struct ComboTables {
    /// Each combination's patterns, weakest first.
    pub patterns: [[Pattern; 4]; COMBOS],
    /// The combination of each key (`u16::MAX`: none).
    pub of_key: [u16; COMBO_KEYS],
    /// Each combination's key.
    pub key: [u16; COMBOS],
}

/// See [`ComboTables`].
pub static COMBO: ComboTables = {
    let mut patterns = [[Pattern::Dead; 4]; COMBOS];
    let mut of_key = [u16::MAX; COMBO_KEYS];
    let mut key = [0u16; COMBOS];
    let mut n = 0;
    let mut a = 0;
    while a < 10 {
        let mut b = a;
        while b < 10 {
            let mut c = b;
            while c < 10 {
                let mut d = c;
                while d < 10 {
                    patterns[n] = [
                        Pattern::ALL[a],
                        Pattern::ALL[b],
                        Pattern::ALL[c],
                        Pattern::ALL[d],
                    ];
                    let k = COMBO_WEIGHT[a] + COMBO_WEIGHT[b] + COMBO_WEIGHT[c] + COMBO_WEIGHT[d];
                    // Two combinations with one key would fail the build here.
                    assert!(of_key[k as usize] == u16::MAX);
                    of_key[k as usize] = n as u16;
                    key[n] = k as u16;
                    n += 1;
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    assert!(n == COMBOS);
    ComboTables {
        patterns,
        of_key,
        key,
    }
};

/// The key of four line patterns (in any order).
pub const fn combo_key(p: [Pattern; 4]) -> usize {
    (COMBO_WEIGHT[p[0] as usize]
        + COMBO_WEIGHT[p[1] as usize]
        + COMBO_WEIGHT[p[2] as usize]
        + COMBO_WEIGHT[p[3] as usize]) as usize
}

impl Threat {
    /// The threat a combination of four line patterns makes.
    pub const fn of_patterns(p: [Pattern; 4]) -> Threat {
        let (mut five, mut f4, mut b4, mut f3, mut low) = (0, 0, 0, 0, 0);
        let mut i = 0;
        while i < 4 {
            match p[i] {
                Pattern::Five => five += 1,
                Pattern::Flex4 => f4 += 1,
                Pattern::Block4 => b4 += 1,
                Pattern::Flex3 => f3 += 1,
                Pattern::Dead => {}
                _ => low += 1,
            }
            i += 1;
        }
        Threat::of_counts(five, f4, b4, f3, low)
    }
}

/// Number of neighbour squares in a line key.
pub const KEY_CELLS: usize = 10;
/// Number of distinct line keys.
pub const KEY_SPACE: usize = 1 << (2 * KEY_CELLS);

/// The slot of the neighbour `k` steps away (k in -5..=5, k != 0) inside a line key.
#[inline]
pub const fn slot(k: isize) -> u32 {
    if k < 0 {
        (k + 5) as u32
    } else {
        (k + 4) as u32
    }
}

/// The two-bit code of a square in a line key.
#[inline]
pub fn code(c: Cell) -> u32 {
    c as u32
}

/// How fives are judged on a line, for one colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum FiveKind {
    /// Five or more.
    AnyLength,
    /// Exactly five.
    Exact,
    /// Caro rule 8: overline, or exactly five not blocked by the opponent at both ends.
    CaroOverline,
    /// Caro rule 9: exactly five not blocked by the opponent at both ends.
    CaroExact,
}

impl FiveKind {
    fn of(rule: Rule, color: Color) -> FiveKind {
        match rule {
            Rule::Freestyle => FiveKind::AnyLength,
            Rule::Standard => FiveKind::Exact,
            Rule::Renju if color == Color::Black => FiveKind::Exact,
            Rule::Renju => FiveKind::AnyLength,
            Rule::Caro => FiveKind::CaroOverline,
            Rule::CaroExact => FiveKind::CaroExact,
        }
    }
}

/// One entry of a shape table: the pattern (low four bits) and whether the stone would make an
/// overline of six or more through the square (bit 4, used to find renju overline fouls).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Shape(u8);

impl Shape {
    /// The pattern.
    #[inline]
    pub fn pattern(self) -> Pattern {
        Pattern::from_u8(self.0 & 15)
    }
    /// The pattern's number (its place in `Pattern::ALL`).
    #[inline]
    pub fn code(self) -> u8 {
        self.0 & 15
    }
    /// The stone would stand in a run of six or more.
    #[inline]
    pub fn overline(self) -> bool {
        self.0 & 16 != 0
    }
    /// Colour `c`'s (0 black, 1 white) shape from a packed pair of a `ShapeTables` entry.
    #[inline]
    pub fn of_pair(pair: u16, c: usize) -> Shape {
        Shape((pair >> (4 * c) & 15) as u8 | ((pair >> (8 + c) & 1) << 4) as u8)
    }
}

/// Shape tables for one rule: black's and white's shape side by side for every line key (packed
/// in a `u16`, black's pattern in the low four bits, white's in the next four), so one memory access serves both colours. When both colours judge fives by
/// length alone (freestyle), the two outermost squares never matter and the table is indexed by
/// the inner eight squares only (128 KiB instead of 2 MiB: it stays in the cache).
pub struct ShapeTables {
    table: PairTable,
}

/// Number of entries of a compact table (keys of the inner eight squares).
pub const COMPACT_SPACE: usize = 1 << 16;

/// A shape table, indexed by the whole key or by its inner eight squares. Fixed-size arrays, so
/// that a masked index needs no bounds check.
pub enum PairTable {
    /// Indexed by the inner eight squares (`key >> 2 & 0xFFFF`).
    Compact(Box<[u16; COMPACT_SPACE]>),
    /// Indexed by the whole key.
    Full(Box<[u16; KEY_SPACE]>),
}

/// Key bits of the inner eight squares (slots 1..=8).
const INNER_SHIFT: u32 = 2;
const INNER_MASK: u32 = 0xFFFF;

/// Black's and white's shapes packed in a `u16`: the patterns in bits 0-3 (black) and 4-7
/// (white), the overline flags in bits 8 (black) and 9 (white).
#[inline]
fn pack(pair: [Shape; 2]) -> u16 {
    let [b, w] = pair.map(|s| s.0 as u16);
    (b & 15) | (w & 15) << 4 | (b >> 4) << 8 | (w >> 4) << 9
}

impl ShapeTables {
    /// The tables for a rule.
    pub fn for_rule(rule: Rule) -> ShapeTables {
        let kinds = [
            FiveKind::of(rule, Color::Black),
            FiveKind::of(rule, Color::White),
        ];
        let black = build(kinds[0]);
        let white_as_black = if kinds[1] == kinds[0] {
            None
        } else {
            Some(build(kinds[1]))
        };
        let white_view =
            |k: u32| white_as_black.as_ref().unwrap_or(&black)[swap_colors(k) as usize];
        let compact = kinds.iter().all(|&k| k == FiveKind::AnyLength);
        let table = if compact {
            let v: Vec<u16> = (0..=INNER_MASK)
                .map(|inner| {
                    let k = inner << INNER_SHIFT;
                    pack([black[k as usize], white_view(k)])
                })
                .collect();
            PairTable::Compact(v.into_boxed_slice().try_into().expect("compact table size"))
        } else {
            let v: Vec<u16> = (0..KEY_SPACE as u32)
                .map(|k| pack([black[k as usize], white_view(k)]))
                .collect();
            PairTable::Full(v.into_boxed_slice().try_into().expect("table size"))
        };
        ShapeTables { table }
    }
    /// The table itself, for the board's incremental update.
    #[inline]
    pub fn table(&self) -> &PairTable {
        &self.table
    }
    /// How far along a line a stone changes the shapes of the squares: 5, or 4 for compact
    /// tables (whose shapes ignore the outermost squares).
    #[inline]
    pub fn reach(&self) -> isize {
        match self.table {
            PairTable::Compact(_) => 4,
            PairTable::Full(_) => 5,
        }
    }
    /// Black's and white's shapes on a line with this key, packed (see `pack`).
    /// (In compact tables the overline flag is not kept: only renju black, whose table is never
    /// compact, needs it.)
    #[inline]
    pub fn pair(&self, key: u32) -> u16 {
        match &self.table {
            PairTable::Compact(t) => t[((key >> INNER_SHIFT) & INNER_MASK) as usize],
            PairTable::Full(t) => t[(key as usize) & (KEY_SPACE - 1)],
        }
    }
    /// `pair` of four keys (one square's four lines).
    #[inline]
    pub fn pairs(&self, keys: [u32; 4]) -> [u16; 4] {
        match &self.table {
            PairTable::Compact(t) => keys.map(|k| t[((k >> INNER_SHIFT) & INNER_MASK) as usize]),
            PairTable::Full(t) => keys.map(|k| t[(k as usize) & (KEY_SPACE - 1)]),
        }
    }
    /// Black's and white's shapes on a line with this key.
    #[inline]
    pub fn shapes(&self, key: u32) -> [Shape; 2] {
        let pair = self.pair(key);
        [Shape::of_pair(pair, 0), Shape::of_pair(pair, 1)]
    }
    /// The shape a stone of `color` makes on a line with this key.
    #[inline]
    pub fn shape(&self, color: Color, key: u32) -> Shape {
        Shape::of_pair(self.pair(key), color.idx())
    }
}

/// Exchanges the black and white codes of every square in a key.
fn swap_colors(key: u32) -> u32 {
    // Exchanging the two bits of every square swaps codes 1 and 2 and keeps 0 and 3.
    ((key & 0x5_5555) << 1) | ((key & 0xA_AAAA) >> 1)
}

/// Does the own stone at the centre stand in a run of six or more? (Counts own stones outward
/// on both sides, stopping at the first other square.)
fn overline_key(key: u32) -> bool {
    let own = |k: isize| (key >> (2 * slot(k))) & 3 == 1;
    let left = (1..=5).take_while(|&k| own(-k)).count();
    let right = (1..=5).take_while(|&k| own(k)).count();
    left + right + 1 >= 6
}

/// The line a key describes, as 11 squares with the (own-stone) centre at index 5.
/// Codes: 0 empty, 1 own (black), 2 opponent, 3 wall.
fn decode(key: u32) -> [u8; 11] {
    let mut l = [0u8; 11];
    for k in -5isize..=5 {
        if k != 0 {
            l[(k + 5) as usize] = ((key >> (2 * slot(k))) & 3) as u8;
        }
    }
    l[5] = 1;
    l
}

/// Does the line (centre own) hold a winning five that includes the centre?
fn five_through_centre(l: &[u8; 11], kind: FiveKind) -> bool {
    for s in 1..=5 {
        if l[s..s + 5].iter().all(|&c| c == 1) {
            let (before, after) = (l[s - 1], l[s + 5]);
            let longer = before == 1 || after == 1;
            let blocked_both = before == 2 && after == 2;
            let wins = match kind {
                FiveKind::AnyLength => true,
                FiveKind::Exact => !longer,
                FiveKind::CaroOverline => longer || !blocked_both,
                FiveKind::CaroExact => !longer && !blocked_both,
            };
            if wins {
                return true;
            }
        }
    }
    false
}

/// Builds black's table for a kind of five. Each key's pattern is defined through the patterns
/// of the keys with one more own stone, memoised over the whole key space.
fn build(kind: FiveKind) -> Box<[Shape]> {
    const UNKNOWN: u8 = 0xff;
    let mut memo = vec![UNKNOWN; KEY_SPACE];
    // Number of empty squares whose filling makes a five through the centre.
    let completions = |l: &mut [u8; 11]| -> usize {
        let mut n = 0;
        for i in 1..=9 {
            if i != 5 && l[i] == 0 {
                l[i] = 1;
                if five_through_centre(l, kind) {
                    n += 1;
                }
                l[i] = 0;
            }
        }
        n
    };
    fn classify(
        key: u32,
        memo: &mut [u8],
        kind: FiveKind,
        completions: &dyn Fn(&mut [u8; 11]) -> usize,
    ) -> u8 {
        if memo[key as usize] != 0xff {
            return memo[key as usize];
        }
        let mut l = decode(key);
        let p = if five_through_centre(&l, kind) {
            Pattern::Five
        } else {
            match completions(&mut l) {
                0 => {
                    let mut best = Pattern::Dead;
                    for k in -4isize..=4 {
                        if k == 0 || l[(k + 5) as usize] != 0 {
                            continue;
                        }
                        let next = key | (1 << (2 * slot(k)));
                        let grown = match Pattern::from_u8(classify(next, memo, kind, completions))
                        {
                            Pattern::Flex4 => Pattern::Flex3,
                            Pattern::Block4 => Pattern::Block3,
                            Pattern::Flex3 => Pattern::Flex2,
                            Pattern::Block3 => Pattern::Block2,
                            Pattern::Flex2 => Pattern::Flex1,
                            Pattern::Block2 => Pattern::Block1,
                            _ => Pattern::Dead,
                        };
                        best = best.max(grown);
                    }
                    best
                }
                1 => Pattern::Block4,
                _ => Pattern::Flex4,
            }
        };
        memo[key as usize] = p as u8;
        p as u8
    }
    // Outside caro a wall blocks exactly like an opponent stone, so only keys without walls are
    // classified (3^10 of them instead of 4^10) and the others copy their wall-free twin.
    let walls_matter = matches!(kind, FiveKind::CaroOverline | FiveKind::CaroExact);
    let mut out = Vec::with_capacity(KEY_SPACE);
    for key in 0..KEY_SPACE as u32 {
        let twin = if walls_matter {
            key
        } else {
            walls_as_opponent(key)
        };
        let p = classify(twin, &mut memo, kind, &completions);
        let over = overline_key(key) as u8;
        out.push(Shape(p | (over << 4)));
    }
    out.into_boxed_slice()
}

/// The key with every wall replaced by an opponent stone.
fn walls_as_opponent(key: u32) -> u32 {
    // A wall is code 3 (both bits set): clear the low bit of those squares.
    let both = key & (key >> 1) & 0x5_5555;
    key & !both
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Key from a line written as 11 characters, centre `*`: `.` empty, `x` own, `o` opponent,
    /// `#` wall.
    fn key(s: &str) -> u32 {
        let cs: Vec<char> = s.chars().collect();
        assert_eq!(cs.len(), 11);
        assert_eq!(cs[5], '*');
        let mut k = 0;
        for (i, c) in cs.iter().enumerate() {
            if i == 5 {
                continue;
            }
            let code = match c {
                '.' => 0,
                'x' => 1,
                'o' => 2,
                '#' => 3,
                _ => panic!("bad char"),
            };
            k |= code << (2 * slot(i as isize - 5));
        }
        k
    }

    fn pat(rule: Rule, s: &str) -> Pattern {
        ShapeTables::for_rule(rule)
            .shape(Color::Black, key(s))
            .pattern()
    }

    #[test]
    fn shapes_freestyle() {
        let r = Rule::Freestyle;
        assert_eq!(pat(r, "...xx*xx..."), Pattern::Five);
        assert_eq!(pat(r, "..xxx*xx..."), Pattern::Five);
        assert_eq!(pat(r, "...xx*x...."), Pattern::Flex4);
        assert_eq!(pat(r, "..xx.*x...."), Pattern::Block4);
        assert_eq!(pat(r, "...x.*x...."), Pattern::Flex3);
        assert_eq!(pat(r, "..xx.*x...."), Pattern::Block4);
        assert_eq!(pat(r, "...x.*x...."), Pattern::Flex3);
        assert_eq!(pat(r, "....x*x...."), Pattern::Flex3);
        assert_eq!(pat(r, "...ox*x...."), Pattern::Block3);
        assert_eq!(pat(r, "....x*.x..."), Pattern::Flex3);
        assert_eq!(pat(r, "....x*....."), Pattern::Flex2);
        assert_eq!(pat(r, "...o.*..o.."), Pattern::Dead);
        assert_eq!(pat(r, "....o*....o"), Pattern::Block1);
        assert_eq!(pat(r, "...o.*..o.."), Pattern::Dead);
    }

    #[test]
    fn shapes_exact_five() {
        let r = Rule::Standard;
        assert_eq!(pat(r, "...xx*xx..."), Pattern::Five);
        assert_ne!(pat(r, "..xxx*xx..."), Pattern::Five);
        assert_eq!(pat(Rule::Freestyle, "..xxx*xx..."), Pattern::Five);
        assert!(ShapeTables::for_rule(r)
            .shape(Color::Black, key("..xxx*xx..."))
            .overline());
        // .XXXX. next to an own stone: only one side makes exactly five.
        assert_eq!(pat(r, "x.xxx*....."), Pattern::Block4);
        assert_eq!(pat(Rule::Freestyle, "x.xxx*....."), Pattern::Flex4);
    }

    #[test]
    fn shapes_caro() {
        // Caro: a five blocked at both ends by the opponent does not win; the edge is no block.
        assert_eq!(pat(Rule::Caro, "oxxxx*o...."), Pattern::Dead);
        assert_eq!(pat(Rule::Caro, "#xxxx*o...."), Pattern::Five);
        assert_eq!(pat(Rule::Caro, "oxxxx*xo..."), Pattern::Five);
        assert_ne!(pat(Rule::CaroExact, "oxxxx*xo..."), Pattern::Five);
        assert_eq!(pat(Rule::Caro, ".oxxx*.o..."), Pattern::Dead);
        assert_eq!(pat(Rule::Freestyle, ".oxxx*.o..."), Pattern::Block4);
    }

    #[test]
    fn white_table_is_swapped() {
        let t = ShapeTables::for_rule(Rule::Freestyle);
        let k = key("...xx*x....");
        assert_eq!(
            t.shape(Color::White, swap_colors(k)).pattern(),
            Pattern::Flex4
        );
    }
}
#[cfg(test)]
mod compact_check {
    use super::*;
    #[test]
    fn compact_equals_full() {
        let full = build(FiveKind::AnyLength);
        let t = ShapeTables::for_rule(Rule::Freestyle);
        for k in 0..KEY_SPACE as u32 {
            assert_eq!(
                full[k as usize].pattern(),
                t.shape(Color::Black, k).pattern(),
                "key {k:x}"
            );
        }
    }
}
