//! `pbrain-pentad play`: a game against the engine in the terminal. The board is drawn with
//! its coordinates (columns `a`, `b`, … from the left, rows `1`, `2`, … from the top, so `h8` is
//! the centre of a 15×15 board: the pos notation of the rest of the tools), the last move in
//! brackets, renju's forbidden points for black marked `×`; the player types moves and commands
//! (`help` lists them). Colours when the output is a terminal (`--no-color` or `NO_COLOR` turn
//! them off).

use super::analyze::winner;
use anyhow::anyhow;
use pentad::board::Board;
use pentad::eval::win_probability;
use pentad::gamefile::GameRecord;
use pentad::notation::pos_to_str;
use pentad::notation::{pos_line, score_text};
use pentad::rules::Rule;
use pentad::search::{legal_moves, Limits, Searcher};
use pentad::time::Budget;
use pentad::types::{Cell, Color, Depth, Pos, Value};
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const HELP: &str = "\
commands:
  h8, 7,7        play a move (column letter, row number from the top; or x,y)
  undo           take back your last move (and the engine's answer)
  hint           the engine's suggestion for you
  eval           show / hide the engine's evaluation and line after its moves
  pv             the engine's last evaluation and line
  level depth D  search depth per move        level time MS   time per move
  swap           change colours (the engine moves if it is its turn)
  new            a new game          board     draw the board again
  save FILE      save as .psq (or SGF when FILE ends in .sgf)
  load FILE      load a .psq or SGF game and continue it
  quit           leave";

/// How strongly the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A fixed search depth per move.
    Depth(Depth),
    /// A fixed time per move.
    Time(Duration),
}

impl Level {
    fn limits(self) -> Limits {
        match self {
            Level::Depth(d) => Limits::depth(d),
            Level::Time(t) => Limits::time(Budget {
                soft: t / 2,
                hard: t,
            }),
        }
    }
    fn describe(self) -> String {
        match self {
            Level::Depth(d) => format!("depth {d}"),
            Level::Time(t) => format!("{} ms per move", t.as_millis()),
        }
    }
}

/// The command's options.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Rule.
    pub rule: Rule,
    /// Board size.
    pub size: (usize, usize),
    /// The player's colour.
    pub human: Color,
    /// The engine's level.
    pub level: Level,
    /// A game to continue.
    pub load: Option<String>,
    /// Table size in MiB.
    pub hash_mb: usize,
    /// ANSI colours.
    pub color: bool,
}

/// `play [--rule R] [--size N|WxH] [--color black|white] [--depth D | --time MS] [--load FILE]
/// [--hash MB] [--no-color]`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "A game against the engine in the terminal",
    after_help = "A game against the engine in the terminal: type a move (h8, or 7,7) or a \
                  command (help lists them: undo, hint, eval, pv, level, swap, new, board, save, \
                  load, quit).",
    args_override_self = true
)]
pub struct Args {
    /// Rule: freestyle, standard, renju, caro, caro9 or an INFO rule number
    #[arg(long, value_name = "NAME|NUMBER", value_parser = super::parse_rule, default_value = "freestyle", allow_negative_numbers = true)]
    pub rule: Rule,
    /// Board size
    #[arg(long, value_name = "N|WxH", value_parser = super::parse_size, default_value = "15")]
    pub size: (usize, usize),
    /// Your colour (black moves first)
    #[arg(long, visible_alias = "colour", value_name = "black|white", value_parser = parse_color, default_value = "black")]
    pub color: Color,
    /// The engine searches to depth D each move (the last of --depth and --time counts)
    #[arg(
        long,
        value_name = "D",
        overrides_with = "time",
        allow_negative_numbers = true
    )]
    pub depth: Option<Depth>,
    /// The engine's time per move in milliseconds [default: 1000]
    #[arg(long, value_name = "MS", overrides_with = "depth")]
    pub time: Option<u64>,
    /// Continue the game of a .psq or SGF file
    #[arg(long, value_name = "FILE.psq|FILE.sgf")]
    pub load: Option<String>,
    /// Transposition table size in MiB
    #[arg(long, value_name = "MB", default_value_t = 64)]
    pub hash: usize,
    /// No ANSI colours (also off when NO_COLOR is set or the output is not a terminal)
    #[arg(long, visible_alias = "no-colour")]
    pub no_color: bool,
}

/// `--color`: `black` (`b`, `x`) or `white` (`w`, `o`), in any case.
fn parse_color(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => Ok(Color::Black),
        "white" | "w" | "o" => Ok(Color::White),
        _ => Err("black or white".into()),
    }
}

impl PlayOptions {
    /// The options of the command line; an error for a board the rule cannot have.
    pub fn new(a: Args) -> anyhow::Result<PlayOptions> {
        let level = match (a.depth, a.time) {
            (Some(d), _) => Level::Depth(d),
            (None, Some(t)) => Level::Time(Duration::from_millis(t)),
            (None, None) => Level::Time(Duration::from_millis(1000)),
        };
        let o = PlayOptions {
            rule: a.rule,
            size: a.size,
            human: a.color,
            level,
            load: a.load,
            hash_mb: a.hash,
            color: !a.no_color
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none(),
        };
        Board::new(o.size.0, o.size.1, o.rule).map_err(|e| anyhow!("{e}"))?;
        Ok(o)
    }
}

/// The engine's view after its last search.
#[derive(Clone, Debug)]
struct Eval {
    rule: Rule,
    score: Value,
    depth: Depth,
    pv: Vec<Pos>,
    time: Duration,
}

/// A game in progress.
pub struct Game {
    board: Board,
    human: Color,
    level: Level,
    searcher: Searcher,
    show_eval: bool,
    color: bool,
    last: Option<Eval>,
    /// Draw the board even if it did not change (`board`).
    redraw: bool,
}

fn name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn stone(c: Color) -> char {
    match c {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

impl Game {
    /// A new game (or the loaded one) with these options.
    pub fn new(o: &PlayOptions) -> anyhow::Result<Game> {
        let board = match &o.load {
            Some(f) => GameRecord::read(Path::new(f))?.to_board(Some(o.rule))?,
            None => Board::new(o.size.0, o.size.1, o.rule).map_err(|e| anyhow!("{e}"))?,
        };
        Ok(Game {
            board,
            human: o.human,
            level: o.level,
            searcher: Searcher::new(o.hash_mb.max(1) << 20),
            show_eval: false,
            color: o.color,
            last: None,
            redraw: true,
        })
    }

    fn paint(&self, code: &str, s: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }

    /// The board as text: coordinates around it, the last move in brackets, black's forbidden
    /// points `×` (renju, black to move).
    pub fn render(&self) -> String {
        let b = &self.board;
        let (w, h) = (b.width(), b.height());
        let last = b.last_move();
        let show_fouls = b.rule() == Rule::Renju && b.side_to_move() == Color::Black;
        let letters: String = (0..w)
            .map(|x| format!(" {}", (b'a' + x as u8) as char))
            .collect();
        let header = format!("    {}", self.paint("2", letters.trim_start()));
        let mut s = String::new();
        s.push_str(&header);
        s.push('\n');
        for y in 0..h {
            let mut cells: Vec<String> = Vec::with_capacity(2 * w + 1);
            cells.push(" ".into());
            for x in 0..w {
                let p = Pos::new(x, y);
                let c = match b.cell(p) {
                    Cell::Black => self.paint("1;33", "X"),
                    Cell::White => self.paint("1;36", "O"),
                    Cell::Wall => "#".into(),
                    Cell::Empty if show_fouls && b.is_foul(Color::Black, p) => {
                        self.paint("31", "×")
                    }
                    Cell::Empty => self.paint("2", "."),
                };
                cells.push(c);
                cells.push(" ".into());
            }
            if let Some(p) = last.filter(|p| p.y() == y) {
                let i = 2 * p.x();
                cells[i] = self.paint("1;31", "(");
                cells[i + 2] = self.paint("1;31", ")");
            }
            let row = format!("{:>2}", y + 1);
            s.push_str(&format!(
                "{} {}{}\n",
                self.paint("2", &row),
                cells.concat(),
                self.paint("2", &row)
            ));
        }
        s.push_str(&header);
        s.push('\n');
        s
    }

    fn status(&self) -> String {
        let b = &self.board;
        format!(
            "{} {}x{}, {} to move; you: {} ({}); pentad: {}",
            b.rule().name(),
            b.width(),
            b.height(),
            name(b.side_to_move()),
            name(self.human),
            stone(self.human),
            self.level.describe()
        )
    }

    /// The game's end: the winner, or `None` with a full board (a draw), or still going.
    fn over(&self) -> Option<Option<Color>> {
        if let Some(c) = winner(&self.board) {
            return Some(Some(c));
        }
        if self.board.empty_count() == 0 || legal_moves(&self.board).is_empty() {
            return Some(None);
        }
        None
    }

    fn search(&mut self) -> Eval {
        let t0 = Instant::now();
        // The opening comes from the book, as in the protocol.
        if let Some(m) = pentad::book::book_move(pentad::book::embedded(), &self.board) {
            return Eval {
                rule: self.board.rule(),
                score: m.score,
                depth: m.depth,
                pv: vec![m.pos],
                time: t0.elapsed(),
            };
        }
        let stop = AtomicBool::new(false);
        let o = self
            .searcher
            .search(&self.board, &self.level.limits(), &stop, &mut |_| {});
        let mut pv = o.pv.clone();
        if pv.first() != Some(&o.best) {
            pv = vec![o.best];
        }
        Eval {
            rule: self.board.rule(),
            score: o.score,
            depth: o.depth,
            pv,
            time: t0.elapsed(),
        }
    }

    fn eval_text(e: &Eval) -> String {
        format!(
            "eval {} for pentad ({:.0}% to win), depth {}, {} ms; line {}",
            score_text(e.score),
            100.0 * win_probability(e.rule, e.score),
            e.depth,
            e.time.as_millis(),
            pos_line(&e.pv)
        )
    }

    /// Plays the engine's move; returns what to print.
    fn engine_move(&mut self) -> String {
        let me = self.board.side_to_move();
        let e = self.search();
        let best = e.pv.first().copied().filter(|&p| self.board.is_legal(p));
        let Some(best) = best.or_else(|| legal_moves(&self.board).first().copied()) else {
            return "the engine has no move".into();
        };
        self.board.play(best);
        let mut s = format!(
            "pentad ({}) plays {}",
            name(me),
            self.paint("1", &pos_to_str(best))
        );
        if self.show_eval {
            s.push_str(&format!("\n  {}", Game::eval_text(&e)));
        }
        self.last = Some(e);
        s
    }

    /// Parses a square: `h8` or `7,7`.
    fn square(&self, t: &str) -> Option<Pos> {
        let t = t.trim();
        let (x, y) = if let Some((a, b)) = t.split_once(',') {
            (a.trim().parse::<i64>().ok()?, b.trim().parse::<i64>().ok()?)
        } else {
            let mut ch = t.chars();
            let c = ch.next()?.to_ascii_lowercase();
            if !c.is_ascii_lowercase() {
                return None;
            }
            let row: i64 = ch.as_str().parse().ok()?;
            (c as i64 - 'a' as i64, row - 1)
        };
        self.board.pos(x, y)
    }

    fn human_move(&mut self, p: Pos) -> Result<(), String> {
        let b = &self.board;
        if !b.is_empty(p) {
            return Err(format!("{} is taken", pos_to_str(p)));
        }
        if b.is_foul(b.side_to_move(), p) {
            return Err(format!(
                "{} is forbidden for black (renju: double three, double four or overline)",
                pos_to_str(p)
            ));
        }
        self.board.play(p);
        Ok(())
    }

    fn undo(&mut self) -> String {
        let h = self.board.history().len();
        if h == 0 {
            return "nothing to take back".into();
        }
        // Back to the player's previous turn: the engine's answer, then the player's move.
        let mut taken = Vec::new();
        while let Some(p) = self.board.last_move() {
            let owner = self.board.history().last().map(|&(_, c)| c);
            self.board.undo();
            taken.push(pos_to_str(p));
            if owner == Some(self.human) {
                break;
            }
        }
        self.last = None;
        format!("taken back: {}", taken.join(" "))
    }

    fn save(&self, file: &str) -> String {
        let mut g = GameRecord::from_board(&self.board);
        let (b, w) = if self.human == Color::Black {
            ("human", "pentad")
        } else {
            ("pentad", "human")
        };
        g.black = Some(b.into());
        g.white = Some(w.into());
        g.result = match self.over() {
            Some(Some(Color::Black)) => Some("B+".into()),
            Some(Some(Color::White)) => Some("W+".into()),
            Some(None) => Some("0".into()),
            None => None,
        };
        match g.write(Path::new(file)) {
            Ok(()) => format!("saved {} moves to {file}", self.board.history().len()),
            Err(e) => format!("cannot save: {e:#}"),
        }
    }

    fn load(&mut self, file: &str) -> String {
        let loaded = GameRecord::read(Path::new(file)).and_then(|g| {
            let rule = g.rule.unwrap_or(self.board.rule());
            g.to_board(Some(rule))
        });
        match loaded {
            Ok(b) => {
                self.board = b;
                self.last = None;
                format!(
                    "loaded {file}: {} stones, {} to move",
                    self.board.stone_count(),
                    name(self.board.side_to_move())
                )
            }
            Err(e) => format!("cannot load: {e:#}"),
        }
    }

    /// Handles one input line; `None` to quit.
    fn command(&mut self, line: &str) -> Option<String> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let over = self.over().is_some();
        Some(match word.to_ascii_lowercase().as_str() {
            "" => String::new(),
            "board" | "b" => {
                self.redraw = true;
                String::new()
            }
            "quit" | "exit" | "q" => return None,
            "help" | "?" => HELP.to_string(),
            "undo" | "u" => self.undo(),
            "new" => {
                self.board.clear();
                self.last = None;
                "new game".into()
            }
            "swap" => {
                self.human = self.human.opp();
                format!("you now play {}", name(self.human))
            }
            "eval" => {
                self.show_eval = !self.show_eval;
                format!(
                    "evaluation after the engine's moves: {}",
                    if self.show_eval { "on" } else { "off" }
                )
            }
            "pv" => match &self.last {
                Some(e) => Game::eval_text(e),
                None => "no evaluation yet".into(),
            },
            "hint" if !over => {
                let e = self.search();
                match e.pv.first() {
                    Some(&p) => format!(
                        "hint: {} ({} for you, depth {}; line {})",
                        pos_to_str(p),
                        score_text(e.score),
                        e.depth,
                        pos_line(&e.pv)
                    ),
                    None => "no hint".into(),
                }
            }
            "level" => {
                let mut parts = rest.split_whitespace();
                match (
                    parts.next(),
                    parts.next().and_then(|v| v.parse::<u64>().ok()),
                ) {
                    (Some("depth"), Some(d)) if (1..=60).contains(&d) => {
                        self.level = Level::Depth(d as Depth)
                    }
                    (Some("time"), Some(t)) if t > 0 => {
                        self.level = Level::Time(Duration::from_millis(t))
                    }
                    (None, _) => {}
                    _ => return Some("level depth D (1-60) or level time MS".into()),
                }
                format!("level: {}", self.level.describe())
            }
            "save" if !rest.is_empty() => self.save(rest),
            "load" if !rest.is_empty() => self.load(rest),
            _ if over => "the game is over: undo, new, save FILE, load FILE or quit".into(),
            _ => match self.square(line) {
                Some(p) if self.board.side_to_move() == self.human => match self.human_move(p) {
                    Ok(()) => format!("you play {}", pos_to_str(p)),
                    Err(e) => e,
                },
                Some(_) => "it is the engine's turn".into(),
                None => format!("'{line}': not a move or a command (help lists them)"),
            },
        })
    }

    /// Plays until `quit` or the end of input.
    pub fn run(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> anyhow::Result<()> {
        writeln!(
            out,
            "Pentad {}: {}",
            env!("CARGO_PKG_VERSION"),
            self.status()
        )?;
        writeln!(out, "type a move such as h8, or help")?;
        let mut announced = false;
        // The position last drawn: the board is drawn again only when it changed.
        let mut drawn: Option<(u64, usize)> = None;
        loop {
            // The engine moves when it is its turn.
            while self.over().is_none() && self.board.side_to_move() != self.human {
                let key = (self.board.hash(), self.board.stone_count());
                if drawn != Some(key) {
                    writeln!(out, "{}", self.render())?;
                }
                writeln!(out, "pentad is thinking...")?;
                out.flush()?;
                let msg = self.engine_move();
                writeln!(out, "{msg}")?;
            }
            let key = (self.board.hash(), self.board.stone_count());
            if self.redraw || drawn != Some(key) {
                writeln!(out, "{}", self.render())?;
                drawn = Some(key);
                self.redraw = false;
            }
            match self.over() {
                Some(result) => {
                    if !announced {
                        let text = match result {
                            Some(c) if c == self.human => format!("{} wins: you win!", name(c)),
                            Some(c) => format!("{} wins: pentad wins", name(c)),
                            None => "draw: the board is full".into(),
                        };
                        writeln!(out, "game over, {}", self.paint("1", &text))?;
                        announced = true;
                    }
                    write!(out, "game over (undo, new, save FILE, quit)> ")?;
                }
                None => {
                    announced = false;
                    write!(
                        out,
                        "move {}, you ({} {})> ",
                        self.board.stone_count() + 1,
                        name(self.human),
                        stone(self.human)
                    )?;
                }
            }
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Ok(());
            }
            match self.command(&line) {
                None => return Ok(()),
                Some(msg) if !msg.is_empty() => writeln!(out, "{msg}")?,
                Some(_) => {}
            }
        }
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let o = PlayOptions::new(args)?;
    let mut game = Game::new(&o)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    game.run(&mut stdin.lock(), &mut stdout.lock())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn options(args: &str) -> anyhow::Result<PlayOptions> {
        let words = std::iter::once("play").chain(args.split_whitespace());
        PlayOptions::new(<Cli as clap::Parser>::try_parse_from(words)?.args)
    }

    #[test]
    fn command_line() {
        let o = options("--rule renju --size 20x15 --colour W --time 500").unwrap();
        assert_eq!(
            (o.rule, o.size, o.human),
            (Rule::Renju, (20, 15), Color::White)
        );
        assert_eq!(o.level, Level::Time(Duration::from_millis(500)));
        // The last of --depth and --time counts.
        assert_eq!(
            options("--time 500 --depth 3").unwrap().level,
            Level::Depth(3)
        );
        assert_eq!(
            options("--depth 3 --time 500").unwrap().level,
            Level::Time(Duration::from_millis(500))
        );
        assert_eq!(
            options("").unwrap().level,
            Level::Time(Duration::from_millis(1000))
        );
        assert!(!options("--no-color").unwrap().color);
        assert!(options("--size 3").is_err());
        assert!(options("--color red").is_err());
        assert!(options("--bogus").is_err());
    }

    fn game(args: &str) -> Game {
        let mut o = options(args).unwrap();
        o.color = false;
        o.hash_mb = 1;
        Game::new(&o).unwrap()
    }

    fn play(g: &mut Game, input: &str) -> String {
        let mut out = Vec::new();
        g.run(&mut input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_short_game_with_undo_and_a_win() {
        let mut g = game("--depth 1");
        let out = play(&mut g, "h8\nundo\nh8\n");
        assert!(out.contains("pentad (white) plays"), "{out}");
        assert!(out.contains("taken back:"), "{out}");
        assert_eq!(g.board.stone_count(), 2);
        // A won position: black to move with four in a row.
        let mut g = game("--depth 1");
        for m in ["h8", "h10", "i8", "i10", "j8", "j10", "k8", "a1"] {
            let p = g.square(m).unwrap();
            g.board.play(p);
        }
        let out = play(&mut g, "l8\nh2\n");
        assert!(out.contains("black wins: you win!"), "{out}");
        assert!(out.contains("the game is over"), "{out}");
    }

    #[test]
    fn board_drawing_and_renju_fouls() {
        let mut g = game("--rule renju --depth 1");
        // Black h8 i8 j8 and h9 h10…: a double three square for black is marked.
        for m in ["f8", "a1", "g8", "a3", "i6", "a5", "i7", "a7"] {
            let p = g.square(m).unwrap();
            g.board.play(p);
        }
        let s = g.render();
        assert!(s.contains('×'), "{s}");
        assert!(s.starts_with("    a b c d e f g h i j k l m n o"), "{s}");
        assert!(s.contains(" 1 ") && s.contains("15"), "{s}");
        assert!(s.contains("(O)"), "{s}");
        let out = play(&mut g, "i8\n");
        assert!(out.contains("forbidden for black"), "{out}");
    }

    #[test]
    fn commands() {
        let mut g = game("--depth 1 --color white");
        let out = play(&mut g, "level depth 2\nhint\neval\nswap\nbogus\nquit\n");
        assert!(out.contains("pentad (black) plays h8"), "{out}");
        assert!(out.contains("level: depth 2"), "{out}");
        assert!(out.contains("hint: "), "{out}");
        assert!(out.contains("you now play black"), "{out}");
        assert!(out.contains("not a move or a command"), "{out}");
    }
}
