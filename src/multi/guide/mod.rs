//! What steers the non-optimal searches toward the goals: the order to fill
//! them in, the plan that gets boxes there, and positions to aim for.
//!
//! None of it prunes: a position the guidance dislikes is only expanded
//! later. So guidance may be wrong, and the searches stay complete.
//!
//! - [`packing`]: the packing order, the goals filled back to front, with
//!   the phases and parking squares of the backward plan where there is one;
//! - [`plan`]: the backward plan: boxes pulled off the goals from the solved
//!   position, phase by phase, parked where they would be shut in;
//! - [`unpack`]: the unpacking plan, another backward plan: a search in
//!   feature space that pulls the boxes out and takes them off the board
//!   at start squares, Festival's way;
//! - [`out_of_plan`]: the squares a packing order is about to shut off
//!   from the targets left, where a box is out of plan;
//! - [`halls`]: the open parts of the floor and the doors between them that
//!   boxes shut (a feature of the unpacking search, and the doors advisor's
//!   measure);
//! - [`hotspots`]: which cells block a box on another from goals it could
//!   reach (the hotspot advisor's measure);
//! - [`room`]: goal rooms behind a one-cell entrance, and the order that
//!   fills each (the goal-room macros);
//! - [`meet`]: the meeting table, positions reached by pulls from the
//!   solved one, for the forward searches to run into.
//!
//! Dependencies run one way: `packing` uses `plan` and `unpack`, `unpack`
//! uses `halls` and `plan`'s types, `out_of_plan` reads `packing`; the
//! others stand alone on the foundations (`board`, `bound`, `rows`).
//! Nothing here knows the searches (`multi::search`), the portfolio or the
//! deadlock proofs.

pub(crate) mod halls;
pub(crate) mod hotspots;
pub(crate) mod meet;
pub(crate) mod out_of_plan;
pub(crate) mod packing;
pub(crate) mod plan;
pub(crate) mod room;
pub(crate) mod unpack;
