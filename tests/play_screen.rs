//! The game's screen as ratatui's test backend sees it, against snapshot
//! files in `tests/data/play/` (`NAME.screen`: the screen's text, trailing
//! blanks cut). Set `SOKOBAN_UPDATE_SNAPSHOTS=1` to rewrite them after a
//! deliberate change, then read the diff.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Color;
use sokoban::grid::Direction;
use sokoban::level::parse_levels;
use sokoban::play::{Action, App, Game, view};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

fn app(file: &str) -> App {
    let bytes = std::fs::read(data(file)).unwrap();
    let levels = parse_levels(&bytes, Default::default(), 1 << 20).unwrap();
    let game = Game::new(levels, 0).unwrap();
    App::new(game, Duration::from_secs(10), Path::new("."), "test")
}

fn draw(app: &App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| view::draw(frame, app)).unwrap();
    terminal.backend().buffer().clone()
}

fn text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in 0..area.height {
        let row: String = (0..area.width).map(|x| buffer[(x, y)].symbol()).collect();
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// Compares the screen with `tests/data/play/NAME.screen`.
fn check(buffer: &Buffer, name: &str) {
    let path = data(&format!("tests/data/play/{name}.screen"));
    let got = text(buffer);
    if std::env::var_os("SOKOBAN_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (SOKOBAN_UPDATE_SNAPSHOTS=1 writes it)",
            path.display()
        )
    });
    assert_eq!(got, want, "screen differs from {}", path.display());
}

#[test]
fn the_sample_level_is_drawn_centred_with_its_status_line() {
    let mut app = app("samples/multi/collection.xsb");
    // Two moves of the known solution (s w), so the counts show.
    app.handle(Action::Move(Direction::South));
    app.handle(Action::Move(Direction::West));
    check(&draw(&app, 72, 16), "sample");
}

#[test]
fn a_level_larger_than_the_window_follows_the_player() {
    let app = app("tests/data/play/big.xsb");
    let screen = draw(&app, 64, 14);
    check(&screen, "big");
    // The player, far right and low in the level, is on screen.
    assert!(text(&screen).contains('@'));
}

#[test]
fn a_judge_maze_without_walls_is_drawn_with_its_outline() {
    let app = app("samples/judge-sample.txt");
    check(&draw(&app, 64, 10), "judge");
}

#[test]
fn a_window_too_small_says_so_instead_of_drawing() {
    let app = app("samples/multi/collection.xsb");
    let screen = draw(&app, 40, 8);
    check(&screen, "too-small");
    assert!(!text(&screen).contains('█'));
}

#[test]
fn a_hint_marks_its_box_and_where_it_goes() {
    let mut app = app("samples/multi/collection.xsb");
    app.handle(Action::Hint);
    while app.thinking().is_some() {
        std::thread::sleep(Duration::from_millis(5));
        app.poll_solver();
    }
    let hint = app.hint().expect("microban 1 has a solution").clone();
    let screen = draw(&app, 72, 16);
    let marked: Vec<(u16, u16)> = (0..16)
        .flat_map(|y| (0..72).map(move |x| (x, y)))
        .filter(|&(x, y)| screen[(x, y)].bg == Color::Magenta)
        .collect();
    // Two cells, two columns each: the box and its destination.
    assert_eq!(marked.len(), 4, "{marked:?}");
    assert_ne!(hint.box_cell, hint.to);
    assert!(text(&screen).contains("push the marked box"));
}
