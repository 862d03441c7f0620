//! The chess family against RULES.md section 6: published perft tables, the shared start-position
//! vectors, hand-made positions for each variant rule, and a differential test against cozy-chess.

use std::collections::HashSet;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rebel_zero::game::chess::ChessGame;
use rebel_zero::game::chess::moves::MoveKind;
use rebel_zero::game::chess::position::Position;
use rebel_zero::game::perft::perft;
use rebel_zero::game::{Game, MoveError, Playthrough, Reason, Side};

use rebel_zero::game::testkit::chess_game as game;

fn position(g: &ChessGame, fen: &str) -> Position {
    g.parse_position(fen).unwrap_or_else(|e| panic!("{e}"))
}

fn legal_texts(g: &ChessGame, pos: &Position) -> HashSet<String> {
    let mut moves = <ChessGame as Game>::Moves::default();
    g.legal_moves(pos, &mut moves);
    moves.iter().map(|&m| g.format_move(pos, m)).collect()
}

fn play(g: &ChessGame, pos: &Position, text: &str) -> Position {
    let m = g.parse_move(pos, text).unwrap_or_else(|e| panic!("{e}"));
    let mut next = *pos;
    g.apply(&mut next, m);
    next
}

fn set(items: &[&str]) -> HashSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The legal moves whose text starts with `prefix`.
fn starting_with(g: &ChessGame, pos: &Position, prefix: &str) -> HashSet<String> {
    legal_texts(g, pos).into_iter().filter(|m| m.starts_with(prefix)).collect()
}

// ---------------------------------------------------------------------------------------------------
// Perft

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POSITION_6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

fn check_perft(fen: Option<&str>, expected: &[u64]) {
    let g = game("chess");
    let pos = fen.map_or_else(|| g.start(), |f| position(&g, f));
    for (i, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&g, &pos, i as u32 + 1), n, "{fen:?} depth {}", i + 1);
    }
}

#[test]
fn perft_standard_suite() {
    check_perft(None, &[20, 400, 8902, 197281, 4865609]);
    check_perft(Some(KIWIPETE), &[48, 2039, 97862, 4085603]);
    check_perft(Some(POSITION_3), &[14, 191, 2812, 43238, 674624]);
    check_perft(Some(POSITION_4), &[6, 264, 9467, 422333]);
    check_perft(Some(POSITION_5), &[44, 1486, 62379, 2103487]);
    check_perft(Some(POSITION_6), &[46, 2079, 89890, 3894594]);
}

#[test]
#[ignore = "deep perft: minutes in the test profile"]
fn perft_standard_suite_deep() {
    check_perft(None, &[20, 400, 8902, 197281, 4865609, 119060324]);
    check_perft(Some(KIWIPETE), &[48, 2039, 97862, 4085603, 193690690]);
    check_perft(Some(POSITION_3), &[14, 191, 2812, 43238, 674624, 11030083]);
    check_perft(Some(POSITION_4), &[6, 264, 9467, 422333, 15833292]);
    check_perft(Some(POSITION_5), &[44, 1486, 62379, 2103487, 89941194]);
    check_perft(Some(POSITION_6), &[46, 2079, 89890, 3894594, 164075551]);
}

#[test]
fn perft_start_vectors_of_the_shared_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft-start.tsv");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let spec = fields[0];
        if !spec.split(':').next().unwrap().ends_with("chess") {
            continue;
        }
        let g = game(spec);
        let counts: Vec<u64> = fields[2].split(',').map(|n| n.parse().unwrap()).collect();
        for (i, &n) in counts.iter().enumerate() {
            assert_eq!(perft(&g, &g.start(), i as u32 + 1), n, "{spec} depth {}", i + 1);
        }
        checked += 1;
    }
    assert!(checked >= 5, "expected the chess-family lines, found {checked}");
}

// ---------------------------------------------------------------------------------------------------
// Rebel steps (RULES.md 6.2, 6.3)

#[test]
fn rebel_steps_per_piece_follow_the_table() {
    let g = game("rebellion-chess");
    // A black piece on d5, stepped by White; Black's forward is down the board, its left towards h.
    let cases: [(char, &[&str]); 6] = [
        ('p', &["r:d5e5", "r:d5c5"]),
        ('n', &["r:d5d4", "r:d5e4", "r:d5c4", "r:d5e5", "r:d5c5"]),
        ('b', &["r:d5d4", "r:d5e5", "r:d5c5"]),
        ('r', &["r:d5e4", "r:d5c4"]),
        ('q', &[]),
        ('k', &[]),
    ];
    for (piece, expected) in cases {
        let top = if piece == 'k' { "8" } else { "k7" };
        let fen = format!("{top}/8/8/3{piece}4/8/8/8/7K w - - 0 1");
        let pos = position(&g, &fen);
        assert_eq!(starting_with(&g, &pos, "r:d5"), set(expected), "black {piece} on d5");
    }
    // A white knight on d4 stepped by Black: White's forward is up, its left towards a.
    let pos = position(&g, "k7/8/8/8/3N4/8/8/4K3 b - - 0 1");
    assert_eq!(starting_with(&g, &pos, "r:d4"), set(&["r:d4d5", "r:d4c5", "r:d4e5", "r:d4c4", "r:d4e4"]));
    // Berolina pawns keep only the sideways steps too.
    let g = game("rebellion-chess:pawns=berolina");
    let pos = position(&g, "k7/8/8/3p4/8/8/8/4K3 w - - 0 1");
    assert_eq!(starting_with(&g, &pos, "r:d5"), set(&["r:d5e5", "r:d5c5"]));
}

#[test]
fn a_rebel_step_must_not_expose_the_movers_king_but_may_give_check() {
    let g = game("rebellion-chess");
    // The black knight on e4 shields the white king from the rook on e8: only the step along the file
    // keeps it shielded.
    let pos = position(&g, "k3r3/8/8/8/4n3/8/8/4K3 w - - 0 1");
    assert_eq!(starting_with(&g, &pos, "r:e4"), set(&["r:e4e3"]));
    // Stepping the black knight off the e-file uncovers White's rook on the black king.
    let pos = position(&g, "4k3/8/8/4n3/8/8/4R3/K7 w - - 0 1");
    let after = play(&g, &pos, "r:e5f5");
    assert!(g.in_check(&after));
}

#[test]
fn a_rebel_step_of_a_rook_off_its_corner_removes_castling_and_changes_no_clock() {
    let g = game("rebellion-chess");
    let pos = position(&g, "4k2r/8/8/8/8/8/8/4K3 w k - 7 30");
    assert!(legal_texts(&g, &pos).contains("r:h8g7"));
    let after = play(&g, &pos, "r:h8g7");
    assert_eq!(g.format_position(&after), "4k3/6r1/8/8/8/8/8/4K3 b - - 8 30");
}

#[test]
fn a_rebel_step_never_promotes_and_clears_the_en_passant_square() {
    let g = game("rebellion-chess");
    let pos = position(&g, "4k3/1P6/8/8/8/8/8/4K3 b - - 0 1");
    let after = play(&g, &pos, "r:b7a7");
    assert_eq!(g.format_position(&after), "4k3/P7/8/8/8/8/8/4K3 w - - 1 2");
    let pos = position(&g, "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    assert!(legal_texts(&g, &pos).contains("d4e3"));
    let after = play(&g, &pos, "r:e4f4");
    assert_eq!(g.format_position(&after).split(' ').nth(3), Some("-"));
}

// ---------------------------------------------------------------------------------------------------
// Squirm chess (RULES.md 6.4)

#[test]
fn a_squirm_may_leave_the_squirmer_in_check_if_the_move_then_resolves_it() {
    let g = game("squirm-chess");
    // White's knight on e4 made the last move and shields the black king from the rook on e1.
    let pos = position(&g, "4k3/p7/8/8/4N3/8/8/K3R3 b - - 0 1 e4");
    let moves = legal_texts(&g, &pos);
    assert!(moves.contains("r:e4d4+e8d8"), "the king steps out of the uncovered check");
    assert!(!moves.contains("r:e4d4+a7a6"), "a move that leaves the check is illegal");
    assert!(moves.contains("r:e4e5+a7a6"), "a squirm along the file keeps the shield");
    let after = play(&g, &pos, "r:e4d4+e8d8");
    assert_eq!(g.format_position(&after), "3k4/p7/8/8/3N4/8/8/K3R3 w - - 1 2 d8");
}

#[test]
fn a_move_that_a_squirm_could_punish_is_illegal() {
    // White is in check from the rook on e8 and must block on the e-file.
    let fen = "k3r3/8/8/8/8/2NQ4/8/4K3 w - - 0 1";
    let chess = game("chess");
    assert!(legal_texts(&chess, &position(&chess, fen)).contains("c3e2"));
    let g = game("squirm-chess");
    let moves = legal_texts(&g, &position(&g, &format!("{fen} -")));
    assert!(!moves.contains("c3e2"), "Black could squirm the knight off e2 and expose the king");
    assert!(moves.contains("d3e3") && moves.contains("d3e2"), "a queen cannot squirm, so it may block");
}

#[test]
fn squirm_checkmate_and_stalemate_depend_on_check_at_the_start_of_the_turn() {
    let g = game("squirm-chess");
    let mate = position(&g, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1 g7");
    assert!(legal_texts(&g, &mate).is_empty());
    assert_eq!(g.no_moves_result(&mate).reason, Reason::Checkmate);
    let stale = position(&g, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1 f7");
    assert!(legal_texts(&g, &stale).is_empty());
    assert_eq!(g.no_moves_result(&stale).reason, Reason::Stalemate);
}

#[test]
fn squirm_fen_keeps_the_squirmable_square_and_rejects_an_illegal_last_move() {
    let g = game("squirm-chess");
    let after = play(&g, &g.start(), "g1f3");
    assert_eq!(g.format_position(&after), "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1 f3");
    assert_eq!(g.parse_position(&g.format_position(&after)), Ok(after));
    // The knight on e2 could be squirmed off the e-file, so White's last move was illegal.
    let err = g.parse_position("k3r3/8/8/8/8/8/4N3/4K3 b - - 0 1 e2").unwrap_err();
    assert!(err.problem.contains("squirm"), "{err}");
    let err = g.parse_position("k3r3/8/8/8/8/8/4N3/4K3 b - - 0 1 e8").unwrap_err();
    assert!(err.problem.contains("squirmable"), "{err}");
}

// ---------------------------------------------------------------------------------------------------
// Berolina pawns (RULES.md 6.5)

#[test]
fn berolina_pawns_move_diagonally_and_capture_straight() {
    let g = game("rebellion-chess:pawns=berolina");
    let pos = position(&g, "4k3/8/8/8/8/1p6/1P6/4K3 w - - 0 1");
    assert_eq!(starting_with(&g, &pos, "b2"), set(&["b2a3", "b2c3", "b2d4", "b2b3"]));
    let pos = position(&g, "4k3/8/8/8/8/2p5/1P6/4K3 w - - 0 1");
    assert_eq!(starting_with(&g, &pos, "b2"), set(&["b2a3"]), "a blocked diagonal stops the double step");
    let pos = position(&g, "n3k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let promotions = ["a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n"];
    assert_eq!(starting_with(&g, &pos, "a7"), set(&promotions));
}

#[test]
fn berolina_en_passant_takes_the_pawn_that_passed_over() {
    let g = game("squirm-chess:pawns=berolina");
    let pos = position(&g, "4k3/8/8/8/3p4/8/2P5/4K3 w - - 0 1 -");
    let after = play(&g, &pos, "c2e4");
    assert_eq!(g.format_position(&after).split(' ').nth(3), Some("d3"));
    let m = g.parse_move(&after, "d4d3").unwrap();
    assert_eq!(m.kind, MoveKind::EnPassant);
    let taken = play(&g, &after, "d4d3");
    assert_eq!(g.format_position(&taken), "4k3/8/8/8/8/3p4/8/4K3 w - - 0 2 d3");
    // A squirm of the double-stepped pawn clears the en-passant square.
    assert!(!legal_texts(&g, &after).iter().any(|m| m.ends_with("+d4d3")));
    // With pawns on both c4 and e4 the field names the pawn that moved.
    let g = game("rebellion-chess:pawns=berolina");
    let pos = position(&g, "4k3/8/8/8/2Pp4/8/2P5/4K3 w - - 0 1");
    let after = play(&g, &pos, "c2e4");
    let fen = g.format_position(&after);
    assert_eq!(fen.split(' ').nth(3), Some("d3e4"));
    assert_eq!(g.parse_position(&fen), Ok(after));
    assert!(g.parse_position(&fen.replace("d3e4", "d3")).unwrap_err().problem.contains("either"));
}

// ---------------------------------------------------------------------------------------------------
// Endings and draws

#[test]
fn checkmate_loses_and_stalemate_draws() {
    let g = game("chess");
    let mut line = Playthrough::new(g.clone());
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        line.play_text(m).unwrap();
    }
    let outcome = line.outcome().unwrap();
    assert_eq!((outcome.winner, outcome.reason), (Some(Side::ONE), Reason::Checkmate));
    let line = Playthrough::from_position(g.clone(), position(&g, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
    let outcome = line.outcome().unwrap();
    assert_eq!((outcome.winner, outcome.reason), (None, Reason::Stalemate));
}

#[test]
fn fifty_moves_and_insufficient_material_draw() {
    let g = game("rebellion-chess");
    let mut line = Playthrough::from_position(g.clone(), position(&g, "4k3/8/8/8/8/8/R7/4K3 w - - 98 80"));
    line.play_text("a2a3").unwrap();
    assert!(line.outcome().is_none());
    line.play_text("r:a3b4").unwrap();
    assert_eq!(line.outcome().unwrap().reason, Reason::FiftyMoves, "a rebel step does not reset the count");
    for (fen, draw) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/3BK3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/3NK3 b - - 0 1", true),
        ("4kn2/8/8/8/8/8/8/3NK3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", false),
    ] {
        assert_eq!(g.rule_draw(&position(&g, fen)) == Some(Reason::InsufficientMaterial), draw, "{fen}");
    }
}

#[test]
fn the_repetition_hash_counts_only_real_en_passant_rights_and_the_squirmable_square() {
    let g = game("chess");
    let with_ep = position(&g, "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
    let without = position(&g, "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    assert_eq!(g.position_hash(&with_ep), g.position_hash(&without), "no black pawn can take on e3");
    let with_ep = position(&g, "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    let without = position(&g, "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    assert_ne!(g.position_hash(&with_ep), g.position_hash(&without));
    let g = game("squirm-chess");
    let a = position(&g, "4k3/8/8/8/8/8/8/4K2N b - - 0 1 h1");
    let b = position(&g, "4k3/8/8/8/8/8/8/4K2N b - - 0 1 -");
    assert_ne!(g.position_hash(&a), g.position_hash(&b));
}

// ---------------------------------------------------------------------------------------------------
// Bad input

#[test]
fn bad_positions_are_rejected_with_the_problem_named() {
    let g = game("chess");
    for (fen, problem) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "fields"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "more than 8"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQXBNR w KQkq - 0 1", "`X`"),
        ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has 0 kings"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "white has 2 kings"),
        ("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1", "pawn"),
        ("4k3/8/8/8/8/8/8/4K2R x K - 0 1", "side to move"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling right `K`"),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "rank 6"),
        ("4k3/8/8/8/8/8/8/4K3 b - e3 0 1", "no white pawn"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "move number"),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "side not to move (black) is in check"),
    ] {
        let err = g.parse_position(fen).unwrap_err();
        assert!(err.to_string().contains(problem), "{fen}: {err}");
    }
    let err = game("squirm-chess").parse_position("4k3/8/8/8/8/8/8/4K3 w - - 0 1 z9").unwrap_err();
    assert!(err.problem.contains("squirmable"), "{err}");
}

#[test]
fn bad_moves_are_errors_not_panics() {
    for spec in ["chess", "rebellion-chess", "squirm-chess:pawns=berolina"] {
        let g = game(spec);
        let pos = g.start();
        for junk in ["", "zz99", "e2e4e", "r:", "r:e2e4+", "r:e2+e4", "e7e8k", "é2e4", "r:e2e4+e2", "++"] {
            assert!(matches!(g.parse_move(&pos, junk), Err(MoveError::Malformed { .. })), "{spec} {junk:?}");
        }
        // Readable, but no legal move: `e2` and `O-O` are SAN (a pawn to e2, castling).
        for illegal in ["e2e5", "e1g1", "r:b8b7", "r:e2e3+e7e5", "a7a6", "e2", "O-O"] {
            assert!(
                matches!(g.parse_move(&pos, illegal), Err(MoveError::Illegal { .. })),
                "{spec} {illegal}"
            );
        }
    }
    let g = game("chess");
    let pos = position(&g, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(g.parse_move(&pos, "e1h1"), g.parse_move(&pos, "e1g1"), "king-takes-rook castling");
    let pos = position(&g, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(g.parse_move(&pos, "A7A8Q").unwrap().kind, MoveKind::PromoteQueen);
}

// ---------------------------------------------------------------------------------------------------
// Random play: cozy-chess agreement, action indices, FEN round trips

/// cozy-chess writes castling as the king taking its rook; RULES.md uses the king's destination.
fn cozy_moves(board: &cozy_chess::Board) -> HashSet<String> {
    let mut out = HashSet::new();
    board.generate_moves(|moves| {
        for m in moves {
            let mut text = m.to_string();
            if moves.piece == cozy_chess::Piece::King && board.colors(board.side_to_move()).has(m.to) {
                let to_file = if m.to.file() as u8 > m.from.file() as u8 { 'g' } else { 'c' };
                text = format!("{}{}{}", m.from, to_file, &text[3..4]);
            }
            out.insert(text);
        }
        false
    });
    out
}

#[test]
fn chess_moves_agree_with_cozy_chess_over_random_play() {
    let g = game("chess");
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let mut positions = 0;
    for _ in 0..300 {
        let mut pos = g.start();
        for _ in 0..120 {
            let fen = g.format_position(&pos);
            let board: cozy_chess::Board = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e:?}"));
            let ours = legal_texts(&g, &pos);
            assert_eq!(ours, cozy_moves(&board), "{fen}");
            positions += 1;
            if ours.is_empty() {
                assert_eq!(g.in_check(&pos), !board.checkers().is_empty(), "{fen}");
                break;
            }
            let moves: Vec<&String> = ours.iter().collect();
            let mut sorted = moves.clone();
            sorted.sort();
            pos = play(&g, &pos, sorted[rng.random_range(0..sorted.len())]);
        }
    }
    assert!(positions > 10_000, "{positions}");
}

#[test]
fn random_play_keeps_fen_round_trips_and_distinct_action_indices() {
    for spec in [
        "chess",
        "rebellion-chess",
        "squirm-chess",
        "rebellion-chess:pawns=berolina",
        "squirm-chess:pawns=berolina",
    ] {
        let g = game(spec);
        let count = g.facts().action_count;
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        for _ in 0..20 {
            let mut pos = g.start();
            for _ in 0..80 {
                let fen = g.format_position(&pos);
                assert_eq!(g.parse_position(&fen), Ok(pos), "{spec}: {fen}");
                let mut moves = <ChessGame as Game>::Moves::default();
                g.legal_moves(&pos, &mut moves);
                let mut seen = HashSet::new();
                for (i, &m) in moves.iter().enumerate() {
                    let index = g.action_index(&pos, m).get();
                    assert!(index < count && seen.insert(index), "{spec}: {fen} {}", g.format_move(&pos, m));
                    if i % 7 == 0 {
                        assert_eq!(g.parse_move(&pos, &g.format_move(&pos, m)), Ok(m));
                    }
                }
                if moves.is_empty() {
                    break;
                }
                g.apply(&mut pos, moves[rng.random_range(0..moves.len())]);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Command line

#[test]
fn cli_perft_prints_one_line_per_depth_and_bad_input_exits_2() {
    let exe = env!("CARGO_BIN_EXE_rebel-zero");
    let out = std::process::Command::new(exe).args(["perft", "chess", "--depth", "4"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "perft 1 20\nperft 2 400\nperft 3 8902\nperft 4 197281\n"
    );
    let out = std::process::Command::new(exe)
        .args(["show", "rebellion-chess", "--moves", "e2e4,r:e4d4"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("white to move"));
    // The legal moves are listed as players write them (SAN), the position's in FEN.
    let out = std::process::Command::new(exe).args(["show", "chess", "--moves", "e4,e5"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("29 legal moves: ") && text.contains(" Nf3 ") && text.contains(" Ke2 "), "{text}");
    assert!(!text.contains("g1f3"), "{text}");
    for args in [
        &["perft", "chess", "--depth", "1", "--position", "8/8/8/8/8/8/8/8 w - - 0 1"][..],
        &["show", "chess", "--moves", "e2e5"],
        &["show", "squirm-chess", "--moves", "r:e2e3+e7e5"],
    ] {
        let out = std::process::Command::new(exe).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}
