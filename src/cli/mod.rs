//! Command-line arguments and the dispatch to each mode.

mod bench;
mod collect;
mod convert;
mod error;
mod gen_cmd;
mod input;
mod interrupt;
mod judge;
mod lane;
mod limit;
mod memory;
mod multi;
mod optimize;
#[cfg(feature = "play")]
mod play;
mod progress;
mod shell;
mod single;
mod starts;
mod verify;

pub use error::CliError;
pub use input::{Input, parse_inputs, parse_levels_of, read_file, read_inputs};

use clap::{Args, Parser, Subcommand, ValueEnum};
use sokoban::moves::Notation;
use std::path::PathBuf;
use std::process::ExitCode;

/// Exact Sokoban solver: one box (fewest pushes, then walks) or full levels (--multi).
#[derive(Debug, Parser)]
#[command(
    name = "sokoban",
    version,
    args_conflicts_with_subcommands = true,
    after_help = "Single-box input: a grid of # . S B T (or XSB letters with one box), or the judge \
format of 'rows cols' headers ending with '0 0'. Answers: walks n s e w, pushes N S E W, \
'Impossible.' when there is none.\n\nExit status: 0 answered, 2 invalid input or usage, \
3 a limit was reached, 4 an internal error on some level (the others answered), 130 interrupted by Ctrl-C (answers finished before it are printed)."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Make single-box test data (grids or judge files, with expected answers).
    Gen(gen_cmd::GenArgs),
    /// Solve instances under the clock and print a table.
    Bench(bench::BenchArgs),
    /// Check a given answer (or a judge file of answers) against a level.
    Verify(verify::VerifyArgs),
    /// Rewrite levels in another format.
    Convert(convert::ConvertArgs),
    /// Shorter solutions, in moves or pushes, from given ones or the `--fast` answer.
    Optimize(optimize::OptimizeArgs),
    /// Play levels in the terminal, with undo, hints, solutions and replays.
    #[cfg(feature = "play")]
    Play(play::PlayArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell).
    Completions(shell::CompletionsArgs),
    /// Print the man page (roff), or write a page per command into a folder.
    Manpage(shell::ManpageArgs),
}

/// Options of the solving modes (shared with `bench`).
#[derive(Debug, Args, Clone)]
pub struct SolveArgs {
    /// Input files; none, or `-`, reads standard input.
    files: Vec<PathBuf>,
    /// Multi-box mode: XSB levels and collections.
    #[arg(long)]
    multi: bool,
    #[command(flatten)]
    search: SearchArgs,
    /// How moves are written.
    #[arg(long, value_enum, default_value_t = NotationArg::Nsew)]
    notation: NotationArg,
    /// Print one JSON object per maze or level instead of text.
    #[arg(long)]
    json: bool,
    /// Print pushes, walks, states, memory and time on stderr.
    #[arg(long)]
    stats: bool,
    /// Single-box search: `layered` (default, near-linear) or `dijkstra` (keyed priority queue).
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Layered, conflicts_with = "multi")]
    algorithm: AlgorithmArg,
    #[command(flatten)]
    cells: limit::CellsArgs,
    /// Input format.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    #[command(flatten)]
    input: input::InputArgs,
    /// After each answer, draw the board after every push (or every move); not with --json.
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "pushes", value_name = "STEP", conflicts_with = "json")]
    trace: Option<TraceArg>,
    /// Multi-box: spend what is left of the time limit making the answer shorter, in moves
    /// (then pushes) or in pushes (then moves), as `sokoban optimize` does.
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "moves", value_name = "METRIC", requires = "multi")]
    optimize: Option<optimize::MetricArg>,
    /// Multi-box: write the input collection back to OUT (SOK) with each solution found added
    /// as a `Solution` section under its level; titles, comments and layout are kept.
    #[arg(long, value_name = "OUT", requires = "multi")]
    save_solutions: Option<PathBuf>,
    /// Multi-box: solve only the levels whose 0-based index in the whole input is K mod N
    /// (names stay those of the whole input; `--json` records carry `index`).
    #[arg(
        long,
        value_name = "K/N",
        requires = "multi",
        conflicts_with = "save_solutions"
    )]
    shard: Option<sokoban::tools::shard::Shard>,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum FormatArg {
    /// snekoban JSON, judge file, olympiad or XSB letters, told from the text
    Auto,
    /// # . S B T
    Olympiad,
    /// # @ + $ * . and space
    Xsb,
    /// 'rows cols' headers, rows, '0 0'
    Judge,
    /// W K B G * + . (the last is floor)
    Wkbg,
    /// # . B X & % and space
    Bx,
    /// a JSON list of rows of cells of "wall" "computer" "target" "player"
    SnekobanJson,
}

impl From<FormatArg> for sokoban::level::Format {
    fn from(f: FormatArg) -> Self {
        use sokoban::level::Format;
        match f {
            FormatArg::Auto => Format::Auto,
            FormatArg::Olympiad => Format::Olympiad,
            FormatArg::Xsb => Format::Xsb,
            FormatArg::Judge => Format::Judge,
            FormatArg::Wkbg => Format::Wkbg,
            FormatArg::Bx => Format::Bx,
            FormatArg::SnekobanJson => Format::SnekobanJson,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum TraceArg {
    /// the board after every push
    Pushes,
    /// the board after every move
    Moves,
}

/// Multi-box search options (shared with `bench`, where they too need
/// `--multi`: an option that does nothing in a mode is refused there).
#[derive(Debug, Args, Clone)]
#[command(
    mut_arg("time_limit", |a| a.requires("multi")),
    mut_arg("max_nodes", |a| a.requires("multi")),
    mut_arg("max_memory", |a| a.requires("multi")),
    mut_arg("threads", |a| a.requires("multi"))
)]
pub struct SearchArgs {
    /// Multi-box search method.
    #[arg(long, value_enum, default_value_t = MethodArg::Astar, requires = "multi")]
    method: MethodArg,
    /// Multi-box: a portfolio within the limits, to reach harder levels (not push-optimal): plain A* alone briefly, then the searches that suit the level's goals side by side, the first answer winning: where the goals are spread out the feature, box-move and packing searches and plain A*, the box-move search first heading for the imagined board for a moment (below); where they form an area filled from the inside out the packing search led by the unpacking plan taking the positions whose boxes stand nearer the goals first, and beside it the packing search by the peel order and the box-move search (or, where that area has goal rooms, the packing search with and without the rooms' macros, the box-move search first taking a part of the second one's time, and the one without macros taking nearer and farther positions in turn; where the area was planned backwards, the plan search first takes a part of the second search's time, then the first search again, farther first, in place of the box-move search; after the second thread's first search, the box-move search heads for the imagined board, where a backward search keeping every box spreads them out, for a moment, and packs them from there by that search's pulls; without goal rooms, for a moment more, for the board where they spread out from a goal each), then the others as threads allow. Fewer threads than searches run the rest one after another on the last thread, and a thread whose searches give up early goes on with one that no thread runs.
    #[arg(long, requires = "multi")]
    fast: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The limits of one multi-box level's work and the threads of `--fast`:
/// the same flags for solving, `bench` and `optimize`, read by [`limit`].
#[derive(Debug, Args, Clone, Default)]
pub struct LimitArgs {
    /// Multi-box: give up on a level after this many seconds [default: none].
    #[arg(long, value_name = "SECONDS", value_parser = limit::seconds)]
    time_limit: Option<std::time::Duration>,
    /// Multi-box: give up on a level after generating this many nodes [default: none].
    #[arg(long, value_name = "N", value_parser = limit::count(0, u64::MAX))]
    max_nodes: Option<u64>,
    /// Multi-box: give up on a level when the search holds this much memory (clamped to the
    /// machine's memory, with a warning) [default: a quarter of physical memory, shared between
    /// bench --jobs].
    #[arg(long, value_name = "MB", value_parser = limit::count(0, u64::MAX))]
    max_memory: Option<u64>,
    /// Multi-box --fast: threads its searches run on, side by side [default: the cores, shared between bench --jobs].
    #[arg(long, value_name = "N", value_parser = limit::count(1, 256))]
    threads: Option<u64>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum MethodArg {
    /// A* with the matching bound (push-optimal)
    Astar,
    /// breadth-first over pushes (push-optimal)
    Bfs,
    /// depth-first (not optimal)
    Dfs,
    /// uniform cost over pushes (push-optimal)
    Ucs,
    /// greedy best-first on the bound (not optimal)
    Greedy,
    /// greedy within feature cells (floor areas cut off by boxes) taken in turn (not optimal)
    Features,
    /// the feature search, each box pushed on along its whole path at once (not optimal)
    BoxMoves,
    /// a feature search led by the packing order (the goals filled back to front): cells by goals filled in order, nodes by detours from the plan (not optimal)
    Packing,
    /// greedy along the packing order, as YASS searches: pushes off the plan, goals not packed, and the pushed box's distance to the next goals (not optimal)
    Plan,
}

impl SearchArgs {
    /// The library's options; `jobs` levels are solved at once, so by
    /// default each gets its share of the cores.
    pub fn options(&self, jobs: usize) -> Result<sokoban::multi::MultiOptions, CliError> {
        use sokoban::multi::{Limits, Method, MultiOptions};
        let LimitArgs {
            time_limit,
            max_nodes,
            max_memory,
            threads,
        } = self.limits;
        let (max_memory, warning) = memory::limit(max_memory, memory::physical(), jobs as u64);
        if let Some(warning) = warning {
            note!("{warning}");
        }
        Ok(MultiOptions {
            method: match self.method {
                MethodArg::Astar => Method::AStar,
                MethodArg::Bfs => Method::Bfs,
                MethodArg::Dfs => Method::Dfs,
                MethodArg::Ucs => Method::Ucs,
                MethodArg::Greedy => Method::Greedy,
                MethodArg::Features => Method::Features,
                MethodArg::BoxMoves => Method::BoxMoves,
                MethodArg::Packing => Method::Packing,
                MethodArg::Plan => Method::Plan,
            },
            fast: self.fast,
            threads: match threads {
                Some(n) => n as usize,
                None => std::thread::available_parallelism()
                    .map_or(1, |n| n.get() / jobs.max(1))
                    .max(1),
            },
            limits: Limits {
                time: time_limit,
                max_nodes,
                max_memory: usize::try_from(max_memory).unwrap_or(usize::MAX),
            },
        })
    }
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum NotationArg {
    /// n s e w walks, N S E W pushes
    Nsew,
    /// l u r d walks, L U R D pushes
    Lurd,
    /// U D L R for every move (no walk/push distinction)
    Udlr,
}

impl From<NotationArg> for Notation {
    fn from(n: NotationArg) -> Notation {
        match n {
            NotationArg::Nsew => Notation::Nsew,
            NotationArg::Lurd => Notation::Lurd,
            NotationArg::Udlr => Notation::Udlr,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum AlgorithmArg {
    Layered,
    Dijkstra,
}

impl From<AlgorithmArg> for sokoban::single::Algorithm {
    fn from(a: AlgorithmArg) -> Self {
        match a {
            AlgorithmArg::Layered => sokoban::single::Algorithm::Layered,
            AlgorithmArg::Dijkstra => sokoban::single::Algorithm::Dijkstra,
        }
    }
}

/// The command line as clap reads it, with `-1` a value wherever a value is
/// taken (see [`limit`]): `--help`, completions and the man page alike.
pub fn command() -> clap::Command {
    limit::negative_numbers_are_values(<Cli as clap::CommandFactory>::command())
}

/// The arguments of this process; on a usage error, clap's message and exit 2.
pub fn parse() -> Cli {
    use clap::FromArgMatches;
    let mut matches = command().get_matches();
    Cli::from_arg_matches_mut(&mut matches).unwrap_or_else(|e| e.exit())
}

/// Runs the command line; the exit status on success.
pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    let input = match &cli.command {
        Some(Command::Gen(_) | Command::Completions(_) | Command::Manpage(_)) => None,
        Some(Command::Bench(args)) => Some(&args.input),
        Some(Command::Verify(args)) => Some(&args.input),
        Some(Command::Convert(args)) => Some(&args.input),
        Some(Command::Optimize(args)) => Some(&args.input),
        #[cfg(feature = "play")]
        Some(Command::Play(args)) => Some(&args.input),
        None => Some(&cli.solve.input),
    };
    if let Some(input) = input {
        input.apply();
    }
    match cli.command {
        Some(Command::Gen(args)) => gen_cmd::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Verify(args)) => verify::run(&args),
        Some(Command::Convert(args)) => convert::run(&args),
        Some(Command::Optimize(args)) => optimize::run(&args),
        #[cfg(feature = "play")]
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Completions(args)) => shell::completions(&args),
        Some(Command::Manpage(args)) => shell::manpage(&args),
        None if cli.solve.multi => multi::run(&cli.solve),
        None => single::run(&cli.solve),
    }
}

/// The exit statuses of the binary, as the help text and README list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every level answered (and every answer checked was right).
    Answered = 0,
    /// `verify`: an answer was wrong; or writing the output failed.
    Rejected = 1,
    /// Invalid input or usage.
    Invalid = 2,
    /// A limit was reached on some level before it was answered.
    Limit = 3,
    /// The solve of some level failed (a bug, reported on stderr); the others were answered.
    Failed = 4,
    /// Ctrl-C (SIGINT) stopped a run; what was finished is printed.
    Interrupted = 130,
}

impl Status {
    /// [`Status::Limit`] when some level reached a limit, else answered.
    pub fn limited_if(limited: bool) -> ExitCode {
        if limited {
            Status::Limit
        } else {
            Status::Answered
        }
        .into()
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status as u8)
    }
}
