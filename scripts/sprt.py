#!/usr/bin/env python3
"""Tests a change to rebel-zero's chess engine as fishtest tests Stockfish's: the new build plays the old
one in game pairs (each opening of the suite twice, colours swapped) until a generalized sequential
probability ratio test on the pairs' pentanomial results accepts H1 (the change is `elo1` stronger)
or H0 (`elo0`), α = β = 0.05, or the pair limit is reached: passing says the change is stronger than
`elo0`, wrongly at most α of the time; failing that it is not `elo1` stronger, wrongly at most β of the
time. (`rebel-zero match --sprt` runs the same test, src/lab/sprt.rs, at fixed simulation counts.)

    python3 scripts/sprt.py --new target/release/rebel-zero --old /tmp/rz-old --elo0 0 --elo1 30 --tc 2+0.02 --log docs/sprt/tt.md

The log (Markdown) records the command, both binaries' SHA-256, the bounds, every 20 pairs' LLR and
the result. The GSPRT is the empirical-likelihood one fishtest uses (Michel Van den Bergh's LLRcalc):
for the pairs' empirical distribution, the log likelihood ratio of the best distribution with mean s1
against the best with mean s0, where s = 1 / (1 + 10^(−elo/400)) is the score per game (logistic Elo).

Set-up: `pip install chess`; a measuring tool, not a dependency of the crate.
"""
import argparse
import hashlib
import math
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import chess_match  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUTCOMES = [0.0, 0.25, 0.5, 0.75, 1.0]  # a pair's score per game


def score_of(elo):
    return 1.0 / (1.0 + 10 ** (-elo / 400.0))


def mle_log_likelihood(pdf, s):
    """Σ p_i log(q_i / p_i) for the q of mean s closest to the empirical pdf (Lagrange: q_i = p_i / (1 +
    λ (a_i − s)), λ found by bisection on the mean condition)."""
    terms = [(a - s, p) for a, p in zip(OUTCOMES, pdf) if p > 0]
    if not terms:
        return 0.0
    low = -1.0 / max(x for x, _ in terms) + 1e-12 if max(x for x, _ in terms) > 0 else -1e9
    high = -1.0 / min(x for x, _ in terms) - 1e-12 if min(x for x, _ in terms) < 0 else 1e9

    def mean_condition(lam):
        return sum(p * x / (1 + lam * x) for x, p in terms)

    for _ in range(200):
        mid = (low + high) / 2
        if mean_condition(mid) > 0:
            low = mid
        else:
            high = mid
    lam = (low + high) / 2
    return -sum(p * math.log(1 + lam * x) for x, p in terms)


def llr(counts, elo0, elo1):
    """The log likelihood ratio of H1 over H0 for pentanomial `counts`, regularised as fishtest's
    `LLR_logistic` (an outcome never seen counts 1e-3), as src/lab/sprt.rs computes it."""
    regularised = [c if c > 0 else 1e-3 for c in counts]
    n = sum(regularised)
    pdf = [c / n for c in regularised]
    return n * (mle_log_likelihood(pdf, score_of(elo1)) - mle_log_likelihood(pdf, score_of(elo0)))


def elo_estimate(counts):
    n = sum(counts)
    if n == 0:
        return 0.0, 0.0
    mean = sum(c * a for c, a in zip(counts, OUTCOMES)) / n
    var = sum(c * (a - mean) ** 2 for c, a in zip(counts, OUTCOMES)) / n
    mean = min(max(mean, 1e-6), 1 - 1e-6)
    elo = -400 * math.log10(1 / mean - 1)
    # The interval from the pairs' variance, by the delta method.
    se = math.sqrt(var / n) if n > 1 else 0.5
    slope = 400 / math.log(10) / (mean * (1 - mean))
    return elo, 1.96 * se * slope


def sha256(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--new", required=True, help="the changed build")
    parser.add_argument("--old", required=True, help="the build before the change")
    parser.add_argument("--new-agent", default="ab")
    parser.add_argument("--old-agent", default="ab")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=30.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--tc", default="2+0.02")
    parser.add_argument("--max-pairs", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--openings", default=str(ROOT / "scripts/data/openings-chess.txt"))
    parser.add_argument("--title", default="a change")
    parser.add_argument("--log", required=True, help="a Markdown file the test is written to")
    args = parser.parse_args()
    base, increment = (float(x) for x in args.tc.split("+"))
    lower, upper = math.log(args.beta / (1 - args.alpha)), math.log((1 - args.beta) / args.alpha)
    openings = chess_match.read_openings(args.openings)
    new = chess_match.Player("new", [args.new, "uci"], {"Agent": args.new_agent})
    old = chess_match.Player("old", [args.old, "uci"], {"Agent": args.old_agent})
    state = {"counts": [0] * 5, "pending": {}, "verdict": None, "pairs": 0}
    lines = []
    started = time.time()

    def on_result(result):
        pending = state["pending"].setdefault(result.opening, [])
        pending.append(result.score)
        if len(pending) < 2:
            return
        del state["pending"][result.opening]
        state["counts"][int(round(2 * sum(pending)))] += 1
        state["pairs"] += 1
        value = llr(state["counts"], args.elo0, args.elo1)
        if state["pairs"] % 20 == 0 or value <= lower or value >= upper:
            elo, half = elo_estimate(state["counts"])
            line = f"| {state['pairs']} | {state['counts']} | {elo:+.1f} ± {half:.1f} | {value:+.2f} |"
            lines.append(line)
            print(line, file=sys.stderr, flush=True)
        if value >= upper:
            state["verdict"] = "H1 accepted: the change gains"
        elif value <= lower:
            state["verdict"] = "H0 accepted: the change does not gain"

    chess_match.play_pairs(
        new, old, openings, args.max_pairs, base, increment, args.workers, on_result,
        stop=lambda: state["verdict"] is not None, event="rebel-zero sprt",
    )
    elo, half = elo_estimate(state["counts"])
    verdict = state["verdict"] or f"no decision within {args.max_pairs} pairs"
    minutes = (time.time() - started) / 60
    log = [
        f"## {args.title}", "",
        f"- command: `{' '.join(sys.argv)}`",
        f"- new: `{args.new}` (SHA-256 `{sha256(args.new)}`), agent `{args.new_agent}`",
        f"- old: `{args.old}` (SHA-256 `{sha256(args.old)}`), agent `{args.old_agent}`",
        f"- SPRT elo0 = {args.elo0:g}, elo1 = {args.elo1:g}, α = {args.alpha:g}, β = {args.beta:g}: "
        f"bounds [{lower:.2f}, {upper:.2f}]; time control {args.tc}; openings `{args.openings}` (pairs)",
        f"- result: **{verdict}** after {state['pairs']} pairs, pentanomial {state['counts']} "
        f"(0, ½, 1, 1½, 2 points a pair), Elo {elo:+.1f} ± {half:.1f}; {minutes:.1f} min", "",
        "| pairs | pentanomial | Elo | LLR |", "| ---: | --- | --- | ---: |", *lines, "",
    ]
    with open(args.log, "a", encoding="utf-8") as handle:
        handle.write("\n".join(log) + "\n")
    print(f"{verdict}: {state['pairs']} pairs, Elo {elo:+.1f} ± {half:.1f}")


if __name__ == "__main__":
    main()
