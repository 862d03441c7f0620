//! Move generation for RULES.md section 5: rook moves, custodian capture and Rule 11.
//!
//! Every takeable man is decided before the move from masks of the position: the mover never stands
//! on a square that matters to its own capture (see [`CustodianTargets`]), so nothing is recomputed per
//! move and generation never allocates.

use super::board::{BOARD, EAST, NO_SQUARE, NORTH, SOUTH, TABLES, WEST, bit, slide, squares};
use super::{ALLIES, ImperialMove, ImperialState, Moves, RUSSIANS};

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

/// Fills `out` with the legal moves of a position whose game is not over.
#[inline]
pub fn generate(s: &ImperialState, mandatory: bool, out: &mut Moves) {
    let mover = s.to_move;
    let own = s.men[mover.index()];
    let enemy = s.men[mover.opponent().index()];
    let occupied = own | enemy | bit(s.emperor);
    let targets = CustodianTargets::new(own, enemy);
    let (rule_eleven_square, rule_eleven_man) = if mover == ALLIES {
        rule_eleven(s).map_or((0, NO_SQUARE), |(sq, man)| (bit(sq), man))
    } else {
        (0, NO_SQUARE)
    };
    let capture_squares = targets.any | rule_eleven_square;
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
