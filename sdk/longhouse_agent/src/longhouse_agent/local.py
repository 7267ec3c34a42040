"""Play a function against the built-in bots on this machine, with no stack running.

:func:`play_local` runs whole games on the engine's forward model: the function's seat gets the
payloads the hosted engine sends an agent (``start``, then a ``move`` request per decision with
the seat's player view and legal moves as canonical JSON text and the time left, then ``end``
with the outcome and strikes), through the same :class:`~longhouse_agent.serve.Decider` that
:func:`~longhouse_agent.serve.serve` uses. The other seats are built-in bots deciding exactly as
on the hosted bus. A decision over its time, an exception or a bad index is a strike and the
engine's default move (a seeded random legal move), as when hosted.

It needs the Longhouse engine importable (a checkout of the project, or its server wheel); the
agent kit itself does not depend on it. Raises :class:`EngineMissing` otherwise.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from .protocol import MatchEnd, MatchStart, MoveRequest, TimeControl, canonical_json
from .serve import Choose, Decider

DEFAULT_TIME_CONTROL = TimeControl(move_ms=2000, bank_ms=10000, max_strikes=3)
"""The hosted engine's default time control for agent seats."""


class EngineMissing(ImportError):
    """The Longhouse engine (the ``services`` package) cannot be imported here."""


@dataclass
class LocalGame:
    """One game of :func:`play_local`: ``seed``, the function's ``seat``, ``scores``, ``winners``,
    ``reason``, ``decisions`` of the function, its ``strikes`` and ``think_ms`` (total)."""

    seed: str
    seat: int
    scores: list[Any]
    winners: list[int]
    reason: str
    decisions: int
    strikes: int
    think_ms: float


@dataclass
class LocalMatch:
    """All games of :func:`play_local` and their tallies."""

    game: str
    opponents: list[str]
    games: list[LocalGame] = field(default_factory=list)

    @property
    def wins(self) -> float:
        """Games won, a shared win counting as its share."""
        return sum(1 / len(g.winners) for g in self.games if g.seat in g.winners)

    def summary(self) -> str:
        """One line: ``local match: <game>, N games vs <bots>: W wins, S strikes, D decisions, T ms a decision``."""
        decisions = sum(g.decisions for g in self.games)
        think = sum(g.think_ms for g in self.games)
        per = think / decisions if decisions else 0.0
        return (f"local match: {self.game}, {len(self.games)} games vs {','.join(self.opponents)}: "
                f"{self.wins:g} wins, {sum(g.strikes for g in self.games)} strikes, {decisions} decisions, "
                f"{per:.1f} ms a decision")


def _engine() -> tuple[Any, Any, Any, Any, type[Exception]]:
    try:
        from services.bots.decide import decide
        from services.rules.core import forward
        from services.rules.core.errors import BadConfig
        from services.rules.core.game import GameConfig, get_rules
    except ImportError as exc:
        raise EngineMissing("the local runner needs the Longhouse engine importable (run it from a checkout "
                            f"of the project, or install the server's wheel): {exc}") from None
    return decide, forward, GameConfig, get_rules, BadConfig


def play_local(fn: Choose, *, game: str = "gnomes", opponents: Sequence[str] = ("random",), games: int = 1,
               seed: str = "local", seat: int | None = None, options: dict[str, Any] | None = None,
               time_control: TimeControl = DEFAULT_TIME_CONTROL, max_steps: int = 5000) -> LocalMatch:
    """Play ``games`` games of ``game``: ``fn`` on one seat (``seat``, or rotating round the
    table), the bots of ``opponents`` (kinds: random, greedy, scripted, ismcts, expert) on the others.

    Args:
        fn: ``fn(view, legal_moves, clock) -> index``.
        seed: game ``i`` gets the seed ``f"{seed}:{i}"``; every bot's choices follow from it.
        time_control: what each decision may take (``move_ms``) plus the bank; strikes up to
            ``max_strikes`` are played by the default move, one more forfeits (the game then stops
            and counts as lost).
        max_steps: a safety bound on moves and phases a game.
    Returns:
        the :class:`LocalMatch`.
    Raises:
        EngineMissing: the engine is not importable. UnknownGame: an unknown game. ValueError: an
            unknown bot, no opponent, a seat outside the table, or players or variants the game
            does not take (the hosted gateway's checks, ``Rules.validate_config``).
    """
    decide, forward, GameConfig, get_rules, BadConfig = _engine()
    rules = get_rules(game)
    players = 1 + len(opponents)
    if not opponents:
        raise ValueError("a local match needs at least one opponent (opponents=['random'], say)")
    try:  # the checks the hosted gateway makes before a game is created (players, variants)
        rules.validate_config(GameConfig(game=game, players=players, options=dict(options or {})))
    except BadConfig as exc:
        raise ValueError(f"{game} cannot be played so: {exc}") from None
    if seat is not None and not 0 <= seat < players:
        raise ValueError(f"seat {seat} is not one of the {players} seats (0-{players - 1})")
    match = LocalMatch(game=game, opponents=list(opponents))
    decider = Decider(fn)
    for i in range(games):
        game_seed = f"{seed}:{i}"
        mine = seat if seat is not None else i % players
        kinds = list(opponents)
        bots = {s: kinds.pop(0) for s in range(players) if s != mine}
        chance = forward.chance_from(game_seed)
        state, events = forward.start(rules, GameConfig(game=game, players=players, options=dict(options or {})),
                                      chance)
        version = 2  # the log's entries: created, set-up
        match_id = f"local-{game_seed}"
        decider.start(MatchStart(match_id=match_id, game=game, seat=mine, players=players,
                                 options_json=canonical_json(dict(options or {})), time_control=time_control))
        bank = time_control.bank_ms
        strikes = 0
        forfeited = False
        for _ in range(max_steps):
            if rules.outcome(state) is not None:
                break
            if rules.pending_phase(state):
                forward.apply_phase(rules, state, chance)
                version += 1
                continue
            mover = rules.to_move(state)[0]
            legal = rules.legal_moves(state, mover)
            if mover != mine:
                move = decide(bots[mover], f"{game_seed}:seat:{mover}", rules, state, mover, version, legal)
            else:
                left = time_control.move_ms + bank
                request = MoveRequest(match_id=match_id, game=game, seat=mine, version=version,
                                      view_json=canonical_json(rules.view(state, mine)),
                                      legal_moves_json=[canonical_json(m) for m in legal],
                                      time_left_ms=left, bank_ms=bank)
                began = time.monotonic()
                try:
                    index: int | None = decider.choose(request, began)
                except ValueError:
                    index = None
                used = int((time.monotonic() - began) * 1000)
                bank = max(0, bank - max(0, used - time_control.move_ms))
                if index is None or used > left:
                    strikes += 1
                    if strikes > time_control.max_strikes:
                        forfeited = True
                        break
                    move = legal[random.Random(f"{game_seed}:default:{version}").randrange(len(legal))]
                else:
                    move = legal[index]
            forward.apply(rules, state, mover, move, chance, checked=True)
            version += 1
        outcome = rules.outcome(state) or {}
        winners = [s for s in range(players) if s != mine] if forfeited else list(outcome.get("winners") or [])
        reason = "forfeit" if forfeited else str(outcome.get("reason", "move cap"))
        decider.end(MatchEnd(match_id=match_id, seat=mine, result_json=canonical_json(
            {**outcome, "reason": reason, "winners": winners, "strikes": strikes})))
        accounts = decider.accounts
        match.games.append(LocalGame(seed=game_seed, seat=mine, scores=list(outcome.get("scores") or []),
                                     winners=winners, reason=reason, decisions=accounts.decisions.get(match_id, 0),
                                     strikes=strikes, think_ms=accounts.think_ms.get(match_id, 0.0)))
    return match
