//! `sokoban play`: the terminal around the game. Owns what the library
//! leaves out: the terminal's modes (always put back, on a panic too), the
//! keys, and the clock of the event loop.

use super::{CliError, FormatArg, read_inputs};
use clap::Args;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};
use ratatui::{Terminal, backend::CrosstermBackend};
use sokoban::grid::Direction;
use sokoban::level::parse_levels;
use sokoban::play::{Action, App, Game, replay_plan, view};
use std::io::{IsTerminal, Stdout};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The levels: any format the solver reads (a collection moves between levels with n and p).
    file: PathBuf,
    /// The level to open first, counted from 1.
    #[arg(long, default_value_t = 1, value_name = "N")]
    level: usize,
    /// Animate a solution of the level: a move string, or a file holding one (`-` for stdin; any notation, or an answer file with level headers).
    #[arg(long, value_name = "MOVES")]
    replay: Option<String>,
    /// Seconds the solver may take for a hint or a solution.
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = super::limit::seconds)]
    time_limit: Duration,
    /// Input format.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    #[command(flatten)]
    cells: super::limit::CellsArgs,
    #[command(flatten)]
    pub(super) input: super::input::InputArgs,
}

pub fn run(args: &PlayArgs) -> Result<ExitCode, CliError> {
    if args.file.as_os_str() == "-" {
        return Err(CliError::Usage(
            "play needs a FILE: standard input is the keyboard".into(),
        ));
    }
    let input = read_inputs(std::slice::from_ref(&args.file))?.remove(0);
    let levels =
        parse_levels(&input.bytes, args.format.into(), args.cells.max_cells).map_err(|error| {
            CliError::Parse {
                input: input.source.clone(),
                error,
            }
        })?;
    if args.level == 0 || args.level > levels.len() {
        return Err(CliError::Usage(format!(
            "--level {}: {} holds levels 1 to {}",
            args.level,
            input.source,
            levels.len()
        )));
    }
    let time_limit = args.time_limit;
    let replay = match &args.replay {
        Some(moves) => Some(replay_text(moves)?),
        None => None,
    };
    if !std::io::stdout().is_terminal() {
        return Err(CliError::Usage(
            "standard output is not a terminal: play draws the game on one".into(),
        ));
    }
    let index = args.level - 1;
    let plan = replay.map(|text| replay_plan(&levels, index, &text, time_limit));
    let game = Game::new(levels, index).expect("the level index was checked");
    let stem = args.file.file_stem().unwrap_or_default().to_string_lossy();
    let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let mut app = App::new(game, time_limit, &here, &stem);
    if let Some((moves, verdict)) = plan {
        app.replay(moves, verdict);
    }
    let mut terminal = open_terminal()?;
    let result = event_loop(&mut terminal, &mut app);
    restore_terminal();
    result.map(|()| ExitCode::SUCCESS)
}

/// The `--replay` argument: moves, or the file (or `-`, stdin) holding them.
fn replay_text(moves: &str) -> Result<String, CliError> {
    Ok(super::input::given(moves)?.text)
}

type Term = Terminal<CrosstermBackend<Stdout>>;

/// Raw mode and the alternate screen, with a panic hook that puts the
/// terminal back before the panic message is printed.
fn open_terminal() -> Result<Term, CliError> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));
    enable_raw_mode()?;
    let mut stdout = std::io::stdout();
    if let Err(e) = execute!(stdout, EnterAlternateScreen, cursor::Hide) {
        restore_terminal();
        return Err(e.into());
    }
    Terminal::new(CrosstermBackend::new(stdout)).map_err(|e| {
        restore_terminal();
        e.into()
    })
}

/// Leaves raw mode and the alternate screen and shows the cursor. Safe to
/// call more than once; errors are ignored (there is nothing left to tell).
fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ = execute!(std::io::stdout(), LeaveAlternateScreen, cursor::Show);
}

/// Draws, waits for a key or the next animation step, repeats until quit.
fn event_loop(terminal: &mut Term, app: &mut App) -> Result<(), CliError> {
    let mut next_step = Instant::now();
    loop {
        app.poll_solver();
        terminal.draw(|frame| view::draw(frame, app))?;
        if app.quitting() {
            return Ok(());
        }
        let running = app.animating() && !app.paused();
        let wait = if running {
            next_step.saturating_duration_since(Instant::now())
        } else if app.thinking().is_some() {
            Duration::from_millis(50)
        } else {
            Duration::from_millis(500)
        };
        if event::poll(wait)? {
            if let Event::Key(key) = event::read()?
                && key.kind != KeyEventKind::Release
                && let Some(action) = action_of(key)
            {
                app.handle(action);
                if app.animating() && !running {
                    next_step = Instant::now() + app.step_delay();
                }
            }
            continue;
        }
        if running && Instant::now() >= next_step {
            app.advance();
            next_step = Instant::now() + app.step_delay();
        }
    }
}

/// The action a key asks for, if any.
fn action_of(key: KeyEvent) -> Option<Action> {
    use Direction::{East, North, South, West};
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return (key.code == KeyCode::Char('c')).then_some(Action::Quit);
    }
    Some(match key.code {
        KeyCode::Up | KeyCode::Char('k' | 'w') => Action::Move(North),
        KeyCode::Down | KeyCode::Char('j' | 's') => Action::Move(South),
        KeyCode::Left | KeyCode::Char('h' | 'a') => Action::Move(West),
        KeyCode::Right | KeyCode::Char('l' | 'd') => Action::Move(East),
        KeyCode::Char('u' | 'z') => Action::Undo,
        KeyCode::Char('U' | 'y') => Action::Redo,
        KeyCode::Char('r') => Action::Restart,
        KeyCode::Char('n') => Action::Next,
        KeyCode::Char('p') => Action::Previous,
        KeyCode::Char('?') => Action::Hint,
        KeyCode::Char('S') => Action::Solve,
        KeyCode::Char('o') => Action::Optimize,
        KeyCode::Char('W') => Action::Save,
        KeyCode::Char(' ') => Action::Pause,
        KeyCode::Char('.') => Action::Step,
        KeyCode::Char('+' | '=') => Action::Faster,
        KeyCode::Char('-') => Action::Slower,
        KeyCode::Char('q') | KeyCode::Esc => Action::Quit,
        _ => return None,
    })
}
