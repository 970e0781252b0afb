//! One level's solve, fenced: a panic in it (a bug) becomes an error for
//! that level, and a collection run goes on with the next instead of
//! losing every answer still to come.

use std::ffi::{OsStr, OsString};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

/// Names a level whose solve panics on purpose, so tests can check a failing
/// lane is reported and the run goes on.
const FAULT_VARIABLE: &str = "SOKOBAN_FAULT_LEVEL";

/// Runs `solve` for the level `name`; a panic in it is its message.
pub fn guarded<T>(name: &str, solve: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(|| {
        if fault_level().is_some_and(|level| level == name) {
            panic!("fault injected by {FAULT_VARIABLE}");
        }
        solve()
    }))
    .map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into())
    })
}

/// The level named by [`FAULT_VARIABLE`], read once (collections ask for
/// every level).
fn fault_level() -> Option<&'static OsStr> {
    static LEVEL: OnceLock<Option<OsString>> = OnceLock::new();
    LEVEL
        .get_or_init(|| std::env::var_os(FAULT_VARIABLE))
        .as_deref()
}

/// The error line for a level whose solve failed.
pub fn failure(name: &str, why: &str) -> String {
    format!("error: {name}: internal error, level skipped: {why}")
}
