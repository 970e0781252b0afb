//! The real binary's completion scripts and man page.

use std::process::Command;

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sokoban"))
        .args(args)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn every_shell_gets_a_script_naming_the_subcommands() {
    // A marker each shell's script format is known by.
    let shells = [
        ("bash", "complete -F"),
        ("zsh", "#compdef sokoban"),
        ("fish", "complete -c sokoban"),
        ("powershell", "Register-ArgumentCompleter"),
    ];
    for (shell, marker) in shells {
        let (code, script) = run(&["completions", shell]);
        assert_eq!(code, Some(0), "{shell}");
        assert!(script.contains(marker), "{shell}: no {marker}");
        for sub in [
            "verify",
            "bench",
            "convert",
            "gen",
            "completions",
            "manpage",
        ] {
            assert!(script.contains(sub), "{shell}: no {sub}");
        }
        // Options too (fish writes `-l multi`, the others `--multi`).
        assert!(script.contains("multi"), "{shell}: no --multi");
        assert!(script.contains("time-limit"), "{shell}: no --time-limit");
    }
}

#[test]
fn fish_script_has_no_bare_dollar() {
    // fish refuses a whole script over one `$` that names no variable (the
    // XSB letters in --format's value help); each must be escaped.
    let (_, script) = run(&["completions", "fish"]);
    assert!(script.contains("xsb\\t'# @ + \\$ * . and space'"));
    let chars: Vec<char> = script.chars().collect();
    for (i, w) in chars.windows(2).enumerate() {
        let escaped = i > 0 && chars[i - 1] == '\\';
        if w[0] == '$' && !escaped {
            assert!(w[1].is_ascii_alphanumeric() || w[1] == '_', "bare $ at {i}");
        }
    }
}

#[test]
fn unknown_shell_is_a_usage_error() {
    let (code, out) = run(&["completions", "tcsh"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty());
}

#[test]
fn man_page_is_roff_with_the_options() {
    let (code, page) = run(&["manpage"]);
    assert_eq!(code, Some(0));
    assert!(page.contains(".TH sokoban"));
    for word in ["verify", "bench", "\\-\\-multi", "\\-\\-time\\-limit"] {
        assert!(page.contains(word), "no {word}");
    }
}

/// `manpage --dir` writes every page the first one names (and the first),
/// so `man sokoban-verify` works once they are installed.
#[test]
fn every_page_the_man_page_names_is_written() {
    let dir = std::env::temp_dir().join(format!("sokoban-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (code, out) = run(&["manpage", "--dir", dir.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (Some(0), ""));
    let (_, page) = run(&["manpage"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("sokoban.1")).unwrap(),
        page
    );
    let named: Vec<&str> = page
        .split("sokoban\\-")
        .skip(1)
        .filter_map(|rest| rest.split_once("(1)").map(|(name, _)| name))
        .collect();
    assert!(named.len() >= 6 && named.contains(&"verify"), "{named:?}");
    assert!(!named.contains(&"help"), "{named:?}");
    for name in named {
        let sub = std::fs::read_to_string(dir.join(format!("sokoban-{name}.1")));
        assert!(
            sub.is_ok_and(|p| p.contains(".TH sokoban-")),
            "sokoban-{name}.1"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
