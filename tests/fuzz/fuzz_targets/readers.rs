//! Fuzz target `readers`: the body is `sokoban::fuzzing::readers`, which `cargo test` replays.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sokoban::fuzzing::readers(data));
