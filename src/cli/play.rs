//! `rebel-zero play SPEC [--as SIDE] [--agent A] [--position POS] [--seed S]`: a game at the terminal
//! against an agent (by default the strongest shipped one for the ruleset; with `--agent human`,
//! between two people at one keyboard). Every game played is appended to `played.jsonl` in the data
//! folder, where `rebel-zero replay` reads it.

use std::io::{BufRead, Write};

use anyhow::{Context, anyhow};
use clap::Args;

use super::common::{load_game, load_position, usage};
use crate::agents::{Agent, AgentSpec};
use crate::game::{Game, GameRecord, Playthrough, Side, describe_outcome, side_by_name};
use crate::with_game;

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Ruleset spec, e.g. `sixteen-rebels`.
    spec: String,
    /// The side you play (`general`, `rebels`, …); by default the side that moves first.
    #[arg(long = "as")]
    side: Option<String>,
    /// Your opponent (`mcts:sims=2000`, `random`, or `human` for two players at one keyboard); by
    /// default the strongest shipped for the ruleset: the tablebase's `perfect` where one is built, else
    /// the ruleset's shipped network at 400 simulations, else `mcts:sims=2000`.
    #[arg(long)]
    agent: Option<String>,
    /// Start from this position instead of the ruleset's start.
    #[arg(long)]
    position: Option<String>,
    /// Seed of the agent's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

const HELP: &str = "type a move in RULES.md notation (e.g. c3-c4, c3-d4xc5xe3), or:
  moves  list the legal moves
  undo   take back your last move (and the reply to it)
  help   this text
  quit   leave the game";

pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    let game = load_game(&args.spec)?;
    let spec = match &args.agent {
        Some(text) => AgentSpec::parse(text).map_err(usage)?,
        None => AgentSpec::strongest_shipped(&game),
    };
    with_game!(&game, |g| {
        let start = load_position(g, args.position.as_deref())?;
        let human = match &args.side {
            None => g.to_move(&start),
            Some(name) => side_by_name(g, name).ok_or_else(|| {
                usage(anyhow!("`{name}` is not a side of {}; sides: {}", g.spec(), g.side_names().join(", ")))
            })?,
        };
        let opponent = if spec.is_human() { None } else { Some(spec.build(g, args.seed)?) };
        let names = g.side_names();
        if !spec.is_human() {
            println!(
                "you play the {}; {} plays the {}",
                names[human.index()],
                spec,
                names[human.opponent().index()]
            );
        }
        let stdin = std::io::stdin();
        let mut session = Session { line: Playthrough::from_position(g.clone(), start), human, opponent };
        session.run(&mut stdin.lock(), &mut std::io::stdout().lock())?;
        if session.line.plies() > 0 {
            let agents = Side::BOTH.map(|side| {
                let who = if session.is_human(side) { "human".to_string() } else { spec.to_string() };
                (names[side.index()].to_string(), who)
            });
            let path = crate::files::data_dir().join(PLAYED_FILE);
            let index = crate::game::record::append_record(
                &path,
                &GameRecord::of_line(&session.line, agents.into(), args.seed),
            )?;
            println!(
                "saved as game {index} of {} (rebel-zero replay {} --game {index})",
                path.display(),
                path.display()
            );
        }
    });
    Ok(())
}

/// The file in the data folder that every game played at the terminal is appended to.
pub const PLAYED_FILE: &str = "played.jsonl";

/// A game at the terminal: the moves typed, the agent's replies, and who made each move (for undo).
pub struct Session<G: Game> {
    line: Playthrough<G>,
    human: Side,
    /// `None`: people play both sides.
    opponent: Option<Box<dyn Agent<G>>>,
}

impl<G: Game> Session<G> {
    fn is_human(&self, side: Side) -> bool {
        self.opponent.is_none() || side == self.human
    }

    /// Plays until the game ends, `quit`, or the end of the input.
    pub fn run(&mut self, input: &mut impl BufRead, out: &mut impl Write) -> anyhow::Result<()> {
        let game = self.line.game().clone();
        let names = game.side_names();
        writeln!(out, "{}", game.render(self.line.state()))?;
        writeln!(out, "type `help` for commands")?;
        let mut text = String::new();
        loop {
            if let Some(outcome) = self.line.outcome() {
                writeln!(out, "game over: {}", describe_outcome(&game, &outcome))?;
                writeln!(out, "type `undo` to take back your last move, anything else to leave")?;
                if read_line(input, out, "> ", &mut text)? && text.trim() == "undo" {
                    self.undo(out)?;
                    continue;
                }
                return Ok(());
            }
            let mover = game.to_move(self.line.state());
            if !self.is_human(mover) {
                let agent = self.opponent.as_mut().expect("an agent plays the other side");
                let mv = agent.choose(&self.line);
                writeln!(out, "{} plays {}", names[mover.index()], game.format_move(self.line.state(), mv))?;
                if let Some(note) = agent.last_note() {
                    writeln!(out, "  ({note})")?;
                }
                self.line.play(mv);
                writeln!(out, "{}", game.render(self.line.state()))?;
                continue;
            }
            if !read_line(input, out, &format!("{} to move> ", names[mover.index()]), &mut text)? {
                writeln!(out)?;
                writeln!(out, "input ended; leaving the game")?;
                return Ok(());
            }
            match text.trim() {
                "" => {}
                "help" => writeln!(out, "{HELP}")?,
                "quit" | "exit" => return Ok(()),
                "moves" => {
                    let state = self.line.state();
                    let moves: Vec<String> =
                        self.line.legal_moves().iter().map(|&m| game.format_move(state, m)).collect();
                    writeln!(out, "{} legal moves: {}", moves.len(), moves.join(" "))?;
                }
                "undo" => self.undo(out)?,
                typed => match self.line.play_text(typed) {
                    Ok(_) => writeln!(out, "{}", game.render(self.line.state()))?,
                    Err(error) => writeln!(out, "{error}; type `moves` for the legal moves or `help`")?,
                },
            }
        }
    }

    /// Takes back moves up to and including the last one a person made, so that it is their turn again.
    fn undo(&mut self, out: &mut impl Write) -> anyhow::Result<()> {
        let game = self.line.game().clone();
        let movers = self.movers();
        let Some(last) = movers.iter().rposition(|&side| self.is_human(side)) else {
            writeln!(out, "nothing to undo")?;
            return Ok(());
        };
        while self.line.plies() as usize > last {
            self.line.undo();
        }
        writeln!(out, "{}", game.render(self.line.state()))?;
        Ok(())
    }

    /// The side that made each move so far.
    fn movers(&self) -> Vec<Side> {
        let game = self.line.game();
        let mut state = self.line.start().clone();
        self.line
            .moves()
            .iter()
            .map(|&mv| {
                let mover = game.to_move(&state);
                game.apply(&mut state, mv);
                mover
            })
            .collect()
    }
}

/// Prompts and reads one line into `text`; false at the end of the input.
fn read_line(
    input: &mut impl BufRead,
    out: &mut impl Write,
    prompt: &str,
    text: &mut String,
) -> anyhow::Result<bool> {
    write!(out, "{prompt}")?;
    out.flush()?;
    text.clear();
    if input.read_line(text).context("reading standard input")? == 0 {
        return Ok(false);
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyGame;
    use crate::game::record::append_record;

    fn session_output(agent: &str, side: &str, typed: &str) -> String {
        let game = AnyGame::from_spec("sixteen-rebels").unwrap();
        with_game!(&game, |g| {
            let human = side_by_name(g, side).unwrap();
            let spec = AgentSpec::parse(agent).unwrap();
            let opponent = if spec.is_human() { None } else { Some(spec.build(g, 1).unwrap()) };
            let mut session = Session { line: Playthrough::new(g.clone()), human, opponent };
            let mut out = Vec::new();
            session.run(&mut typed.as_bytes(), &mut out).unwrap();
            String::from_utf8(out).unwrap()
        })
    }

    #[test]
    fn mistyped_and_illegal_moves_get_a_message_and_a_new_prompt() {
        let out = session_output("random", "general", "nonsense\nc3-c7\nmoves\nhelp\nquit\n");
        assert!(out.contains("is not a"), "{out}");
        assert!(out.contains("8 legal moves"), "{out}");
        assert!(out.contains("take back"), "{out}");
        assert_eq!(out.matches("general to move>").count(), 5);
    }

    #[test]
    fn undo_returns_to_the_persons_turn() {
        let out = session_output("random", "general", "c3-c4\nundo\nundo\n");
        assert!(out.contains("rebels plays"), "{out}");
        assert!(out.contains("nothing to undo"), "{out}");
        assert_eq!(out.matches("general to move>").count(), 4);
        assert!(out.ends_with("input ended; leaving the game\n"), "{out}");
    }

    #[test]
    fn played_games_are_appended_and_read_back_by_the_record_reader() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data/played.jsonl");
        let game = crate::game::AnyGame::from_spec("sixteen-rebels").unwrap();
        with_game!(&game, |g| {
            let mut line = Playthrough::new(g.clone());
            line.play_text("c3-c4").unwrap();
            let agents: std::collections::BTreeMap<_, _> =
                [("general".to_string(), "human".to_string()), ("rebels".to_string(), "random".to_string())]
                    .into();
            assert_eq!(append_record(&path, &GameRecord::of_line(&line, agents.clone(), 5)).unwrap(), 0);
            assert_eq!(append_record(&path, &GameRecord::of_line(&line, agents, 6)).unwrap(), 1);
            let records = crate::game::read_records(&path).unwrap();
            assert_eq!(records.len(), 2);
            let record = &records[1].record;
            assert_eq!((record.seed, record.reason.as_str(), record.moves.len()), (6, "unfinished", 1));
            assert_eq!(record.replay(g).unwrap().plies(), 1);
        });
    }

    #[test]
    fn the_agent_moves_first_when_it_has_the_first_move() {
        let out = session_output("mcts:sims=20", "rebels", "quit\n");
        assert!(out.contains("general plays") && out.contains("simulations"), "{out}");
    }
}
