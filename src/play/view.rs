//! The game's screen, drawn with ratatui widgets: the board (centred, or
//! scrolled to follow the player when it does not fit), a status line, the
//! message line and the keys. Drawing only reads [`App`]; it works on any
//! ratatui backend, which is how the tests see the screen.

use super::app::{App, Note, Request};
use crate::words::count;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// The smallest window the keys and a useful piece of board fit in.
pub const MIN_WIDTH: u16 = 64;
pub const MIN_HEIGHT: u16 = 10;

/// Draws the whole screen, or says the window is too small.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(frame, area);
        return;
    }
    let [board, status, message, help] = Layout::vertical([
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(2),
    ])
    .areas(area);
    frame.render_widget(BoardView { app }, board);
    frame.render_widget(status_line(app), status);
    let words = app.note().map(note_words).unwrap_or_default();
    frame.render_widget(Paragraph::new(words).style(Style::new().bold()), message);
    frame.render_widget(help_lines(app), help);
}

/// The game's message line: what happened last, in words.
/// `12 moves, 1 push`.
fn moves_pushes(moves: u64, pushes: u64) -> String {
    let (moves, pushes) = (
        count(moves, "move", "moves"),
        count(pushes, "push", "pushes"),
    );
    format!("{moves}, {pushes}")
}

fn note_words(note: &Note) -> String {
    match note {
        Note::Opened { number, of } => format!("level {number} of {of}"),
        Note::Blocked(why) => format!("blocked: {why}"),
        Note::NothingToUndo => "nothing to undo".into(),
        Note::NothingToRedo => "nothing to redo".into(),
        Note::Restarted => "back at the start (U redoes)".into(),
        Note::NoMoreLevels => "no level there".into(),
        Note::Solved { moves, pushes } => {
            format!(
                "solved in {}: n for the next level",
                moves_pushes(*moves, *pushes)
            )
        }
        Note::AlreadySolved => "already solved".into(),
        Note::Thinking(Request::Hint) => "looking for a hint...".into(),
        Note::Thinking(Request::Solve) => "solving...".into(),
        Note::Thinking(Request::Optimize) => "looking for a shorter solution...".into(),
        Note::StillThinking => "the solver is still at work".into(),
        Note::Hint { walks, push } => {
            let steps = count(*walks as u64, "step", "steps");
            format!("hint: {steps}, then push the marked box {push} (? again makes it)")
        }
        Note::Stale => "the position changed while the solver worked: ask again".into(),
        Note::NothingToOptimize => "not solved yet: o shortens a solution once it is played".into(),
        Note::Optimized {
            moves,
            pushes,
            was_moves,
            was_pushes,
        } => format!(
            "optimized: {} (was {})",
            moves_pushes(*moves, *pushes),
            moves_pushes(*was_moves, *was_pushes)
        ),
        Note::NoShorter {
            moves,
            pushes,
            limit,
        } => {
            let why = limit.map(|l| format!(" ({l})")).unwrap_or_default();
            format!(
                "nothing shorter than {} found{why}",
                moves_pushes(*moves, *pushes)
            )
        }
        Note::Unsolvable => "no solution from here: undo or restart".into(),
        Note::GaveUp(why) => format!("the solver gave up ({why})"),
        Note::Animating => "playing the solution: space pauses, any move key stops".into(),
        Note::Paused => "paused: . steps, space goes on".into(),
        Note::Stopped => "stopped".into(),
        Note::Replayed(verdict) => format!("replay: {}", verdict.describe()),
        Note::Saved(path) => format!("saved to {}", path.display()),
        Note::SaveFailed { path, error } => format!("could not save {}: {error}", path.display()),
    }
}

fn too_small(frame: &mut Frame, area: Rect) {
    let text = format!(
        "window too small: {}x{}, the game needs at least {MIN_WIDTH}x{MIN_HEIGHT} (q quits)",
        area.width, area.height
    );
    let top = area.height.saturating_sub(2) / 2;
    let rest = Rect {
        y: area.y + top,
        height: area.height - top,
        ..area
    };
    frame.render_widget(
        Paragraph::new(text).wrap(Wrap { trim: true }).centered(),
        rest,
    );
}

fn status_line(app: &App) -> Paragraph<'static> {
    let g = app.game();
    let mut spans = vec![
        Span::raw(format!(
            " {} ({}/{})   moves {}   pushes {}",
            g.level().name,
            g.index() + 1,
            g.level_count(),
            g.moves(),
            g.pushes()
        )),
        Span::raw("   "),
    ];
    if g.solved() {
        spans.push(Span::styled("solved", Style::new().fg(Color::Green).bold()));
        spans.push(Span::raw("   "));
    }
    match app.thinking() {
        Some(Request::Optimize) => spans.push(Span::raw("optimizer at work   ")),
        Some(_) => spans.push(Span::raw("solver at work   ")),
        None => {}
    }
    if app.animating() {
        spans.push(Span::raw(format!("speed {}   ", app.speed())));
    }
    Paragraph::new(Line::from(spans)).style(Style::new().add_modifier(Modifier::REVERSED))
}

fn help_lines(app: &App) -> Paragraph<'static> {
    let first = "arrows/hjkl/wasd move  u/z undo  U/y redo  r restart  n/p level";
    let second = if app.animating() {
        "space pause  . step  +/- speed  other keys stop  q/Esc quit"
    } else {
        "? hint  S solve  o optimize  W save  space . +/- play  q quit"
    };
    Paragraph::new(vec![Line::raw(first), Line::raw(second)]).style(Style::new().dim())
}

/// The part of a row or column of `len` cells shown in `room` cells around
/// `focus`: the first cell shown, how many, and the blank room before them.
fn window(len: usize, room: usize, focus: usize) -> (usize, usize, usize) {
    if len <= room {
        (0, len, (room - len) / 2)
    } else {
        let first = focus.saturating_sub(room / 2).min(len - room);
        (first, room, 0)
    }
}

/// The board, two terminal columns per cell so that it looks square.
struct BoardView<'a> {
    app: &'a App,
}

impl Widget for BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let game = self.app.game();
        let grid = &game.level().grid;
        // Padded coordinates: the wall ring round the level as written is
        // drawn too, as the outline of a level whose edge is floor.
        let (height, width) = (grid.rows() + 2, grid.stride());
        let (prow, pcol) = grid.position(game.player());
        let (row0, rows, top) = window(height, area.height as usize, prow + 1);
        let (col0, cols, left) = window(width, area.width as usize / 2, pcol + 1);
        let left = left * 2 + (area.width as usize % 2);
        for r in 0..rows {
            for c in 0..cols {
                let (glyph, style) = self.glyph(row0 + r, col0 + c);
                let x = area.x + (left + 2 * c) as u16;
                let y = area.y + (top + r) as u16;
                buf.set_string(x, y, glyph, style);
            }
        }
    }
}

impl BoardView<'_> {
    /// The two characters and colours of the cell at padded (row, col).
    fn glyph(&self, row: usize, col: usize) -> (&'static str, Style) {
        let game = self.app.game();
        let level = game.level();
        let grid = &level.grid;
        let cell = row * grid.stride() + col;
        if grid.is_wall(cell) {
            return if borders_floor(grid, row, col) {
                ("██", Style::new().fg(Color::Gray))
            } else {
                ("  ", Style::new())
            };
        }
        let goal = level.goals.contains(&cell);
        let boxed = game.boxes().binary_search(&cell).is_ok();
        let (glyph, style) = match (cell == game.player(), boxed, goal) {
            (true, _, false) => ("@ ", Style::new().fg(Color::Cyan).bold()),
            (true, _, true) => ("@·", Style::new().fg(Color::Cyan).bold()),
            (false, true, false) => ("[]", Style::new().fg(Color::Yellow).bold()),
            (false, true, true) => ("{}", Style::new().fg(Color::Green).bold()),
            (false, false, true) => ("··", Style::new().fg(Color::Red)),
            (false, false, false) => ("  ", Style::new()),
        };
        match self.app.hint() {
            Some(h) if h.box_cell == cell || h.to == cell => (glyph, style.bg(Color::Magenta)),
            _ => (glyph, style),
        }
    }
}

/// True for a wall next to (or diagonal to) a non-wall cell: the level's
/// outline. Walls further out are left blank. `row` and `col` are padded.
fn borders_floor(grid: &crate::grid::Grid, row: usize, col: usize) -> bool {
    let (height, width) = (grid.rows() + 2, grid.stride());
    let near = |at: usize, len: usize| at.saturating_sub(1)..(at + 2).min(len);
    near(row, height).any(|r| near(col, width).any(|c| !grid.is_wall(r * width + c)))
}

#[cfg(test)]
mod tests {
    use super::{Note, note_words, window};
    use crate::moves::Limit;
    use std::time::Duration;

    #[test]
    fn the_optimizer_s_notes_give_both_counts_or_the_limit() {
        let shorter = Note::Optimized {
            moves: 412,
            pushes: 98,
            was_moves: 530,
            was_pushes: 101,
        };
        assert_eq!(
            note_words(&shorter),
            "optimized: 412 moves, 98 pushes (was 530 moves, 101 pushes)"
        );
        let kept = Note::NoShorter {
            moves: 33,
            pushes: 8,
            limit: Some(Limit::Time(Duration::from_secs(5))),
        };
        assert_eq!(
            note_words(&kept),
            "nothing shorter than 33 moves, 8 pushes found (time limit 5 s)"
        );
    }

    #[test]
    fn small_rows_are_centred_and_long_ones_follow_the_focus() {
        assert_eq!(window(4, 10, 2), (0, 4, 3));
        assert_eq!(window(30, 10, 2), (0, 10, 0));
        assert_eq!(window(30, 10, 15), (10, 10, 0));
        assert_eq!(window(30, 10, 29), (20, 10, 0));
    }
}
