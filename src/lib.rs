//! `sokoban`: exact Sokoban solvers and the tools around them.
//!
//! Data flows one way: text in ([`level`]), a [`level::Maze`] or
//! [`level::Level`], a search ([`single`], [`multi`]), a [`moves::Solution`],
//! text out ([`output`]). Only the binary knows about the command line.
//!
//! - [`single`]: the olympiad "Pushing Boxes" problem (one box): fewest pushes,
//!   then fewest walks, exactly, in near-linear time.
//! - [`multi`]: full Sokoban levels, push-optimal A* with deadlock pruning.
//! - [`grid`]: geometry shared by everything.
//! - [`moves`]: notations, replay and verification of move strings.
//! - `play` (the default feature of that name): the terminal game's state,
//!   solver helper and drawing.
//! - [`optimize`]: shorter solutions (moves or pushes) from a given one.
//! - [`words`]: input quoted back in messages, bounded and escaped.

#[doc(hidden)]
pub mod fuzzing;
pub mod grid;
pub mod level;
pub mod moves;
pub mod multi;
pub mod optimize;
pub mod output;
#[cfg(feature = "play")]
pub mod play;
#[cfg(feature = "python")]
mod python;
pub mod rng;
pub mod search;
pub mod single;
pub mod tools;
pub mod words;
