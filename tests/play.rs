//! `sokoban play` as a user meets it: the real binary in a pseudo-terminal,
//! keys in, screen out, and the terminal put back at the end. Also its
//! refusals when there is no terminal or no such level.
//!
//! Timeouts are generous and nothing is timed: the tests wait for what the
//! screen says, however long a loaded machine takes to say it.

use expectrl::session::OsSession;
use expectrl::{Expect, Session};
use std::io::ErrorKind;
use std::num::NonZeroU16;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sokoban"))
}

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

const ROWS: u16 = 24;
const COLS: u16 = 80;

fn nonzero(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).unwrap()
}

/// Only against a hang: far beyond what even a loaded machine needs.
const PATIENCE: Duration = Duration::from_secs(120);

/// The game in an 80x24 pseudo-terminal. Its output goes through a
/// terminal emulator: the game redraws only the cells that changed, so its
/// words are seldom whole in the byte stream.
struct Game {
    session: OsSession,
    screen: vt100::Parser,
    /// Everything the game wrote.
    seen: Vec<u8>,
}

impl Game {
    /// Starts `sokoban play ARGS...` and waits for `first` on its screen.
    fn start(args: &[&str], first: &str) -> Game {
        let mut command = bin();
        command
            .arg("play")
            .args(args)
            .env("TERM", "xterm-256color")
            .current_dir(std::env::temp_dir());
        let mut session = Session::spawn(command).expect("a pseudo-terminal");
        session
            .get_process_mut()
            .set_window_size(COLS, ROWS)
            .unwrap();
        let mut game = Game {
            session,
            screen: vt100::Parser::new(nonzero(ROWS), nonzero(COLS), 0),
            seen: Vec::new(),
        };
        game.wait_for(first);
        game
    }

    fn send(&mut self, keys: impl AsRef<[u8]>) {
        self.session.send(keys).unwrap();
    }

    /// Reads what is there; false at the end of the output.
    fn read_some(&mut self) -> bool {
        let mut buf = [0u8; 4096];
        match self.session.try_read(&mut buf) {
            Ok(0) => false,
            Ok(n) => {
                self.screen.process(&buf[..n]);
                self.seen.extend_from_slice(&buf[..n]);
                true
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(10));
                true
            }
            // Linux says EIO once the game has closed the terminal.
            Err(_) => false,
        }
    }

    /// Waits until `text` is on the screen.
    fn wait_for(&mut self, text: &str) {
        let give_up = Instant::now() + PATIENCE;
        while !self.screen.screen().contents().contains(text) {
            let open = self.read_some();
            assert!(
                open && Instant::now() < give_up,
                "{text:?} never shown; the screen:\n{}",
                self.screen.screen().contents()
            );
        }
    }

    /// Reads to the end and checks the terminal was put back: alternate
    /// screen left, cursor shown, exit status 0.
    fn ends_restored(mut self) {
        let give_up = Instant::now() + PATIENCE;
        while self.read_some() {
            assert!(Instant::now() < give_up, "the game did not end");
        }
        let tail = String::from_utf8_lossy(&self.seen[self.seen.len().saturating_sub(200)..]);
        assert!(
            tail.contains("\x1b[?1049l"),
            "alternate screen not left: {tail:?}"
        );
        assert!(
            tail.contains("\x1b[?25h"),
            "cursor not shown again: {tail:?}"
        );
        assert!(!self.screen.screen().alternate_screen());
        assert!(!self.screen.screen().hide_cursor());
        let status = self.session.get_process().wait().expect("the exit status");
        assert_eq!(
            format!("{status:?}").rsplit(", ").next(),
            Some("0)"),
            "{status:?}"
        );
    }
}

/// An answer in `nsew` letters as the game's `hjkl` keys.
fn keys(nsew: &str) -> String {
    nsew.chars()
        .map(|c| match c.to_ascii_lowercase() {
            'n' => 'k',
            's' => 'j',
            'e' => 'l',
            'w' => 'h',
            other => panic!("not a move letter: {other}"),
        })
        .collect()
}

#[test]
fn playing_the_solution_keys_solves_the_level_and_quit_restores_the_terminal() {
    let collection = sample("samples/multi/collection.xsb");
    let mut game = Game::start(&[collection.to_str().unwrap()], "microban 1");
    // The first level's answer as the solver prints it in collection.expected.
    let expected = std::fs::read_to_string(sample("samples/multi/collection.expected")).unwrap();
    let answer = expected.lines().nth(1).unwrap();
    game.send(keys(answer));
    game.wait_for("solved in 33 moves");
    game.send("q");
    game.ends_restored();
}

#[test]
fn ctrl_c_quits_and_restores_the_terminal() {
    let level = sample("samples/multi/one.xsb");
    let mut game = Game::start(&[level.to_str().unwrap()], "level 1 of 1");
    game.send("j");
    game.wait_for("moves 1");
    game.send([3u8]);
    game.ends_restored();
}

#[test]
fn a_replay_stops_with_verify_s_message_at_an_illegal_step() {
    let level = sample("samples/multi/one.xsb");
    let args = [level.to_str().unwrap(), "--replay", "swNNN"];
    let mut game = Game::start(&args, "Level 1 (1/1)");
    game.wait_for("replay: illegal: move 4 (N) pushes a box into a wall");
    game.send("q");
    game.ends_restored();
}

#[test]
fn without_a_terminal_play_refuses_with_exit_2() {
    let out = bin()
        .args([
            "play",
            sample("samples/multi/collection.xsb").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: standard output is not a terminal: play draws the game on one\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_level_number_beyond_the_file_is_a_usage_error() {
    let file = sample("samples/multi/collection.xsb");
    let out = bin()
        .args(["play", file.to_str().unwrap(), "--level", "4"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.ends_with("collection.xsb holds levels 1 to 3\n"),
        "{stderr}"
    );
}
