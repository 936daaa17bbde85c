//! parse_pos_moves, parse_offset_moves, parse_diagram.
//! The oracle is shared with the stable property tests (`tests/fuzz_oracles`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_oracles/mod.rs"]
mod oracles;

fuzz_target!(|data: &[u8]| oracles::notation(data));
