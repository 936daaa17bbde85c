//! The runner's picture of the game: which squares are empty, which hold the engine's stones
//! ("own"), the opponent's ("opp") or walls (BOARD field 3). It is rebuilt from the commands the
//! scenario sends (START, RECTSTART, RESTART, TURN, BOARD/YXBOARD … DONE, TAKEBACK) and from the
//! moves the engine answers, so that a scenario can check "the move is legal" without spelling
//! out the position.

/// What a square holds, seen from the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    /// A stone of the engine (BOARD field 1, or a move it answered).
    Own,
    /// A stone of the opponent (BOARD field 2, TURN).
    Opp,
    /// BOARD field 3: occupied by neither side.
    Wall,
}

/// A rectangular board with the order in which stones were put on it.
#[derive(Clone, Debug)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    cells: Vec<Cell>,
    history: Vec<(usize, usize)>,
}

impl Board {
    pub fn new(width: usize, height: usize) -> Board {
        Board {
            width,
            height,
            cells: vec![Cell::Empty; width * height],
            history: Vec::new(),
        }
    }

    /// The cell at (x, y), or `None` off the board.
    pub fn get(&self, x: i64, y: i64) -> Option<Cell> {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return None;
        }
        Some(self.cells[y as usize * self.width + x as usize])
    }

    /// Puts a stone on an empty on-board square; false (and no change) otherwise.
    pub fn place(&mut self, x: i64, y: i64, cell: Cell) -> bool {
        if self.get(x, y) != Some(Cell::Empty) || cell == Cell::Empty {
            return false;
        }
        let (x, y) = (x as usize, y as usize);
        self.cells[y * self.width + x] = cell;
        self.history.push((x, y));
        true
    }

    /// Removes the stone at (x, y); false if there is none.
    pub fn remove(&mut self, x: i64, y: i64) -> bool {
        match self.get(x, y) {
            None | Some(Cell::Empty) => false,
            Some(_) => {
                let (x, y) = (x as usize, y as usize);
                self.cells[y * self.width + x] = Cell::Empty;
                self.history.retain(|&p| p != (x, y));
                true
            }
        }
    }

    /// The square of the most recently placed stone that is still on the board.
    pub fn last(&self) -> Option<(usize, usize)> {
        self.history.last().copied()
    }

    #[cfg(test)]
    pub fn count(&self, cell: Cell) -> usize {
        self.cells.iter().filter(|&&c| c == cell).count()
    }

    /// The empty square nearest to the centre (ties: smaller y, then smaller x). Deterministic,
    /// so scenarios that let the runner choose the opponent's moves are reproducible.
    pub fn nearest_free(&self) -> Option<(usize, usize)> {
        // Doubled coordinates keep the centre exact on even sizes.
        let (cx, cy) = ((self.width as i64) - 1, (self.height as i64) - 1);
        type Key = (i64, i64, usize, usize);
        let mut best: Option<(Key, (usize, usize))> = None;
        for y in 0..self.height {
            for x in 0..self.width {
                if self.cells[y * self.width + x] != Cell::Empty {
                    continue;
                }
                let dx = (2 * x as i64 - cx).abs();
                let dy = (2 * y as i64 - cy).abs();
                let key = (dx.max(dy), dx * dx + dy * dy, y, x);
                if best.is_none_or(|(k, _)| key < k) {
                    best = Some((key, (x, y)));
                }
            }
        }
        best.map(|(_, p)| p)
    }

    /// An ASCII picture (`X` own, `O` opponent, `#` wall, `.` empty) for failure reports.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for y in 0..self.height {
            for x in 0..self.width {
                s.push(match self.cells[y * self.width + x] {
                    Cell::Empty => '.',
                    Cell::Own => 'X',
                    Cell::Opp => 'O',
                    Cell::Wall => '#',
                });
            }
            s.push('\n');
        }
        s
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Commands,
    /// Inside BOARD/YXBOARD … DONE: `x,y,field` lines.
    Position,
    /// Inside SWAP2BOARD … DONE: `x,y` lines (colour does not matter for legality).
    Swap2,
    /// Inside another block command (YXBLOCK, YXQUERYDATABASE…) up to DONE: ignored.
    Block,
}

/// Follows the bytes the scenario sends and keeps the board up to date.
#[derive(Clone, Debug)]
pub struct Tracker {
    pub board: Option<Board>,
    mode: Mode,
    partial: Vec<u8>,
}

impl Default for Tracker {
    fn default() -> Self {
        Tracker::new()
    }
}

/// Parses `x,y` (blanks allowed around the numbers, as managers may send `10, 10`).
pub fn parse_xy(s: &str) -> Option<(i64, i64)> {
    let (a, b) = s.split_once(',')?;
    let x = a.trim().parse().ok()?;
    let y = b.trim().parse().ok()?;
    Some((x, y))
}

/// Parses one square in pos notation (`h8`: letter = x from `a`, number = y + 1 from the top).
pub fn parse_pos(s: &str) -> Option<(i64, i64)> {
    let mut chars = s.chars();
    let c = chars.next()?.to_ascii_lowercase();
    if !c.is_ascii_lowercase() {
        return None;
    }
    let row: i64 = chars.as_str().parse().ok()?;
    if row < 1 || chars.as_str().starts_with('+') {
        return None;
    }
    Some((c as i64 - 'a' as i64, row - 1))
}

/// Parses a run of squares in pos notation such as `h8h9i10` (blanks allowed between squares).
pub fn parse_pos_run(s: &str) -> Option<Vec<(i64, i64)>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if !b[i].is_ascii_alphabetic() {
            return None;
        }
        let start = i;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        out.push(parse_pos(&s[start..i])?);
    }
    Some(out)
}

impl Tracker {
    pub fn new() -> Tracker {
        Tracker {
            board: None,
            mode: Mode::Commands,
            partial: Vec::new(),
        }
    }

    /// Feeds bytes written to the engine; complete lines update the board.
    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.partial).into_owned();
                self.partial.clear();
                self.line(&line);
            } else {
                self.partial.push(b);
            }
        }
    }

    /// Records a move answered by the engine. False if it was not legal.
    pub fn engine_move(&mut self, x: i64, y: i64) -> bool {
        match &mut self.board {
            Some(b) => b.place(x, y, Cell::Own),
            None => false,
        }
    }

    fn line(&mut self, raw: &str) {
        let line = raw.trim();
        if line.is_empty() {
            return;
        }
        let (word, rest) = match line.split_once(|c: char| c.is_whitespace()) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let word = word.to_ascii_uppercase();
        match self.mode {
            Mode::Position | Mode::Swap2 | Mode::Block => {
                if word == "DONE" {
                    self.mode = Mode::Commands;
                    return;
                }
                let mode = self.mode;
                let Some(board) = &mut self.board else { return };
                let parts: Vec<&str> = line.split(',').map(str::trim).collect();
                let nums: Option<Vec<i64>> = parts.iter().map(|p| p.parse().ok()).collect();
                match (mode, nums.as_deref()) {
                    (Mode::Position, Some(&[x, y, f])) => {
                        let cell = match f {
                            1 => Cell::Own,
                            2 => Cell::Opp,
                            3 => Cell::Wall,
                            _ => return,
                        };
                        board.place(x, y, cell);
                    }
                    (Mode::Swap2, Some(&[x, y])) => {
                        board.place(x, y, Cell::Opp);
                    }
                    _ => {}
                }
            }
            Mode::Commands => match word.as_str() {
                "START" => {
                    if let Ok(n) = rest.parse::<usize>() {
                        if (1..=1000).contains(&n) {
                            self.board = Some(Board::new(n, n));
                        }
                    }
                }
                "RECTSTART" => {
                    if let Some((w, h)) = parse_xy(rest) {
                        if (1..=1000).contains(&w) && (1..=1000).contains(&h) {
                            self.board = Some(Board::new(w as usize, h as usize));
                        }
                    }
                }
                "RESTART" => {
                    if let Some(b) = &mut self.board {
                        *b = Board::new(b.width, b.height);
                    }
                }
                "TURN" => {
                    if let (Some(b), Some((x, y))) = (&mut self.board, parse_xy(rest)) {
                        b.place(x, y, Cell::Opp);
                    }
                }
                "TAKEBACK" => {
                    if let (Some(b), Some((x, y))) = (&mut self.board, parse_xy(rest)) {
                        b.remove(x, y);
                    }
                }
                "BOARD" | "YXBOARD" => {
                    if let Some(b) = &mut self.board {
                        *b = Board::new(b.width, b.height);
                    }
                    self.mode = Mode::Position;
                }
                "SWAP2BOARD" => {
                    if let Some(b) = &mut self.board {
                        *b = Board::new(b.width, b.height);
                    }
                    self.mode = Mode::Swap2;
                }
                w if w.starts_with("YXBLOCK") && w != "YXBLOCKRESET" => self.mode = Mode::Block,
                w if w.starts_with("YXQUERYDATABASE")
                    || (w.starts_with("YXEDIT") && w.ends_with("DATABASE"))
                    || w.starts_with("YXDELETEDATABASE") =>
                {
                    self.mode = Mode::Block
                }
                _ => {}
            },
        }
    }
}

/// Orders the stones of a diagram as a manager would send them in `BOARD`: colours alternate,
/// the side with more stones (own on a tie, i.e. the side to move is black) comes first, and the
/// last stone is the opponent's whenever the counts allow. Walls come first. Returns
/// `(x, y, field)` triples.
pub fn board_order(
    own: &[(i64, i64)],
    opp: &[(i64, i64)],
    walls: &[(i64, i64)],
) -> Vec<(i64, i64, u8)> {
    let mut out: Vec<(i64, i64, u8)> = walls.iter().map(|&(x, y)| (x, y, 3)).collect();
    let (first, second, f1, f2) = if opp.len() > own.len() {
        (opp, own, 2, 1)
    } else {
        (own, opp, 1, 2)
    };
    let n = first.len().max(second.len());
    for i in 0..n {
        if let Some(&(x, y)) = first.get(i) {
            out.push((x, y, f1));
        }
        if let Some(&(x, y)) = second.get(i) {
            out.push((x, y, f2));
        }
    }
    out
}

/// Fields for stones given in play order, as GomocupJudge sends them: the side to move (who plays
/// move number `moves.len()`) owns field 1, the last stone is the opponent's.
pub fn moves_order(moves: &[(i64, i64)]) -> Vec<(i64, i64, u8)> {
    let n = moves.len();
    moves
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| (x, y, if (n - i).is_multiple_of(2) { 1 } else { 2 }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fed(lines: &[&str]) -> Tracker {
        let mut t = Tracker::new();
        for l in lines {
            t.feed(l.as_bytes());
            t.feed(b"\n");
        }
        t
    }

    #[test]
    fn start_turn_and_engine_moves() {
        let mut t = fed(&["START 15", "TURN 7,7"]);
        let b = t.board.as_ref().unwrap();
        assert_eq!((b.width, b.height), (15, 15));
        assert_eq!(b.get(7, 7), Some(Cell::Opp));
        assert!(t.engine_move(8, 8));
        assert!(!t.engine_move(8, 8), "occupied");
        assert!(!t.engine_move(15, 0), "off board");
        assert!(!t.engine_move(-1, 0), "off board");
        assert_eq!(t.board.as_ref().unwrap().last(), Some((8, 8)));
    }

    #[test]
    fn commands_are_case_and_blank_tolerant() {
        let t = fed(&["  start 10\r", "\tturn  3, 4 \r"]);
        let b = t.board.as_ref().unwrap();
        assert_eq!(b.width, 10);
        assert_eq!(b.get(3, 4), Some(Cell::Opp));
    }

    #[test]
    fn rectstart_width_is_x() {
        let t = fed(&["RECTSTART 20,15", "TURN 19,14", "TURN 14,19"]);
        let b = t.board.as_ref().unwrap();
        assert_eq!((b.width, b.height), (20, 15));
        assert_eq!(b.get(19, 14), Some(Cell::Opp));
        assert_eq!(b.get(14, 19), None);
        assert_eq!(b.count(Cell::Opp), 1);
    }

    #[test]
    fn board_replaces_position() {
        let t = fed(&[
            "START 15", "TURN 1,1", "BOARD", "7,7,1", "8,8,2", "9,9,3", "7,7,2", "99,1,1", "DONE",
        ]);
        let b = t.board.as_ref().unwrap();
        assert_eq!(b.get(1, 1), Some(Cell::Empty));
        assert_eq!(b.get(7, 7), Some(Cell::Own), "duplicate ignored");
        assert_eq!(b.get(8, 8), Some(Cell::Opp));
        assert_eq!(b.get(9, 9), Some(Cell::Wall));
        assert_eq!(b.count(Cell::Empty), 225 - 3);
        // After DONE, lines are commands again.
        let mut t = t;
        t.feed(b"TURN 0,0\n");
        assert_eq!(t.board.as_ref().unwrap().get(0, 0), Some(Cell::Opp));
    }

    #[test]
    fn lower_case_board_and_yxboard() {
        let t = fed(&[
            "start 15", "yxboard", "1,2,1", "done", "board", "3,4,2", "done",
        ]);
        let b = t.board.as_ref().unwrap();
        assert_eq!(b.get(1, 2), Some(Cell::Empty));
        assert_eq!(b.get(3, 4), Some(Cell::Opp));
    }

    #[test]
    fn restart_keeps_size_and_clears() {
        let t = fed(&["START 12", "TURN 1,1", "RESTART"]);
        let b = t.board.as_ref().unwrap();
        assert_eq!(b.width, 12);
        assert_eq!(b.count(Cell::Empty), 144);
    }

    #[test]
    fn takeback_and_last() {
        let mut t = fed(&["START 15", "TURN 7,7"]);
        t.engine_move(8, 7);
        t.feed(b"TURN 9,9\nTAKEBACK 9,9\n");
        assert_eq!(t.board.as_ref().unwrap().last(), Some((8, 7)));
        t.feed(b"TAKEBACK 8,7\n");
        assert_eq!(t.board.as_ref().unwrap().last(), Some((7, 7)));
        assert_eq!(t.board.as_ref().unwrap().get(8, 7), Some(Cell::Empty));
    }

    #[test]
    fn swap2board_stones_occupy() {
        let t = fed(&["START 15", "SWAP2BOARD", "7,7", "8,8", "DONE", "TURN 1,1"]);
        let b = t.board.as_ref().unwrap();
        assert_eq!(b.count(Cell::Opp), 3);
    }

    #[test]
    fn partial_writes_join() {
        let mut t = Tracker::new();
        t.feed(b"STA");
        t.feed(b"RT 9\r\nTU");
        assert!(t.board.is_some());
        t.feed(b"RN 4,4\n");
        assert_eq!(t.board.as_ref().unwrap().get(4, 4), Some(Cell::Opp));
    }

    #[test]
    fn nearest_free_is_centre_then_ring() {
        let mut b = Board::new(15, 15);
        assert_eq!(b.nearest_free(), Some((7, 7)));
        b.place(7, 7, Cell::Opp);
        assert_eq!(b.nearest_free(), Some((7, 6)));
        let mut b = Board::new(20, 20);
        assert_eq!(b.nearest_free(), Some((9, 9)));
        b.place(9, 9, Cell::Own);
        assert_eq!(b.nearest_free(), Some((10, 9)));
        let mut b = Board::new(1, 1);
        b.place(0, 0, Cell::Own);
        assert_eq!(b.nearest_free(), None);
    }

    #[test]
    fn pos_notation() {
        assert_eq!(parse_pos("h8"), Some((7, 7)));
        assert_eq!(parse_pos("A1"), Some((0, 0)));
        assert_eq!(parse_pos("o15"), Some((14, 14)));
        assert_eq!(parse_pos("h0"), None);
        assert_eq!(parse_pos("8h"), None);
        assert_eq!(
            parse_pos_run("h8h9i10 j13"),
            Some(vec![(7, 7), (7, 8), (8, 9), (9, 12)])
        );
        assert_eq!(parse_pos_run("h8,h9"), None);
    }

    #[test]
    fn gomocupjudge_field_assignment() {
        // h8 h9 i8 i9: black (h8, i8) to move with 4 stones => black stones are own.
        let m = parse_pos_run("h8h9i8i9").unwrap();
        assert_eq!(
            moves_order(&m),
            vec![(7, 7, 1), (7, 8, 2), (8, 7, 1), (8, 8, 2)]
        );
        // Three stones: white to move, black's stones are the opponent's.
        let m = parse_pos_run("h8h9i8").unwrap();
        assert_eq!(moves_order(&m), vec![(7, 7, 2), (7, 8, 1), (8, 7, 2)]);
    }

    #[test]
    fn diagram_order_alternates_and_ends_with_opponent() {
        let own = [(1, 1), (2, 2)];
        let opp = [(3, 3), (4, 4), (5, 5)];
        let o = board_order(&own, &opp, &[(0, 0)]);
        assert_eq!(
            o,
            vec![
                (0, 0, 3),
                (3, 3, 2),
                (1, 1, 1),
                (4, 4, 2),
                (2, 2, 1),
                (5, 5, 2)
            ]
        );
        let o = board_order(&own, &opp[..2], &[]);
        assert_eq!(o.first().unwrap().2, 1);
        assert_eq!(o.last().unwrap().2, 2);
    }
}
