//! Imperial Contest notation (RULES.md section 7): positions
//! `3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AAA3 r` and moves `e4-e2xe1`.

use super::board::{NO_SQUARE, SIZE, bit, label, parse_square, square};
use super::state::{ALLIES, ImperialMove, ImperialState, RUSSIANS, START_ALLIES, START_RUSSIAN_MEN};
use crate::game::{Game, MoveError, PositionError, illegal_move_error};

pub fn format_position(s: &ImperialState) -> String {
    let mut text = String::with_capacity(96);
    for r in (0..SIZE).rev() {
        let mut empty = 0;
        for f in 0..SIZE {
            let sq = square(f, r);
            let piece = if sq == s.emperor {
                'E'
            } else if s.men[RUSSIANS.index()] & bit(sq) != 0 {
                'R'
            } else if s.men[ALLIES.index()] & bit(sq) != 0 {
                'A'
            } else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                text.push((b'0' + empty) as char);
                empty = 0;
            }
            text.push(piece);
        }
        if empty > 0 {
            text.push((b'0' + empty) as char);
        }
        if r > 0 {
            text.push('/');
        }
    }
    text.push_str(if s.to_move == RUSSIANS { " r" } else { " a" });
    text
}

/// Reads a position. Any placement of one Emperor, at most 8 Russian men and at most 16 Allies is
/// accepted, finished games included (an Emperor on the border: the Russians have won).
pub fn parse_position(text: &str) -> Result<ImperialState, PositionError> {
    let err = |problem: String| PositionError::new(text, problem);
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [placement, side] = fields[..] else {
        return Err(err(format!(
            "expected the placement and the side to move separated by a space, found {} fields",
            fields.len()
        )));
    };
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != SIZE as usize {
        return Err(err(format!("expected 9 ranks separated by `/`, found {}", ranks.len())));
    }
    let mut men = [0u128; 2];
    let mut emperors = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        let r = SIZE - 1 - i as u8;
        let rank_name = r + 1;
        let mut f = 0u8;
        let mut previous_digit = false;
        for c in rank_text.chars() {
            if let Some(run) = c.to_digit(10) {
                if run == 0 || previous_digit {
                    return Err(err(format!(
                        "rank {rank_name}: write each run of empty squares as one digit 1..9"
                    )));
                }
                previous_digit = true;
                f = f.saturating_add(run as u8);
                continue;
            }
            previous_digit = false;
            if f >= SIZE {
                return Err(err(format!("rank {rank_name} is longer than 9 squares")));
            }
            let sq = square(f, r);
            match c {
                'E' => emperors.push(sq),
                'R' => men[RUSSIANS.index()] |= bit(sq),
                'A' => men[ALLIES.index()] |= bit(sq),
                other => {
                    return Err(err(format!(
                        "rank {rank_name}: `{other}` is not a piece (E Emperor, R Russian man, A Ally) \
                         or a digit"
                    )));
                }
            }
            f += 1;
        }
        if f != SIZE {
            return Err(err(format!("rank {rank_name} has {f} squares, not 9")));
        }
    }
    let emperor = match emperors[..] {
        [one] => one,
        _ => return Err(err(format!("there must be exactly one Emperor `E`, found {}", emperors.len()))),
    };
    for (side, name, most) in [(RUSSIANS, "Russian men", START_RUSSIAN_MEN), (ALLIES, "Allies", START_ALLIES)]
    {
        let count = men[side.index()].count_ones();
        if count > most {
            return Err(err(format!("{count} {name}, more than the {most} of the start position")));
        }
    }
    let to_move = match side {
        "r" => RUSSIANS,
        "a" => ALLIES,
        other => return Err(err(format!("the side to move must be `r` or `a`, found `{other}`"))),
    };
    Ok(ImperialState { men, emperor, to_move })
}

pub fn format_move(m: ImperialMove) -> String {
    let mut text = format!("{}-{}", label(m.from), label(m.to));
    if m.taken != NO_SQUARE {
        text.push('x');
        text.push_str(&label(m.taken));
    }
    text
}

/// Reads `from-to` or `from-toxSQ`. A plain `from-to` always means the move that takes nothing: with
/// optional capture that is a move of its own, distinct from the captures, and it keeps that meaning
/// under `capture=mandatory`, where it is then illegal whenever a capture is available, rather than
/// silently becoming a capture the player did not write.
pub fn parse_move<G: Game<State = ImperialState, Move = ImperialMove>>(
    game: &G,
    s: &ImperialState,
    text: &str,
) -> Result<ImperialMove, MoveError> {
    let trimmed = text.trim();
    let malformed = |problem: String| MoveError::Malformed { text: trimmed.to_string(), problem };
    let (path, taken) = match trimmed.split_once('x') {
        Some((path, taken)) => (path, Some(taken)),
        None => (trimmed, None),
    };
    let Some((from_text, to_text)) = path.split_once('-') else {
        return Err(malformed("a move is `from-to`, with `x<square>` for a man taken".to_string()));
    };
    let square_of = |label: &str| {
        parse_square(label).ok_or_else(|| malformed(format!("`{label}` is not a square a1..i9")))
    };
    let (from, to) = (square_of(from_text)?, square_of(to_text)?);
    if from == to {
        return Err(malformed("a move must leave its square".to_string()));
    }
    let taken = match taken {
        Some(label) => square_of(label)?,
        None => NO_SQUARE,
    };
    let wanted = ImperialMove { from, to, taken };
    let mut moves = G::Moves::default();
    game.legal_moves(s, &mut moves);
    if moves.contains(&wanted) { Ok(wanted) } else { Err(illegal_move_error(game, s, trimmed)) }
}
