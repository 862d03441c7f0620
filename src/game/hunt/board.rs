//! The three hunt-game boards of RULES.md section 1 as point graphs: labels, links, and the tables move
//! generation reads (neighbour by direction, opposite pairs, privy and exit masks).
//!
//! Points have doubled integer coordinates (the privy holes sit on half units). Every link is
//! horizontal, vertical or at 45°, so a direction is the sign pair of a link's vector: eight compass
//! directions. Two links leaving a point in opposite directions lie on one line (RULES.md 1).

use std::sync::LazyLock;

/// Compass directions, counter-clockwise from east. `(d + 4) % 8` is the opposite direction.
pub const DIRECTIONS: [(i32, i32); 8] =
    [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
pub const NORTH: usize = 2;
pub const EAST: usize = 0;
pub const WEST: usize = 4;

#[inline]
pub const fn opposite(direction: usize) -> usize {
    (direction + 4) & 7
}

/// Which board a ruleset is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// 1.1: alquerque board with the four-hole privy (sixteen-rebels).
    Chinese,
    /// 1.2 with `triangle=open` (R12, Culin): alquerque board with the inverted triangle open to both
    /// sides and the inner triangle's sides b6-c7 and d6-c7 drawn in (juroku-musashi's default).
    Japanese,
    /// 1.2 with `triangle=closed` (Murray): the same points without the inner links, and only the
    /// General may stand on the triangle.
    JapaneseClosed,
    /// 1.3: 5 × 9 orthogonal board with the Hyde privy (twenty-six-rebels family).
    Hyde,
    /// A board described in a rules file (`file:` specs): the number of its entry in the table of
    /// boards loaded by this process.
    Described(u16),
}

impl BoardKind {
    /// The board whose points, grid cells and mirror this one shares: both readings of the Japanese
    /// triangle have the same points, so one input layout (and one network) serves them.
    pub fn layout(self) -> BoardKind {
        match self {
            BoardKind::JapaneseClosed => BoardKind::Japanese,
            kind => kind,
        }
    }
}

pub struct Board {
    pub kind: BoardKind,
    pub labels: Vec<String>,
    /// Doubled coordinates (2x, 2y).
    pub coords: Vec<(i32, i32)>,
    /// The neighbour in each direction, or `NONE`. Tables have 64 rows, one per possible point, so
    /// that indexing with `p & 63` needs no bounds check in the hot loops.
    pub neighbour: [[u8; 8]; 64],
    /// Mask of all neighbours.
    pub adjacent: [u64; 64],
    /// Bit d set when the point has a neighbour in direction d.
    pub directions: [u8; 64],
    /// For each point and line direction d (0..4), the mask of the two points opposite each other
    /// across it along that line, or 0 where the line ends at the point.
    pub pairs: [[u64; 4]; 64],
    /// Points only the General may stand on (the privy; the Japanese triangle when it is closed).
    pub privy: u64,
    /// The privy's entrances (b5 c5 d5 or b9 c9 d9); empty on the Japanese boards.
    pub exits: u64,
    /// The privy's apex, if the board has one that matters to a ruleset.
    pub apex: Option<u8>,
    /// Rank 1.
    pub bottom_row: u64,
    /// Points in label order (file letter, then rank number).
    pub label_order: Vec<u8>,
    /// The mirror image of each point under the left-right mirror through the board's middle (x ↦
    /// 4 − x on the built-in boards, which are all symmetric under it), or `NONE` past the last point
    /// and everywhere when the board is not symmetric.
    pub mirror: [u8; 64],
    /// Whether the mirror maps the board, its links and its regions onto themselves.
    pub symmetric: bool,
    /// Cell of each point in the encoding grid.
    pub cells: Vec<(usize, usize)>,
    pub grid: (usize, usize),
}

pub const NONE: u8 = u8::MAX;

/// The described boards of this process, by number.
static DESCRIBED: std::sync::RwLock<Vec<&'static Board>> = std::sync::RwLock::new(Vec::new());

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({:?})", self.kind)
    }
}

impl Board {
    pub fn get(kind: BoardKind) -> &'static Board {
        static CHINESE: LazyLock<Board> = LazyLock::new(|| Board::build(BoardKind::Chinese));
        static JAPANESE: LazyLock<Board> = LazyLock::new(|| Board::build(BoardKind::Japanese));
        static JAPANESE_CLOSED: LazyLock<Board> = LazyLock::new(|| Board::build(BoardKind::JapaneseClosed));
        static HYDE: LazyLock<Board> = LazyLock::new(|| Board::build(BoardKind::Hyde));
        match kind {
            BoardKind::Chinese => &CHINESE,
            BoardKind::Japanese => &JAPANESE,
            BoardKind::JapaneseClosed => &JAPANESE_CLOSED,
            BoardKind::Hyde => &HYDE,
            BoardKind::Described(number) => DESCRIBED.read().expect("never poisoned")[number as usize],
        }
    }

    /// Keeps a described board for the rest of the process and gives it its kind; a board equal to
    /// one already kept (two rules files on one board) is that one, so the two rulesets share a kind,
    /// an input layout and networks. Boards are few (one per distinct board loaded), so they are leaked
    /// rather than counted.
    pub fn register(mut board: Board) -> Result<&'static Board, String> {
        let mut boards = DESCRIBED.write().expect("never poisoned");
        let identity = board.identity();
        if let Some(&same) = boards.iter().find(|b| b.identity() == identity) {
            return Ok(same);
        }
        let number = u16::try_from(boards.len()).map_err(|_| "too many described boards".to_string())?;
        board.kind = BoardKind::Described(number);
        let board: &'static Board = Box::leak(Box::new(board));
        boards.push(board);
        Ok(board)
    }

    /// What makes two boards the same board: points, links and regions (not the kind's number, which
    /// depends on the order files were loaded). Checkpoints name a described board's input layout by
    /// it, so a network reads any rules file on its board, in any process.
    pub fn identity(&self) -> String {
        let mut text = String::new();
        for point in 0..self.len() {
            let (x, y) = self.coords[point];
            let links: Vec<String> = self.neighbour[point].iter().map(|&q| q.to_string()).collect();
            text += &format!("{} {x} {y} {};", self.labels[point], links.join(","));
        }
        text += &format!("{:x} {:x} {:x} {:?}", self.privy, self.exits, self.bottom_row, self.apex);
        crate::files::sha256_hex(text.as_bytes())[..16].to_string()
    }

    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The point with this label.
    pub fn point(&self, label: &str) -> Option<u8> {
        self.labels.iter().position(|l| l == label).map(|p| p as u8)
    }

    pub fn label(&self, point: u8) -> &str {
        &self.labels[point as usize]
    }

    /// A mask's points as labels in label order.
    pub fn labels_of(&self, mask: u64) -> Vec<&str> {
        self.label_order.iter().filter(|&&p| mask >> p & 1 == 1).map(|&p| self.label(p)).collect()
    }

    /// The neighbour of `p` in direction `d`, or `NONE`.
    #[inline(always)]
    pub fn next(&self, p: u8, d: usize) -> u8 {
        self.neighbour[p as usize & 63][d & 7]
    }

    /// The direction from `from` to its neighbour `to`.
    pub fn direction(&self, from: u8, to: u8) -> Option<usize> {
        self.neighbour[from as usize].iter().position(|&n| n == to)
    }

    /// The board with `glyph(point)` at each point where its coordinates put it (a unit is four
    /// columns and two rows, with one more row between two rows of points half a unit apart), its
    /// links drawn as `-`, `|`, `/` and `\\` between the points (a slanting link across rows spaced
    /// unevenly bends to the nearest column), the rank beside each row and the files under the
    /// bottom row.
    pub fn draw(&self, glyph: impl Fn(u8) -> char) -> String {
        let xs = self.coords.iter().map(|c| c.0);
        let ys: std::collections::BTreeSet<i32> = self.coords.iter().map(|c| c.1).collect();
        let left = xs.clone().min().unwrap_or(0);
        let width = (xs.max().unwrap_or(0) - left) * 2 + 1;
        // Doubled coordinates: half a unit is two columns and a row, and where points lie on both
        // rows, another row between them holds their links.
        let (bottom, top) = (ys.first().copied().unwrap_or(0), ys.last().copied().unwrap_or(0));
        let mut row_of = std::collections::HashMap::new();
        let mut height = 0;
        for y in (bottom..=top).rev() {
            row_of.insert(y, height);
            height += if ys.contains(&y) && ys.contains(&(y - 1)) { 2 } else { 1 };
        }
        let cell = |(x, y): (i32, i32)| (row_of[&y], ((x - left) * 2) as usize);
        let mut canvas = vec![vec![' '; width as usize]; height];
        for p in 0..self.len() {
            for &q in self.neighbour[p].iter().filter(|&&q| q != NONE) {
                let ((r0, c0), (r1, c1)) = (cell(self.coords[p]), cell(self.coords[q as usize]));
                let (dr, dc) = (r1 as i32 - r0 as i32, c1 as i32 - c0 as i32);
                let (mark, steps) = match (dr.signum(), dc.signum()) {
                    (0, _) => ('-', dc.abs()),
                    (_, 0) => ('|', dr.abs()),
                    (r, c) if r != c => ('/', dr.abs()),
                    _ => ('\\', dr.abs()),
                };
                for k in 1..steps {
                    let (r, c) = if dr == 0 {
                        (r0 as i32, c0 as i32 + k * dc.signum())
                    } else {
                        let column = c0 as f64 + f64::from(k * dc) / f64::from(dr.abs());
                        (r0 as i32 + k * dr.signum(), column.round() as i32)
                    };
                    canvas[r as usize][c as usize] = mark;
                }
            }
        }
        let mut ranks = vec![String::new(); height];
        let mut files = vec![' '; width as usize];
        for (point, label) in self.labels.iter().enumerate() {
            let (row, column) = cell(self.coords[point]);
            canvas[row][column] = glyph(point as u8);
            ranks[row] = label[1..].to_string();
            if row + 1 == canvas.len() {
                files[column] = label.chars().next().unwrap_or(' ');
            }
        }
        let mut out = String::from("\n");
        for (rank, row) in ranks.iter().zip(&canvas) {
            out += format!("{rank:>2}  {}", row.iter().collect::<String>()).trim_end();
            out.push('\n');
        }
        out += format!("    {}", files.iter().collect::<String>()).trim_end();
        out.push('\n');
        out
    }

    /// A built-in board: the 5-wide main grid (RULES.md 1) and its privy or triangle.
    fn build(kind: BoardKind) -> Board {
        let ranks = if kind == BoardKind::Hyde { 9 } else { 5 };
        let main = |x: i32, y: i32| format!("{}{}", (b'a' + x as u8) as char, y + 1);
        let mut points = Vec::new();
        let mut links: Vec<(String, String)> = Vec::new();
        for y in 0..ranks {
            for x in 0..5 {
                points.push((main(x, y), (2 * x, 2 * y)));
                if x + 1 < 5 {
                    links.push((main(x, y), main(x + 1, y)));
                }
                if y + 1 < ranks {
                    links.push((main(x, y), main(x, y + 1)));
                }
                // Alquerque diagonals leave only the points with x + y even.
                if kind != BoardKind::Hyde && (x + y) % 2 == 0 && y + 1 < ranks {
                    if x + 1 < 5 {
                        links.push((main(x, y), main(x + 1, y + 1)));
                    }
                    if x >= 1 {
                        links.push((main(x, y), main(x - 1, y + 1)));
                    }
                }
            }
        }
        let privy = match kind {
            BoardKind::Chinese => &CHINESE_PRIVY,
            BoardKind::Japanese => &JAPANESE_OPEN_TRIANGLE,
            BoardKind::JapaneseClosed => &JAPANESE_CLOSED_TRIANGLE,
            BoardKind::Hyde => &HYDE_PRIVY,
            BoardKind::Described(_) => unreachable!("described boards are assembled from their file"),
        };
        let extra: Vec<String> = privy.points.iter().map(|(label, _, _)| label.to_string()).collect();
        points.extend(privy.points.iter().map(|&(label, x2, y2)| (label.to_string(), (x2, y2))));
        links.extend(
            privy.links.iter().flat_map(|group| group.iter()).map(|(a, b)| (a.to_string(), b.to_string())),
        );
        let exits = if kind.layout() == BoardKind::Japanese {
            Vec::new()
        } else {
            ["b", "c", "d"].iter().map(|f| format!("{f}{ranks}")).collect()
        };
        let parts = BoardParts {
            kind,
            points,
            links,
            general_only: if privy.general_only { extra } else { Vec::new() },
            exits,
            apex: privy.apex.map(str::to_string),
            bottom_row: (0..5).map(|x| main(x, 0)).collect(),
        };
        let board = Board::assemble(parts).expect("the built-in boards are well formed");
        assert!(board.symmetric, "every built-in hunt board is symmetric under x ↦ 4 − x");
        board
    }

    /// Builds a board's tables from its points (labels with doubled coordinates), links and regions,
    /// or says what is wrong with them. Built-in boards put each point on the cell its label names
    /// (file → column, rank − 1 → row, so the privy holes get rows of their own, and the shipped
    /// networks keep their layout); a described board lays its points on the smallest grid whose
    /// columns and rows are its distinct x and y coordinates.
    pub fn assemble(parts: BoardParts) -> Result<Board, String> {
        let BoardParts { kind, points, links, general_only, exits, apex, bottom_row } = parts;
        if points.is_empty() || points.len() > 64 {
            return Err(format!("a board has 1 to 64 points (a u64 mask); this one has {}", points.len()));
        }
        let labels: Vec<String> = points.iter().map(|(label, _)| label.clone()).collect();
        let coords: Vec<(i32, i32)> = points.iter().map(|&(_, xy)| xy).collect();
        for (i, label) in labels.iter().enumerate() {
            if !is_label(label) {
                return Err(format!("point `{label}`: a label is a letter a-z and a rank number from 1"));
            }
            if labels[..i].contains(label) {
                return Err(format!("point `{label}` is given twice"));
            } else if let Some(j) = coords[..i].iter().position(|&c| c == coords[i]) {
                return Err(format!("points `{}` and `{label}` have the same coordinates", labels[j]));
            }
        }
        let index = |l: &str| {
            labels.iter().position(|x| x == l).map(|p| p as u8).ok_or_else(|| format!("no point `{l}`"))
        };
        let mask = |names: &[String]| names.iter().try_fold(0u64, |m, l| Ok::<_, String>(m | 1 << index(l)?));
        let n = labels.len();
        let mut neighbour = [[NONE; 8]; 64];
        for (a_label, b_label) in &links {
            let (a, b) = (index(a_label)?, index(b_label)?);
            let (ax, ay) = coords[a as usize];
            let (bx, by) = coords[b as usize];
            let (dx, dy) = (bx - ax, by - ay);
            if a == b || !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
                return Err(format!(
                    "link {a_label}-{b_label} is not horizontal, vertical or at 45° (RULES.md 1: a direction is a compass direction)"
                ));
            }
            let d = DIRECTIONS
                .iter()
                .position(|&(ux, uy)| ux == dx.signum() && uy == dy.signum())
                .expect("a non-zero vector at a multiple of 45° has a compass direction");
            for (from, to, dir) in [(a, b, d), (b, a, opposite(d))] {
                let there = neighbour[from as usize][dir];
                if there != NONE {
                    return Err(format!(
                        "links {}-{} and {}-{} leave {} in the same direction",
                        labels[from as usize],
                        labels[there as usize],
                        labels[from as usize],
                        labels[to as usize],
                        labels[from as usize]
                    ));
                }
                neighbour[from as usize][dir] = to;
            }
        }
        let adjacent = neighbour.map(|ns| ns.iter().filter(|&&q| q != NONE).fold(0, |m, &q| m | 1 << q));
        let directions = neighbour.map(|ns| (0..8).filter(|&d| ns[d] != NONE).fold(0u8, |m, d| m | 1 << d));
        let pairs = neighbour.map(|ns| {
            std::array::from_fn(|d| {
                if ns[d] != NONE && ns[opposite(d)] != NONE {
                    (1u64 << ns[d]) | (1u64 << ns[opposite(d)])
                } else {
                    0
                }
            })
        });
        let mut label_order: Vec<u8> = (0..n as u8).collect();
        label_order.sort_by_key(|&p| {
            let label = &labels[p as usize];
            (label.as_bytes()[0], label[1..].parse::<u32>().expect("labels are checked"))
        });
        let (cells, grid) = if matches!(kind, BoardKind::Described(_)) {
            coordinate_cells(&coords)
        } else {
            let cells: Vec<(usize, usize)> = labels
                .iter()
                .map(|l| {
                    (
                        (l.as_bytes()[0] - b'a') as usize,
                        l[1..].parse::<usize>().expect("labels are checked") - 1,
                    )
                })
                .collect();
            let ranks = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
            // Two spare rows: the Chinese and Japanese boards' privy ranks 6 and 7 above rank 5.
            (cells, (5, if kind == BoardKind::Hyde { ranks } else { 7 }))
        };
        let (privy, exits, bottom_row) = (mask(&general_only)?, mask(&exits)?, mask(&bottom_row)?);
        let apex = apex.as_deref().map(index).transpose()?;
        let mut board = Board {
            kind,
            apex,
            labels,
            coords,
            neighbour,
            adjacent,
            directions,
            pairs,
            privy,
            exits,
            bottom_row,
            label_order,
            cells,
            grid,
            mirror: [NONE; 64],
            symmetric: false,
        };
        if let Some(mirror) = board.find_mirror() {
            board.mirror = mirror;
            board.symmetric = true;
        }
        Ok(board)
    }

    /// The image of each point under the left-right mirror through the board's middle, when the mirror
    /// maps the board, its links and its regions onto themselves.
    fn find_mirror(&self) -> Option<[u8; 64]> {
        let (low, high) =
            self.coords.iter().fold((i32::MAX, i32::MIN), |(l, h), &(x, _)| (l.min(x), h.max(x)));
        let mut mirror = [NONE; 64];
        for (point, &(x, y)) in self.coords.iter().enumerate() {
            mirror[point] = self.coords.iter().position(|&c| c == (low + high - x, y))? as u8;
        }
        let image =
            |mask: u64| (0..self.len()).filter(|&p| mask >> p & 1 == 1).fold(0u64, |m, p| m | 1 << mirror[p]);
        // E ↔ W, NE ↔ NW, SE ↔ SW: the compass mirror of direction d is (12 − d) mod 8.
        let links_map = (0..self.len()).all(|p| {
            (0..8).all(|d| {
                let q = self.neighbour[p][d];
                let there = self.neighbour[mirror[p] as usize][(12 - d) % 8];
                if q == NONE { there == NONE } else { there == mirror[q as usize] }
            })
        });
        let regions_map = [self.privy, self.exits, self.bottom_row].iter().all(|&m| image(m) == m)
            && self.apex.map(|a| mirror[a as usize]) == self.apex;
        (links_map && regions_map).then_some(mirror)
    }
}

/// A point label: a letter a-z then a rank number from 1 (move notation and label order read them so).
fn is_label(label: &str) -> bool {
    let mut chars = label.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && label[1..].parse::<u32>().is_ok_and(|rank| rank >= 1)
        && label[1..].bytes().all(|b| b.is_ascii_digit())
}

/// Each point's cell on the smallest grid that keeps the points' order: columns are the distinct x
/// coordinates in order, rows the distinct y coordinates.
fn coordinate_cells(coords: &[(i32, i32)]) -> (Vec<(usize, usize)>, (usize, usize)) {
    let distinct = |values: Vec<i32>| {
        let mut values = values;
        values.sort_unstable();
        values.dedup();
        values
    };
    let xs = distinct(coords.iter().map(|c| c.0).collect());
    let ys = distinct(coords.iter().map(|c| c.1).collect());
    let cells = coords
        .iter()
        .map(|&(x, y)| (xs.binary_search(&x).expect("listed"), ys.binary_search(&y).expect("listed")))
        .collect();
    (cells, (xs.len(), ys.len()))
}

/// What a board is made of before its tables are built: points (labels with doubled coordinates, so
/// half units are integers), links, and the regions the rules read.
pub struct BoardParts {
    pub kind: BoardKind,
    pub points: Vec<(String, (i32, i32))>,
    pub links: Vec<(String, String)>,
    /// Points only the General may stand on.
    pub general_only: Vec<String>,
    /// The points whose occupation by Rebels is a blockade of the General-only points.
    pub exits: Vec<String>,
    pub apex: Option<String>,
    pub bottom_row: Vec<String>,
}

/// The points beyond the 5-wide main board (doubled coordinates), their links and the drawing.
struct Privy {
    points: &'static [(&'static str, i32, i32)],
    /// Groups of links, read one after the other.
    links: &'static [&'static [(&'static str, &'static str)]],
    apex: Option<&'static str>,
    /// Whether only the General may stand on these points.
    general_only: bool,
}

const CHINESE_PRIVY: Privy = Privy {
    points: &[("b6", 3, 9), ("c6", 4, 9), ("d6", 5, 9), ("c7", 4, 10)],
    links: &[&[
        ("b5", "b6"),
        ("c5", "c6"),
        ("d5", "d6"),
        ("b6", "c6"),
        ("c6", "d6"),
        ("b6", "c7"),
        ("c6", "c7"),
        ("d6", "c7"),
    ]],
    apex: Some("c7"),
    general_only: true,
};

const JAPANESE_POINTS: &[(&str, i32, i32)] =
    &[("b6", 3, 9), ("c6", 4, 9), ("d6", 5, 9), ("b7", 2, 10), ("c7", 4, 10), ("d7", 6, 10)];
const JAPANESE_LINKS: [(&str, &str); 10] = [
    ("c5", "b6"),
    ("c5", "c6"),
    ("c5", "d6"),
    ("b6", "c6"),
    ("c6", "d6"),
    ("b6", "b7"),
    ("c6", "c7"),
    ("d6", "d7"),
    ("b7", "c7"),
    ("c7", "d7"),
];
/// The sides of the inner triangle, drawn in when the triangle is open (R12). Each is a line of two
/// points: no link leaves b6 or d6 opposite c7, nor c7 opposite them, so nothing leaps along them.
const JAPANESE_INNER_LINKS: [(&str, &str); 2] = [("b6", "c7"), ("d6", "c7")];

const JAPANESE_OPEN_TRIANGLE: Privy = Privy {
    points: JAPANESE_POINTS,
    links: &[&JAPANESE_LINKS, &JAPANESE_INNER_LINKS],
    apex: None,
    general_only: false,
};

const JAPANESE_CLOSED_TRIANGLE: Privy =
    Privy { points: JAPANESE_POINTS, links: &[&JAPANESE_LINKS], apex: None, general_only: true };

const HYDE_PRIVY: Privy = Privy {
    points: &[("b10", 3, 17), ("c10", 4, 17), ("d10", 5, 17), ("c11", 4, 18)],
    links: &[&[("b9", "b10"), ("b10", "c11"), ("c9", "c10"), ("c10", "c11"), ("d9", "d10"), ("d10", "c11")]],
    apex: Some("c11"),
    general_only: true,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::hunt::opposite_across;

    #[test]
    fn boards_have_the_points_and_links_of_rules_section_1() {
        let chinese = Board::get(BoardKind::Chinese);
        assert_eq!(chinese.len(), 29);
        let p = |l: &str| chinese.point(l).unwrap();
        // c3 is an alquerque crossing with eight neighbours; b3 has only four.
        assert_eq!(chinese.adjacent[p("c3") as usize].count_ones(), 8);
        assert_eq!(chinese.adjacent[p("b3") as usize].count_ones(), 4);
        // The privy: b6 touches b5, c6 and the apex.
        let b6: Vec<&str> = chinese.labels_of(chinese.adjacent[p("b6") as usize]);
        assert_eq!(b6, vec!["b5", "c6", "c7"]);
        // b5-b6-c7 is one line; c5-c6-c7 is the c-file continued.
        assert_eq!(chinese.pairs[p("b6") as usize].iter().filter(|&&m| m != 0).count(), 1);
        assert_eq!(
            chinese.labels_of(chinese.pairs[p("c6") as usize].iter().fold(0, |m, x| m | x)),
            vec!["b6", "c5", "c7", "d6"]
        );

        let hyde = Board::get(BoardKind::Hyde);
        assert_eq!(hyde.len(), 49);
        let h = |l: &str| hyde.point(l).unwrap();
        // No link along the privy's base (R3).
        assert_eq!(hyde.labels_of(hyde.adjacent[h("c10") as usize]), vec!["c9", "c11"]);
        assert_eq!(hyde.labels_of(hyde.exits), vec!["b9", "c9", "d9"]);

        for kind in [BoardKind::Japanese, BoardKind::JapaneseClosed] {
            let japanese = Board::get(kind);
            assert_eq!(japanese.len(), 31);
            let j = |l: &str| japanese.point(l).unwrap();
            assert_eq!(
                japanese.labels_of(japanese.adjacent[j("c5") as usize]),
                vec!["b4", "b5", "b6", "c4", "c6", "d4", "d5", "d6"]
            );
            assert_eq!(japanese.mirror, Board::get(BoardKind::Japanese).mirror);
        }
        // The open triangle (R12) adds the inner sides b6-c7 and d6-c7, each a line of two points, and
        // has no General-only points; the closed one has neither link and is the General's alone.
        let open = Board::get(BoardKind::Japanese);
        let o = |l: &str| open.point(l).unwrap();
        assert_eq!(open.labels_of(open.adjacent[o("c7") as usize]), vec!["b6", "b7", "c6", "d6", "d7"]);
        assert_eq!(open.labels_of(open.adjacent[o("b6") as usize]), vec!["b7", "c5", "c6", "c7"]);
        for (point, neighbour) in [("b6", "c7"), ("d6", "c7"), ("c7", "b6"), ("c7", "d6")] {
            assert_eq!(
                opposite_across(open, o(point), o(neighbour)),
                None,
                "{point}-{neighbour} is a two-point line"
            );
        }
        assert_eq!(open.privy, 0);
        let closed = Board::get(BoardKind::JapaneseClosed);
        let c = |l: &str| closed.point(l).unwrap();
        assert_eq!(closed.labels_of(closed.adjacent[c("c7") as usize]), vec!["b7", "c6", "d7"]);
        assert_eq!(closed.labels_of(closed.privy), vec!["b6", "b7", "c6", "c7", "d6", "d7"]);
    }

    #[test]
    fn label_order_puts_rank_numbers_in_numeric_order() {
        let hyde = Board::get(BoardKind::Hyde);
        let mask = (1u64 << hyde.point("b9").unwrap()) | (1 << hyde.point("b10").unwrap());
        assert_eq!(hyde.labels_of(mask), vec!["b9", "b10"]);
    }

    /// The drawings made from the points' coordinates are the boards as drawn by hand.
    #[test]
    fn boards_draw_as_drawn_by_hand() {
        for (kind, drawn) in [
            (BoardKind::Chinese, CHINESE),
            (BoardKind::Japanese, JAPANESE_OPEN),
            (BoardKind::JapaneseClosed, JAPANESE_CLOSED),
            (BoardKind::Hyde, HYDE),
        ] {
            assert_eq!(Board::get(kind).draw(|_| '@'), format!("{drawn}\n"), "{kind:?}");
        }
    }

    const CHINESE: &str = r"
 7          @
           /|\
 6        @-@-@
         /  |  \
 5  @---@---@---@---@
    | \ | / | \ | / |
 4  @---@---@---@---@
    | / | \ | / | \ |
 3  @---@---@---@---@
    | \ | / | \ | / |
 2  @---@---@---@---@
    | / | \ | / | \ |
 1  @---@---@---@---@
    a   b   c   d   e";

    const JAPANESE_OPEN: &str = r"
 7      @---@---@
         \ /|\ /
 6        @-@-@
           \|/
 5  @---@---@---@---@
    | \ | / | \ | / |
 4  @---@---@---@---@
    | / | \ | / | \ |
 3  @---@---@---@---@
    | \ | / | \ | / |
 2  @---@---@---@---@
    | / | \ | / | \ |
 1  @---@---@---@---@
    a   b   c   d   e";

    const JAPANESE_CLOSED: &str = r"
 7      @---@---@
         \  |  /
 6        @-@-@
           \|/
 5  @---@---@---@---@
    | \ | / | \ | / |
 4  @---@---@---@---@
    | / | \ | / | \ |
 3  @---@---@---@---@
    | \ | / | \ | / |
 2  @---@---@---@---@
    | / | \ | / | \ |
 1  @---@---@---@---@
    a   b   c   d   e";

    const HYDE: &str = r"
11          @
           /|\
10        @ @ @
         /  |  \
 9  @---@---@---@---@
    |   |   |   |   |
 8  @---@---@---@---@
    |   |   |   |   |
 7  @---@---@---@---@
    |   |   |   |   |
 6  @---@---@---@---@
    |   |   |   |   |
 5  @---@---@---@---@
    |   |   |   |   |
 4  @---@---@---@---@
    |   |   |   |   |
 3  @---@---@---@---@
    |   |   |   |   |
 2  @---@---@---@---@
    |   |   |   |   |
 1  @---@---@---@---@
    a   b   c   d   e";

    #[test]
    fn drawings_place_every_point() {
        for kind in [BoardKind::Chinese, BoardKind::Japanese, BoardKind::JapaneseClosed, BoardKind::Hyde] {
            let board = Board::get(kind);
            let drawn = board.draw(|_| '@');
            assert_eq!(drawn.matches('@').count(), board.len(), "{kind:?}");
        }
    }
}
