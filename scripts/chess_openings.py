#!/usr/bin/env python3
"""Writes a suite of balanced chess openings: positions a few moves deep that Stockfish (full strength,
one thread, a fixed depth) evaluates within ±0.5 pawns, each reached by uniformly random legal moves
from the start, no position twice. The measuring scripts (stockfish_elo.py, sprt.py) play each opening
twice, colours swapped.

    python3 scripts/chess_openings.py --count 300 --seed 1 --out scripts/data/openings-chess.txt

Each line is `FEN;moves` (UCI moves from the standard start). Set-up: `apt-get install stockfish` and
`pip install chess`; measuring tools, not dependencies of the crate.
"""
import argparse
import random
import sys

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("python-chess is missing: pip install chess")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", default="6,8", help="the range of random plies, inclusive")
    parser.add_argument("--depth", type=int, default=14, help="Stockfish's search depth per candidate")
    parser.add_argument("--band", type=int, default=50, help="admitted within ± this many centipawns")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    low, high = (int(x) for x in args.plies.split(","))
    rng = random.Random(args.seed)
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    stockfish.configure({"Threads": 1, "Hash": 64})
    seen, lines, tried = set(), [], 0
    try:
        while len(lines) < args.count:
            tried += 1
            board = chess.Board()
            for _ in range(rng.randint(low, high)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            if board.is_game_over() or board.epd() in seen:
                continue
            info = stockfish.analyse(board, chess.engine.Limit(depth=args.depth))
            score = info["score"].white().score(mate_score=100_000)
            if abs(score) > args.band:
                continue
            seen.add(board.epd())
            lines.append(f"{board.fen()};{' '.join(m.uci() for m in board.move_stack)}")
            print(f"{len(lines)}/{args.count} ({tried} tried): {score:+d} cp", file=sys.stderr)
    finally:
        stockfish.quit()
    header = (
        f"# {args.count} openings within ±{args.band} cp of Stockfish 15.1 at depth {args.depth} (1 thread), "
        f"{low}-{high} random plies, seed {args.seed}, {tried} drawn\n"
        f"# python3 scripts/chess_openings.py --count {args.count} --seed {args.seed} --plies {args.plies} "
        f"--depth {args.depth} --band {args.band} --out {args.out}\n"
    )
    with open(args.out, "w", encoding="utf-8") as handle:
        handle.write(header + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
