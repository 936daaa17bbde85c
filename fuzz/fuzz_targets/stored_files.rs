//! The opening book and Yixin-Board database readers on foreign, truncated, damaged and whole
//! files. The oracle is shared with the stable property tests (`tests/fuzz_oracles`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_oracles/mod.rs"]
mod oracles;

fuzz_target!(|data: &[u8]| oracles::stored_files(data));
