"""Whole games between built-in bots on the forward model (no store, no services): what the
bot ladder, the balance reports and the bots' own tests play.

Every seat decides through :func:`services.bots.decide.decide` with the move count as the
version, exactly as on the bus; phases and chance run on the forward model with the game's
seed. The CPU time of each seat's decisions is measured (``time.process_time``).
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from services.rules.core import GameConfig, get_rules
from services.rules.core.forward import apply, apply_phase, chance_from, start

from .decide import decide

MOVE_CAP = 20_000
"""Failure guard: a game stops (as an error) after this many moves."""

Policy = Callable[[Any, dict[str, Any], list[dict[str, Any]], random.Random], dict[str, Any]]
"""A seat's policy beyond the bot kinds (the balance probes): ``policy(rules, view, legal, rng)``
returns one of ``legal``; ``rng`` is seeded by the seat's seed and the version."""
Observer = Callable[[list[Any], Any], None]
"""Sees each batch of events as it happens: ``observe(events, state)``, the state after them
(set-up first, then every move and phase)."""


def derive_seed(*parts: Any) -> str:
    """``sha256(":".join(parts))``, first 16 hex digits: the seeds of a batch's games and seats."""
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:16]


@dataclass
class GameRecord:
    """One finished game between bots.

    Attributes:
        game, seed, kinds: what was played (``kinds[s]`` holds seat ``s``).
        scores, winners, reason: the outcome (``rules.outcome``); ``winners`` may be empty
            (Noggin: Nogbad took the crown, and every seat lost).
        crown: Noggin's ending (``"noggin"`` or ``"nogbad"``), else ``None``.
        moves: moves made in all.
        decisions, choices: per seat, decisions made, and those among more than one legal move.
        cpu: per seat, CPU seconds spent deciding.
        error: why the game failed (then the outcome fields are empty).
    """

    game: str
    seed: str
    kinds: list[str]
    scores: list[float] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    reason: str = ""
    crown: str | None = None
    moves: int = 0
    decisions: list[int] = field(default_factory=list)
    choices: list[int] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    error: str | None = None


def play_game(game: str, kinds: Sequence[str], seed: str, options: dict[str, Any] | None = None,
              iterations: dict[str, int] | None = None, move_cap: int = MOVE_CAP,
              policies: Mapping[str, Policy] | None = None, observe: Observer | None = None) -> GameRecord:
    """Play one game of ``game`` with bot ``kinds[s]`` on seat ``s`` to its end.

    Args:
        seed: the game's seed; seat ``s``'s bot is seeded ``derive_seed(seed, "seat", s)``.
        options: the game's variants.
        iterations: search budget by kind (``{"expert": 400}``); default the bots' own.
        move_cap: failure guard.
        policies: more kinds by name (:data:`Policy`), deciding from the seat's view.
        observe: sees every batch of events (:data:`Observer`).
    Returns:
        the :class:`GameRecord` (``error`` set if the game failed; never raises for a failure
        inside the game).
    """
    rules = get_rules(game)
    n = len(kinds)
    rec = GameRecord(game, seed, list(kinds), decisions=[0] * n, choices=[0] * n, cpu=[0.0] * n)
    iterations = iterations or {}
    try:
        config = GameConfig(game=game, players=n, options=dict(options or {}))
        rules.validate_config(config)
        chance = chance_from(derive_seed(seed, "game"))
        state, events = start(rules, config, chance)
        observe = observe or (lambda events, state: None)
        observe(events, state)
        policies = policies or {}
        seats = [derive_seed(seed, "seat", s) for s in range(n)]
        version = 0
        while rules.outcome(state) is None:
            if rec.moves >= move_cap:
                raise RuntimeError(f"no end after {move_cap} moves")
            if rules.pending_phase(state):
                observe(apply_phase(rules, state, chance), state)
                version += 1
                continue
            seat = rules.to_move(state)[0]
            legal = rules.legal_moves(state, seat)
            t0 = time.process_time()
            kind = kinds[seat]
            if kind in policies:
                move = legal[0] if len(legal) == 1 else policies[kind](
                    rules, rules.view(state, seat), legal, random.Random(f"{seats[seat]}:{version}"))
            else:
                move = decide(kind, seats[seat], rules, state, seat, version, legal, iterations.get(kind))
            rec.cpu[seat] += time.process_time() - t0
            rec.decisions[seat] += 1
            rec.choices[seat] += len(legal) > 1
            observe(apply(rules, state, seat, move, chance, checked=True), state)
            rec.moves += 1
            version += 1
        out = rules.outcome(state)
        rec.scores = list(out.get("scores") or [])
        rec.winners = list(out.get("winners") or [])
        rec.reason = str(out.get("reason", ""))
        rec.crown = out.get("crown")
    except Exception as exc:  # a failed game is reported with its seed; the batch goes on
        rec.error = f"{type(exc).__name__}: {exc}"
    return rec
