//! `rebel-zero uci`: the project's chess agents as a UCI engine (the protocol of chess GUIs, cutechess,
//! python-chess and engine-testing harnesses), reading commands on standard input.
//!
//! Supported: `uci`, `isready`, `setoption`, `ucinewgame`, `position [startpos | fen FEN] [moves …]`,
//! `go` (with `nodes N`: that many simulations; otherwise the `Simulations` option, or when that is 0
//! the agent's own; time controls are ignored, the search is bounded by simulations), `stop` (the
//! search has already answered), `quit`. Options: `UCI_Variant` (`chess`, `rebellion`, `squirm`),
//! `Berolina` (Berolina pawns), `Agent` (an agent spec; default the strongest shipped for the variant)
//! and `Simulations`. Moves are UCI; the
//! variants' own turns use RULES.md section 7 (`r:b8b7`, `r:f6f5+e2e4`).

use std::io::{BufRead, Write};

use anyhow::anyhow;
use clap::Args;

use crate::agents::{AgentSpec, MAX_SIMULATIONS};
use crate::game::chess::ChessGame;
use crate::game::{AnyGame, Game, Playthrough};

#[derive(Args, Debug)]
pub struct UciArgs {
    /// Seed of the engine's random choices (each `go` derives its own from it and the move number).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: &UciArgs) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut engine = Engine::new(args.seed);
    engine.serve(&mut stdin.lock(), &mut std::io::stdout().lock())
}

/// The engine's state between commands.
pub struct Engine {
    variant: String,
    berolina: bool,
    /// `None`: the strongest shipped agent for the variant.
    agent: Option<AgentSpec>,
    /// The `Simulations` option; 0: the agent's own number.
    simulations: u32,
    seed: u64,
    line: Playthrough<ChessGame>,
}

const VARIANTS: [(&str, &str); 3] =
    [("chess", "chess"), ("rebellion", "rebellion-chess"), ("squirm", "squirm-chess")];

impl Engine {
    pub fn new(seed: u64) -> Engine {
        Engine {
            variant: "chess".to_string(),
            berolina: false,
            agent: None,
            simulations: 0,
            seed,
            line: Playthrough::new(chess_game("chess", false).expect("chess exists")),
        }
    }

    /// Answers commands until `quit` or the end of the input. A command that cannot be carried out is
    /// answered with `info string error: …` (UCI has no error reply) and the engine goes on.
    pub fn serve(&mut self, input: &mut impl BufRead, out: &mut impl Write) -> anyhow::Result<()> {
        let mut text = String::new();
        loop {
            text.clear();
            if input.read_line(&mut text)? == 0 {
                return Ok(());
            }
            let words: Vec<&str> = text.split_whitespace().collect();
            let reply = match words.first().copied() {
                None => Ok(()),
                Some("quit") => return Ok(()),
                Some("uci") => self.identify(out),
                Some("isready") => writeln!(out, "readyok").map_err(Into::into),
                Some("ucinewgame") => self.set_position(&["startpos"]),
                Some("setoption") => self.set_option(&words[1..]),
                Some("position") => self.set_position(&words[1..]),
                Some("go") => self.go(&words[1..], out),
                Some("stop" | "ponderhit" | "debug" | "register") => Ok(()),
                Some(other) => Err(anyhow!("unknown command `{other}`")),
            };
            if let Err(error) = reply {
                writeln!(out, "info string error: {error:#}")?;
            }
            out.flush()?;
        }
    }

    fn identify(&self, out: &mut impl Write) -> anyhow::Result<()> {
        writeln!(out, "id name rebel-zero {}", env!("CARGO_PKG_VERSION"))?;
        writeln!(out, "id author the rebel-zero authors")?;
        let variants: Vec<String> = VARIANTS.iter().map(|(name, _)| format!("var {name}")).collect();
        writeln!(out, "option name UCI_Variant type combo default chess {}", variants.join(" "))?;
        writeln!(out, "option name Berolina type check default false")?;
        writeln!(out, "option name Agent type string default <strongest>")?;
        writeln!(out, "option name Simulations type spin default 0 min 0 max {MAX_SIMULATIONS}")?;
        writeln!(out, "uciok")?;
        Ok(())
    }

    /// `setoption name NAME [value VALUE]`; the position goes back to the start when the rules change.
    fn set_option(&mut self, words: &[&str]) -> anyhow::Result<()> {
        let value_at = words.iter().position(|w| *w == "value");
        let name = words.get(1..value_at.unwrap_or(words.len())).unwrap_or_default().join(" ");
        let value = value_at.map_or(String::new(), |i| words[i + 1..].join(" "));
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let spec = VARIANTS
                    .iter()
                    .find(|(short, long)| value == *short || value == *long)
                    .map(|(_, long)| *long)
                    .ok_or_else(|| {
                        anyhow!("UCI_Variant must be chess, rebellion or squirm (got `{value}`)")
                    })?;
                self.variant = spec.to_string();
                self.set_position(&["startpos"])
            }
            "berolina" => {
                self.berolina = match value.as_str() {
                    "true" => true,
                    "false" => false,
                    other => return Err(anyhow!("Berolina must be true or false (got `{other}`)")),
                };
                self.set_position(&["startpos"])
            }
            "agent" => {
                self.agent = match value.as_str() {
                    "" | "<strongest>" => None,
                    spec => Some(AgentSpec::parse(spec)?),
                };
                Ok(())
            }
            "simulations" => {
                self.simulations = value
                    .parse()
                    .ok()
                    .filter(|n| *n <= MAX_SIMULATIONS)
                    .ok_or_else(|| anyhow!("Simulations must be 0..{MAX_SIMULATIONS} (got `{value}`)"))?;
                Ok(())
            }
            _ => Err(anyhow!("unknown option `{name}`")),
        }
    }

    /// `startpos [moves …]` or `fen FEN [moves …]`. A bad position or move leaves the old one.
    fn set_position(&mut self, words: &[&str]) -> anyhow::Result<()> {
        let game = chess_game(&self.variant, self.berolina)?;
        let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
        let start = match words.first().copied() {
            Some("startpos") => game.start(),
            Some("fen") => game.parse_position(&words[1..moves_at].join(" "))?,
            _ => return Err(anyhow!("`position` needs `startpos` or `fen …`")),
        };
        let mut line = Playthrough::from_position(game, start);
        for text in words.iter().skip(moves_at + 1) {
            line.play_text(text).map_err(|e| anyhow!("move `{text}`: {e}"))?;
        }
        self.line = line;
        Ok(())
    }

    /// Searches the current position and answers `bestmove`.
    fn go(&mut self, words: &[&str], out: &mut impl Write) -> anyhow::Result<()> {
        if self.line.is_over() {
            writeln!(out, "info string the game is over")?;
            writeln!(out, "bestmove 0000")?;
            return Ok(());
        }
        let nodes = words.iter().position(|w| *w == "nodes").and_then(|i| words.get(i + 1));
        let simulations = match nodes {
            Some(n) => n
                .parse()
                .ok()
                .filter(|n| (1..=MAX_SIMULATIONS).contains(n))
                .ok_or_else(|| anyhow!("bad nodes `{n}`"))?,
            None => self.simulations,
        };
        let game = self.line.game().clone();
        let mut agent_spec = match &self.agent {
            Some(spec) => spec.clone(),
            None => AgentSpec::strongest_shipped(&AnyGame::Chess(game.clone())),
        };
        if simulations > 0 {
            agent_spec = agent_spec.with_simulations(simulations);
        }
        let seed = crate::seed::derive_seed(self.seed, u64::from(self.line.plies()));
        let mut agent = agent_spec.build(&game, seed)?;
        let mv = agent.choose(&self.line);
        if let Some(note) = agent.last_note() {
            writeln!(out, "info string {agent_spec}: {note}")?;
        }
        writeln!(out, "bestmove {}", game.format_move(self.line.state(), mv))?;
        Ok(())
    }
}

fn chess_game(spec: &str, berolina: bool) -> anyhow::Result<ChessGame> {
    let spec = if berolina && spec != "chess" { format!("{spec}:pawns=berolina") } else { spec.to_string() };
    match AnyGame::from_spec(&spec)? {
        AnyGame::Chess(game) => Ok(game),
        _ => Err(anyhow!("`{spec}` is not a chess ruleset")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(commands: &str) -> String {
        let mut out = Vec::new();
        Engine::new(1).serve(&mut commands.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_handshake_and_a_search_give_a_legal_bestmove() {
        let out = session("uci\nisready\nposition startpos moves e2e4\ngo nodes 50\nquit\n");
        assert!(
            out.contains(
                "option name UCI_Variant type combo default chess var chess var rebellion var squirm"
            )
        );
        assert!(out.contains("uciok\nreadyok\n"), "{out}");
        let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove");
        let game = chess_game("chess", false).unwrap();
        let mut line = Playthrough::new(game);
        line.play_text("e2e4").unwrap();
        line.play_text(best).expect("the best move is legal for Black");
    }

    #[test]
    fn bad_commands_are_reported_and_the_engine_goes_on() {
        let out = session(
            "setoption name UCI_Variant value checkers\nposition startpos moves e2e5\nfrobnicate\nisready\n",
        );
        assert_eq!(out.matches("info string error:").count(), 3, "{out}");
        assert!(out.ends_with("readyok\n"), "{out}");
    }
}
