//! Stable-Rust fuzzing of the readers of the stored files (the cargo-fuzz target `stored_files`
//! runs the same oracle, `tests/fuzz_oracles`): the opening book, the Yixin-Board database and
//! the evaluation weights, foreign, truncated, damaged or whole. `PENTAD_FUZZ_CASES` runs more, `PENTAD_FUZZ_SEED`
//! other ones.

mod fuzz_oracles;

use fuzz_oracles::{stored_files, Rng};
use std::time::Instant;

#[test]
fn fuzz_book_and_database_readers() {
    let n: usize = std::env::var("PENTAD_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
        * 10;
    let seed: u64 = std::env::var("PENTAD_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x9E37_79B9);
    let mut rng = Rng(seed ^ 0x51_f11e5 | 1);
    let t0 = Instant::now();
    for i in 0..n {
        let len = (rng.next() % 600) as usize;
        let data = rng.bytes(len);
        if let Err(e) = std::panic::catch_unwind(|| stored_files(&data)) {
            eprintln!("stored_files: case {i} failed; input bytes: {data:?}");
            std::panic::resume_unwind(e);
        }
    }
    eprintln!("stored_files: {n} cases in {:?}", t0.elapsed());
}
