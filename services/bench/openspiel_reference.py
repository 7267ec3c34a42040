"""The reference of the engine benchmark: random playouts of OpenSpiel's pure-Python
tic-tac-toe (``open_spiel.python.games.tic_tac_toe``), run in the benchmark's own virtual
environment (``.venv-bench``, where ``make bench`` installs ``open_spiel``).

``python openspiel_reference.py SECONDS [cpu]`` plays random games for about SECONDS and prints
one JSON line ``{"moves", "games", "seconds"}``: wall-clock seconds, or with ``cpu`` this
process's CPU seconds (``time.process_time``). It imports nothing from Longhouse.
"""

import json
import random
import sys
import time

from open_spiel.python.games import tic_tac_toe


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    clock = time.process_time if sys.argv[2:3] == ["cpu"] else time.perf_counter
    game = tic_tac_toe.TicTacToeGame()
    rng = random.Random(0)
    moves = games = 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        games += 1
    print(json.dumps({"moves": moves, "games": games, "seconds": clock() - start}))


if __name__ == "__main__":
    main()
