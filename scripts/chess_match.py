"""Games between two UCI engines under a real clock, for the scripts that measure rebel-zero's chess
engine (stockfish_elo.py, sprt.py). Each game starts from an opening of a suite (chess_openings.py),
each opening is played twice with colours swapped (a game pair, fishtest's unit), and each engine's
clock runs down by the wall-clock time it took, plus its increment: an engine whose clock falls below
zero loses on time, and the record says so.

Set-up: `pip install chess` (python-chess); a measuring tool, not a dependency of the crate.
"""
import concurrent.futures
import dataclasses
import sys
import threading
import time

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:
    sys.exit("python-chess is missing: pip install chess")


@dataclasses.dataclass
class Player:
    """An engine: its command line, UCI options, and a name for the records."""

    name: str
    command: list
    options: dict = dataclasses.field(default_factory=dict)
    # A fixed budget per move (e.g. `{"nodes": 32000}`): the engine then plays without a clock.
    limit: dict = None

    def start(self):
        engine = chess.engine.SimpleEngine.popen_uci(self.command)
        if self.options:
            engine.configure(self.options)
        return engine


@dataclasses.dataclass
class Result:
    """One game: the opening's index, who had White, the score of `first` (1, ½, 0), how it ended."""

    opening: int
    first_white: bool
    score: float
    reason: str
    plies: int
    pgn: str
    time_forfeit: bool


def read_openings(path):
    """The suite: one opening per line, `FEN;moves…` (the moves from the standard start)."""
    openings = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if line and not line.startswith("#"):
                openings.append(line.split(";")[1].split())
    return openings


def play_game(engines, names, moves, first_white, base, increment, max_plies=400, event="rebel-zero", limits=(None, None)):
    """Plays `engines[0]` (named first) against `engines[1]` from the opening `moves`; returns a Result
    (without the opening index). Clocks in seconds; an engine with a fixed budget in `limits` (a dict
    of `chess.engine.Limit`'s fields) plays by it instead, and its clock is not counted."""
    board = chess.Board()
    for uci in moves:
        board.push_uci(uci)
    white, black = (0, 1) if first_white else (1, 0)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    forfeit, illegal = None, None
    # A new `game` object makes python-chess send `ucinewgame` before the first move.
    new_game = object()
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        side = board.turn
        engine = engines[white if side == chess.WHITE else black]
        fixed = limits[white if side == chess.WHITE else black]
        limit = chess.engine.Limit(**fixed) if fixed else chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
            white_inc=increment, black_inc=increment,
        )
        started = time.monotonic()
        try:
            move = engine.play(board, limit, game=new_game).move
        except chess.engine.EngineError:
            move = None  # python-chess refuses an illegal bestmove here; it loses below
        spent = time.monotonic() - started
        clocks[side] -= 0 if fixed else spent
        if clocks[side] < 0:
            forfeit = side
            break
        clocks[side] += increment
        # A null move (`bestmove 0000`) or an illegal one loses, as a GUI would rule; python-chess
        # would otherwise play a null move on with only a warning.
        if move is None or not board.is_legal(move):
            illegal = side
            break
        board.push(move)
    if forfeit is not None:
        winner, reason = (not forfeit), "time forfeit"
    elif illegal is not None:
        winner, reason = (not illegal), "illegal move"
    else:
        outcome = board.outcome(claim_draw=True)
        if outcome is None:
            winner, reason = None, "move cap"
        else:
            winner, reason = outcome.winner, outcome.termination.name.lower()
    first_colour = chess.WHITE if first_white else chess.BLACK
    score = 0.5 if winner is None else (1.0 if winner == first_colour else 0.0)
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = event
    game.headers["White"] = names[white]
    game.headers["Black"] = names[black]
    game.headers["Termination"] = reason
    game.headers["TimeControl"] = f"{base:g}+{increment:g}" if not any(limits) else "-"
    loser = forfeit if forfeit is not None else illegal
    if loser is not None:
        game.headers["Result"] = "1-0" if loser == chess.BLACK else "0-1"
    return score, reason, board.ply(), str(game), forfeit is not None


def play_pairs(first, second, openings, pairs, base, increment, workers=2, on_result=None, stop=None, event="rebel-zero"):
    """Plays `pairs` game pairs of `first` against `second` (opening k twice, colours swapped) on
    `workers` threads, each with its own two engine processes. `on_result(result)` sees each game as it
    ends; `stop()` returning true ends the run after the games in progress."""
    tasks = [(k, white) for k in range(pairs) for white in (True, False)]
    lock = threading.Lock()
    results = []
    next_task = iter(tasks)

    def worker():
        engines = [first.start(), second.start()]
        try:
            while True:
                with lock:
                    if stop is not None and stop():
                        return
                    task = next(next_task, None)
                if task is None:
                    return
                k, white = task
                score, reason, plies, pgn, forfeit = play_game(
                    engines, [first.name, second.name], openings[k % len(openings)], white, base, increment, event=event,
                    limits=(first.limit, second.limit),
                )
                result = Result(k, white, score, reason, plies, pgn, forfeit)
                with lock:
                    results.append(result)
                    if on_result is not None:
                        on_result(result)
        finally:
            for engine in engines:
                engine.quit()

    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for future in [pool.submit(worker) for _ in range(workers)]:
            future.result()
    return sorted(results, key=lambda r: (r.opening, not r.first_white))


def pentanomial(results):
    """Counts of the game pairs' total scores 0, ½, 1, 1½, 2 for `first` (complete pairs only)."""
    by_opening = {}
    for r in results:
        by_opening.setdefault(r.opening, []).append(r.score)
    counts = [0] * 5
    for scores in by_opening.values():
        if len(scores) == 2:
            counts[int(round(2 * sum(scores)))] += 1
    return counts
