//! The evaluation's learned weights and their file (`eval/pentad.weights`, embedded).
//!
//! Per rule family ([`Family`]) and per colour, two tables over the 715 combinations of four line
//! patterns ([`crate::pattern::COMBO`]): what an empty square with that combination is worth to
//! its colour when that colour is to move (`own`) and when the opponent is (`opp`). Being on move
//! is worth a lot in Gomoku (the side to move acts on its shapes first), so the two are learned
//! apart. Freestyle and standard give both colours one table; renju is not symmetric (black has
//! fouls), so each colour has its own. Per family and side to move there is also a table over
//! the threat classes both sides hold ([`threat_mask`]). The tables are in quarter units of the
//! evaluation ([`TABLE_SCALE`]). `pbrain-pentad tune` fits them (README "Training the
//! evaluation").
//!
//! The file: the storage frame (magic word, version, checksum; `crate::storage`), a text
//! describing how it was made (data size, held-out error), then per family and colour the two
//! tables as little-endian i16 in combination order, then per family and side to move the
//! threat table, and the family's win-probability scale (i32, points).

use crate::pattern::{Threat, COMBOS};
use crate::rules::Rule;
use crate::storage::{FormatError, Reader, Writer};
use crate::types::Color;

const MAGIC: &[u8; 8] = b"PNTDEVAL";
/// Version 2 added each family's win-probability scale; version 1 files read with
/// [`DEFAULT_SCALE`].
const VERSION: u16 = 2;

/// The win-probability scale of a family whose file does not give one (the old shape values'
/// fitted scale).
pub const DEFAULT_SCALE: i32 = 514;

/// Table values per unit of evaluation: the tables keep quarters, so that the old shape values'
/// 5/4 weighting of the side to move was exact.
pub const TABLE_SCALE: i32 = 4;

/// The threat classes of the threat table's masks, one bit each in class order: from the open
/// three up (open three, four, three-three, four-three, open four, five).
pub const MASK_FROM: Threat = Threat::Flex3;
/// Masks of one side.
pub const MASKS: usize = 1 << (Threat::COUNT - MASK_FROM as usize);
/// Entries of a threat table: the side to move's mask × `MASKS` + the opponent's.
pub const THREAT_ENTRIES: usize = MASKS * MASKS;

/// A set of rules that share tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Five or more wins.
    Freestyle = 0,
    /// Exactly five wins; caro and exact-five caro use these tables too (their nearest rule)
    /// until they have data of their own.
    Standard = 1,
    /// Renju: black's tables differ from white's.
    Renju = 2,
}

impl Family {
    /// Every family, in file order.
    pub const ALL: [Family; 3] = [Family::Freestyle, Family::Standard, Family::Renju];

    /// The tables a rule uses.
    pub fn of(rule: Rule) -> Family {
        match rule {
            Rule::Freestyle => Family::Freestyle,
            Rule::Renju => Family::Renju,
            Rule::Standard | Rule::Caro | Rule::CaroExact => Family::Standard,
        }
    }

    /// True when each colour has its own tables.
    pub fn by_colour(self) -> bool {
        self == Family::Renju
    }

    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Family::Freestyle => "freestyle",
            Family::Standard => "standard",
            Family::Renju => "renju",
        }
    }
}

/// One colour's two tables over the combinations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourTables {
    /// Worth of a square to its colour when that colour is to move.
    pub own: Vec<i16>,
    /// Worth of a square to its colour when the opponent is to move.
    pub opp: Vec<i16>,
}

/// One family's tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyWeights {
    /// Black's and white's (equal unless the family is `by_colour`).
    pub colour: [ColourTables; 2],
    /// The threat table when black is to move, and when white is (equal unless `by_colour`).
    pub threat: [Vec<i16>; 2],
    /// The evaluation's scale as a win probability: `sigmoid(eval / scale)` (fitted with the
    /// tables to the game results).
    pub scale: i32,
}

/// Every family's tables and how they were made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// How the tables were made: data, held-out error.
    pub info: String,
    /// In [`Family::ALL`] order.
    pub families: Vec<FamilyWeights>,
}

impl Weights {
    /// Reads a weights file; a foreign, truncated or damaged file is refused whole.
    pub fn parse(bytes: &[u8]) -> Result<Weights, FormatError> {
        let (version, mut r) = Reader::open(bytes, MAGIC, &[1, VERSION])?;
        let info = r.text()?;
        let mut families = Vec::new();
        for _ in Family::ALL {
            let mut table =
                |n: usize| -> Result<Vec<i16>, FormatError> { (0..n).map(|_| r.i16()).collect() };
            let colour = [
                ColourTables {
                    own: table(COMBOS)?,
                    opp: table(COMBOS)?,
                },
                ColourTables {
                    own: table(COMBOS)?,
                    opp: table(COMBOS)?,
                },
            ];
            let threat = [table(THREAT_ENTRIES)?, table(THREAT_ENTRIES)?];
            let scale = if version == 1 {
                DEFAULT_SCALE
            } else {
                let at = r.position();
                match r.i32()? {
                    k if k > 0 => k,
                    _ => return Err(FormatError::Invalid(at, "win-probability scale")),
                }
            };
            families.push(FamilyWeights {
                colour,
                threat,
                scale,
            });
        }
        if !r.is_done() {
            return Err(FormatError::Invalid(r.position(), "data after the tables"));
        }
        Ok(Weights { info, families })
    }

    /// The weights as a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(MAGIC, VERSION);
        w.text(&self.info);
        for f in &self.families {
            for c in &f.colour {
                c.own.iter().chain(&c.opp).for_each(|&v| w.i16(v));
            }
            f.threat.iter().flatten().for_each(|&v| w.i16(v));
            w.i32(f.scale);
        }
        w.finish()
    }

    /// The tables of a family.
    pub fn family(&self, f: Family) -> &FamilyWeights {
        &self.families[f as usize]
    }

    /// The weights built into the engine.
    pub fn embedded() -> &'static Weights {
        use std::sync::OnceLock;
        static W: OnceLock<Weights> = OnceLock::new();
        // The file is part of the source: a test reads it, so it cannot fail here.
        W.get_or_init(|| Weights::parse(EMBEDDED).expect("the embedded weights read"))
    }
}

/// The weights file built into the engine.
pub const EMBEDDED: &[u8] = include_bytes!("../../eval/pentad.weights");

/// The threat table's mask of one colour's threat counts: the bit of each class from
/// [`MASK_FROM`] up that it holds somewhere on the board.
#[inline]
pub fn threat_mask(counts: &[u16; Threat::COUNT]) -> usize {
    counts[MASK_FROM as usize..]
        .iter()
        .enumerate()
        .map(|(i, &n)| ((n > 0) as usize) << i)
        .sum()
}

/// The colour whose tables a square of `color` uses in `family`.
#[inline]
pub fn table_colour(family: Family, color: Color) -> usize {
    if family.by_colour() {
        color.idx()
    } else {
        0
    }
}
