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

const COMMANDS: &str = "  moves  list the legal moves
  undo   take back your last move (and the reply to it)
  help   this text
  quit   leave the game";

/// The help for a move in `state`, with two of its legal moves as the game writes them for examples
/// (SAN in chess, RULES.md section 7 in the hunts).
fn help<G: Game>(line: &Playthrough<G>) -> String {
    let game = line.game();
    let examples: Vec<String> = line
        .legal_moves()
        .iter()
        .take(2)
        .map(|&m| format!("`{}`", game.display_move(line.state(), m)))
        .collect();
    format!("type a move as the game writes it (here, e.g. {}), or:\n{COMMANDS}", examples.join(" or "))
}

/// A side as a sentence names it: White and Black as chess writes them, the other sides with `the`.
fn side_phrase(name: &str) -> String {
    match name {
        "white" => "White".to_string(),
        "black" => "Black".to_string(),
        other => format!("the {other}"),
    }
}

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
                "you play {}; {} plays {}",
                side_phrase(names[human.index()]),
                spec,
                side_phrase(names[human.opponent().index()])
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
                writeln!(out, "{} plays {}", names[mover.index()], game.display_move(self.line.state(), mv))?;
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
                "help" => writeln!(out, "{}", help(&self.line))?,
                "quit" | "exit" => return Ok(()),
                "moves" => {
                    let state = self.line.state();
                    let moves: Vec<String> =
                        self.line.legal_moves().iter().map(|&m| game.display_move(state, m)).collect();
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

    /// The side that made each move so far (the side to move in each position before the last).
    fn movers(&self) -> Vec<Side> {
        let (game, states) = (self.line.game(), self.line.states());
        states[..states.len() - 1].iter().map(|state| game.to_move(state)).collect()
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

    /// Chess speaks chess: help's examples and the agent's replies are SAN, a castling that is not
    /// legal is called illegal (not unreadable), and the sides are White and Black.
    #[test]
    fn a_chess_game_is_written_in_san() {
        let game = AnyGame::from_spec("chess").unwrap();
        let out = with_game!(&game, |g| {
            let opponent = Some(AgentSpec::Random.build(g, 1).unwrap());
            let mut session = Session { line: Playthrough::new(g.clone()), human: Side::ZERO, opponent };
            let mut out = Vec::new();
            session.run(&mut "help\nO-O\ne4\nquit\n".as_bytes(), &mut out).unwrap();
            String::from_utf8(out).unwrap()
        });
        assert!(out.contains("here, e.g. `") && !out.contains("c3-c4"), "{out}");
        assert!(out.contains("`O-O` is not a legal move here"), "{out}");
        let reply = out.lines().find_map(|l| l.strip_prefix("black plays ")).expect("a reply");
        assert!(crate::game::chess::san::has_san_shape(reply) && reply.len() < 4, "{reply}: {out}");
        assert_eq!(side_phrase("white"), "White");
        assert_eq!(side_phrase("rebels"), "the rebels");
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
