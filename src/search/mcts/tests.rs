//! The driver's tests: proofs, the cap and repetition inside the tree, batches and virtual loss,
//! subtree reuse, the root policies and contempt.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::*;
use crate::game::Reason;
use crate::search::{DirichletNoise, RolloutEvaluator, UniformEvaluator};

use crate::game::hunt::{HuntGame, HuntState};
use crate::game::testkit::hunt_game as hunt;

fn search<G: Game>(game: &G, position: &str, config: SearchConfig) -> (Mcts<G>, SearchReport) {
    let start = game.parse_position(position).unwrap();
    let mut mcts = Mcts::new(game.clone(), config);
    mcts.set_position(&start, &[]);
    let report = mcts.run(&mut UniformEvaluator, &mut Pcg64Mcg::seed_from_u64(1));
    (mcts, report)
}

fn best<G: Game>(mcts: &mut Mcts<G>, position: &str) -> String {
    let state = mcts.game().parse_position(position).unwrap();
    let mv = mcts.choose_move(0.0, &mut Pcg64Mcg::seed_from_u64(1)).unwrap();
    mcts.game().format_move(&state, mv)
}

fn config(simulations: u32, batch: usize) -> SearchConfig {
    SearchConfig { simulations, batch, ..SearchConfig::default() }
}

#[test]
fn wins_in_one_are_found_and_proven() {
    let cases = [
        // The General one step from the apex.
        ("sixteen-rebels", "G:c6;R:a1,b1,c1,d1,e1,a2;g", "c6-c7"),
        // The move that takes the Rebels down to general_wins_at (4).
        ("sixteen-rebels", "G:c2;R:b3,d3,a5,b5,d5,e5;g", "c2-c3xb3xd3"),
        // The General next to the bottom row.
        ("twenty-six-rebels", "G:c2;R:b5,d5,b9,c9,d9;g", "c2-c1"),
    ];
    for (spec, position, winning) in cases {
        for batch in [1, 8] {
            let game = hunt(spec);
            let (mut mcts, report) = search(&game, position, config(400, batch));
            assert_eq!(best(&mut mcts, position), winning, "{spec} {position} batch {batch}");
            assert_eq!(report.proof, Proof::Proven { winner: Some(Side::ZERO), plies: 1 }, "{position}");
            assert_eq!(report.value, 1.0);
        }
    }
}

#[test]
fn a_forced_win_in_three_is_proven_with_its_distance() {
    let game = hunt("sixteen-rebels");
    let position = "G:c5;R:a1,b1,c1,d1,e1;g";
    let (mut mcts, report) = search(&game, position, config(20_000, 4));
    assert_eq!(report.proof, Proof::Proven { winner: Some(Side::ZERO), plies: 3 });
    assert!(report.simulations < 20_000, "the search stops once the root is proven");
    assert_eq!(best(&mut mcts, position), "c5-c6");
}

#[test]
fn the_losing_side_sees_its_proven_loss() {
    let game = hunt("sixteen-rebels");
    // Rebels to move; whatever they do, the General reaches c7 next move.
    let position = "G:c6;R:a1,b1,c1,d1,e1;r";
    let (_, report) = search(&game, position, config(5_000, 1));
    assert_eq!(report.proof, Proof::Proven { winner: Some(Side::ZERO), plies: 2 });
    assert_eq!(report.value, -1.0);
}

#[test]
fn the_cap_is_a_draw_inside_the_tree() {
    // One ply left before the cap: every move ends in a draw unless it wins at once.
    let game = hunt("sixteen-rebels:max_plies=1");
    let (_, report) = search(&game, "G:a1;R:c1,c2,c3,c4,c5,e5;g", config(1_000, 1));
    assert_eq!(report.proof, Proof::Proven { winner: None, plies: 1 });
}

/// A line whose start stands twice in the history, the Rebels to move: e3-e4 would bring it a
/// third time.
fn repetition_ahead() -> (HuntGame, HuntState, crate::game::Playthrough<HuntGame>) {
    let game = hunt("sixteen-rebels");
    let start = game.parse_position("G:a1;R:c3,e5,e4,d5,c5;g").unwrap();
    let mut line = crate::game::Playthrough::from_position(game.clone(), start);
    for text in ["a1-a2", "e4-e3", "a2-a1", "e3-e4", "a1-a2", "e4-e3", "a2-a1"] {
        line.play_text(text).unwrap();
    }
    (game, start, line)
}

#[test]
fn a_third_occurrence_inside_the_tree_is_a_draw() {
    let (game, start, mut line) = repetition_ahead();
    let mut mcts = Mcts::new(game.clone(), config(300, 1));
    mcts.set_position(&start, line.moves());
    mcts.run(&mut UniformEvaluator, &mut Pcg64Mcg::seed_from_u64(1));
    let repeat = line.play_text("e3-e4").unwrap();
    assert_eq!(line.outcome().map(|o| o.reason), Some(Reason::Repetition));
    let child = mcts.tree().child_by_move(ROOT, repeat).expect("every root move is tried");
    assert_eq!(mcts.tree().node(child).proof, Proof::Proven { winner: None, plies: 0 });
}

#[test]
fn batches_leave_no_virtual_loss_and_visits_add_up() {
    let game = hunt("sixteen-rebels");
    let start = game.start();
    let mut mcts = Mcts::new(game.clone(), config(3_000, 16));
    mcts.set_position(&start, &[]);
    let report = mcts.run(
        &mut RolloutEvaluator::new(crate::game::playout::RolloutPolicy::Uniform, 5),
        &mut Pcg64Mcg::seed_from_u64(2),
    );
    assert_eq!(report.simulations, 3_000);
    assert_eq!(report.root_visits, 3_000);
    for (id, node) in mcts.tree().nodes.iter().enumerate() {
        assert_eq!(node.virtual_visits, 0);
        let below: u32 = mcts
            .tree()
            .edges_of(id as NodeId)
            .iter()
            .filter(|e| e.child != NO_NODE)
            .map(|e| mcts.tree().node(e.child).visits)
            .sum();
        assert!(node.visits >= below + node.evaluated as u32 * (node.edge_count > 0) as u32);
    }
}

#[test]
fn the_subtree_of_the_position_reached_is_reused() {
    let game = hunt("sixteen-rebels");
    let start = game.start();
    let mut mcts = Mcts::new(game.clone(), config(2_000, 1));
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    mcts.set_position(&start, &[]);
    mcts.run(&mut UniformEvaluator, &mut rng);
    let first = mcts.choose_move(0.0, &mut rng).unwrap();
    let first_node = mcts.tree().child_by_move(ROOT, first).unwrap();
    let reply_edge = mcts.tree().edges_of(first_node).iter().find(|e| e.child != NO_NODE).unwrap();
    let (reply, kept) = (reply_edge.mv, mcts.tree().node(reply_edge.child).visits);
    let mut state = start;
    game.apply(&mut state, first);
    game.apply(&mut state, reply);
    mcts.set_position(&start, &[first, reply]);
    assert_eq!(mcts.tree().node(ROOT).visits, kept);
    assert_eq!(mcts.tree().node(ROOT).state, state);
    assert_eq!(mcts.tree().node(ROOT).parent, NO_NODE);
    let report = mcts.run(&mut UniformEvaluator, &mut rng);
    assert_eq!(report.root_visits, kept + 2_000);
    // A position outside the tree starts afresh.
    mcts.set_position(&start, &[]);
    assert_eq!(mcts.tree().nodes.len(), 1);
}

#[test]
fn root_noise_keeps_priors_a_distribution() {
    let game = hunt("sixteen-rebels");
    let noise = DirichletNoise { alpha: 0.3, epsilon: 0.25 };
    let config = SearchConfig { root: RootPolicy::Puct { noise: Some(noise) }, ..config(200, 1) };
    let (mcts, _) = search(&game, "G:c3;R:a1,b1,c1,d1,e1,a5,e5;g", config);
    let priors: Vec<f32> = mcts.tree().edges_of(ROOT).iter().map(|e| e.prior).collect();
    assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-4);
    let uniform = 1.0 / priors.len() as f32;
    assert!(priors.iter().any(|&p| (p - uniform).abs() > 1e-3), "{priors:?}");
}

#[test]
fn a_gumbel_root_halves_its_considered_moves() {
    let game = hunt("sixteen-rebels");
    let start = game.start();
    let root = RootPolicy::Gumbel { considered: 4 };
    let mut mcts = Mcts::new(game.clone(), SearchConfig { root, ..config(64, 4) });
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    mcts.set_position(&start, &[]);
    let rollouts = crate::game::playout::RolloutPolicy::Uniform;
    mcts.run(&mut RolloutEvaluator::new(rollouts, 5), &mut rng);
    // One simulation evaluated the root; four moves got 8 each, then two shared the other 31.
    let mut visits: Vec<u32> = mcts.root_visits().map(|(_, v)| v).filter(|&v| v > 0).collect();
    visits.sort_unstable();
    assert_eq!(visits, [8, 8, 23, 24]);
    let SearchOutput { mv: chosen, policy } = mcts.output(0.0, &mut rng).unwrap();
    assert!(policy.len() <= mcts.root_visits().count() && policy.len() >= 4, "{}", policy.len());
    assert!((policy.iter().map(|(_, p)| p).sum::<f32>() - 1.0).abs() < 1e-5);
    assert_eq!(mcts.root_visits().find(|&(mv, _)| mv == chosen).unwrap().1, 24);
    // The schedule counts one search's visits, so the tree is never kept.
    mcts.set_position(&start, &[chosen]);
    assert_eq!(mcts.tree().nodes.len(), 1);
}

/// Every leaf valued `value` for its player to move, with draw probability `draw`.
struct ConstantEvaluator {
    value: f32,
    draw: f32,
}

impl<G: Game> Evaluator<G> for ConstantEvaluator {
    fn evaluate(&mut self, _game: &G, _leaves: &LeafBatch<G>, out: &mut Evaluations) {
        out.priors.fill(1.0);
        out.values.fill(self.value);
        out.draws.fill(self.draw);
    }
}

#[test]
fn contempt_turns_the_searcher_away_from_a_repetition_draw() {
    let (game, start, line) = repetition_ahead();
    // The Rebels to move: e3-e4 draws by repetition; after any other move the General stands a
    // little better (0.2 for him, −0.2 for the Rebels).
    let chosen = |contempt: f32| {
        let config = SearchConfig { contempt, ..config(2_000, 1) };
        let mut mcts = Mcts::new(game.clone(), config);
        mcts.set_position(&start, line.moves());
        let mut evaluator = ConstantEvaluator { value: 0.2, draw: 0.0 };
        mcts.run(&mut evaluator, &mut Pcg64Mcg::seed_from_u64(1));
        let mv = mcts.choose_move(0.0, &mut Pcg64Mcg::seed_from_u64(1)).unwrap();
        game.format_move(line.state(), mv)
    };
    assert_eq!(chosen(0.0), "e3-e4", "a draw (0) beats −0.2");
    assert_ne!(chosen(0.5), "e3-e4", "a draw worth −0.5 does not");
}

#[test]
fn contempt_values_the_evaluators_draws_against_the_searching_side() {
    let game = hunt("sixteen-rebels");
    let start = game.start();
    for (contempt, expected) in [(0.0, 0.0), (0.3, -0.3)] {
        let mut mcts = Mcts::new(game.clone(), SearchConfig { contempt, ..config(300, 1) });
        mcts.set_position(&start, &[]);
        // Every leaf a sure draw, whichever side is to move there.
        let mut evaluator = ConstantEvaluator { value: 0.0, draw: 1.0 };
        let report = mcts.run(&mut evaluator, &mut Pcg64Mcg::seed_from_u64(1));
        assert!((report.value - expected).abs() < 1e-4, "contempt {contempt}: {}", report.value);
    }
}
