#!/usr/bin/env python3
"""Places a rebel-zero chess agent on Stockfish's Elo scale: plays it (through `rebel-zero uci`) against
Debian's `stockfish` at fixed UCI_Elo levels, colours alternating, and prints each level's score and
the agent's Elo estimate with a 95% likelihood interval.

    python3 scripts/stockfish_elo.py --agent mcts:sims=400 --levels 1350,1600 --games 10

Set-up: `apt-get install stockfish` and `pip install chess` (python-chess); measuring tools, not
dependencies of the crate. Stockfish's UCI_Elo is calibrated at 60 s + 0.6 s per game and anchored to
CCRL 40/4 (Stockfish 15.1's README; levels 1350-2850); at a shorter fixed move time it plays weaker than
its nominal level, so the estimate is an upper bound on the agent's CCRL-anchored rating and a fair
comparison between agents (same levels, same move time), not a FIDE rating. A score of 0 or 100% at every
level has no finite estimate: the script then prints the one-sided 95% bound.
"""
import argparse
import math
import pathlib
import sys
import time

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("python-chess is missing: pip install chess")

ROOT = pathlib.Path(__file__).resolve().parent.parent


def expected(rating, opponent):
    return 1.0 / (1.0 + 10 ** ((opponent - rating) / 400.0))


def log_likelihood(rating, results):
    """Results as (level, points, games); a draw counts as half a win and half a loss."""
    total = 0.0
    for level, points, games in results:
        p = min(max(expected(rating, level), 1e-12), 1 - 1e-12)
        total += points * math.log(p) + (games - points) * math.log(1 - p)
    return total


def estimate(results):
    grid = [r / 2 for r in range(-2000, 8001)]  # -1000 .. 4000 Elo in half points
    values = [log_likelihood(r, results) for r in grid]
    best = max(range(len(grid)), key=values.__getitem__)
    inside = [r for r, v in zip(grid, values) if 2 * (values[best] - v) <= 3.84]
    return grid[best], inside[0], inside[-1], best in (0, len(grid) - 1)


def play(ours, stockfish, ours_white, max_plies, movetime):
    board = chess.Board()
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        engine = ours if (board.turn == chess.WHITE) == ours_white else stockfish
        # Our engine searches its agent's own number of simulations whatever the limit says.
        limit = chess.engine.Limit(time=movetime)
        move = engine.play(board, limit).move
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == (chess.WHITE if ours_white else chess.BLACK) else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agent", default="mcts:sims=400", help="the rebel-zero agent spec")
    parser.add_argument("--levels", default="1350,1600", help="Stockfish UCI_Elo levels, comma-separated")
    parser.add_argument("--games", type=int, default=10, help="games per level")
    parser.add_argument("--movetime", type=float, default=0.1, help="Stockfish's seconds per move")
    parser.add_argument("--max-plies", type=int, default=300, help="a game longer than this is a draw")
    parser.add_argument("--binary", default=str(ROOT / "target/release/rebel-zero"))
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    args = parser.parse_args()
    levels = [int(level) for level in args.levels.split(",")]
    ours = chess.engine.SimpleEngine.popen_uci([args.binary, "uci"])
    ours.configure({"Agent": args.agent})  # UCI_Variant is python-chess's to set: chess by default
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    results = []
    started = time.time()
    try:
        for level in levels:
            stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": level, "Threads": 1, "Hash": 16})
            points = 0.0
            for game in range(args.games):
                ours.configure({"Agent": args.agent})  # a fresh seed per game comes from the ply count
                points += play(ours, stockfish, game % 2 == 0, args.max_plies, args.movetime)
                print(f"  UCI_Elo {level}: game {game + 1}/{args.games}, {points:g} points", file=sys.stderr)
            results.append((level, points, args.games))
            print(f"UCI_Elo {level}: {points:g}/{args.games} ({100 * points / args.games:.0f}%)")
    finally:
        ours.quit()
        stockfish.quit()
    rating, low, high, at_edge = estimate(results)
    minutes = (time.time() - started) / 60
    if at_edge:
        scores = sum(p for _, p, _ in results)
        side = "below" if scores == 0 else "above"
        bound = high if scores == 0 else low
        print(f"{args.agent}: {side} the levels played; 95% bound: {'≤' if scores == 0 else '≥'} {bound:.0f} Elo "
              f"(Stockfish {args.movetime:g} s/move, {minutes:.1f} min)")
    else:
        print(f"{args.agent}: {rating:.0f} Elo [{low:.0f}, {high:.0f}] "
              f"(Stockfish {args.movetime:g} s/move, {sum(g for *_, g in results)} games, {minutes:.1f} min)")


if __name__ == "__main__":
    main()
