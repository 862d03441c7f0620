//! What the web page needs to draw a position of any family: the board's cells (points or squares)
//! with their coordinates, lines and marked regions; the pieces; and each move's two ends, so a person
//! can play by clicking a piece and its target.

use serde::Serialize;

use crate::family::Family;
use crate::game::chess::ChessGame;
use crate::game::chess::bitboard::square_name;
use crate::game::chess::piece::Piece;
use crate::game::hunt::board::NONE;
use crate::game::hunt::{GENERAL, HuntGame};
use crate::game::imperial::{ImperialGame, RUSSIANS, board as imperial_board};
use crate::game::{Reason, Side};

/// A board as the page draws it. Coordinates are in board units, x to the right and y up.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Drawing {
    /// `points` (a hunt board: pieces stand on the points where lines meet) or `squares`.
    pub kind: &'static str,
    pub cells: Vec<Cell>,
    /// Lines between cells (points boards), as pairs of cell indices.
    pub links: Vec<[usize; 2]>,
    /// Cells drawn apart: the privy or the Japanese triangle, imperial-contest's border squares.
    pub marked: Vec<usize>,
    /// Squares coloured light and dark by turns (chess).
    pub checkered: bool,
    /// What the marked cells and any other special point mean, for a legend under the board ("" when
    /// nothing needs saying).
    pub legend: String,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Cell {
    pub label: String,
    pub x: f32,
    pub y: f32,
}

/// A piece on a cell: its side's index and the letter drawn on it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PieceView {
    pub cell: usize,
    pub side: usize,
    pub letter: char,
}

/// A family the page can draw and play by clicks.
pub trait Drawable: Family {
    fn drawing(&self) -> Drawing;
    fn pieces(&self, state: &Self::State) -> Vec<PieceView>;
    /// The cells a move is played with: the piece clicked (for a rebel step, the opponent's piece it
    /// moves) and the cell it goes to (the same cell for a capture made standing still). Several moves
    /// may share both (captures chosen, promotions,
    /// squirms); the page then asks which.
    fn move_ends(&self, state: &Self::State, mv: Self::Move) -> [usize; 2];
    /// A move as a move list shows it to a person: the rules' notation, SAN for chess.
    fn move_label(&self, state: &Self::State, mv: Self::Move) -> String {
        self.format_move(state, mv)
    }
}

impl Drawable for HuntGame {
    fn drawing(&self) -> Drawing {
        let board = self.board();
        let cells = (0..board.len())
            .map(|p| {
                let (x, y) = board.coords[p];
                Cell { label: board.label(p as u8).to_string(), x: x as f32 / 2.0, y: y as f32 / 2.0 }
            })
            .collect();
        let mut links = Vec::new();
        for p in 0..board.len() {
            for &q in &board.neighbour[p] {
                if q != NONE && p < q as usize {
                    links.push([p, q as usize]);
                }
            }
        }
        let triangle = board.privy | board.apex.map_or(0, |a| 1 << a);
        let marked =
            (0..board.len()).filter(|&p| triangle >> p & 1 == 1 || is_japanese_triangle(self, p)).collect();
        Drawing { kind: "points", cells, links, marked, checkered: false, legend: hunt_legend(self) }
    }

    fn pieces(&self, state: &Self::State) -> Vec<PieceView> {
        let taken = state.result.is_some_and(|r| r.reason == Reason::Custodial);
        let general = PieceView {
            cell: state.general as usize,
            side: GENERAL.index(),
            letter: if taken { 'x' } else { 'G' },
        };
        let rebels = (0..self.board().len()).filter(|&p| state.rebels >> p & 1 == 1).map(|p| PieceView {
            cell: p,
            side: GENERAL.opponent().index(),
            letter: 'R',
        });
        std::iter::once(general).chain(rebels).collect()
    }

    fn move_ends(&self, _state: &Self::State, mv: Self::Move) -> [usize; 2] {
        [mv.from as usize, mv.to as usize]
    }
}

/// What a hunt board's shaded points mean under its rules, and its apex's result.
fn hunt_legend(game: &HuntGame) -> String {
    use crate::game::hunt::board::BoardKind;
    let (board, rules) = (game.board(), &game.rules);
    let mut parts = Vec::new();
    if board.privy != 0 {
        let what = if matches!(board.kind, BoardKind::JapaneseClosed) { "the triangle" } else { "the privy" };
        parts.push(format!("Shaded: {what}, where only the General may stand."));
    } else if matches!(board.kind, BoardKind::Japanese) {
        parts.push("Shaded: the triangle, open to both sides.".to_string());
    }
    if let Some(apex) = board.apex {
        let label = board.label(apex);
        if rules.apex_wins {
            parts.push(format!("The General wins on reaching {label}."));
        } else if rules.apex_loses {
            parts.push(format!("The General loses on {label}."));
        }
    }
    if rules.blockade && board.exits != 0 {
        parts.push("Rebels on every entrance of the privy with the General inside win.".to_string());
    }
    parts.join(" ")
}

/// The Japanese board's inverted triangle (ranks 6 and 7), marked like the Chinese privy even where
/// the Rebels may enter it.
fn is_japanese_triangle(game: &HuntGame, point: usize) -> bool {
    use crate::game::hunt::board::BoardKind;
    matches!(game.board().kind, BoardKind::Japanese | BoardKind::JapaneseClosed)
        && game.board().coords[point].1 > 8
}

impl Drawable for ImperialGame {
    fn drawing(&self) -> Drawing {
        let size = imperial_board::SIZE;
        let squares = 0..imperial_board::SQUARES as u8;
        let cells = squares
            .clone()
            .map(|s| Cell {
                label: imperial_board::label(s),
                x: imperial_board::file(s) as f32,
                y: imperial_board::rank(s) as f32,
            })
            .collect();
        let on_border = |s: u8| {
            let (file, rank) = (imperial_board::file(s), imperial_board::rank(s));
            file == 0 || rank == 0 || file == size - 1 || rank == size - 1
        };
        let marked = squares.filter(|&s| on_border(s)).map(usize::from).collect();
        let legend = "Shaded: the border; the Emperor arriving on it wins for the Russians.".to_string();
        Drawing { kind: "squares", cells, links: Vec::new(), marked, checkered: false, legend }
    }

    fn pieces(&self, state: &Self::State) -> Vec<PieceView> {
        let emperor = PieceView { cell: state.emperor as usize, side: RUSSIANS.index(), letter: 'E' };
        let men = Side::BOTH.into_iter().flat_map(|side| {
            let letter = if side == RUSSIANS { 'M' } else { 'A' };
            imperial_board::squares(state.men[side.index()]).map(move |s| PieceView {
                cell: s as usize,
                side: side.index(),
                letter,
            })
        });
        std::iter::once(emperor).chain(men).collect()
    }

    fn move_ends(&self, _state: &Self::State, mv: Self::Move) -> [usize; 2] {
        [mv.from as usize, mv.to as usize]
    }
}

impl Drawable for ChessGame {
    fn drawing(&self) -> Drawing {
        let cells =
            (0..64u8).map(|s| Cell { label: square_name(s), x: (s % 8) as f32, y: (s / 8) as f32 }).collect();
        Drawing {
            kind: "squares",
            cells,
            links: Vec::new(),
            marked: Vec::new(),
            checkered: true,
            legend: String::new(),
        }
    }

    fn pieces(&self, state: &Self::State) -> Vec<PieceView> {
        Side::BOTH
            .into_iter()
            .flat_map(|side| {
                state.pieces_of(side).map(move |(piece, square)| PieceView {
                    cell: square as usize,
                    side: side.index(),
                    letter: letter(piece),
                })
            })
            .collect()
    }

    /// A squirm turn is clicked as its normal move; the squirm is then chosen from the list.
    fn move_ends(&self, _state: &Self::State, mv: Self::Move) -> [usize; 2] {
        [mv.from as usize, mv.to as usize]
    }

    fn move_label(&self, state: &Self::State, mv: Self::Move) -> String {
        crate::game::chess::san::to_san(self, state, mv)
    }
}

fn letter(piece: Piece) -> char {
    match piece {
        Piece::Pawn => 'P',
        Piece::Knight => 'N',
        Piece::Bishop => 'B',
        Piece::Rook => 'R',
        Piece::Queen => 'Q',
        Piece::King => 'K',
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{AnyGame, Game, Playthrough};
    use crate::with_game;
    use rand::{RngExt, SeedableRng};

    /// Every piece stands on a cell of the drawing, no two on one; every legal move's ends are cells,
    /// the first holding a piece; over seeded random games of every board kind.
    fn check_random_games<G: Drawable>(game: &G) {
        let drawing = game.drawing();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        for _ in 0..3 {
            let mut line = Playthrough::new(game.clone());
            while !line.is_over() && line.plies() < 120 {
                let pieces = game.pieces(line.state());
                let mut occupied = std::collections::HashSet::new();
                for piece in &pieces {
                    assert!(piece.cell < drawing.cells.len(), "{}", game.spec());
                    assert!(occupied.insert(piece.cell), "{}: two pieces on one cell", game.spec());
                }
                for &mv in line.legal_moves() {
                    let [from, to] = game.move_ends(line.state(), mv);
                    assert!(occupied.contains(&from), "{}: {mv:?} starts on an empty cell", game.spec());
                    // `from == to` is a capture without a move (twenty-six's static capture): the
                    // page plays it by clicking the General twice.
                    assert!(to < drawing.cells.len(), "{}: {mv:?}", game.spec());
                }
                let moves = line.legal_moves();
                line.play(moves[rng.random_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn every_board_kind_draws_its_pieces_and_moves_on_its_cells() {
        for spec in
            ["sixteen-rebels", "juroku-musashi:triangle=closed", "twenty-six-rebels", "imperial-contest"]
        {
            with_game!(&AnyGame::from_spec(spec).unwrap(), |g| check_random_games(g));
        }
        for spec in ["chess", "rebellion-chess", "squirm-chess:pawns=berolina"] {
            with_game!(&AnyGame::from_spec(spec).unwrap(), |g| check_random_games(g));
        }
    }

    #[test]
    fn the_boards_are_drawn_true_to_the_rules() {
        let AnyGame::Hunt(sixteen) = AnyGame::from_spec("sixteen-rebels").unwrap() else { unreachable!() };
        let drawing = sixteen.drawing();
        let label = |i: usize| drawing.cells[i].label.as_str();
        let mut marked: Vec<&str> = drawing.marked.iter().map(|&i| label(i)).collect();
        marked.sort();
        assert_eq!(marked, ["b6", "c6", "c7", "d6"], "the privy's four holes");
        let link = |a: &str, b: &str| {
            drawing
                .links
                .iter()
                .any(|&[p, q]| (label(p), label(q)) == (a, b) || (label(p), label(q)) == (b, a))
        };
        assert!(link("a1", "b2") && !link("b1", "c2"), "diagonals only where x + y is even");
        assert!(link("b6", "c6") && link("b5", "b6"));
        let AnyGame::Hunt(hyde) = AnyGame::from_spec("twenty-six-rebels").unwrap() else { unreachable!() };
        let hyde_drawing = hyde.drawing();
        let hyde_link = |a: &str, b: &str| {
            hyde_drawing.links.iter().any(|&[p, q]| {
                let (p, q) = (&hyde_drawing.cells[p].label, &hyde_drawing.cells[q].label);
                (p, q) == (&a.to_string(), &b.to_string()) || (p, q) == (&b.to_string(), &a.to_string())
            })
        };
        assert!(!hyde_link("b10", "c10") && hyde_link("c10", "c11"), "R3: no b10-c10 link");
        let AnyGame::Imperial(imperial) = AnyGame::from_spec("imperial-contest").unwrap() else {
            unreachable!()
        };
        assert_eq!(imperial.drawing().marked.len(), 32, "the border of a 9 × 9 board");
        let AnyGame::Chess(chess) = AnyGame::from_spec("chess").unwrap() else { unreachable!() };
        assert_eq!(chess.pieces(&chess.start()).len(), 32);
    }
}
