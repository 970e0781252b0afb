//! Every proof that a position is dead, beyond the dead squares the board
//! marks at load.
//!
//! A search asks these files one question, "can this position still be
//! solved?", in ways from cheap to dear; each answer is sound (a position
//! called dead has no solution), so a push-optimal search stays optimal.
//!
//! - [`freeze`]: boxes frozen in place off their goals, around the box just
//!   pushed;
//! - [`corral`]: areas the player cannot enter, the PI-corrals whose pushes
//!   must come first, and the small box sets around them;
//! - [`subset`]: a few boxes searched alone, the player among them; a set
//!   that cannot be solved makes every position holding it dead;
//! - [`fence`]: the boxes around small pockets of floor, proven dead at load
//!   by the subset search and shared by every search of the level;
//! - [`learned`]: the dead cores a search finds in its own positions, kept
//!   and matched from then on;
//! - [`patterns`]: the store both fences and learned cores live in, and the
//!   flood that matches them.
//!
//! Dependencies run one way: `learned` and `fence` use `subset`, which uses
//! `patterns` and `freeze`; `corral` uses `freeze` and `subset`'s size
//! bound. Nothing here knows the searches (`multi::search`) or the
//! portfolio; all of it stands on the foundations (`board`, `rows`).

pub(crate) mod corral;
pub(crate) mod fence;
pub(crate) mod freeze;
pub(crate) mod learned;
pub(crate) mod patterns;
pub(crate) mod subset;
