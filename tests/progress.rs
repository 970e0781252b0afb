//! Progress display: drawn on stderr only when it is a terminal, and lifted
//! cleanly for every answer. The terminal is a pseudo-terminal from
//! `script` (util-linux), which both stdout and stderr then share.

use std::process::{Command, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_sokoban")
}

const COLLECTION: &str = "samples/multi/collection.xsb";

/// The run's stdout, with stderr piped apart (not a terminal).
fn piped() -> (String, String) {
    let out = Command::new(bin())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["--multi", COLLECTION])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Drops every drawing of the bar: `[` 30 bar cells `]`, up to the line clear after it.
fn without_bars(text: &str) -> String {
    let clear = "\r\x1b[2K";
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('[') {
        let cells = rest[start + 1..].chars().take(31).collect::<String>();
        let is_bar = cells.len() == 31
            && cells.ends_with(']')
            && cells[..30].chars().all(|c| "#>-".contains(c));
        out.push_str(&rest[..start]);
        if !is_bar {
            out.push('[');
            rest = &rest[start + 1..];
            continue;
        }
        let end = rest[start..]
            .find(clear)
            .expect("every bar drawing is cleared");
        rest = &rest[start + end + clear.len()..];
    }
    out.push_str(rest);
    out
}

#[test]
fn nothing_on_stderr_when_it_is_not_a_terminal() {
    let (stdout, stderr) = piped();
    assert!(stdout.starts_with("microban 1\n"));
    assert_eq!(stderr, "");
}

#[test]
fn on_a_terminal_the_bar_is_drawn_and_lifted_for_every_answer() {
    let command = format!("{} --multi {COLLECTION}", bin());
    let out = Command::new("script")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["-qec", &command, "/dev/null"])
        // indicatif draws nothing on a terminal that says it is dumb.
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .output()
        .expect("script (util-linux) runs the binary on a pseudo-terminal");
    assert_eq!(out.status.code(), Some(0));
    let seen = String::from_utf8(out.stdout).unwrap();
    // The bar shows how far the collection is (levels done of 3).
    assert!(seen.contains("] 0/3 "), "{seen:?}");
    assert!(seen.contains("] 2/3 "), "{seen:?}");
    // Lift every drawing of it and the answers are left exactly, in the
    // terminal's line endings: nothing of the bar is left behind.
    let (stdout, _) = piped();
    assert_eq!(without_bars(&seen), stdout.replace('\n', "\r\n"));
}
