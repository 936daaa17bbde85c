//! `pbrain-pentad play` driven through a real terminal: tmux runs the game in a detached session
//! (its own server socket), the test types into it with `send-keys` and reads the screen with
//! `capture-pane`. Moves entered, undo, a game saved as SGF and .psq and loaded again, and a win
//! recognised. Without tmux the test prints a note and passes (CI installs it: `.ci/run`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    fn available() -> bool {
        Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success())
    }

    fn cmd(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("run tmux")
    }

    fn start(name: &str, command: &str) -> Tmux {
        let t = Tmux {
            socket: format!("pentad-test-{name}-{}", std::process::id()),
        };
        let o = t.cmd(&[
            "new-session",
            "-d",
            "-s",
            "play",
            "-x",
            "100",
            "-y",
            "50",
            command,
        ]);
        assert!(o.status.success(), "tmux new-session: {o:?}");
        t
    }

    fn screen(&self) -> String {
        let o = self.cmd(&["capture-pane", "-p", "-t", "play"]);
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    fn type_line(&self, text: &str) {
        let o = self.cmd(&["send-keys", "-t", "play", "-l", text]);
        assert!(o.status.success());
        let o = self.cmd(&["send-keys", "-t", "play", "Enter"]);
        assert!(o.status.success());
    }

    /// Waits until the screen satisfies `ok`; returns it.
    fn wait(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let t0 = Instant::now();
        loop {
            let s = self.screen();
            if ok(&s) {
                return s;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(60),
                "timed out waiting for {what}; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Types a line and waits for the prompt to come back after it (the prompt count grows).
    fn enter(&self, text: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
        self.type_line(text);
        self.wait(what, ok)
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

/// The board rows of the last board on the screen: 15 rows of cells.
fn last_board(screen: &str) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let header = "    a b c d e f g h i j k l m n o";
    let starts: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.trim_end() == header)
        .map(|(i, _)| i)
        .collect();
    // Boards are framed by two headers; take the last complete one.
    let n = starts.len();
    assert!(n >= 2, "no board on the screen:\n{screen}");
    let (a, b) = (starts[n - 2], starts[n - 1]);
    lines[a + 1..b].iter().map(|l| l.to_string()).collect()
}

fn count(board: &[String], c: char) -> usize {
    board
        .iter()
        .map(|l| l.get(3..).unwrap_or("").chars().filter(|&x| x == c).count())
        .sum()
}

/// The character on square `x,y` of a drawn board.
fn at(board: &[String], x: usize, y: usize) -> char {
    board[y].chars().nth(4 + 2 * x).unwrap_or('?')
}

fn temp_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("pentad-play-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn play_through_tmux() {
    if !Tmux::available() {
        println!("skipped: tmux is not installed");
        return;
    }
    let dir = temp_dir();
    let bin = env!("CARGO_BIN_EXE_pbrain-pentad");
    let t = Tmux::start(
        "game",
        &format!("{bin} play --rule freestyle --size 15 --depth 2 --hash 4 --no-color; sleep 30"),
    );
    let s = t.wait("the first prompt", |s| s.contains("you (black X)>"));
    assert!(s.contains("freestyle 15x15"), "{s}");

    // A move, and the engine's answer.
    let s = t.enter("h8", "the engine's answer", |s| {
        s.contains("pentad (white) plays") && s.contains("move 3, you")
    });
    let b = last_board(&s);
    assert_eq!(at(&b, 7, 7), 'X', "{s}");
    assert_eq!((count(&b, 'X'), count(&b, 'O')), (1, 1), "{s}");

    // A second move, then undo: back to one stone each.
    let s = t.enter("g7", "the second answer", |s| s.contains("move 5, you"));
    assert_eq!(count(&last_board(&s), 'X'), 2, "{s}");
    let s = t.enter("undo", "the undo", |s| {
        s.contains("taken back:") && s.trim_end().ends_with("move 3, you (black X)>")
    });
    let b = last_board(&s);
    assert_eq!((count(&b, 'X'), count(&b, 'O')), (1, 1), "{s}");
    assert_eq!(at(&b, 6, 6), '.', "{s}");

    // An illegal move is refused.
    let s = t.enter("h8", "the refusal", |s| s.contains("h8 is taken"));
    assert!(s.contains("h8 is taken"));

    // Save as SGF and .psq, start anew, load the SGF back.
    let sgf = dir.join("game.sgf");
    let psq = dir.join("game.psq");
    let sgf_s = sgf.to_str().unwrap();
    let psq_s = psq.to_str().unwrap();
    t.enter(&format!("save {sgf_s}"), "the SGF save", |s| {
        s.contains(&format!("saved 2 moves to {sgf_s}"))
    });
    t.enter(&format!("save {psq_s}"), "the psq save", |s| {
        s.contains(&format!("saved 2 moves to {psq_s}"))
    });
    let g = pentad::gamefile::GameRecord::read(&sgf).unwrap();
    assert_eq!(g.moves.len(), 2);
    assert_eq!((g.moves[0].0, g.moves[0].1), (7, 7));
    let p = pentad::gamefile::GameRecord::read(&psq).unwrap();
    assert_eq!(p.moves, g.moves);
    let s = t.enter("new", "the new game", |s| {
        s.contains("new game") && s.trim_end().ends_with("move 1, you (black X)>")
    });
    assert_eq!(count(&last_board(&s), 'X'), 0, "{s}");
    let s = t.enter(&format!("load {sgf_s}"), "the load", |s| {
        s.contains("loaded") && s.trim_end().ends_with("move 3, you (black X)>")
    });
    let b = last_board(&s);
    assert_eq!((count(&b, 'X'), count(&b, 'O')), (1, 1), "{s}");
    assert_eq!(at(&b, 7, 7), 'X');

    // A won position: black (the player) has four in a row and plays the five.
    let won = dir.join("four.psq");
    std::fs::write(
        &won,
        "Piskvorky 15x15, 0:0, 0\n8,8,0\n8,10,0\n9,8,0\n9,10,0\n10,8,0\n10,10,0\n11,8,0\n1,1,0\n-1\n",
    )
    .unwrap();
    let loaded = format!("loaded {}: 8 stones, black to move", won.display());
    t.enter(&format!("load {}", won.display()), "the position", |s| {
        s.contains(&loaded)
    });
    let s = t.enter("l8", "the win", |s| {
        s.contains("game over, black wins: you win!")
    });
    let b = last_board(&s);
    assert_eq!(count(&b, 'X'), 5, "{s}");
    let s = t.enter("m8", "the game-over refusal", |s| {
        s.contains("the game is over")
    });
    assert!(s.contains("game over (undo, new, save FILE, quit)>"), "{s}");

    t.type_line("quit");
    std::fs::remove_dir_all(Path::new(&dir)).ok();
}
