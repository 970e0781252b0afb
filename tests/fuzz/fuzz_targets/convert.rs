//! Fuzz target `convert`: the body is `sokoban::fuzzing::convert`, which `cargo test` replays.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sokoban::fuzzing::convert(data));
