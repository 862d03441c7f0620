//! Search, agents and the match/play/replay commands, checked from outside the crate.

use std::path::Path;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rebel_zero::agents::{AgentSpec, MatchSettings, MatchSummary, run_match};
use rebel_zero::game::history::judge;
use rebel_zero::game::{
    ActionIndex, AnyGame, Game, GameFacts, MoveList, Outcome, PositionError, Reason, Side,
};
use rebel_zero::search::{Mcts, Proof, SearchConfig, UniformEvaluator};
use rebel_zero::with_game;

/// The exact result of `state` under best play, with every ending rule (repetition along `path`, the
/// cap), and its distance: the winner hurries, the loser delays. `path` holds the positions since the
/// last irreversible move, `state` last.
fn minimax<G: Game>(
    game: &G,
    state: &G::State,
    plies: u32,
    path: &[u64],
    repeated: bool,
) -> (Option<Side>, u32) {
    let mut moves = G::Moves::default();
    if let Some(outcome) = judge(game, state, plies, repeated, &mut moves) {
        return (outcome.winner, 0);
    }
    let mover = game.to_move(state);
    let mut results = Vec::new();
    for &mv in moves.iter() {
        let mut child = state.clone();
        let irreversible = game.is_irreversible(state, mv);
        game.apply(&mut child, mv);
        let hash = game.position_hash(&child);
        let mut child_path = if irreversible { Vec::new() } else { path.to_vec() };
        let repeated = child_path.iter().filter(|&&h| h == hash).count() >= 2;
        child_path.push(hash);
        results.push(minimax(game, &child, plies + 1, &child_path, repeated));
    }
    let wins = results.iter().filter(|r| r.0 == Some(mover)).map(|r| r.1).min();
    let draws = results.iter().filter(|r| r.0.is_none()).map(|r| r.1).min();
    let losses = results.iter().map(|r| r.1).max();
    match (wins, draws) {
        (Some(d), _) => (Some(mover), d + 1),
        (None, Some(d)) => (None, d + 1),
        (None, None) => (Some(mover.opponent()), losses.expect("a position with moves") + 1),
    }
}

/// Checks every proof the search holds at the root and its children against minimax; returns how many
/// proofs there were.
fn check_proofs<G: Game>(game: &G, start: &G::State, simulations: u32) -> usize {
    let config = SearchConfig { simulations, batch: 4, ..SearchConfig::default() };
    let mut mcts = Mcts::new(game.clone(), config);
    mcts.set_position(start, &[]);
    let report = mcts.run(&mut UniformEvaluator, &mut Pcg64Mcg::seed_from_u64(1));
    let mut checked = 0;
    let mut check = |state: &G::State, history: &[G::State], proof: Proof| {
        let Proof::Proven { winner, plies } = proof else { return };
        let path: Vec<u64> = history.iter().map(|s| game.position_hash(s)).collect();
        let repeated = path[..path.len() - 1].iter().filter(|&&h| h == *path.last().unwrap()).count() >= 2;
        let (true_winner, distance) = minimax(game, state, history.len() as u32 - 1, &path, repeated);
        let position = game.format_position(state);
        assert_eq!(winner, true_winner, "{} {position}: proof {proof:?}", game.spec());
        if winner.is_some() {
            assert!(distance <= plies, "{position}: proof {proof:?}, forced in {distance}");
        }
        checked += 1;
    };
    check(start, std::slice::from_ref(start), report.proof);
    let tree = mcts.tree();
    for edge in tree.edges_of(0).iter().filter(|e| e.child != u32::MAX) {
        let child = tree.node(edge.child);
        let history = if child.irreversible {
            vec![child.state.clone()]
        } else {
            vec![start.clone(), child.state.clone()]
        };
        check(&child.state, &history, child.proof);
    }
    checked
}

#[test]
fn solver_proofs_agree_with_minimax_on_small_hunt_positions() {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let points: Vec<String> = "abcde".chars().flat_map(|f| (1..=5).map(move |r| format!("{f}{r}"))).collect();
    let mut proofs = 0;
    for (round, spec) in ["sixteen-rebels:max_plies=3", "sixteen-rebels:max_plies=4,general_wins_at=2"]
        .iter()
        .cycle()
        .take(24)
        .enumerate()
    {
        let game = AnyGame::from_spec(spec).unwrap();
        let mut chosen: Vec<&String> = Vec::new();
        while chosen.len() < 5 {
            let p = &points[rng.random_range(0..points.len())];
            if !chosen.contains(&p) {
                chosen.push(p);
            }
        }
        let rebels: Vec<&str> = chosen[1..].iter().map(|s| s.as_str()).collect();
        let side = if round % 3 == 0 { "r" } else { "g" };
        let position = format!("G:{};R:{};{side}", chosen[0], rebels.join(","));
        with_game!(&game, |g| {
            let start = g.parse_position(&position).unwrap();
            if g.outcome(&start).is_none() {
                proofs += check_proofs(g, &start, 20_000);
            }
        });
    }
    assert!(proofs >= 40, "the solver proved too little to test ({proofs} proofs)");
}

/// Nim in which side 0 moves twice for each move of side 1 (turns 0, 0, 1, 0, 0, 1, …): take one or two
/// stones, taking the last stone wins. Checks that values follow the player to move, not depth parity.
#[derive(Clone, Debug)]
struct DoubleTurnNim;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NimState {
    stones: u8,
    turn: u8,
    last_mover: Option<Side>,
}

impl Game for DoubleTurnNim {
    type State = NimState;
    type Move = u8;
    type Moves = MoveList<u8, 2>;

    fn spec(&self) -> &str {
        "double-turn-nim"
    }
    fn side_names(&self) -> [&'static str; 2] {
        ["first", "second"]
    }
    fn start(&self) -> NimState {
        NimState { stones: 10, turn: 0, last_mover: None }
    }
    fn to_move(&self, s: &NimState) -> Side {
        if s.turn % 3 == 2 { Side::ONE } else { Side::ZERO }
    }
    fn legal_moves(&self, s: &NimState, out: &mut Self::Moves) {
        out.clear();
        if s.stones > 0 {
            out.extend(1..=s.stones.min(2));
        }
    }
    fn apply(&self, s: &mut NimState, take: u8) {
        s.last_mover = Some(self.to_move(s));
        s.stones -= take;
        s.turn += 1;
    }
    fn immediate_result(&self, s: &NimState) -> Option<Outcome> {
        (s.stones == 0).then(|| Outcome::win(s.last_mover.unwrap(), Reason::Captures))
    }
    fn is_irreversible(&self, _s: &NimState, _take: u8) -> bool {
        true
    }
    fn position_hash(&self, s: &NimState) -> u64 {
        (s.stones as u64) << 8 | (s.turn % 3) as u64
    }
    fn parse_position(&self, text: &str) -> Result<NimState, PositionError> {
        // `stones/turn`: the turn's place in the cycle 0, 0, 1.
        let (stones, turn) = text.split_once('/').ok_or_else(|| PositionError::new(text, "stones/turn"))?;
        let number = |t: &str| t.parse().map_err(|_| PositionError::new(text, "stones/turn"));
        Ok(NimState { stones: number(stones)?, turn: number(turn)? % 3, last_mover: None })
    }
    fn format_position(&self, s: &NimState) -> String {
        format!("{} stones, turn {}", s.stones, s.turn % 3)
    }
    fn format_move(&self, _s: &NimState, take: u8) -> String {
        take.to_string()
    }
    fn render(&self, s: &NimState) -> String {
        self.format_position(s)
    }
    fn facts(&self) -> GameFacts {
        GameFacts { grid: (1, 1), action_count: 2, max_plies: 100 }
    }
    fn action_index(&self, _s: &NimState, take: u8) -> ActionIndex {
        ActionIndex::new(take as usize - 1)
    }
}

#[test]
fn proofs_follow_the_player_to_move_when_one_side_moves_twice() {
    let game = DoubleTurnNim;
    let mut seen = [0, 0];
    for (stones, turn) in (1..=12).flat_map(|n| [(n, 0), (n, 1), (n, 2)]) {
        let start = game.parse_position(&format!("{stones}/{turn}")).unwrap();
        let (winner, distance) = minimax(&game, &start, 0, &[game.position_hash(&start)], false);
        let mut mcts =
            Mcts::new(game.clone(), SearchConfig { simulations: 20_000, ..SearchConfig::default() });
        mcts.set_position(&start, &[]);
        let report = mcts.run(&mut UniformEvaluator, &mut Pcg64Mcg::seed_from_u64(stones as u64));
        let Proof::Proven { winner: proven, plies } = report.proof else {
            panic!("{stones} stones: not proven")
        };
        assert_eq!(proven, winner, "{stones} stones");
        assert!(distance <= plies, "{stones} stones: forced in {distance}, proof says {plies}");
        seen[winner.unwrap().index()] += 1;
    }
    assert!(seen[0] > 0 && seen[1] > 0, "both sides win some starts: {seen:?}");
}

#[test]
fn mcts_beats_random_from_both_sides() {
    let game = AnyGame::from_spec("sixteen-rebels").unwrap();
    let specs = [AgentSpec::parse("mcts:sims=300").unwrap(), AgentSpec::parse("random").unwrap()];
    with_game!(&game, |g| {
        let settings = MatchSettings::new(12, 4, 2, 0);
        let records = run_match(g, [&specs[0], &specs[1]], settings, &|_| {}).unwrap();
        let summary = MatchSummary::new(g, [&specs[0], &specs[1]], &settings, &records);
        let mcts = &summary.agents[0];
        assert_eq!(mcts.by_side["general"].wins, 6, "{summary:?}");
        assert!(mcts.by_side["rebels"].wins >= 3, "{summary:?}");
        assert_eq!(summary.agents[1].by_side["rebels"].wins, 0, "{summary:?}");
    });
}

fn rebel_zero(args: &[&str], stdin: &str) -> (i32, String, String) {
    let data = Path::new(env!("CARGO_TARGET_TMPDIR")).join("play-data");
    let output = crate::run_typing(Path::new(env!("CARGO_MANIFEST_DIR")), &data, args, stdin.as_bytes());
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (output.status.code().unwrap(), text(output.stdout), text(output.stderr))
}

#[test]
fn matches_are_reproducible_whatever_the_thread_count_and_replay() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("match");
    let run = |threads: &str, out: &str| {
        let out = dir.join(out);
        let args = [
            "match",
            "sixteen-rebels:max_plies=60",
            "--agent",
            "mcts:sims=30,temp=1",
            "--agent",
            "random",
            "--games",
            "6",
            "--seed",
            "7",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ];
        let (code, stdout, stderr) = rebel_zero(&args, "");
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains("| A | mcts:sims=30,c=1.5,temp=1,batch=1,rollout=decisive |"), "{stdout}");
        std::fs::read_to_string(out.join("games.jsonl")).unwrap()
    };
    let one = run("1", "one");
    assert_eq!(one, run("3", "three"));
    assert_eq!(one.lines().count(), 6);
    let first: serde_json::Value = serde_json::from_str(one.lines().next().unwrap()).unwrap();
    for key in ["spec", "seed", "agents", "moves", "winner", "reason", "plies"] {
        assert!(first.get(key).is_some(), "no `{key}` in {first}");
    }
    let summary = std::fs::read_to_string(dir.join("one/summary.json")).unwrap();
    assert!(summary.contains("\"draws_by_reason\""), "{summary}");

    let file = dir.join("one/games.jsonl");
    let (code, stdout, stderr) = rebel_zero(&["replay", file.to_str().unwrap(), "--game", "1"], "");
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("1. ") && stdout.contains("result: "), "{stdout}");
    let (code, _, stderr) = rebel_zero(&["replay", file.to_str().unwrap(), "--game", "6"], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("holds 6 games"), "{stderr}");
    std::fs::write(dir.join("bad.jsonl"), "{\"spec\": 3}\n").unwrap();
    let (code, _, stderr) = rebel_zero(&["replay", dir.join("bad.jsonl").to_str().unwrap()], "");
    assert_eq!(code, 1, "a damaged games file is a runtime failure");
    assert!(stderr.contains("line 1: not a game record"), "{stderr}");
}

#[test]
fn a_scripted_play_session_completes() {
    let typed = "help\nc3-c9\nc3-c4\nmoves\nundo\nc3-d4xc5xe3\nquit\n";
    let (code, stdout, stderr) = rebel_zero(
        &["play", "sixteen-rebels", "--as", "general", "--agent", "mcts:sims=50", "--seed", "2"],
        typed,
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("not a legal move") || stdout.contains("is not a"), "{stdout}");
    assert!(stdout.matches("rebels plays").count() >= 2, "{stdout}");
    assert!(stdout.contains("legal moves:"), "{stdout}");
    // The end of the input ends the game cleanly too.
    let (code, stdout, _) =
        rebel_zero(&["play", "sixteen-rebels", "--as", "rebels", "--agent", "random"], "");
    assert_eq!(code, 0);
    assert!(stdout.contains("general plays") && stdout.contains("input ended"), "{stdout}");
}

#[test]
fn bad_agent_specs_and_sides_exit_with_code_2() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["match", "sixteen-rebels", "--agent", "alpha", "--agent", "random"],
            "known agents: random, mcts, net, ab, perfect, human",
        ),
        (
            &["match", "sixteen-rebels", "--agent", "mcts:sim=5", "--agent", "random"],
            "sims, c, temp, open, contempt, batch",
        ),
        (&["match", "sixteen-rebels", "--agent", "human", "--agent", "random", "--games", "2"], "play"),
        (&["play", "sixteen-rebels", "--as", "emperor", "--agent", "random"], "sides: general, rebels"),
    ];
    for (args, needle) in cases {
        let (code, _, stderr) = rebel_zero(args, "");
        // A checkpoint that is not there is a failure to read a file (1); a spec that does not
        // parse is a usage error (2).
        let expected = if needle.starts_with("no checkpoint") { 1 } else { 2 };
        assert_eq!(code, expected, "{args:?}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// A win in one in a hand-made position of each family: the search plays it and proves it.
#[test]
fn search_finds_and_proves_a_win_in_one_in_every_family() {
    let cases = [
        // The Emperor's only way to the border is east: d5, e9 and e1 are blocked.
        ("imperial-contest", "4A4/9/9/9/3AE4/9/9/9/4A4 r", "e5-i5", Side::ZERO),
        // Back-rank mate.
        ("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", Side::ZERO),
        // The same mate stands in rebellion chess: Black cannot step the rook or the king away.
        ("rebellion-chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", Side::ZERO),
        // The General one step from the apex.
        ("sixteen-rebels", "G:c6;R:a1,b1,c1,d1,e1;g", "c6-c7", Side::ZERO),
    ];
    for (spec, position, expected, winner) in cases {
        let game = AnyGame::from_spec(spec).unwrap();
        with_game!(&game, |g| {
            let start = g.parse_position(position).unwrap();
            let mut mcts = Mcts::new(g.clone(), SearchConfig { simulations: 400, ..SearchConfig::default() });
            mcts.set_position(&start, &[]);
            let mut rng = Pcg64Mcg::seed_from_u64(1);
            let report = mcts.run(&mut UniformEvaluator, &mut rng);
            assert_eq!(report.proof, Proof::Proven { winner: Some(winner), plies: 1 }, "{spec}");
            let chosen = mcts.output(0.0, &mut rng).unwrap().mv;
            assert_eq!(g.format_move(&start, chosen), expected, "{spec}");
        });
    }
}

#[test]
fn a_net_agent_without_a_readable_checkpoint_is_a_clear_error() {
    let cases: [(&[&str], &str); 3] = [
        (&["match", "sixteen-rebels", "--agent", "net:sims=5", "--agent", "random"], "needs `path=`"),
        (
            &["match", "sixteen-rebels", "--agent", "net:path=no/such/run", "--agent", "random"],
            "no checkpoint at no/such/run",
        ),
        (
            &["match", "sixteen-rebels", "--agent", "net:path=x,rollout=uniform", "--agent", "random"],
            "path, sims, c, temp, open, contempt, batch",
        ),
    ];
    for (args, needle) in cases {
        let (code, _, stderr) = rebel_zero(args, "");
        // A checkpoint that is not there is a failure to read a file (1); a spec that does not
        // parse is a usage error (2).
        let expected = if needle.starts_with("no checkpoint") { 1 } else { 2 };
        assert_eq!(code, expected, "{args:?}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}
