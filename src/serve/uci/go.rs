//! A `go` command read into limits: the clock's share of the time left, a fixed time, depth or nodes,
//! an infinite or pondering search, and the root moves to search.

use std::time::Duration;

use anyhow::anyhow;

use crate::search::alphabeta::Limits;

/// A `go` command's limits.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Request {
    /// Our clock and increment (ms), and the moves to the next time control.
    pub(super) time: Option<u64>,
    pub(super) increment: u64,
    pub(super) moves_to_go: Option<u64>,
    pub(super) movetime: Option<u64>,
    pub(super) depth: Option<u32>,
    pub(super) nodes: Option<u64>,
    pub(super) infinite: bool,
    /// Searching the GUI's guess at the opponent's move (`go ponder`) until `ponderhit` or `stop`.
    pub(super) ponder: bool,
    /// The root moves to search (`searchmoves`), as written.
    pub(super) searchmoves: Vec<String>,
}

/// The words that end a `go searchmoves` list.
const GO_KEYWORDS: [&str; 12] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

impl Request {
    pub(super) fn parse(words: &[&str], white: bool) -> anyhow::Result<Request> {
        let mut request = Request::default();
        let mut i = 0;
        while i < words.len() {
            let key = words[i];
            if key == "infinite" || key == "ponder" {
                if key == "infinite" {
                    request.infinite = true;
                } else {
                    request.ponder = true;
                }
                i += 1;
                continue;
            }
            if key == "searchmoves" {
                let listed: Vec<String> = words[i + 1..]
                    .iter()
                    .take_while(|w| !GO_KEYWORDS.contains(w))
                    .map(|w| w.to_string())
                    .collect();
                i += 1 + listed.len();
                request.searchmoves.extend(listed);
                continue;
            }
            let value = words.get(i + 1).ok_or_else(|| anyhow!("`go {key}` needs a number"))?;
            let number: i64 = value.parse().map_err(|_| anyhow!("`go {key} {value}`: not a number"))?;
            let positive = number.max(0) as u64;
            match key {
                "wtime" if white => request.time = Some(positive),
                "btime" if !white => request.time = Some(positive),
                "winc" if white => request.increment = positive,
                "binc" if !white => request.increment = positive,
                "wtime" | "btime" | "winc" | "binc" => {}
                "movestogo" => request.moves_to_go = Some(positive.max(1)),
                "movetime" => request.movetime = Some(positive),
                "depth" => request.depth = Some(positive.clamp(1, 100) as u32),
                "nodes" => request.nodes = Some(positive.max(1)),
                "mate" => request.depth = Some((2 * positive).clamp(1, 100) as u32),
                other => return Err(anyhow!("unknown `go` parameter `{other}`")),
            }
            i += 2;
        }
        Ok(request)
    }

    /// The search's limits: the clock's share, a fixed time, a depth or nodes (none: infinite).
    pub(super) fn limits(&self, overhead: u64) -> Limits {
        let mut limits = Limits { depth: self.depth, nodes: self.nodes, soft: None, hard: None };
        if self.infinite || self.ponder {
            return limits;
        }
        if let Some(ms) = self.movetime {
            let ms = Duration::from_millis(ms.saturating_sub(overhead).max(1));
            (limits.soft, limits.hard) = (Some(ms), Some(ms));
        } else if let Some(time) = self.time {
            let (soft, hard) = clock(time, self.increment, self.moves_to_go, overhead);
            (limits.soft, limits.hard) = (Some(soft), Some(hard));
        }
        limits
    }
}

/// The time to aim at and the most to spend for one move, from `time` left and `increment` per move
/// (ms): the time left over the moves to go (30 when unknown) plus three quarters of the increment,
/// at most three times that, and never more than a third of the time left less the move overhead.
pub(super) fn clock(
    time: u64,
    increment: u64,
    moves_to_go: Option<u64>,
    overhead: u64,
) -> (Duration, Duration) {
    let usable = time.saturating_sub(overhead);
    let per_move = usable / moves_to_go.unwrap_or(30).clamp(1, 60) + increment * 3 / 4;
    let ceiling = (usable / 3).max(1);
    let soft = per_move.min(ceiling).max(1);
    let hard = (per_move * 3).min(ceiling).max(soft);
    (Duration::from_millis(soft), Duration::from_millis(hard))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_never_spends_more_than_a_third_of_what_is_left() {
        let (soft, hard) = clock(60_000, 0, None, 30);
        assert_eq!(soft, Duration::from_millis(1999));
        assert_eq!(hard, Duration::from_millis(5997));
        let (soft, hard) = clock(100, 50, None, 30);
        assert!(soft <= hard && hard <= Duration::from_millis(23), "{soft:?} {hard:?}");
        assert_eq!(clock(0, 0, None, 30).1, Duration::from_millis(1));
        let request =
            Request::parse(&["wtime", "5000", "btime", "10", "winc", "50", "binc", "0"], true).unwrap();
        assert_eq!((request.time, request.increment), (Some(5000), 50));
    }
}
