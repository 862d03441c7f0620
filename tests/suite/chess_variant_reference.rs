//! An independent, deliberately naive reference of the chess family (RULES.md 0, 6, 7; R9, R10),
//! written from the rules text alone, compared with the engine over seeded random play.
//!
//! The reference knows nothing of the engine's internals: an 8×8 array board, pseudo-legal moves by
//! walking rays, legality by "is my king attacked afterwards" with an attack test that walks outward
//! from the king. Every generated move carries the position it leads to, so perft and the positions the
//! engine reaches can be compared directly.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rebel_zero::game::chess::ChessGame;
use rebel_zero::game::perft::perft;
use rebel_zero::game::{Game, Outcome, Reason, Side};

// ---------------------------------------------------------------------------------------------------
// Board

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    P,
    N,
    B,
    R,
    Q,
    K,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    white: bool,
    kind: Kind,
}

/// (file, rank), both 0..8.
type Sq = (i32, i32);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Variant {
    Chess,
    Rebellion,
    Squirm,
}

#[derive(Clone, Copy, Debug)]
struct Rules {
    variant: Variant,
    berolina: bool,
}

impl Rules {
    fn of_spec(spec: &str) -> Rules {
        let variant = if spec.starts_with("rebellion-chess") {
            Variant::Rebellion
        } else if spec.starts_with("squirm-chess") {
            Variant::Squirm
        } else {
            Variant::Chess
        };
        Rules { variant, berolina: spec.contains("pawns=berolina") }
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Pos {
    /// `board[file][rank]`.
    board: [[Option<Piece>; 8]; 8],
    white_to_move: bool,
    /// K, Q, k, q.
    castle: [bool; 4],
    /// (square passed over, pawn that double-stepped).
    ep: Option<(Sq, Sq)>,
    /// Squirm chess: the square of the piece that made the opponent's last normal move.
    squirm: Option<Sq>,
    halfmove: u32,
}

fn on_board((f, r): Sq) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn sq_name((f, r): Sq) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn parse_sq(s: &str) -> Sq {
    let b = s.as_bytes();
    assert_eq!(b.len(), 2, "square `{s}`");
    let sq = ((b[0] as i32) - ('a' as i32), (b[1] as i32) - ('1' as i32));
    assert!(on_board(sq), "square `{s}`");
    sq
}

impl Pos {
    fn at(&self, (f, r): Sq) -> Option<Piece> {
        self.board[f as usize][r as usize]
    }

    fn put(&mut self, (f, r): Sq, p: Option<Piece>) {
        self.board[f as usize][r as usize] = p;
    }

    fn empty(&self, s: Sq) -> bool {
        self.at(s).is_none()
    }

    fn has(&self, s: Sq, white: bool, kind: Kind) -> bool {
        on_board(s) && self.at(s) == Some(Piece { white, kind })
    }

    fn king(&self, white: bool) -> Option<Sq> {
        squares().find(|&s| self.at(s) == Some(Piece { white, kind: Kind::K }))
    }

    fn placement(&self) -> String {
        let mut out = String::new();
        for r in (0..8).rev() {
            let mut run = 0;
            for f in 0..8 {
                match self.at((f, r)) {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        let c = match p.kind {
                            Kind::P => 'p',
                            Kind::N => 'n',
                            Kind::B => 'b',
                            Kind::R => 'r',
                            Kind::Q => 'q',
                            Kind::K => 'k',
                        };
                        out.push(if p.white { c.to_ascii_uppercase() } else { c });
                    }
                }
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
            if r > 0 {
                out.push('/');
            }
        }
        out
    }

    fn castle_text(&self) -> String {
        let t: String = "KQkq".chars().zip(self.castle).filter(|&(_, on)| on).map(|(c, _)| c).collect();
        if t.is_empty() { "-".to_string() } else { t }
    }
}

fn squares() -> impl Iterator<Item = Sq> {
    (0..8).flat_map(|f| (0..8).map(move |r| (f, r)))
}

fn parse_fen(fen: &str, rules: Rules) -> Pos {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    assert!(fields.len() >= 4, "FEN `{fen}`");
    let mut pos = Pos {
        board: [[None; 8]; 8],
        white_to_move: fields[1] == "w",
        castle: [false; 4],
        ep: None,
        squirm: None,
        halfmove: fields.get(4).map_or(0, |h| h.parse().unwrap()),
    };
    for (i, row) in fields[0].split('/').enumerate() {
        let r = 7 - i as i32;
        let mut f = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                f += d as i32;
                continue;
            }
            let kind = match c.to_ascii_lowercase() {
                'p' => Kind::P,
                'n' => Kind::N,
                'b' => Kind::B,
                'r' => Kind::R,
                'q' => Kind::Q,
                'k' => Kind::K,
                _ => panic!("FEN `{fen}`: piece {c}"),
            };
            pos.put((f, r), Some(Piece { white: c.is_ascii_uppercase(), kind }));
            f += 1;
        }
    }
    for (i, c) in "KQkq".chars().enumerate() {
        pos.castle[i] = fields[2].contains(c);
    }
    let ep = fields[3];
    if ep != "-" {
        let target = parse_sq(&ep[..2]);
        // The pawn that double-stepped belongs to the side not to move.
        let mover_white = !pos.white_to_move;
        let dir = if mover_white { 1 } else { -1 };
        let victim = if ep.len() == 4 {
            parse_sq(&ep[2..])
        } else if !rules.berolina {
            (target.0, target.1 + dir)
        } else {
            let cands: Vec<Sq> = [-1, 1]
                .into_iter()
                .map(|dx| (target.0 + dx, target.1 + dir))
                .filter(|&(f, r)| pos.has((f, r), mover_white, Kind::P))
                // It came from the square diagonally behind the passed-over one, now empty.
                .filter(|&(f, r)| pos.empty((2 * target.0 - f, 2 * target.1 - r)))
                .collect();
            // A one-square field with two candidate pawns is only acceptable where no pawn of the
            // side to move stands behind the square to capture (then the right is void).
            let capturer = pos.has((target.0, target.1 + dir), !mover_white, Kind::P);
            assert!(cands.len() == 1 || !capturer, "FEN `{fen}`: Berolina en passant is ambiguous");
            cands.first().copied().unwrap_or(target)
        };
        pos.ep = Some((target, victim));
    }
    if rules.variant == Variant::Squirm {
        let field = fields.get(6).copied().unwrap_or("-");
        if field != "-" {
            pos.squirm = Some(parse_sq(field));
        }
    }
    pos
}

// ---------------------------------------------------------------------------------------------------
// Attacks

const KNIGHT: [Sq; 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING: [Sq; 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
const ORTHO: [Sq; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [Sq; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Whether a piece of side `by_white` attacks `t` (could capture there).
fn attacked(pos: &Pos, t: Sq, by_white: bool, rules: Rules) -> bool {
    let fwd = if by_white { 1 } else { -1 };
    if rules.berolina {
        // A Berolina pawn captures straight forward.
        if pos.has((t.0, t.1 - fwd), by_white, Kind::P) {
            return true;
        }
    } else {
        for dx in [-1, 1] {
            if pos.has((t.0 + dx, t.1 - fwd), by_white, Kind::P) {
                return true;
            }
        }
    }
    if KNIGHT.iter().any(|&(dx, dy)| pos.has((t.0 + dx, t.1 + dy), by_white, Kind::N)) {
        return true;
    }
    if KING.iter().any(|&(dx, dy)| pos.has((t.0 + dx, t.1 + dy), by_white, Kind::K)) {
        return true;
    }
    for (dirs, slider) in [(ORTHO, Kind::R), (DIAG, Kind::B)] {
        for (dx, dy) in dirs {
            let mut s = (t.0 + dx, t.1 + dy);
            while on_board(s) {
                if let Some(p) = pos.at(s) {
                    if p.white == by_white && (p.kind == slider || p.kind == Kind::Q) {
                        return true;
                    }
                    break;
                }
                s = (s.0 + dx, s.1 + dy);
            }
        }
    }
    false
}

fn king_attacked(pos: &Pos, white: bool, rules: Rules) -> bool {
    pos.king(white).is_some_and(|k| attacked(pos, k, !white, rules))
}

// ---------------------------------------------------------------------------------------------------
// Normal moves

#[derive(Clone, Copy, Debug)]
struct NMove {
    from: Sq,
    to: Sq,
    promo: Option<Kind>,
    ep_victim: Option<Sq>,
    ep_set: Option<Sq>,
    rook: Option<(Sq, Sq)>,
}

impl NMove {
    fn text(&self) -> String {
        let promo = match self.promo {
            None => "",
            Some(Kind::Q) => "q",
            Some(Kind::R) => "r",
            Some(Kind::B) => "b",
            Some(Kind::N) => "n",
            Some(k) => panic!("promotion to {k:?}"),
        };
        format!("{}{}{promo}", sq_name(self.from), sq_name(self.to))
    }
}

fn pseudo_normal(pos: &Pos, rules: Rules) -> Vec<NMove> {
    let me = pos.white_to_move;
    let fwd = if me { 1 } else { -1 };
    let start_rank = if me { 1 } else { 6 };
    let last_rank = if me { 7 } else { 0 };
    let mut out = Vec::new();
    let simple = |from, to| NMove { from, to, promo: None, ep_victim: None, ep_set: None, rook: None };
    let enemy = |s: Sq| pos.at(s).is_some_and(|p| p.white != me);
    let enemy_or_empty = |s: Sq| pos.at(s).is_none_or(|p| p.white != me);
    for s in squares() {
        let Some(p) = pos.at(s) else { continue };
        if p.white != me {
            continue;
        }
        match p.kind {
            Kind::P => {
                let mut pawn = |m: NMove| {
                    if m.to.1 == last_rank {
                        for k in [Kind::Q, Kind::R, Kind::B, Kind::N] {
                            out.push(NMove { promo: Some(k), ..m });
                        }
                    } else {
                        out.push(m);
                    }
                };
                let ep_here = |to: Sq| -> Option<Sq> {
                    let (target, victim) = pos.ep?;
                    (target == to && pos.empty(to) && pos.has(victim, !me, Kind::P)).then_some(victim)
                };
                if !rules.berolina {
                    let one = (s.0, s.1 + fwd);
                    if on_board(one) && pos.empty(one) {
                        pawn(simple(s, one));
                        let two = (s.0, s.1 + 2 * fwd);
                        if s.1 == start_rank && pos.empty(two) {
                            pawn(NMove { ep_set: Some(one), ..simple(s, two) });
                        }
                    }
                    for dx in [-1, 1] {
                        let to = (s.0 + dx, s.1 + fwd);
                        if !on_board(to) {
                            continue;
                        }
                        if enemy(to) {
                            pawn(simple(s, to));
                        } else if let Some(v) = ep_here(to) {
                            pawn(NMove { ep_victim: Some(v), ..simple(s, to) });
                        }
                    }
                } else {
                    for dx in [-1, 1] {
                        let to = (s.0 + dx, s.1 + fwd);
                        if on_board(to) && pos.empty(to) {
                            pawn(simple(s, to));
                            let two = (s.0 + 2 * dx, s.1 + 2 * fwd);
                            if s.1 == start_rank && on_board(two) && pos.empty(two) {
                                pawn(NMove { ep_set: Some(to), ..simple(s, two) });
                            }
                        }
                    }
                    let to = (s.0, s.1 + fwd);
                    if on_board(to) {
                        if enemy(to) {
                            pawn(simple(s, to));
                        } else if let Some(v) = ep_here(to) {
                            pawn(NMove { ep_victim: Some(v), ..simple(s, to) });
                        }
                    }
                }
            }
            Kind::N | Kind::K => {
                let offsets = if p.kind == Kind::N { KNIGHT } else { KING };
                for (dx, dy) in offsets {
                    let to = (s.0 + dx, s.1 + dy);
                    if on_board(to) && enemy_or_empty(to) {
                        out.push(simple(s, to));
                    }
                }
            }
            Kind::B | Kind::R | Kind::Q => {
                let dirs: Vec<Sq> = match p.kind {
                    Kind::B => DIAG.to_vec(),
                    Kind::R => ORTHO.to_vec(),
                    _ => DIAG.iter().chain(ORTHO.iter()).copied().collect(),
                };
                for (dx, dy) in dirs {
                    let mut to = (s.0 + dx, s.1 + dy);
                    while on_board(to) {
                        if enemy_or_empty(to) {
                            out.push(simple(s, to));
                        }
                        if !pos.empty(to) {
                            break;
                        }
                        to = (to.0 + dx, to.1 + dy);
                    }
                }
            }
        }
    }
    // Castling: king on e1/e8, the rook on its corner, the squares between empty, and the king neither
    // in check nor passing through or landing on an attacked square.
    let rank = if me { 0 } else { 7 };
    let (k_right, q_right) = if me { (0, 1) } else { (2, 3) };
    if pos.has((4, rank), me, Kind::K) {
        if pos.castle[k_right]
            && pos.has((7, rank), me, Kind::R)
            && pos.empty((5, rank))
            && pos.empty((6, rank))
            && [4, 5, 6].iter().all(|&f| !attacked(pos, (f, rank), !me, rules))
        {
            out.push(NMove { rook: Some(((7, rank), (5, rank))), ..simple((4, rank), (6, rank)) });
        }
        if pos.castle[q_right]
            && pos.has((0, rank), me, Kind::R)
            && [1, 2, 3].iter().all(|&f| pos.empty((f, rank)))
            && [4, 3, 2].iter().all(|&f| !attacked(pos, (f, rank), !me, rules))
        {
            out.push(NMove { rook: Some(((0, rank), (3, rank))), ..simple((4, rank), (2, rank)) });
        }
    }
    out
}

fn clear_corner(pos: &mut Pos, s: Sq) {
    match s {
        (7, 0) => pos.castle[0] = false,
        (0, 0) => pos.castle[1] = false,
        (7, 7) => pos.castle[2] = false,
        (0, 7) => pos.castle[3] = false,
        _ => {}
    }
}

/// Plays a normal move and passes the turn. The squirmable square becomes the moved piece's destination
/// (the king's after castling, R10).
fn apply_normal(pos: &Pos, m: &NMove) -> Pos {
    let mut p = pos.clone();
    let piece = p.at(m.from).expect("a piece to move");
    let capture = p.at(m.to).is_some() || m.ep_victim.is_some();
    p.put(m.from, None);
    if let Some(v) = m.ep_victim {
        p.put(v, None);
    }
    p.put(m.to, Some(m.promo.map_or(piece, |kind| Piece { white: piece.white, kind })));
    if let Some((rf, rt)) = m.rook {
        let rook = p.at(rf);
        p.put(rf, None);
        p.put(rt, rook);
    }
    if piece.kind == Kind::K {
        let (a, b) = if piece.white { (0, 1) } else { (2, 3) };
        p.castle[a] = false;
        p.castle[b] = false;
    }
    clear_corner(&mut p, m.from);
    clear_corner(&mut p, m.to);
    p.ep = m.ep_set.map(|e| (e, m.to));
    p.squirm = Some(m.to);
    p.halfmove = if capture || piece.kind == Kind::P { 0 } else { p.halfmove + 1 };
    p.white_to_move = !p.white_to_move;
    p
}

// ---------------------------------------------------------------------------------------------------
// Rebel steps (6.2, R9)

/// Destinations of rebel steps of the piece on `s`, directions measured from its owner's side.
fn rebel_steps(pos: &Pos, s: Sq) -> Vec<Sq> {
    let p = pos.at(s).expect("a piece to step");
    let d = if p.white { 1 } else { -1 };
    let (f, fl, fr, l, r) = ((0, d), (-d, d), (d, d), (-d, 0), (d, 0));
    let dirs: Vec<Sq> = match p.kind {
        Kind::P => vec![l, r],
        Kind::N => vec![f, fl, fr, l, r],
        Kind::B => vec![f, l, r],
        Kind::R => vec![fl, fr],
        Kind::Q | Kind::K => vec![],
    };
    dirs.into_iter()
        .map(|(dx, dy)| (s.0 + dx, s.1 + dy))
        .filter(|&to| on_board(to) && pos.empty(to))
        .collect()
}

/// Plays a rebel step without passing the turn: no promotion, en passant cleared, castling right lost
/// for a rook stepped off its corner, the fifty-move counter untouched (the turn counts it).
fn apply_step(pos: &Pos, from: Sq, to: Sq) -> Pos {
    let mut p = pos.clone();
    let piece = p.at(from);
    p.put(from, None);
    p.put(to, piece);
    clear_corner(&mut p, from);
    p.ep = None;
    p
}

// ---------------------------------------------------------------------------------------------------
// Legal turns

fn step_text(from: Sq, to: Sq) -> String {
    format!("r:{}{}", sq_name(from), sq_name(to))
}

/// Every legal turn with the position it leads to.
fn legal(pos: &Pos, rules: Rules) -> Vec<(String, Pos)> {
    let me = pos.white_to_move;
    let mut out = Vec::new();
    match rules.variant {
        Variant::Chess | Variant::Rebellion => {
            for m in pseudo_normal(pos, rules) {
                let next = apply_normal(pos, &m);
                if !king_attacked(&next, me, rules) {
                    out.push((m.text(), next));
                }
            }
            if rules.variant == Variant::Rebellion {
                for s in squares() {
                    if pos.at(s).is_none_or(|p| p.white == me) {
                        continue;
                    }
                    for to in rebel_steps(pos, s) {
                        let mut next = apply_step(pos, s, to);
                        next.white_to_move = !me;
                        next.halfmove += 1;
                        next.squirm = None;
                        if !king_attacked(&next, me, rules) {
                            out.push((step_text(s, to), next));
                        }
                    }
                }
            }
        }
        Variant::Squirm => {
            for (text, next) in squirm_normal(pos, rules) {
                out.push((text, next));
            }
            if let Some(s) = pos.squirm.filter(|&s| pos.at(s).is_some_and(|p| p.white != me)) {
                for to in rebel_steps(pos, s) {
                    let after = apply_step(pos, s, to);
                    if king_attacked(&after, me, rules) && !king_attacked(pos, me, rules) {
                        SELF_CHECKING_SQUIRMS.with(|c| c.set(c.get() + 1));
                    }
                    for (text, next) in squirm_normal(&after, rules) {
                        out.push((format!("{}+{text}", step_text(s, to)), next));
                    }
                }
            }
        }
    }
    out
}

/// Squirm chess: the legal normal moves from `pos` (possibly after a squirm). The mover's king must not
/// be attacked afterwards, nor after any squirm the opponent could then make with the moved piece.
fn squirm_normal(pos: &Pos, rules: Rules) -> Vec<(String, Pos)> {
    let me = pos.white_to_move;
    let mut out = Vec::new();
    for m in pseudo_normal(pos, rules) {
        let next = apply_normal(pos, &m);
        if king_attacked(&next, me, rules) {
            continue;
        }
        let punished = rebel_steps(&next, m.to)
            .into_iter()
            .any(|to| king_attacked(&apply_step(&next, m.to, to), me, rules));
        if punished {
            PUNISHED.with(|c| c.set(c.get() + 1));
        } else {
            out.push((m.text(), next));
        }
    }
    out
}

thread_local! {
    /// Normal moves rejected because a squirm of the moved piece would expose the mover's king.
    static PUNISHED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Squirms that uncover an attack on the squirmer's own king.
    static SELF_CHECKING_SQUIRMS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn ref_perft(pos: &Pos, rules: Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal(pos, rules);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|(_, next)| ref_perft(next, rules, depth - 1)).sum()
}

/// The result when no turn is legal: checkmate if the king is attacked at the start of the turn.
fn ref_no_moves(pos: &Pos, rules: Rules) -> Outcome {
    let me = pos.white_to_move;
    if king_attacked(pos, me, rules) {
        Outcome::win(if me { Side::ONE } else { Side::ZERO }, Reason::Checkmate)
    } else {
        Outcome::draw(Reason::Stalemate)
    }
}

/// The en-passant right that matters: one some pawn of the side to move could use (pseudo-legally).
fn effective_ep(pos: &Pos, rules: Rules) -> Option<(Sq, Sq)> {
    pos.ep.filter(|_| pseudo_normal(pos, rules).iter().any(|m| m.ep_victim.is_some()))
}

// ---------------------------------------------------------------------------------------------------
// Comparison with the engine

use rebel_zero::game::testkit::chess_game as game;

fn engine_moves(
    g: &ChessGame,
    state: &<ChessGame as Game>::State,
) -> Vec<(String, <ChessGame as Game>::Move)> {
    let mut moves = <ChessGame as Game>::Moves::default();
    g.legal_moves(state, &mut moves);
    let mut out: Vec<_> = moves.iter().map(|&m| (g.format_move(state, m), m)).collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Start positions besides the initial one: castling, en passant and promotion happen sooner here.
const EXTRA_STARTS: [&str; 4] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
];

struct Tally {
    positions: usize,
    perfts: usize,
    mates: usize,
    stalemates: usize,
    /// Positions where each feature of [`FEATURES`] had at least one legal move.
    features: [usize; FEATURES.len()],
    problems: Vec<String>,
}

const FEATURES: [&str; 7] = [
    "castling",
    "castling after a squirm",
    "en passant",
    "promotion",
    "rebel step of a rook off its corner with the right",
    "double step",
    "squirm turns",
];

fn piece_count(pos: &Pos) -> usize {
    squares().filter(|&s| pos.at(s).is_some()).count()
}

/// Which features the legal turns of `pos` exercise.
fn features(pos: &Pos, moves: &[(String, Pos)]) -> [bool; FEATURES.len()] {
    let mut f = [false; FEATURES.len()];
    for (text, next) in moves {
        let (squirm, normal) = match text.split_once('+') {
            Some((a, b)) => (Some(a), b),
            None => (None, text.as_str()),
        };
        if let Some(step) = normal.strip_prefix("r:") {
            let from = parse_sq(&step[..2]);
            let right = match from {
                (7, 0) => Some(0),
                (0, 0) => Some(1),
                (7, 7) => Some(2),
                (0, 7) => Some(3),
                _ => None,
            };
            f[4] |= right.is_some_and(|i| pos.castle[i]);
            continue;
        }
        f[6] |= squirm.is_some();
        let (from, to) = (parse_sq(&normal[..2]), parse_sq(&normal[2..4]));
        let kind = pos.at(from).map(|p| p.kind);
        if kind == Some(Kind::K) && (from.0 - to.0).abs() == 2 {
            f[0] = true;
            f[1] |= squirm.is_some();
        }
        if kind == Some(Kind::P) && squirm.is_none() && pos.empty(to) && piece_count(next) < piece_count(pos)
        {
            f[2] = true;
        }
        f[3] |= normal.len() == 5;
        f[5] |= kind == Some(Kind::P) && (from.1 - to.1).abs() == 2;
    }
    f
}

fn compare_spec(spec: &str, games: u64, max_plies: usize, check_every: usize, perft_every: usize) -> Tally {
    let g = game(spec);
    let rules = Rules::of_spec(spec);
    let mut tally = Tally {
        positions: 0,
        perfts: 0,
        mates: 0,
        stalemates: 0,
        features: [0; FEATURES.len()],
        problems: Vec::new(),
    };
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(0x5EED_0000 + seed);
        let mut state = match seed % 3 {
            0 | 1 => g.start(),
            _ => {
                let fen = EXTRA_STARTS[(seed / 3) as usize % EXTRA_STARTS.len()];
                let fen = if rules.variant == Variant::Squirm { format!("{fen} -") } else { fen.to_string() };
                match g.parse_position(&fen) {
                    Ok(s) => s,
                    Err(_) => g.start(), // e.g. a Berolina pawn set-up the engine rejects
                }
            }
        };
        for ply in 0..max_plies {
            let fen = g.format_position(&state);
            let pos = parse_fen(&fen, rules);
            let eng = engine_moves(&g, &state);
            let checked = ply % check_every == 0 || eng.is_empty();
            let reference = legal(&pos, rules);
            if checked {
                tally.positions += 1;
                for (count, on) in tally.features.iter_mut().zip(features(&pos, &reference)) {
                    *count += on as usize;
                }
                let mut ref_texts: Vec<&str> = reference.iter().map(|(t, _)| t.as_str()).collect();
                ref_texts.sort();
                let eng_texts: Vec<&str> = eng.iter().map(|(t, _)| t.as_str()).collect();
                if ref_texts != eng_texts {
                    let only_eng: Vec<&&str> = eng_texts.iter().filter(|t| !ref_texts.contains(t)).collect();
                    let only_ref: Vec<&&str> = ref_texts.iter().filter(|t| !eng_texts.contains(t)).collect();
                    tally.problems.push(format!(
                        "{spec} `{fen}`: engine only {only_eng:?}, reference only {only_ref:?}"
                    ));
                    break;
                }
                if rules.variant != Variant::Squirm && ply % (perft_every * 8) == 0 {
                    tally.perfts += 1;
                    let e = perft(&g, &state, 3);
                    let r = ref_perft(&pos, rules, 3);
                    if e != r {
                        tally.problems.push(format!("{spec} `{fen}`: perft 3 engine {e}, reference {r}"));
                        break;
                    }
                }
                if ply % perft_every == 0 {
                    tally.perfts += 1;
                    let e = perft(&g, &state, 2);
                    let r = ref_perft(&pos, rules, 2);
                    if e != r {
                        tally.problems.push(format!("{spec} `{fen}`: perft 2 engine {e}, reference {r}"));
                        break;
                    }
                }
            }
            if eng.is_empty() {
                let expected = ref_no_moves(&pos, rules);
                if expected.reason == Reason::Checkmate {
                    tally.mates += 1;
                } else {
                    tally.stalemates += 1;
                }
                if g.outcome(&state) != Some(expected) {
                    tally.problems.push(format!(
                        "{spec} `{fen}`: engine outcome {:?}, reference {expected:?}",
                        g.outcome(&state)
                    ));
                }
                break;
            }
            // Odd seeds prefer checks and captures (by the reference's reckoning) to reach more endings.
            let forcing: Vec<usize> = (0..eng.len())
                .filter(|&i| {
                    reference.iter().find(|(t, _)| *t == eng[i].0).is_some_and(|(_, next)| {
                        king_attacked(next, next.white_to_move, rules)
                            || piece_count(next) < piece_count(&pos)
                    })
                })
                .collect();
            let pick = if seed % 2 == 1 && !forcing.is_empty() && rng.random_range(0..4) != 0 {
                forcing[rng.random_range(0..forcing.len())]
            } else {
                rng.random_range(0..eng.len())
            };
            let (text, mv) = &eng[pick];
            g.apply(&mut state, *mv);
            // The engine's position after the move against the reference's.
            let Some((_, mine)) = reference.iter().find(|(t, _)| t == text) else {
                tally.problems.push(format!("{spec} `{fen}`: engine move {text} unknown to the reference"));
                break;
            };
            let after_fen = g.format_position(&state);
            let theirs = parse_fen(&after_fen, rules);
            let same = mine.board == theirs.board
                && mine.white_to_move == theirs.white_to_move
                && mine.castle_text() == theirs.castle_text()
                && effective_ep(mine, rules) == effective_ep(&theirs, rules)
                && mine.halfmove == theirs.halfmove
                && (rules.variant != Variant::Squirm || mine.squirm == theirs.squirm);
            if !same {
                tally.problems.push(format!(
                    "{spec} `{fen}` after {text}: engine `{after_fen}`, reference {} {} {} ep {:?} half {} squirm {:?}",
                    mine.placement(),
                    if mine.white_to_move { "w" } else { "b" },
                    mine.castle_text(),
                    effective_ep(mine, rules),
                    mine.halfmove,
                    mine.squirm.map(sq_name),
                ));
                break;
            }
        }
    }
    tally
}

fn run_and_report(spec: &str, games: u64, max_plies: usize, check_every: usize, perft_every: usize) {
    let t = compare_spec(spec, games, max_plies, check_every, perft_every);
    let features: Vec<String> = FEATURES.iter().zip(t.features).map(|(n, c)| format!("{n} {c}")).collect();
    eprintln!(
        "{spec}: {} positions compared, {} perft checks (depth 2, some depth 3), {} checkmates, {} stalemates, {} problems; \
         positions with {}; squirm-punished moves {}, self-checking squirms {}",
        t.positions,
        t.perfts,
        t.mates,
        t.stalemates,
        t.problems.len(),
        features.join(", "),
        PUNISHED.with(|c| c.get()),
        SELF_CHECKING_SQUIRMS.with(|c| c.get()),
    );
    assert!(t.problems.is_empty(), "{spec}: reference and engine disagree:\n{}", t.problems.join("\n"));
}

#[test]
fn reference_agrees_on_chess() {
    run_and_report("chess", 60, 200, 1, 25);
}

#[test]
fn reference_agrees_on_rebellion_chess() {
    run_and_report("rebellion-chess", 100, 200, 1, 25);
}

#[test]
fn reference_agrees_on_rebellion_chess_berolina() {
    run_and_report("rebellion-chess:pawns=berolina", 100, 200, 1, 25);
}

#[test]
fn reference_agrees_on_squirm_chess() {
    run_and_report("squirm-chess", 100, 200, 1, 40);
}

#[test]
fn reference_agrees_on_squirm_chess_berolina() {
    run_and_report("squirm-chess:pawns=berolina", 100, 200, 1, 40);
}

/// The reference itself against published perft counts (chessprogramming.org), so that agreement with
/// the engine means something.
#[test]
fn reference_matches_published_chess_perft() {
    let rules = Rules::of_spec("chess");
    let cases: [(&str, u32, u64); 5] = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3, 8_902),
        (EXTRA_STARTS[0], 2, 2_039),
        (EXTRA_STARTS[1], 2, 264),
        (EXTRA_STARTS[2], 3, 2_812),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 2, 1_486),
    ];
    for (fen, depth, expected) in cases {
        assert_eq!(ref_perft(&parse_fen(fen, rules), rules, depth), expected, "{fen}");
    }
}

/// Hand-made positions for the readings where RULES.md leaves room: the engine and the reference must
/// agree on each, and the reference's answer is asserted where the reading is stated in the report.
#[test]
fn reference_agrees_on_hand_made_edge_cases() {
    // (spec, FEN, the reference's castling turns). Castling is a normal move, so "not out of check"
    // is judged after the squirm, in the position the king castles from.
    let cases: [(&str, &str, &[&str]); 2] = [
        // A squirm that uncovers a check on the king forbids castling after it; no squirm allows it.
        ("squirm-chess", "k3r3/8/8/8/4n3/8/8/4K2R w K - 0 1 e4", &["e1g1"]),
        // A squirm that blocks the check the king stood in at the start of the turn allows castling.
        ("squirm-chess", "k3r3/8/8/8/5n2/8/8/4K2R w K - 0 1 f4", &["r:f4e4+e1g1"]),
    ];
    let mut problems = Vec::new();
    for (spec, fen, expected_castles) in cases {
        let g = game(spec);
        let rules = Rules::of_spec(spec);
        let state = g.parse_position(fen).unwrap_or_else(|e| panic!("{e}"));
        let eng: Vec<String> = engine_moves(&g, &state).into_iter().map(|(t, _)| t).collect();
        let mut reference: Vec<String> =
            legal(&parse_fen(fen, rules), rules).into_iter().map(|(t, _)| t).collect();
        reference.sort();
        let castles: Vec<&String> = reference.iter().filter(|t| t.ends_with("e1g1")).collect();
        assert_eq!(castles, expected_castles.to_vec(), "{spec} `{fen}`");
        if eng != reference {
            let only_eng: Vec<&String> = eng.iter().filter(|t| !reference.contains(t)).collect();
            let only_ref: Vec<&String> = reference.iter().filter(|t| !eng.contains(t)).collect();
            problems.push(format!("{spec} `{fen}`: engine only {only_eng:?}, reference only {only_ref:?}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
