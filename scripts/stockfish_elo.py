#!/usr/bin/env python3
"""Places a rebel-zero chess agent on Stockfish's Elo scale: plays it (through `rebel-zero uci`) against
Debian's `stockfish` at several UCI_Elo levels under a game clock, each opening of a balanced suite
(chess_openings.py) twice with colours swapped, and fits one rating to every game by maximum likelihood
(a draw half a win), with the 95% likelihood interval (−2 Δ log L ≤ 3.84).

    python3 scripts/stockfish_elo.py --agent ab --levels 1350,1700,2000,2300 --pairs 25 --tc 5+0.05 --out runs/elo-ab
    python3 scripts/stockfish_elo.py --agent ab --nodes 32000 --sf-nodes 120000 --levels 1500,1800,2100,2400 --pairs 8 --out runs/anchor-ab-32k

With `--nodes N` rebel-zero searches N nodes a move (the balance studies' `ab:nodes=N` rungs) and
Stockfish `--sf-nodes M` (default N), and no clock runs: the games then do not depend on the machine's
speed or load. Stockfish's weakened play (UCI_LimitStrength) picks its move once its search reaches
depth 1 + its skill level (about 10 at UCI_Elo 2400) and ignores deeper search: with a budget that
reaches that depth (120,000 nodes reach 12 and more in the middlegame), a level plays as it does at the
control it is calibrated at (60 s + 0.6 s), and every rung is measured against the same opponents.
Matched to a rung's own small budget instead (`--sf-nodes` left out), the higher levels stop short of
that depth and the scale moves with the budget.

writes `results.json` (every game: level, opening, colour, score, reason, plies), `games.pgn` and the
fit, and prints a summary. Games lost on time are counted and reported.

Set-up: `apt-get install stockfish` and `pip install chess` (python-chess); measuring tools, not
dependencies of the crate. Stockfish's UCI_Elo (1320–3190 in 15.1) is calibrated against CCRL-anchored
engines at 60 s + 0.6 s per game; at a shorter control it plays somewhat weaker than its nominal level,
so the estimate reads "as strong as Stockfish set to X at this control", which is what the scale is for.
"""
import argparse
import json
import math
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import chess_match  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


def expected(rating, opponent):
    return 1.0 / (1.0 + 10 ** ((opponent - rating) / 400.0))


def log_likelihood(rating, games):
    """Games as (level, score); a draw counts as half a win and half a loss."""
    total = 0.0
    for level, score in games:
        p = min(max(expected(rating, level), 1e-12), 1 - 1e-12)
        total += score * math.log(p) + (1 - score) * math.log(1 - p)
    return total


def fit(games):
    """The maximum-likelihood rating and its 95% likelihood interval, on a half-point grid."""
    grid = [r / 2 for r in range(0, 9001)]  # 0 .. 4500 Elo
    values = [log_likelihood(r, games) for r in grid]
    best = max(range(len(grid)), key=values.__getitem__)
    inside = [r for r, v in zip(grid, values) if 2 * (values[best] - v) <= 3.84]
    return grid[best], inside[0], inside[-1], best in (0, len(grid) - 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agent", default="ab", help="the rebel-zero agent spec (UCI option Agent)")
    parser.add_argument("--levels", default="1350,1700,2000,2300", help="Stockfish UCI_Elo levels")
    parser.add_argument("--pairs", type=int, default=25, help="game pairs per level (each opening twice)")
    parser.add_argument("--tc", default="5+0.05", help="base+increment seconds, both engines")
    parser.add_argument("--nodes", type=int, help="rebel-zero searches this many nodes a move (no clock)")
    parser.add_argument("--sf-nodes", type=int, help="Stockfish's nodes a move with --nodes (default: the same)")
    parser.add_argument("--openings", default=str(ROOT / "scripts/data/openings-chess.txt"))
    parser.add_argument("--first-opening", type=int, default=0, help="index of the suite's first opening used")
    parser.add_argument("--workers", type=int, default=2, help="games at once (each engine one thread)")
    parser.add_argument("--binary", default=str(ROOT / "target/release/rebel-zero"))
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--hash", type=int, default=32)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    base, increment = (float(x) for x in args.tc.split("+"))
    openings = chess_match.read_openings(args.openings)[args.first_opening:]
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    budget = {"nodes": args.nodes} if args.nodes else None
    theirs = {"nodes": args.sf_nodes or args.nodes} if args.nodes else None
    control = f"{args.nodes} nodes a move, Stockfish {theirs['nodes']}" if args.nodes else args.tc
    ours = chess_match.Player("rebel-zero " + args.agent, [args.binary, "uci"], {"Agent": args.agent, "Hash": args.hash}, budget)
    started = time.time()
    games, records, pgns = [], [], []
    for level in (int(x) for x in args.levels.split(",")):
        stockfish = chess_match.Player(
            f"Stockfish UCI_Elo {level}", [args.stockfish],
            {"UCI_LimitStrength": True, "UCI_Elo": level, "Threads": 1, "Hash": 16}, theirs,
        )

        def seen(result, level=level):
            print(f"  UCI_Elo {level}: opening {result.opening} {'white' if result.first_white else 'black'} "
                  f"{result.score:g} ({result.reason}, {result.plies} plies)", file=sys.stderr, flush=True)

        results = chess_match.play_pairs(ours, stockfish, openings, args.pairs, base, increment, args.workers, seen)
        points = sum(r.score for r in results)
        forfeits = sum(r.time_forfeit for r in results)
        print(f"UCI_Elo {level}: {points:g}/{len(results)} ({100 * points / len(results):.1f}%), "
              f"pentanomial {chess_match.pentanomial(results)}, {forfeits} lost on time", flush=True)
        for r in results:
            games.append((level, r.score))
            records.append({"level": level, "opening": r.opening + args.first_opening, "white": r.first_white,
                            "score": r.score, "reason": r.reason, "plies": r.plies, "time_forfeit": r.time_forfeit})
            pgns.append(r.pgn)
    rating, low, high, at_edge = fit(games)
    minutes = (time.time() - started) / 60
    summary = {
        "agent": args.agent, "tc": control, "nodes": args.nodes, "sf_nodes": theirs and theirs["nodes"], "levels": args.levels, "pairs_per_level": args.pairs,
        "games": len(games), "rating": rating, "low": low, "high": high, "at_edge": at_edge,
        "time_forfeits_ours": sum(r["time_forfeit"] and (r["score"] == 0) for r in records),
        "time_forfeits_theirs": sum(r["time_forfeit"] and (r["score"] == 1) for r in records),
        "minutes": minutes, "openings": args.openings, "command": " ".join(sys.argv),
    }
    (out / "results.json").write_text(json.dumps({"summary": summary, "games": records}, indent=1) + "\n")
    (out / "games.pgn").write_text("\n\n".join(pgns) + "\n")
    print(f"{args.agent}: {rating:.0f} Elo [{low:.0f}, {high:.0f}] on Stockfish's UCI_Elo scale "
          f"({len(games)} games at {control}, {minutes:.1f} min){' — at the edge of the grid' if at_edge else ''}")


if __name__ == "__main__":
    main()
