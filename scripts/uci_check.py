#!/usr/bin/env python3
"""Drives `rebel-zero uci` through python-chess, as an analysis GUI would, and checks each answer:
analysis with MultiPV (three different first moves, best first), `searchmoves` for the alpha-beta
agent and for the chess network, and pondering (a reply named with the best move, a background search
that the next command stops).

    python3 scripts/uci_check.py target/release/rebel-zero   # prints one line per check; exit 1 on a failure

Run from the repository root (the network is read from checkpoints/chess). Set-up: `pip install chess`
(python-chess); a measuring tool, not a dependency of the crate.
"""
import sys

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("python-chess is missing: pip install chess")


def check(condition, what):
    if not condition:
        sys.exit(f"failed: {what}")
    print(f"ok: {what}")


def main(binary):
    board = chess.Board()
    board.push_uci("e2e4")
    with chess.engine.SimpleEngine.popen_uci([binary, "uci"], timeout=30) as engine:
        check("MultiPV" in engine.options and "Ponder" in engine.options, "MultiPV and Ponder are options")

        lines = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        firsts = [info["pv"][0] for info in lines]
        scores = [info["score"].relative.score(mate_score=100_000) for info in lines]
        check(len(lines) == 3 and len(set(firsts)) == 3, f"analysis with multipv 3: {firsts}")
        check(scores == sorted(scores, reverse=True), f"the lines come best first: {scores}")

        allowed = [chess.Move.from_uci(m) for m in ("a7a6", "h7h6")]
        played = engine.play(board, chess.engine.Limit(depth=5), root_moves=allowed)
        check(played.move in allowed, f"searchmoves for the alpha-beta agent: {played.move}")
        info = engine.analyse(board, chess.engine.Limit(depth=4), root_moves=allowed)
        check(info["pv"][0] in allowed, f"analysis within searchmoves: {info['pv'][0]}")

        played = engine.play(board, chess.engine.Limit(time=0.3), ponder=True)
        check(played.ponder is not None, f"the best move names a reply to ponder on: {played.move} {played.ponder}")
        after = board.copy()
        after.push(played.move)
        check(after.is_legal(played.ponder), "the reply is legal after the best move")
        # The engine ponders in the background now; the next search stops it and answers.
        again = engine.play(board, chess.engine.Limit(time=0.1))
        check(board.is_legal(again.move), f"a search after pondering answers: {again.move}")

        engine.configure({"Agent": "net:path=checkpoints/chess,sims=64"})
        played = engine.play(board, chess.engine.Limit(nodes=64), root_moves=allowed)
        check(played.move in allowed, f"searchmoves for the network: {played.move}")
        lines = engine.analyse(board, chess.engine.Limit(nodes=64), multipv=2)
        check(len({info["pv"][0] for info in lines}) == 2, "the network's two most visited moves")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
