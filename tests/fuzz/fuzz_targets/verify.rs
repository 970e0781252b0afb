//! Fuzz target `verify`: the body is `sokoban::fuzzing::verify`, which `cargo test` replays.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sokoban::fuzzing::verify(data));
