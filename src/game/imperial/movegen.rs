//! Move generation for RULES.md section 5: rook moves, custodian capture and Rule 11.
//!
//! Every takeable man is decided before the move from masks of the position: the mover never stands
//! on a square that matters to its own capture (see [`CustodianTargets`]), so nothing is recomputed per
//! move and generation never allocates.

use super::board::{BOARD, EAST, NO_SQUARE, NORTH, SOUTH, TABLES, WEST, bit, slide, squares};
use super::state::{ALLIES, ImperialMove, ImperialState, Moves, RUSSIANS};

/// For each direction `d`, the squares where a man of the mover arriving takes the enemy man next to
/// it in direction `d`: that neighbour is an enemy man and the square beyond it holds a man of the
/// mover (never the Emperor, who does not help take).
///
/// Computing this before the move is exact: the square the mover leaves is never the square beyond
/// (it would have had to pass through the enemy man), and the square it arrives from is never an
/// enemy man (it is the mover's origin or a square it passed through).
struct CustodianTargets {
    by_direction: [u128; 4],
    any: u128,
}

impl CustodianTargets {
    #[inline]
    fn new(own: u128, enemy: u128) -> CustodianTargets {
        let mut by_direction = [0; 4];
        by_direction[NORTH] = (enemy >> 9) & (own >> 18);
        by_direction[SOUTH] = (enemy << 9) & (own << 18) & BOARD;
        by_direction[EAST] = (enemy >> 1) & (own >> 2) & TABLES.two_east;
        by_direction[WEST] = (enemy << 1) & (own << 2) & TABLES.two_west;
        let any = by_direction.iter().fold(0, |all, &set| all | set);
        CustodianTargets { by_direction, any }
    }
}

/// Rule 11 in one position with the Allies to move: the empty square that an arriving Ally must fill
/// and the Russian man that may then be taken.
///
/// Rule 11 needs, after the move, Allies on the Emperor's three other neighbours and on the square
/// beyond the man, the moved Ally among these four. No Ally can move from one of the four squares to
/// another (they never share a clear line), so the rule applies exactly when three of the four hold
/// Allies before the move and the moved Ally arrives on the fourth.
#[inline]
fn rule_eleven(s: &ImperialState) -> Option<(u8, u8)> {
    let (russians, allies) = (s.men[RUSSIANS.index()], s.men[ALLIES.index()]);
    let emperor = s.emperor as usize;
    for d in 0..4 {
        let man = TABLES.next[emperor][d];
        if man == NO_SQUARE || russians & bit(man) == 0 {
            continue;
        }
        let beyond = TABLES.next[man as usize][d];
        if beyond == NO_SQUARE {
            continue;
        }
        let four = (TABLES.neighbours[emperor] & !bit(man)) | bit(beyond);
        let missing = four & !allies;
        // At most one neighbour can be a Russian man with the three others Allies, so stop here.
        // An occupied missing square is harmless: no move arrives there.
        return (missing.count_ones() == 1).then(|| (missing.trailing_zeros() as u8, man));
    }
    None
}

/// What the side to move could take this turn, worked out once per position.
struct Captures {
    mover: crate::game::Side,
    own: u128,
    occupied: u128,
    targets: CustodianTargets,
    /// Rule 11: the square an Ally must fill (as a mask, 0 if none) and the man it then takes.
    rule_eleven_square: u128,
    rule_eleven_man: u8,
    /// Squares where arriving takes a man.
    capture_squares: u128,
}

impl Captures {
    #[inline]
    fn new(s: &ImperialState) -> Captures {
        let mover = s.to_move;
        let own = s.men[mover.index()];
        let enemy = s.men[mover.opponent().index()];
        let targets = CustodianTargets::new(own, enemy);
        let (rule_eleven_square, rule_eleven_man) = if mover == ALLIES {
            rule_eleven(s).map_or((0, NO_SQUARE), |(sq, man)| (bit(sq), man))
        } else {
            (0, NO_SQUARE)
        };
        Captures {
            mover,
            own,
            occupied: own | enemy | bit(s.emperor),
            capture_squares: targets.any | rule_eleven_square,
            targets,
            rule_eleven_square,
            rule_eleven_man,
        }
    }
}

/// Fills `out` with the legal moves of a position whose game is not over.
#[inline]
pub fn generate(s: &ImperialState, mandatory: bool, out: &mut Moves) {
    let Captures { mover, own, occupied, targets, rule_eleven_square, rule_eleven_man, capture_squares } =
        Captures::new(s);
    let mut captures = false;

    for from in squares(own) {
        for d in 0..4 {
            let reach = slide(TABLES.ray[d][from as usize], occupied, d);
            for to in squares(reach & !capture_squares) {
                out.push(ImperialMove { from, to, taken: NO_SQUARE });
            }
            for to in squares(reach & capture_squares) {
                out.push(ImperialMove { from, to, taken: NO_SQUARE });
                for (cd, &set) in targets.by_direction.iter().enumerate() {
                    if set & bit(to) != 0 {
                        out.push(ImperialMove { from, to, taken: TABLES.next[to as usize][cd] });
                    }
                }
                if rule_eleven_square & bit(to) != 0 {
                    out.push(ImperialMove { from, to, taken: rule_eleven_man });
                }
                captures = true;
            }
        }
    }
    if mover == RUSSIANS {
        // The Emperor takes nothing.
        let from = s.emperor;
        for d in 0..4 {
            for to in squares(slide(TABLES.short_ray[d][from as usize], occupied, d)) {
                out.push(ImperialMove { from, to, taken: NO_SQUARE });
            }
        }
    }
    if mandatory && captures {
        out.retain(|m| m.taken != NO_SQUARE);
    }
}

/// A move that wins at once when capture is optional, found without generating moves: the Emperor
/// sliding onto the border, or an Ally arriving on the Emperor's one free neighbour (the nearest piece
/// along a line from that square, if it is an Ally). With optional capture every such move is legal
/// without taking anything.
pub fn quick_win(s: &ImperialState) -> Option<ImperialMove> {
    let occupied = s.men[RUSSIANS.index()] | s.men[ALLIES.index()] | bit(s.emperor);
    if s.to_move == RUSSIANS {
        return (0..4).find_map(|d| {
            let reach = slide(TABLES.short_ray[d][s.emperor as usize], occupied, d);
            squares(reach & TABLES.border).next().map(|to| ImperialMove {
                from: s.emperor,
                to,
                taken: NO_SQUARE,
            })
        });
    }
    let allies = s.men[ALLIES.index()];
    let gap = TABLES.neighbours[s.emperor as usize] & !allies;
    if gap.count_ones() != 1 || gap & occupied != 0 {
        return None;
    }
    let to = gap.trailing_zeros() as u8;
    (0..4).find_map(|d| {
        let blockers = TABLES.ray[d][to as usize] & occupied;
        let nearest = match d {
            _ if blockers == 0 => return None,
            NORTH | EAST => blockers.trailing_zeros(),
            _ => 127 - blockers.leading_zeros(),
        } as u8;
        (allies & bit(nearest) != 0).then_some(ImperialMove { from: nearest, to, taken: NO_SQUARE })
    })
}

/// A uniformly random legal move without listing the moves (random playouts): each piece's moves in
/// each direction are counted from its reach mask, one is drawn, then found again. The moves are
/// exactly those of [`generate`]; only their order differs.
pub fn sample<R: rand::Rng>(s: &ImperialState, mandatory: bool, rng: &mut R) -> Option<ImperialMove> {
    use rand::RngExt;
    let Captures { mover, own, occupied, targets, rule_eleven_square, rule_eleven_man, capture_squares } =
        Captures::new(s);
    // The men that can be taken by arriving on `to`, in a fixed order.
    let takeable = |to: u8| {
        let custodian = (0..4)
            .filter(move |&d| targets.by_direction[d] & bit(to) != 0)
            .map(move |d| TABLES.next[to as usize][d]);
        custodian.chain((rule_eleven_square & bit(to) != 0).then_some(rule_eleven_man))
    };

    // Every (piece, direction) with somewhere to go; the Emperor, who takes nothing, last.
    let mut reaches = arrayvec::ArrayVec::<(u8, u128), 104>::new();
    for from in squares(own) {
        for d in 0..4 {
            let reach = slide(TABLES.ray[d][from as usize], occupied, d);
            if reach != 0 {
                reaches.push((from, reach));
            }
        }
    }
    let men_reaches = reaches.len();
    if mover == RUSSIANS {
        for d in 0..4 {
            let reach = slide(TABLES.short_ray[d][s.emperor as usize], occupied, d);
            if reach != 0 {
                reaches.push((s.emperor, reach));
            }
        }
    }
    let any_capture = reaches[..men_reaches].iter().any(|&(_, reach)| reach & capture_squares != 0);
    let only_captures = mandatory && any_capture;
    let count = |index: usize, reach: u128| -> u32 {
        let quiet = if only_captures { 0 } else { reach.count_ones() };
        if index >= men_reaches {
            return quiet;
        }
        quiet + squares(reach & capture_squares).map(|to| takeable(to).count() as u32).sum::<u32>()
    };

    let total: u32 = reaches.iter().enumerate().map(|(i, &(_, reach))| count(i, reach)).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.random_range(0..total);
    for (index, &(from, reach)) in reaches.iter().enumerate() {
        let n = count(index, reach);
        if pick >= n {
            pick -= n;
            continue;
        }
        for to in squares(reach) {
            if !only_captures {
                if pick == 0 {
                    return Some(ImperialMove { from, to, taken: NO_SQUARE });
                }
                pick -= 1;
            }
            if index < men_reaches && capture_squares & bit(to) != 0 {
                for taken in takeable(to) {
                    if pick == 0 {
                        return Some(ImperialMove { from, to, taken });
                    }
                    pick -= 1;
                }
            }
        }
    }
    unreachable!("the draw is below the number of moves counted")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::imperial::board::parse_square;

    fn set(labels: &[&str]) -> u128 {
        labels.iter().fold(0, |set, l| set | bit(parse_square(l).unwrap()))
    }

    #[test]
    fn custodian_targets_do_not_wrap_round_the_board_edge() {
        // h4: the enemy on i4 is next to it, but "beyond" i4 would be a5 on the next rank.
        let east = CustodianTargets::new(set(&["a5"]), set(&["i4"]));
        assert_eq!(east.any, 0);
        let west = CustodianTargets::new(set(&["i3"]), set(&["a4"]));
        assert_eq!(west.any, 0);
        let real = CustodianTargets::new(set(&["i4", "e9"]), set(&["h4", "e8"]));
        assert_eq!(real.by_direction[EAST], set(&["g4"]));
        assert_eq!(real.by_direction[NORTH], set(&["e7"]));
    }

    #[test]
    fn rule_eleven_names_the_square_to_fill_and_the_man() {
        let e5 = parse_square("e5").unwrap();
        let mut s =
            ImperialState { men: [set(&["f5"]), set(&["e6", "e4", "g5"])], emperor: e5, to_move: ALLIES };
        assert_eq!(rule_eleven(&s), Some((parse_square("d5").unwrap(), parse_square("f5").unwrap())));
        // With two squares missing no single move completes the four.
        s.men[ALLIES.index()] = set(&["e6", "g5"]);
        assert_eq!(rule_eleven(&s), None);
        // The man's far side off the board: no Rule 11 (Emperor on h5, man on i5).
        let h5 = parse_square("h5").unwrap();
        let edge = ImperialState { men: [set(&["i5"]), set(&["h6", "h4"])], emperor: h5, to_move: ALLIES };
        assert_eq!(rule_eleven(&edge), None);
    }
}
