//! The shared transposition table: lock-free, one pair of atomic words per entry.
//!
//! An entry stores `key ^ data` beside `data`; a reader accepts the entry only when the two XOR
//! back to its key, so a torn write from another thread reads as a miss, never as a wrong hit.

use crate::types::{Bound, Depth, Pos, Value};
use std::sync::atomic::{AtomicU64, Ordering};

/// Entries per cluster (one cache line).
const CLUSTER: usize = 4;
/// Bytes per entry.
pub const ENTRY_BYTES: usize = 16;

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// `n` empty entries from zeroed memory, or `None` when the memory cannot be had. Zeroed pages
/// come from the operating system untouched, so a large table costs no start-up time (the
/// first move pays for start-up under GomocupJudge) and takes resident memory only as it fills.
fn zeroed_entries(n: usize) -> Option<Box<[Entry]>> {
    let layout = std::alloc::Layout::array::<Entry>(n).ok()?;
    if layout.size() == 0 {
        return None;
    }
    // SAFETY: the layout has a non-zero size. All-zero bits are a valid `Entry` (two
    // `AtomicU64`, which have the bit validity of `u64`), so the zeroed block holds `n` valid
    // entries, and a `Box<[Entry]>` of length `n` frees it with this same layout.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut Entry;
        if ptr.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)))
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Best move found (may be `Pos::NONE`).
    pub mv: Pos,
    /// Stored score (mate scores relative to the stored node).
    pub value: Value,
    /// Depth of the search that stored it.
    pub depth: Depth,
    /// How the score bounds the true one.
    pub bound: Bound,
}

fn pack(mv: Pos, value: Value, depth: Depth, bound: Bound, gen: u8) -> u64 {
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (mv.0 as u64)
        | ((value as i16 as u16 as u64) << 16)
        | ((depth.clamp(-128, 127) as i8 as u8 as u64) << 32)
        | (b << 40)
        | ((gen as u64 & 63) << 42)
}

fn unpack(d: u64) -> (Hit, u8) {
    let bound = match (d >> 40) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    (
        Hit {
            mv: Pos(d as u16),
            value: (d >> 16) as u16 as i16 as Value,
            depth: (d >> 32) as u8 as i8 as Depth,
            bound,
        },
        ((d >> 42) & 63) as u8,
    )
}

/// The table.
pub struct Table {
    entries: Box<[Entry]>,
    mask: usize,
    gen: std::sync::atomic::AtomicU8,
}

impl Table {
    /// A table of at most `bytes` (a power-of-two number of clusters, at least one). When the
    /// memory cannot be had, the size is halved until it can: a manager may announce far more
    /// memory than the machine has.
    pub fn new(bytes: usize) -> Table {
        let clusters = (bytes / (ENTRY_BYTES * CLUSTER)).max(1);
        let mut clusters = 1usize << (usize::BITS - 1 - clusters.leading_zeros());
        loop {
            if let Some(entries) = zeroed_entries(clusters * CLUSTER) {
                return Table {
                    entries,
                    mask: clusters - 1,
                    gen: std::sync::atomic::AtomicU8::new(0),
                };
            }
            if clusters == 1 {
                // Not even one cluster: let the allocator report it.
                let mut v = Vec::with_capacity(CLUSTER);
                v.resize_with(CLUSTER, Entry::default);
                return Table {
                    entries: v.into_boxed_slice(),
                    mask: 0,
                    gen: std::sync::atomic::AtomicU8::new(0),
                };
            }
            clusters /= 2;
        }
    }

    /// Bytes the entries take.
    pub fn bytes(&self) -> usize {
        self.entries.len() * ENTRY_BYTES
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for e in self.entries.iter() {
            e.check.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        self.gen.store(
            self.gen.load(Ordering::Relaxed).wrapping_add(1) & 63,
            Ordering::Relaxed,
        );
    }

    #[inline]
    fn cluster(&self, key: u64) -> &[Entry] {
        let i = (key as usize) & self.mask;
        &self.entries[i * CLUSTER..(i + 1) * CLUSTER]
    }

    /// Looks a position up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        for e in self.cluster(key) {
            let d = e.data.load(Ordering::Relaxed);
            if d != 0 && e.check.load(Ordering::Relaxed) ^ d == key {
                return Some(unpack(d).0);
            }
        }
        None
    }

    /// Stores a result, replacing the same position or the shallowest, oldest entry.
    #[inline]
    pub fn store(&self, key: u64, mv: Pos, value: Value, depth: Depth, bound: Bound) {
        let gen = self.gen.load(Ordering::Relaxed);
        let cluster = self.cluster(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in cluster.iter().enumerate() {
            let d = e.data.load(Ordering::Relaxed);
            if d == 0 {
                victim = i;
                break;
            }
            let (old, old_gen) = unpack(d);
            if e.check.load(Ordering::Relaxed) ^ d == key {
                // Same position: keep a deeper exact result from this search, and its move.
                if old.depth > depth + 2
                    && old_gen == gen
                    && old.bound == Bound::Exact
                    && bound != Bound::Exact
                {
                    return;
                }
                let mv = if mv.is_none() { old.mv } else { mv };
                let nd = pack(mv, value, depth, bound, gen);
                e.check.store(key ^ nd, Ordering::Relaxed);
                e.data.store(nd, Ordering::Relaxed);
                return;
            }
            let age = (gen.wrapping_sub(old_gen) & 63) as i32;
            let score = old.depth - 8 * age;
            if score < worst {
                worst = score;
                victim = i;
            }
        }
        let nd = pack(mv, value, depth, bound, gen);
        cluster[victim].check.store(key ^ nd, Ordering::Relaxed);
        cluster[victim].data.store(nd, Ordering::Relaxed);
    }

    /// Share of a sample of entries written by the current search, in permille.
    pub fn usage_permille(&self) -> u32 {
        let gen = self.gen.load(Ordering::Relaxed);
        let n = self.entries.len().min(4000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| {
                let d = e.data.load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == gen
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let t = Table::new(1 << 16);
        assert!(t.bytes() <= 1 << 16);
        let p = Pos::new(7, 7);
        t.store(0xDEAD_BEEF, p, -29_990, 12, Bound::Lower);
        let h = t.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(
            h,
            Hit {
                mv: p,
                value: -29_990,
                depth: 12,
                bound: Bound::Lower
            }
        );
        assert!(t.probe(0xDEAD_BEEE).is_none());
        t.clear();
        assert!(t.probe(0xDEAD_BEEF).is_none());
    }

    #[test]
    fn negative_depth_round_trips() {
        let t = Table::new(1 << 12);
        t.store(42, Pos::NONE, 5, -3, Bound::Exact);
        assert_eq!(t.probe(42).unwrap().depth, -3);
    }
}
