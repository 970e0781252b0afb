//! One collection run, shared by single-box and multi-box solving and both
//! `bench` modes: each item is solved under the panic fence ([`guarded`]),
//! one at a time or `--jobs` at once; each answer is printed as soon as it
//! and every one before it are final, in input order; and the run ends in
//! one exit status (130 cut short by Ctrl-C, 4 some solve failed, 3 some
//! level reached a limit, else 0). A mode says only how to print one answer
//! and what to print around them ([`Collection`]), and how to solve one item.

use super::interrupt;
use super::lane::{failure, guarded};
use super::progress::Progress;
use super::{CliError, Status};
use sokoban::level::Level;
use sokoban::moves::Outcome;
use sokoban::tools::shard::Shard;
use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A mode's side of a collection run.
pub trait Collection {
    /// What is solved: a maze or a level, with what printing it needs.
    type Item: Named + Send;
    /// What solving an item gives.
    type Answer: Send;

    /// How the answer's search ended.
    fn outcome(answer: &Self::Answer) -> &Outcome;

    /// True when Ctrl-C came while `answer` was worked out and it is final
    /// all the same (a search that improves a solution it already holds):
    /// it is printed, nothing after it is, and the run ends as interrupted,
    /// even when it was the last.
    fn cut_short(_answer: &Self::Answer) -> bool {
        false
    }

    /// Prints what comes before the first answer (a table's header).
    fn start(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    /// Prints the answer to `item`, at `index` in the whole input.
    fn print(
        &mut self,
        out: &mut dyn Write,
        index: usize,
        item: Self::Item,
        answer: Self::Answer,
    ) -> io::Result<()>;

    /// Prints or writes what comes after the last answer (a summary), even
    /// when Ctrl-C cut the run short.
    fn finish(self, _out: &mut dyn Write) -> Result<(), CliError>
    where
        Self: Sized,
    {
        Ok(())
    }
}

/// An item's name, for the progress bar and a failure's message.
pub trait Named {
    fn name(&self) -> &str;
}

impl Named for Level {
    fn name(&self) -> &str {
        &self.name
    }
}

/// A thing named by the mode (a grid of a file or a generator).
impl<T> Named for (String, T) {
    fn name(&self) -> &str {
        &self.0
    }
}

/// What a solve reported, and the time it took.
pub struct Timed<R> {
    pub report: R,
    pub elapsed: Duration,
}

/// Runs `solve`, timed.
pub fn timed<R>(solve: impl FnOnce() -> R) -> Timed<R> {
    let started = Instant::now();
    let report = solve();
    Timed {
        elapsed: started.elapsed(),
        report,
    }
}

/// How a collection runs.
pub struct Driver {
    pub progress: Progress,
    /// Items solved at once on a pool of threads; `None`: one at a time on
    /// this thread.
    pub jobs: Option<usize>,
    /// Ctrl-C stops the run after the answers finished (else it ends the
    /// process at once, as the signal does).
    pub ctrl_c: bool,
    /// stdout is flushed after every answer, so a run killed half-way keeps
    /// them (else when the run ends).
    pub flush_each: bool,
}

/// Every item, or with `--shard` that slice, each with its index in the whole input.
pub fn select<T>(shard: Option<Shard>, items: Vec<T>) -> Vec<(usize, T)> {
    shard.unwrap_or(Shard { k: 0, n: 1 }).select(items)
}

/// How one item's solve ended, when it did.
enum Slot<I, A> {
    /// The item, at `index` in the whole input, and its answer.
    Done { index: usize, item: I, answer: A },
    /// Its solve panicked: the error line.
    Failed(String),
}

impl Driver {
    /// A run over `total` levels solved in turn, as solving and optimizing
    /// do: a spinner for one level, else a bar; Ctrl-C stops it; every
    /// answer flushed.
    pub fn levels(total: usize) -> Driver {
        Driver {
            progress: if total == 1 {
                Progress::spinner()
            } else {
                Progress::new(total)
            },
            jobs: None,
            ctrl_c: true,
            flush_each: true,
        }
    }

    /// Solves each of `items` (each with its index in the whole input) with
    /// `solve`, prints them through `mode`, and gives the exit status.
    pub fn run<C: Collection>(
        self,
        items: Vec<(usize, C::Item)>,
        solve: impl Fn(&C::Item, &Progress) -> C::Answer + Sync,
        mut mode: C,
    ) -> Result<ExitCode, CliError> {
        let mut out = BufWriter::new(io::stdout().lock());
        // Before the bar is first drawn: nothing to lift.
        mode.start(&mut out)?;
        if self.flush_each {
            out.flush()?;
        }
        if self.ctrl_c {
            interrupt::watch();
        }
        let mut order = InOrder::new(mode, items.len(), &self);
        match self.jobs {
            None => self.one_at_a_time(items, &solve, &mut order, &mut out)?,
            Some(jobs) => self.side_by_side(jobs, items, &solve, &mut order, &mut out)?,
        }
        self.progress.finish();
        order.end(&mut out)
    }

    /// Each item in turn on this thread, up to the first cut short.
    fn one_at_a_time<C: Collection>(
        &self,
        items: Vec<(usize, C::Item)>,
        solve: &(impl Fn(&C::Item, &Progress) -> C::Answer + Sync),
        order: &mut InOrder<C>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        for (position, (index, item)) in items.into_iter().enumerate() {
            self.progress.update(position, item.name());
            let slot = solve_one::<C>(index, item, solve, &self.progress);
            order.take(position, slot, out)?;
            if order.stopped() {
                break;
            }
        }
        Ok(())
    }

    /// `jobs` items at once on a pool; each answer waits for those before it.
    fn side_by_side<C: Collection>(
        &self,
        jobs: usize,
        items: Vec<(usize, C::Item)>,
        solve: &(impl Fn(&C::Item, &Progress) -> C::Answer + Sync),
        order: &mut InOrder<C>,
        out: &mut dyn Write,
    ) -> Result<(), CliError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|e| CliError::Usage(format!("cannot start {jobs} jobs: {e}")))?;
        let names: Vec<String> = items.iter().map(|(_, i)| i.name().to_string()).collect();
        let progress = &self.progress;
        let (send, receive) = mpsc::channel();
        let mut result = Ok(());
        pool.in_place_scope(|scope| {
            for (position, (index, item)) in items.into_iter().enumerate() {
                let send = send.clone();
                scope.spawn(move |_| {
                    let _ = send.send((position, solve_one::<C>(index, item, solve, progress)));
                });
            }
            drop(send);
            for (done, (position, slot)) in receive.iter().enumerate() {
                progress.update(done + 1, &names[position]);
                if result.is_ok() {
                    result = order.take(position, slot, out);
                }
            }
        });
        Ok(result?)
    }
}

/// Solves the item at `index` in the whole input under the fence; `None`
/// when Ctrl-C cut it short (or came before it started).
fn solve_one<C: Collection>(
    index: usize,
    item: C::Item,
    solve: &(impl Fn(&C::Item, &Progress) -> C::Answer + Sync),
    progress: &Progress,
) -> Option<Slot<C::Item, C::Answer>> {
    if interrupt::pressed() {
        return None;
    }
    match guarded(item.name(), || solve(&item, progress)) {
        Ok(answer) if interrupt::is_final(C::outcome(&answer)) => Some(Slot::Done {
            index,
            item,
            answer,
        }),
        Ok(_) => None,
        Err(why) => Some(Slot::Failed(failure(item.name(), &why))),
    }
}

/// The answers in input order: each waits until every one before it is
/// printed; the first item cut short stops the printing for good.
struct InOrder<'a, C: Collection> {
    mode: C,
    progress: &'a Progress,
    flush_each: bool,
    /// Finished items not printed yet, by position.
    waiting: BTreeMap<usize, Slot<C::Item, C::Answer>>,
    total: usize,
    /// The first position cut short.
    cut: Option<usize>,
    /// The position printed next.
    next: usize,
    answered: usize,
    failed: usize,
    limited: bool,
}

impl<'a, C: Collection> InOrder<'a, C> {
    fn new(mode: C, total: usize, driver: &'a Driver) -> Self {
        InOrder {
            mode,
            progress: &driver.progress,
            flush_each: driver.flush_each,
            waiting: BTreeMap::new(),
            total,
            cut: None,
            next: 0,
            answered: 0,
            failed: 0,
            limited: false,
        }
    }

    /// Takes the item at `position` as it ended, and prints every answer
    /// now due.
    fn take(
        &mut self,
        position: usize,
        slot: Option<Slot<C::Item, C::Answer>>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        match slot {
            // Due now (always, one at a time): it need not wait.
            Some(slot) if position == self.next && !self.stopped() => {
                self.next += 1;
                self.show(slot, out)?;
            }
            Some(slot) => {
                self.waiting.insert(position, slot);
            }
            None => self.cut = Some(self.cut.map_or(position, |cut| cut.min(position))),
        }
        while !self.stopped() {
            let Some(slot) = self.waiting.remove(&self.next) else {
                break;
            };
            self.next += 1;
            self.show(slot, out)?;
        }
        Ok(())
    }

    /// Prints what follows the answers; the run's exit status.
    fn end(self, out: &mut dyn Write) -> Result<ExitCode, CliError> {
        let stopped = self.stopped();
        self.mode.finish(out)?;
        out.flush()?;
        if self.next < self.total || stopped {
            interrupt::note(self.answered, self.total);
            return Ok(Status::Interrupted.into());
        }
        if self.failed > 0 {
            return Ok(Status::Failed.into());
        }
        Ok(Status::limited_if(self.limited))
    }

    /// True when the item printed next was cut short (or the one printed
    /// last: [`Collection::cut_short`]): nothing more is.
    fn stopped(&self) -> bool {
        self.cut == Some(self.next)
    }

    fn show(&mut self, slot: Slot<C::Item, C::Answer>, out: &mut dyn Write) -> io::Result<()> {
        let (index, item, answer) = match slot {
            Slot::Done {
                index,
                item,
                answer,
            } => (index, item, answer),
            Slot::Failed(error) => {
                self.failed += 1;
                // On stderr, whose failed writes are dropped (see `note!`).
                let _ = self
                    .progress
                    .print(&mut io::stderr(), |e| writeln!(e, "{error}"));
                return Ok(());
            }
        };
        self.answered += 1;
        self.limited |= matches!(C::outcome(&answer), Outcome::Limit(_));
        if C::cut_short(&answer) {
            // The item after this one is the first cut short.
            self.cut = Some(self.next);
        }
        if self.next == self.total {
            // Gone before the last answer, so the bar does not flash back.
            self.progress.finish();
        }
        // The answer goes to stdout, often the same terminal as the bar.
        let mode = &mut self.mode;
        self.progress
            .print(out, |out| mode.print(out, index, item, answer))?;
        if self.flush_each {
            out.flush()?;
        }
        Ok(())
    }
}
