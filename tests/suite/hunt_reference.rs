//! An independent, deliberately naive reference for the hunt games, written from RULES.md sections 0–4
//! and 7 only (not from `src/game/hunt/`), compared with the engine through the public `Game` API.
//!
//! The reference builds each board from its section-1 description: points with real (doubled)
//! coordinates, the listed links, and everything else — lines, "opposite across P", directions,
//! perpendicularity, diagonals — from geometry. Moves are strings in section-7 notation; a position is
//! a General point, a set of Rebel points, the side to move and (after a move) the result.
//!
//! The comparison plays seeded random games with the engine's moves for every hunt ruleset and a wide
//! choice of options, and at every position compares the sorted legal moves, the position reached and
//! the outcome after each move; it also compares perft to depth 3 on sampled positions, and move lists,
//! outcomes and perft on random positions built directly (General anywhere, random Rebels).

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rebel_zero::game::perft::perft;
use rebel_zero::game::{AnyGame, Game, Outcome, Side};

const GENERAL: Side = Side::ZERO;
const REBELS: Side = Side::ONE;

mod reference {
    use super::{GENERAL, REBELS};
    use rebel_zero::game::{Outcome, Reason};

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Family {
        /// Section 2 (and the presets murray-rebels, neeley-rebels).
        Sixteen,
        /// Section 3.
        Juroku,
        /// Section 4.1.
        Hyde,
        /// Section 4.2.
        HydeFree,
        /// Section 4.3.
        HydeAlt,
    }

    #[derive(Clone, Debug)]
    pub struct Rules {
        pub family: Family,
        pub general_first: bool,
        pub mandatory: bool,
        pub wins_at: Option<usize>,
        pub apex: bool,
        pub custodial: bool,
        pub leap: bool,
        /// Section 3, R12: the Japanese triangle open to both sides, with its inner sides drawn.
        pub open_triangle: bool,
    }

    impl Rules {
        /// The rules a spec names, with the defaults of RULES.md.
        pub fn from_spec(spec: &str) -> Rules {
            let (name, options) = spec.split_once(':').unwrap_or((spec, ""));
            let base = |family, general_first, mandatory, wins_at| Rules {
                family,
                general_first,
                mandatory,
                wins_at,
                apex: false,
                custodial: false,
                leap: false,
                open_triangle: true,
            };
            let mut rules = match name {
                "sixteen-rebels" | "murray-rebels" | "neeley-rebels" => Rules {
                    apex: true,
                    custodial: name != "sixteen-rebels",
                    leap: name == "neeley-rebels",
                    ..base(Family::Sixteen, true, false, Some(4))
                },
                "juroku-musashi" => base(Family::Juroku, false, false, Some(0)),
                "twenty-six-rebels" => base(Family::Hyde, true, false, None),
                "twenty-six-rebels-free" => base(Family::HydeFree, true, false, Some(8)),
                "twenty-six-rebels-alt" => base(Family::HydeAlt, true, true, Some(8)),
                _ => panic!("no reference for {name}"),
            };
            for pair in options.split(',').filter(|p| !p.is_empty()) {
                let (key, value) = pair.split_once('=').unwrap();
                match key {
                    "first" => rules.general_first = value == "general",
                    "capture" => rules.mandatory = value == "mandatory",
                    "general_wins_at" => rules.wins_at = Some(value.parse().unwrap()),
                    "apex" => rules.apex = value == "on",
                    "rebels_capture" => rules.custodial = value == "custodial",
                    "general_leap" => rules.leap = value == "diagonal",
                    "triangle" => rules.open_triangle = value == "open",
                    "max_plies" => {}
                    _ => panic!("unknown key {key}"),
                }
            }
            rules
        }
    }

    /// A board of section 1: coordinates are doubled so that the privy's halves are integers.
    pub struct Board {
        pub labels: Vec<String>,
        pub xy: Vec<(i32, i32)>,
        pub adj: Vec<Vec<usize>>,
        /// Points only the General may stand on.
        pub general_only: Vec<bool>,
        pub exits: Vec<usize>,
        pub apex: Option<usize>,
    }

    fn gcd(a: i32, b: i32) -> i32 {
        if b == 0 { a } else { gcd(b, a % b) }
    }

    impl Board {
        fn grid(ranks: i32, alquerque: bool) -> Board {
            let mut board = Board {
                labels: vec![],
                xy: vec![],
                adj: vec![],
                general_only: vec![],
                exits: vec![],
                apex: None,
            };
            for y in 0..ranks {
                for x in 0..5 {
                    board.add(&format!("{}{}", (b'a' + x as u8) as char, y + 1), 2 * x, 2 * y, false);
                }
            }
            let n = board.labels.len();
            for p in 0..n {
                for q in p + 1..n {
                    let (dx, dy) = (board.xy[q].0 - board.xy[p].0, board.xy[q].1 - board.xy[p].1);
                    let orthogonal = dx.abs() + dy.abs() == 2;
                    let (x, y) = (board.xy[p].0 / 2, board.xy[p].1 / 2);
                    let diagonal = dx.abs() == 2 && dy.abs() == 2 && (x + y) % 2 == 0;
                    if orthogonal || (alquerque && diagonal) {
                        board.adj[p].push(q);
                        board.adj[q].push(p);
                    }
                }
            }
            board
        }

        fn add(&mut self, label: &str, x2: i32, y2: i32, general_only: bool) {
            self.labels.push(label.to_string());
            self.xy.push((x2, y2));
            self.adj.push(vec![]);
            self.general_only.push(general_only);
        }

        fn link(&mut self, a: &str, b: &str) {
            let (a, b) = (self.idx(a), self.idx(b));
            self.adj[a].push(b);
            self.adj[b].push(a);
        }

        pub fn idx(&self, label: &str) -> usize {
            self.labels.iter().position(|l| l == label).unwrap_or_else(|| panic!("no point {label}"))
        }

        /// Section 1.1.
        pub fn chinese() -> Board {
            let mut b = Board::grid(5, true);
            b.add("b6", 3, 9, true);
            b.add("c6", 4, 9, true);
            b.add("d6", 5, 9, true);
            b.add("c7", 4, 10, true);
            for (p, q) in [
                ("b5", "b6"),
                ("c5", "c6"),
                ("d5", "d6"),
                ("b6", "c6"),
                ("c6", "d6"),
                ("b6", "c7"),
                ("c6", "c7"),
                ("d6", "c7"),
            ] {
                b.link(p, q);
            }
            b.exits = vec![b.idx("b5"), b.idx("c5"), b.idx("d5")];
            b.apex = Some(b.idx("c7"));
            b
        }

        /// Section 1.2; with the open triangle (section 3, R12) its points are open to the Rebels and
        /// the inner triangle's sides b6-c7, d6-c7 are drawn.
        pub fn japanese(open: bool) -> Board {
            let mut b = Board::grid(5, true);
            b.add("b6", 3, 9, !open);
            b.add("c6", 4, 9, !open);
            b.add("d6", 5, 9, !open);
            b.add("b7", 2, 10, !open);
            b.add("c7", 4, 10, !open);
            b.add("d7", 6, 10, !open);
            if open {
                b.link("b6", "c7");
                b.link("d6", "c7");
            }
            for (p, q) in [
                ("c5", "b6"),
                ("c5", "c6"),
                ("c5", "d6"),
                ("b6", "c6"),
                ("c6", "d6"),
                ("b6", "b7"),
                ("c6", "c7"),
                ("d6", "d7"),
                ("b7", "c7"),
                ("c7", "d7"),
            ] {
                b.link(p, q);
            }
            b
        }

        /// Section 1.3.
        pub fn hyde() -> Board {
            let mut b = Board::grid(9, false);
            b.add("b10", 3, 17, true);
            b.add("c10", 4, 17, true);
            b.add("d10", 5, 17, true);
            b.add("c11", 4, 18, true);
            for (p, q) in
                [("b9", "b10"), ("b10", "c11"), ("c9", "c10"), ("c10", "c11"), ("d9", "d10"), ("d10", "c11")]
            {
                b.link(p, q);
            }
            b.exits = vec![b.idx("b9"), b.idx("c9"), b.idx("d9")];
            b.apex = Some(b.idx("c11"));
            b
        }

        pub fn for_rules(rules: &Rules) -> Board {
            match rules.family {
                Family::Sixteen => Board::chinese(),
                Family::Juroku => Board::japanese(rules.open_triangle),
                _ => Board::hyde(),
            }
        }

        pub fn len(&self) -> usize {
            self.labels.len()
        }

        /// The direction from `a` to `b`, reduced to lowest terms (so collinear steps compare equal).
        pub fn dir(&self, a: usize, b: usize) -> (i32, i32) {
            let (dx, dy) = (self.xy[b].0 - self.xy[a].0, self.xy[b].1 - self.xy[a].1);
            let g = gcd(dx.abs(), dy.abs());
            (dx / g, dy / g)
        }

        /// The neighbour of `p` opposite `a` across `p` (on one line with `a`), if any.
        pub fn opposite(&self, p: usize, a: usize) -> Option<usize> {
            let d = self.dir(p, a);
            self.adj[p].iter().copied().find(|&b| self.dir(p, b) == (-d.0, -d.1))
        }

        /// Every pair of points opposite each other across `p`, each pair once.
        pub fn pairs(&self, p: usize) -> Vec<(usize, usize)> {
            self.adj[p]
                .iter()
                .filter_map(|&a| self.opposite(p, a).filter(|&b| a < b).map(|b| (a, b)))
                .collect()
        }

        /// The maximal line through the adjacent points `a`, `b`, as labels in order.
        pub fn line(&self, a: usize, b: usize) -> Vec<String> {
            let mut back = vec![a];
            let mut prev = b;
            let mut cur = a;
            while let Some(next) = self.opposite(cur, prev) {
                back.push(next);
                prev = cur;
                cur = next;
            }
            back.reverse();
            let mut line = back;
            let (mut prev, mut cur) = (a, b);
            line.push(b);
            while let Some(next) = self.opposite(cur, prev) {
                line.push(next);
                prev = cur;
                cur = next;
            }
            line.iter().map(|&p| self.labels[p].clone()).collect()
        }
    }

    #[derive(Clone, Debug, PartialEq)]
    pub struct State {
        pub general: usize,
        pub rebels: Vec<bool>,
        pub general_to_move: bool,
        /// The result of the move that led here (0.3 step 1), kept because custodial capture is not
        /// visible in the position.
        pub result: Option<Outcome>,
    }

    impl State {
        pub fn count(&self) -> usize {
            self.rebels.iter().filter(|&&r| r).count()
        }

        pub fn format(&self, b: &Board) -> String {
            let rebels: Vec<&str> =
                (0..b.len()).filter(|&p| self.rebels[p]).map(|p| b.labels[p].as_str()).collect();
            format!(
                "G:{};R:{};{}",
                b.labels[self.general],
                rebels.join(","),
                if self.general_to_move { "g" } else { "r" }
            )
        }
    }

    /// Section-7 position notation, read by a plain split.
    pub fn parse(b: &Board, text: &str) -> State {
        let parts: Vec<&str> = text.trim().split(';').collect();
        assert_eq!(parts.len(), 3, "{text}");
        let general = b.idx(parts[0].strip_prefix("G:").unwrap());
        let mut rebels = vec![false; b.len()];
        for label in parts[1].strip_prefix("R:").unwrap().split(',').filter(|l| !l.is_empty()) {
            rebels[b.idx(label)] = true;
        }
        State { general, rebels, general_to_move: parts[2] == "g", result: None }
    }

    pub fn start(b: &Board, r: &Rules) -> State {
        let chinese_or_japanese = matches!(r.family, Family::Sixteen | Family::Juroku);
        let general = b.idx(if chinese_or_japanese { "c3" } else { "c5" });
        let rebels: Vec<bool> = (0..b.len())
            .map(|p| {
                let (x, y) = (b.xy[p].0 / 2, b.xy[p].1 / 2);
                let main_board = b.xy[p].0 % 2 == 0 && b.xy[p].1 % 2 == 0 && y <= 4;
                if b.general_only[p] || (chinese_or_japanese && !main_board) {
                    false
                } else if chinese_or_japanese {
                    x == 0 || x == 4 || y == 0 || y == 4
                } else {
                    (1..=3).contains(&x) && p != general
                }
            })
            .collect();
        State { general, rebels, general_to_move: r.general_first, result: None }
    }

    /// Every immediate result (0.3 step 1) the position meets, in the order RULES.md lists them. In a
    /// position reached by play at most one holds (a second would have ended the game earlier); RULES.md
    /// gives no priority among them, so only parsed positions could tell one apart.
    pub fn conditions(b: &Board, r: &Rules, s: &State, general_taken: bool) -> Vec<Outcome> {
        let g = s.general;
        let few = r.wins_at.is_some_and(|w| s.count() <= w);
        let on_apex = b.apex == Some(g);
        let bottom = b.xy[g].1 == 0;
        let blockade = b.general_only[g] && b.exits.iter().all(|&e| s.rebels[e]);
        let (general, rebels) =
            (|reason| Outcome::win(GENERAL, reason), |reason| Outcome::win(REBELS, reason));
        let list = match r.family {
            Family::Sixteen => vec![
                (general_taken, rebels(Reason::Custodial)),
                (r.apex && on_apex, general(Reason::Apex)),
                (few, general(Reason::Captures)),
                (blockade, rebels(Reason::Blockade)),
            ],
            Family::Juroku => vec![(few, general(Reason::Captures))],
            Family::Hyde => vec![(bottom, general(Reason::BottomRow)), (on_apex, rebels(Reason::ApexTrap))],
            Family::HydeFree => vec![(few, general(Reason::Captures)), (on_apex, rebels(Reason::ApexTrap))],
            Family::HydeAlt => vec![
                (bottom, general(Reason::BottomRow)),
                (few, general(Reason::Captures)),
                (blockade, rebels(Reason::Blockade)),
            ],
        };
        list.into_iter().filter(|c| c.0).map(|c| c.1).collect()
    }

    /// The result of the move that led to `s`, if any.
    pub fn immediate(b: &Board, r: &Rules, s: &State, general_taken: bool) -> Option<Outcome> {
        conditions(b, r, s, general_taken).first().copied()
    }

    /// Whether any immediate-result condition holds, whoever moved last.
    pub fn decided(b: &Board, r: &Rules, s: &State) -> bool {
        immediate(b, r, s, false).is_some()
    }

    fn name(b: &Board, from: usize, to: Option<usize>, taken: &[usize]) -> String {
        let mut text = b.labels[from].clone();
        if let Some(to) = to {
            text += "-";
            text += &b.labels[to];
        }
        let mut taken: Vec<&str> = taken.iter().map(|&p| b.labels[p].as_str()).collect();
        taken.sort();
        for t in taken {
            text += "x";
            text += t;
        }
        text
    }

    /// Every legal move as (notation, position after it), sorted by notation.
    pub fn moves(b: &Board, r: &Rules, s: &State) -> Vec<(String, State)> {
        if s.result.is_some() {
            return vec![];
        }
        let mut out: Vec<(String, State)> = vec![];
        let free = |p: usize| !s.rebels[p] && p != s.general;
        if s.general_to_move {
            let g = s.general;
            // (destination or None for a static capture, Rebels taken)
            let mut raw: Vec<(Option<usize>, Vec<usize>)> = vec![];
            for &n in &b.adj[g] {
                if !free(n) {
                    continue;
                }
                let taken: Vec<usize> = match r.family {
                    Family::Sixteen | Family::HydeAlt => b
                        .pairs(n)
                        .into_iter()
                        .filter(|&(a, c)| s.rebels[a] && s.rebels[c])
                        .flat_map(|(a, c)| [a, c])
                        .collect(),
                    Family::Juroku => vec![],
                    Family::Hyde | Family::HydeFree => {
                        let d = b.dir(g, n);
                        b.pairs(g)
                            .into_iter()
                            .filter(|&(a, _)| {
                                let e = b.dir(g, a);
                                e.0 * d.0 + e.1 * d.1 == 0
                            })
                            .filter(|&(a, c)| s.rebels[a] && s.rebels[c])
                            .flat_map(|(a, c)| [a, c])
                            .collect()
                    }
                };
                raw.push((Some(n), taken));
            }
            let leaps = match r.family {
                Family::Juroku => true,
                Family::Sixteen => r.leap,
                _ => false,
            };
            if leaps {
                for &n in &b.adj[g] {
                    let d = b.dir(g, n);
                    if !s.rebels[n] || (r.family == Family::Sixteen && (d.0 == 0 || d.1 == 0)) {
                        continue;
                    }
                    if let Some(t) = b.opposite(n, g).filter(|&t| free(t)) {
                        raw.push((Some(t), vec![n]));
                    }
                }
            }
            let statics = match r.family {
                Family::Hyde | Family::HydeFree => b.adj[g].iter().all(|&n| !free(n)),
                Family::HydeAlt => true,
                _ => false,
            };
            if statics {
                for (a, c) in b.pairs(g) {
                    if s.rebels[a] && s.rebels[c] {
                        raw.push((None, vec![a, c]));
                    }
                }
            }
            if r.mandatory && raw.iter().any(|m| !m.1.is_empty()) {
                raw.retain(|m| !m.1.is_empty());
            }
            for (to, taken) in raw {
                let mut next = s.clone();
                next.general = to.unwrap_or(g);
                for &t in &taken {
                    assert!(next.rebels[t]);
                    next.rebels[t] = false;
                }
                next.general_to_move = false;
                next.result = immediate(b, r, &next, false);
                out.push((name(b, g, to, &taken), next));
            }
        } else {
            for p in (0..b.len()).filter(|&p| s.rebels[p]) {
                for &n in &b.adj[p] {
                    if !free(n) || b.general_only[n] {
                        continue;
                    }
                    let d = b.dir(p, n);
                    if matches!(r.family, Family::Hyde | Family::HydeAlt) && d.1 < 0 {
                        continue;
                    }
                    let mut next = s.clone();
                    next.rebels[p] = false;
                    next.rebels[n] = true;
                    next.general_to_move = true;
                    let taken = r.custodial
                        && b.adj[n]
                            .iter()
                            .any(|&m| m == s.general && b.opposite(m, n).is_some_and(|t| next.rebels[t]));
                    next.result = immediate(b, r, &next, taken);
                    out.push((name(b, p, Some(n), &[]), next));
                }
            }
        }
        out.sort_by(|x, y| x.0.cmp(&y.0));
        out
    }

    /// 0.3 steps 1 and 2.
    pub fn outcome(b: &Board, r: &Rules, s: &State) -> Option<Outcome> {
        s.result.or_else(|| {
            moves(b, r, s)
                .is_empty()
                .then(|| Outcome::win(if s.general_to_move { REBELS } else { GENERAL }, Reason::NoMoves))
        })
    }

    pub fn perft(b: &Board, r: &Rules, s: &State, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        moves(b, r, s).iter().map(|(_, next)| perft(b, r, next, depth - 1)).sum()
    }
}

use reference::{Board, Rules};

/// Every ruleset and a spread of options: mandatory capture, first mover, apex, custodial, leap and
/// thresholds.
const SPECS: &[&str] = &[
    "sixteen-rebels",
    "sixteen-rebels:first=rebels",
    "sixteen-rebels:capture=mandatory",
    "sixteen-rebels:apex=off,general_wins_at=0",
    "sixteen-rebels:general_wins_at=10,capture=mandatory,first=rebels",
    "sixteen-rebels:rebels_capture=custodial,apex=off",
    "sixteen-rebels:general_leap=diagonal",
    "sixteen-rebels:general_leap=diagonal,capture=mandatory,general_wins_at=2",
    "murray-rebels",
    "murray-rebels:first=rebels,capture=mandatory",
    "neeley-rebels",
    "neeley-rebels:capture=mandatory,apex=off,general_wins_at=0",
    "juroku-musashi",
    "juroku-musashi:first=general",
    "juroku-musashi:capture=mandatory",
    "juroku-musashi:general_wins_at=6,capture=mandatory,first=general",
    "juroku-musashi:triangle=closed",
    "juroku-musashi:triangle=closed,first=general,capture=mandatory",
    "juroku-musashi:triangle=open,first=general,general_wins_at=3",
    "twenty-six-rebels",
    "twenty-six-rebels:first=rebels",
    "twenty-six-rebels:capture=mandatory",
    "twenty-six-rebels-free",
    "twenty-six-rebels-free:capture=mandatory,general_wins_at=0",
    "twenty-six-rebels-free:general_wins_at=20,first=rebels",
    "twenty-six-rebels-alt",
    "twenty-six-rebels-alt:capture=optional",
    "twenty-six-rebels-alt:general_wins_at=0,first=rebels",
    "twenty-six-rebels-alt:capture=optional,general_wins_at=14",
];

fn engine_moves<G: Game>(game: &G, state: &G::State) -> Vec<(String, G::Move)> {
    let mut moves = G::Moves::default();
    game.legal_moves(state, &mut moves);
    let mut list: Vec<(String, G::Move)> = moves.iter().map(|&m| (game.format_move(state, m), m)).collect();
    list.sort_by(|a, b| a.0.cmp(&b.0));
    list
}

fn show(outcome: Option<Outcome>) -> String {
    match outcome {
        None => "none".to_string(),
        Some(o) => format!("{:?} by {}", o.winner.map(|s| s.index()), o.reason.as_str()),
    }
}

struct Checker<'a> {
    spec: &'a str,
    board: Board,
    rules: Rules,
    problems: Vec<String>,
    positions: usize,
    perfts: usize,
    /// How often each rule feature was met where both sides agreed, to show the comparison reaches it.
    seen: std::collections::BTreeMap<String, usize>,
}

impl Checker<'_> {
    fn problem(&mut self, text: String) {
        if self.problems.len() < 12 && !self.problems.iter().any(|p| p.ends_with(&text)) {
            self.problems.push(format!("[{}] {text}", self.spec));
        }
    }

    /// Compares one position: the position the engine holds, its legal moves, and (for the moves in
    /// `outcomes_of`, or all when `None`) the outcome after each. Returns the engine's moves.
    fn compare<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        ours: &reference::State,
        all_children: bool,
    ) -> Vec<(String, G::Move, reference::State)> {
        self.positions += 1;
        let text = game.format_position(state);
        let seen = reference::parse(&self.board, &text);
        if (seen.general, &seen.rebels, seen.general_to_move)
            != (ours.general, &ours.rebels, ours.general_to_move)
        {
            self.problem(format!("engine position {text} but reference {}", ours.format(&self.board)));
        }
        let engine = engine_moves(game, state);
        let mine = reference::moves(&self.board, &self.rules, ours);
        let engine_names: Vec<&str> = engine.iter().map(|m| m.0.as_str()).collect();
        let mine_names: Vec<&str> = mine.iter().map(|m| m.0.as_str()).collect();
        if engine_names != mine_names {
            self.problem(format!(
                "at {text} (reference result {}): engine moves {engine_names:?}, reference moves {mine_names:?}",
                show(ours.result)
            ));
            return vec![];
        }
        let paired: Vec<(String, G::Move, reference::State)> =
            engine.into_iter().zip(mine).map(|((name, mv), (_, next))| (name, mv, next)).collect();
        for (name, _, next) in &paired {
            self.tally(ours, name, next);
        }
        if all_children {
            for (name, mv, next) in &paired {
                self.compare_outcome(game, state, *mv, name, next);
            }
        }
        paired
    }

    fn tally(&mut self, before: &reference::State, name: &str, next: &reference::State) {
        let b = &self.board;
        let mut tags = vec![];
        if let Some(o) = next.result {
            tags.push(format!("result {}", o.reason.as_str()));
        }
        let taken = name.matches('x').count();
        if taken > 2 {
            tags.push("several pairs taken".to_string());
        }
        if !name.contains('-') {
            tags.push("static capture".to_string());
            if b.adj[before.general].iter().any(|&n| !before.rebels[n]) {
                tags.push("static capture with a free neighbour".to_string());
            }
        }
        if let Some((from, rest)) = name.split_once('-') {
            let to = b.idx(rest.split('x').next().unwrap());
            let from = b.idx(from);
            if before.general_to_move && !b.adj[from].contains(&to) {
                tags.push("leap".to_string());
                if b.general_only[to] || b.general_only[from] {
                    tags.push("leap into or out of the triangle".to_string());
                    if b.xy[to].0 != b.xy[from].0 {
                        tags.push("leap along a triangle side".to_string());
                    }
                }
            }
            if b.general_only[to] {
                tags.push("General enters a privy point".to_string());
            }
            if !before.general_to_move && b.xy[to].1 > 8 {
                tags.push("Rebel enters the triangle".to_string());
            }
        }
        if before.general_to_move
            && !b.exits.is_empty()
            && b.general_only[before.general]
            && b.exits.iter().all(|&e| before.rebels[e])
        {
            tags.push("General moves from a privy point with all exits held".to_string());
        }
        for tag in tags {
            *self.seen.entry(tag).or_default() += 1;
        }
    }

    fn compare_outcome<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        mv: G::Move,
        name: &str,
        next: &reference::State,
    ) -> G::State {
        let mut after = state.clone();
        game.apply(&mut after, mv);
        let (engine, mine) = (game.outcome(&after), reference::outcome(&self.board, &self.rules, next));
        if engine != mine {
            self.problem(format!(
                "after {name} from {}: engine outcome {}, reference {}",
                game.format_position(state),
                show(engine),
                show(mine)
            ));
        }
        after
    }

    fn compare_perft<G: Game>(&mut self, game: &G, state: &G::State, ours: &reference::State, depth: u32) {
        self.perfts += 1;
        let (engine, mine) =
            (perft(game, state, depth), reference::perft(&self.board, &self.rules, ours, depth));
        if engine != mine {
            self.problem(format!(
                "perft {depth} at {}: engine {engine}, reference {mine}",
                game.format_position(state)
            ));
        }
    }
}

fn check_spec<G: Game>(game: &G, spec: &str, games: usize, randoms: usize) -> (Vec<String>, usize, usize) {
    let rules = Rules::from_spec(spec);
    let board = Board::for_rules(&rules);
    let mut c =
        Checker { spec, board, rules, problems: vec![], positions: 0, perfts: 0, seen: Default::default() };
    let mut rng =
        Pcg64Mcg::seed_from_u64(0x5eed ^ spec.len() as u64 ^ (spec.bytes().map(u64::from).sum::<u64>() << 8));

    // The start.
    let start = reference::start(&c.board, &c.rules);
    let engine_start = game.start();
    c.compare(game, &engine_start, &start, true);
    c.compare_perft(game, &engine_start, &start, 3);

    // Random games played with the engine's moves.
    for game_no in 0..games {
        let (mut state, mut ours) = (engine_start.clone(), start.clone());
        for ply in 0..400 {
            let mut moves = c.compare(game, &state, &ours, false);
            if moves.is_empty() {
                break;
            }
            if (game_no * 400 + ply) % 97 == 0 {
                c.compare_perft(game, &state, &ours, 3);
            }
            let (name, mv, next) = moves.swap_remove(rng.random_range(0..moves.len()));
            state = c.compare_outcome(game, &state, mv, &name, &next);
            ours = next;
        }
    }

    // Random positions built directly, not decided by any immediate result.
    let points = c.board.len();
    let max_rebels = if matches!(c.rules.family, reference::Family::Sixteen | reference::Family::Juroku) {
        16
    } else {
        26
    };
    let mut made = 0;
    while made < randoms {
        let general = rng.random_range(0..points);
        let density = rng.random_range(1..10) as f64 / 10.0;
        let mut rebels: Vec<bool> = (0..points)
            .map(|p| {
                p != general
                    && !c.board.general_only[p]
                    && rng.random_range(0..1000) < (density * 1000.0) as u32
            })
            .collect();
        while rebels.iter().filter(|&&r| r).count() > max_rebels {
            let p = rng.random_range(0..points);
            rebels[p] = false;
        }
        let mut ours =
            reference::State { general, rebels, general_to_move: rng.random_range(0..2) == 0, result: None };
        // A position that already meets an immediate result is over whoever is to move (the reference's
        // reading of a parsed position); it counts apart from the undecided ones.
        let decided = reference::decided(&c.board, &c.rules, &ours);
        if decided {
            ours.result = reference::immediate(&c.board, &c.rules, &ours, false);
        } else {
            made += 1;
        }
        let text = ours.format(&c.board);
        let state = match game.parse_position(&text) {
            Ok(state) => state,
            Err(e) => {
                c.problem(format!("engine rejects {text}: {e}"));
                continue;
            }
        };
        c.compare(game, &state, &ours, true);
        if decided {
            let (engine, mine) = (game.outcome(&state), ours.result);
            let conditions = reference::conditions(&c.board, &c.rules, &ours, false);
            if conditions.len() > 1 {
                // Unreachable by play, and RULES.md orders no simultaneous results: any one will do.
                if !engine.is_some_and(|e| conditions.contains(&e)) {
                    c.problem(format!("decided position {text}: engine outcome {}", show(engine)));
                }
                *c.seen.entry("several results at once (parsed)".to_string()).or_default() += 1;
            } else if engine != mine {
                c.problem(format!(
                    "decided position {text}: engine outcome {}, reference {}",
                    show(engine),
                    show(mine)
                ));
            }
        } else if made % 8 == 0 {
            c.compare_perft(game, &state, &ours, 3);
        }
    }
    eprintln!("{spec}: {} positions, {} perft; {:?}", c.positions, c.perfts, c.seen);
    (c.problems, c.positions, c.perfts)
}

/// The reference's boards have the lines RULES.md section 1 lists (computed from geometry).
#[test]
fn reference_boards_have_the_listed_lines() {
    let line = |b: &Board, a: &str, c: &str| b.line(b.idx(a), b.idx(c)).join("-");
    let b = Board::chinese();
    assert_eq!(b.len(), 29);
    assert_eq!(line(&b, "a1", "b2"), "a1-b2-c3-d4-e5");
    assert_eq!(line(&b, "e1", "d2"), "e1-d2-c3-b4-a5");
    assert_eq!(line(&b, "c1", "b2"), "c1-b2-a3");
    assert_eq!(line(&b, "c1", "d2"), "c1-d2-e3");
    assert_eq!(line(&b, "a3", "b4"), "a3-b4-c5");
    assert_eq!(line(&b, "e3", "d4"), "e3-d4-c5");
    assert_eq!(line(&b, "b5", "b6"), "b5-b6-c7");
    assert_eq!(line(&b, "d5", "d6"), "d5-d6-c7");
    assert_eq!(line(&b, "c1", "c2"), "c1-c2-c3-c4-c5-c6-c7");
    assert_eq!(line(&b, "b6", "c6"), "b6-c6-d6");
    assert_eq!(line(&b, "a2", "b2"), "a2-b2-c2-d2-e2");
    assert!(b.opposite(b.idx("a4"), b.idx("b5")).is_none());

    let b = Board::japanese(false);
    assert_eq!(b.len(), 31);
    assert_eq!(line(&b, "c1", "c2"), "c1-c2-c3-c4-c5-c6-c7");
    assert_eq!(line(&b, "b6", "c6"), "b6-c6-d6");
    assert_eq!(line(&b, "b7", "c7"), "b7-c7-d7");
    // RULES.md 1.2 lists the triangle's sides as c5-b6-b7 and c5-d6-d7, but by coordinates they continue
    // the main board's diagonals through c5, and a line is a *maximal* chain of collinear adjacent
    // points (section 1): the reference reads them as these two lines.
    assert_eq!(line(&b, "c5", "b6"), "e3-d4-c5-b6-b7");
    assert_eq!(line(&b, "c5", "d6"), "a3-b4-c5-d6-d7");
    // The open triangle's inner sides are lines of two points (RULES.md 1.2): b5 lies straight beyond
    // b6 from c7 but is not linked to b6.
    let b = Board::japanese(true);
    assert_eq!(line(&b, "b6", "c7"), "b6-c7");
    assert_eq!(line(&b, "d6", "c7"), "d6-c7");
    assert_eq!(line(&b, "c5", "b6"), "e3-d4-c5-b6-b7");

    let b = Board::hyde();
    assert_eq!(b.len(), 49);
    assert_eq!(line(&b, "b9", "b10"), "b9-b10-c11");
    assert_eq!(line(&b, "d9", "d10"), "d9-d10-c11");
    assert_eq!(line(&b, "c1", "c2"), "c1-c2-c3-c4-c5-c6-c7-c8-c9-c10-c11");
    assert_eq!(line(&b, "a1", "a2"), "a1-a2-a3-a4-a5-a6-a7-a8-a9");
    assert!(b.opposite(b.idx("c10"), b.idx("c9")).is_some());
    assert!(b.adj[b.idx("c10")].len() == 2);
}

/// The engine agrees with the naive reference on every position of many random games, on perft to
/// depth 3 from sampled positions, and on random positions built directly.
#[test]
fn engine_matches_the_naive_reference() {
    let mut problems = vec![];
    let (mut positions, mut perfts) = (0, 0);
    for spec in SPECS {
        let any = AnyGame::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let (found, n, p) = rebel_zero::with_game!(&any, |g| check_spec(g, spec, 120, 300));
        problems.extend(found);
        positions += n;
        perfts += p;
    }
    eprintln!("hunt reference: {} specs, {positions} positions, {perfts} perft checks", SPECS.len());
    assert!(problems.is_empty(), "{} disagreements:\n{}", problems.len(), problems.join("\n"));
}
