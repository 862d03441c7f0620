#!/usr/bin/env python3
"""Reads a PGN file written by `rebel-zero pgn` with python-chess and checks every game: it parses
without errors, every move is legal, and a decisive result matches a checkmate on the board.

    python3 scripts/check_pgn.py games.pgn     # prints "N games read back"; exit 1 on any problem

Set-up: `pip install chess` (python-chess); a measuring tool, not a dependency of the crate.
"""
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("python-chess is missing: pip install chess")


def main(path):
    games = 0
    with open(path, encoding="utf-8") as handle:
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            games += 1
            if game.errors:
                sys.exit(f"game {games}: python-chess could not read it: {game.errors}")
            board = game.board()
            for move in game.mainline_moves():
                if not board.is_legal(move):
                    sys.exit(f"game {games}: illegal move {move} in {board.fen()}")
                board.push(move)
            result = game.headers.get("Result", "*")
            if result in ("1-0", "0-1") and game.headers.get("Termination") == "checkmate":
                winner = "1-0" if board.turn == chess.BLACK else "0-1"
                if not board.is_checkmate() or winner != result:
                    sys.exit(f"game {games}: result {result} but the board is not that mate")
    if games == 0:
        sys.exit(f"{path} holds no game")
    print(f"{games} games read back")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
