//! Running a long solve from Python without holding the interpreter: the
//! work goes to a thread of its own while the caller's thread lets go of the
//! GIL, waking every few milliseconds to check for Ctrl-C. A signal stops
//! every search of the process (the library's one interrupt flag), waits for
//! the work to end, and lowers the flag again so later solves run.

use crate::multi::options::{clear_interrupt, interrupt};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long the caller's thread sleeps between looks at pending signals.
pub const POLL: Duration = Duration::from_millis(20);

/// Holders of the interrupt flag: several runs may stop at once, and the
/// flag comes down only when the last of them has seen its searches end.
static STOPPING: Mutex<usize> = Mutex::new(0);

/// The interrupt flag held up for one run while it exists.
pub struct Stopping(());

impl Stopping {
    /// Raises the flag: every search running stops at its next check.
    pub fn start() -> Stopping {
        let mut holders = STOPPING.lock().unwrap_or_else(|e| e.into_inner());
        *holders += 1;
        interrupt();
        Stopping(())
    }
}

impl Drop for Stopping {
    fn drop(&mut self) {
        let mut holders = STOPPING.lock().unwrap_or_else(|e| e.into_inner());
        *holders -= 1;
        if *holders == 0 {
            clear_interrupt();
        }
    }
}

/// Waits, without the GIL, until no run holds the interrupt flag up (the
/// searches of a batch left early may still be stopping), so that a solve
/// started now is not stopped with them. Ctrl-C meanwhile raises.
pub fn quiet(py: Python<'_>) -> PyResult<()> {
    while *STOPPING.lock().unwrap_or_else(|e| e.into_inner()) > 0 {
        py.detach(|| std::thread::sleep(Duration::from_millis(2)));
        py.check_signals()?;
    }
    Ok(())
}

/// Waits up to [`POLL`] for a message, without the GIL; the receiver goes
/// into the wait and comes back, as a borrowed one could not cross.
pub fn wait<T: Send>(
    py: Python<'_>,
    receiver: Receiver<T>,
) -> (Receiver<T>, Result<T, RecvTimeoutError>) {
    py.detach(move || {
        let got = receiver.recv_timeout(POLL);
        (receiver, got)
    })
}

/// The text of a panic's payload.
pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Runs `job` on a thread of its own while this one checks for signals;
/// Ctrl-C (or any signal handler that raises) stops the searches, waits for
/// `job` to return and raises that exception. A panic in `job` is a
/// `RuntimeError`.
pub fn off_gil<T: Send>(py: Python<'_>, job: impl FnOnce() -> T + Send) -> PyResult<T> {
    quiet(py)?;
    let (send, mut receive) = channel();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let _ = send.send(catch_unwind(AssertUnwindSafe(job)));
        });
        let mut stopping = None;
        let mut raised = None;
        loop {
            let (back, got) = wait(py, receive);
            receive = back;
            match got {
                Ok(done) => {
                    drop(stopping);
                    if let Some(error) = raised {
                        return Err(error);
                    }
                    return done.map_err(|p| {
                        PyRuntimeError::new_err(format!("internal error: {}", panic_text(&*p)))
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "internal error: the solve ended early",
                    ));
                }
                Err(RecvTimeoutError::Timeout) if raised.is_none() => {
                    if let Err(error) = py.check_signals() {
                        stopping = Some(Stopping::start());
                        raised = Some(error);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    })
}
