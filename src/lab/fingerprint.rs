//! Fingerprints of behaviour, so that a saved cell cannot outlive the code that played it: a ruleset's
//! is a hash of its perft counts and of seeded random games played to their end (any change to move
//! generation or to how a game ends changes it); an agent's is its spec ([`AgentSpec::print_form`]),
//! the SHA-256 of the network's weights it plays the ruleset with, and the moves it chooses in a few
//! seeded positions of the ruleset (any change to the search changes it).

use rand::{RngExt, SeedableRng};
use sha2::{Digest, Sha256};

use crate::agents::AgentSpec;
use crate::family::Family;
use crate::game::perft::perft;
use crate::game::{AnyGame, Game, Playthrough};
use crate::seed::derive_seed;
use crate::with_game;

/// Random games each ruleset fingerprint plays, and the perft depth it counts.
const GAMES: u64 = 24;
const PERFT_DEPTH: u32 = 3;
/// Moves an agent fingerprint asks for, each from a position a few random plies into the game.
const PROBES: u64 = 4;
/// Simulations an agent fingerprint's search gets at most (its own setting if lower): enough to
/// exercise the search, cheap enough for every cell.
const PROBE_SIMULATIONS: u32 = 64;

fn hex(digest: impl AsRef<[u8]>) -> String {
    digest.as_ref().iter().take(12).map(|b| format!("{b:02x}")).collect()
}

/// The fingerprint of a ruleset's behaviour.
pub fn rules(game: &AnyGame) -> String {
    with_game!(game, |g| rules_of(g))
}

fn rules_of<G: Game>(game: &G) -> String {
    let mut hash = Sha256::new();
    hash.update(game.spec().as_bytes());
    let start = game.start();
    for depth in 1..=PERFT_DEPTH {
        hash.update(perft(game, &start, depth).to_le_bytes());
    }
    for seed in 0..GAMES {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(derive_seed(0xf1_9e, seed));
        let mut line = Playthrough::new(game.clone());
        while !line.is_over() {
            let moves = line.legal_moves();
            line.play(moves[rng.random_range(0..moves.len())]);
        }
        let outcome = line.outcome().map(|o| crate::game::describe_outcome(game, &o)).unwrap_or_default();
        hash.update(
            format!("{}|{}|{}", line.plies(), outcome, game.format_position(line.state())).as_bytes(),
        );
    }
    hex(hash.finalize())
}

/// The fingerprint of an agent's behaviour on a ruleset: its spec, its network's weights, and its moves
/// in seeded positions (a `perfect` agent's moves need its table; its spec and the rules stand for it).
pub fn agent(spec: &AgentSpec, game: &AnyGame) -> anyhow::Result<String> {
    with_game!(game, |g| agent_of(spec, g))
}

/// The weights file a network agent plays `game` with (its checkpoint's `model.bpk`) and the file's
/// SHA-256.
pub fn weights<G: Family>(
    settings: &crate::agents::NetSettings,
    game: &G,
) -> anyhow::Result<(std::path::PathBuf, [u8; 32])> {
    let dir = settings.checkpoint_for(game).map_err(anyhow::Error::msg)?;
    let checkpoint = crate::nn::Checkpoint::open(&dir)?;
    let file = checkpoint.file(crate::nn::checkpoint::MODEL_FILE);
    let digest = Sha256::digest(std::fs::read(&file)?);
    Ok((file, digest.into()))
}

fn agent_of<G: Family>(spec: &AgentSpec, game: &G) -> anyhow::Result<String> {
    let mut hash = Sha256::new();
    hash.update(spec.print_form().as_bytes());
    let probe = match spec {
        AgentSpec::Net(settings) => {
            hash.update(weights(settings, game)?.1);
            // 8 bits computed in f32 (a CPU without VNNI) play as f32 does, not as 8 bits do.
            if settings.precision == crate::nn::Precision::Int8 && !crate::nn::int8::available() {
                hash.update(b"int8 computed in f32");
            }
            Some(AgentSpec::Net(crate::agents::NetSettings {
                search: capped(settings.search),
                ..settings.clone()
            }))
        }
        AgentSpec::Mcts(settings) => Some(AgentSpec::Mcts(crate::agents::MctsSettings {
            search: capped(settings.search),
            ..*settings
        })),
        AgentSpec::Ab(settings) => {
            // The evaluation's weights (chess) or network, then moves found at a small fixed depth.
            let eval = crate::eval::chess::shipped().flat();
            hash.update(eval.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>());
            if let Some(net) = &settings.net {
                let search = crate::agents::MctsSettings::default().search;
                hash.update(
                    weights(
                        &crate::agents::NetSettings {
                            path: net.clone(),
                            search,
                            precision: crate::nn::Precision::F32,
                        },
                        game,
                    )?
                    .1,
                );
            }
            Some(AgentSpec::Ab(crate::agents::alphabeta::AbSettings {
                depth: Some(3),
                nodes: None,
                ms: None,
                ..settings.clone()
            }))
        }
        AgentSpec::Random => Some(AgentSpec::Random),
        AgentSpec::Perfect { .. } | AgentSpec::Human => None,
    };
    if let Some(probe) = probe {
        for seed in 0..PROBES {
            let mut line = Playthrough::new(game.clone());
            crate::agents::random_opening(&mut line, 2 + seed as u32, derive_seed(0xa9e, seed));
            if line.is_over() {
                continue;
            }
            let mut agent = probe.build(game, derive_seed(0xa9e7, seed))?;
            let mv = agent.choose(&line);
            hash.update(game.format_move(line.state(), mv).as_bytes());
        }
    }
    Ok(hex(hash.finalize()))
}

fn capped(mut search: crate::agents::SearchSettings) -> crate::agents::SearchSettings {
    search.simulations = search.simulations.min(PROBE_SIMULATIONS);
    search
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_fingerprints_tell_rulesets_apart_and_repeat() {
        let a = AnyGame::from_spec("juroku-musashi").unwrap();
        let b = AnyGame::from_spec("juroku-musashi:triangle=closed").unwrap();
        assert_eq!(rules(&a), rules(&a));
        assert_ne!(rules(&a), rules(&b));
    }

    #[test]
    fn agent_fingerprints_follow_the_spec_and_the_search() {
        let game = AnyGame::from_spec("sixteen-rebels").unwrap();
        let a = AgentSpec::parse("mcts:sims=32").unwrap();
        let b = AgentSpec::parse("mcts:sims=32,c=3").unwrap();
        assert_eq!(agent(&a, &game).unwrap(), agent(&a, &game).unwrap());
        assert_ne!(agent(&a, &game).unwrap(), agent(&b, &game).unwrap());
    }
}
