"""Every Longhouse game as a single-agent Gymnasium environment: one seat against built-in bots.

    import gymnasium
    import services.interop.gymnasium  # noqa: F401 (registers the environments)
    env = gymnasium.make("longhouse/Gnomes-v0", players=3, opponents="greedy", max_moves=500)
    obs, info = env.reset(seed=1)

``import services.interop.gymnasium`` registers ``longhouse/Noggin-v0``,
``longhouse/Gnomes-v0`` and ``longhouse/ResourceHog-v0``. The agent holds ``seat`` (default
0); every other seat is played by a built-in bot (``opponents``: one kind for all, or a list
round the table, of ``random``, ``greedy``, ``scripted``, ``ismcts``, ``expert``:
:mod:`services.bots.decide`, each seeded from ``reset(seed=...)``). The observation and the
action are PettingZoo's (:mod:`.pettingzoo`): ``{"observation": float32, "action_mask":
int8}`` and an index into the legal moves, or a step towards one. An action the mask does not
allow is taken modulo the number of allowed actions (so a sampled action is always a move).
The reward is the seat's utility at the end (``win`` | ``score`` | ``rank``), 0 before;
``terminated`` when the rules end the game, ``truncated`` after ``max_moves`` moves.

Source: Gymnasium's ``Env`` API and registration (gymnasium 1.x documentation, "Create a
custom environment"); ``gymnasium.utils.env_checker.check_env`` passes.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from services.bots.decide import BOT_KINDS, check_iterations, decide
from services.rules.core.canonical import canonical_json

from . import encode
from .episode import BOUNDS, CHANCE, DEFAULT_MAX_MOVES, UTILITIES, Episode, action_index

ENVS = {"noggin": "longhouse/Noggin-v0", "gnomes": "longhouse/Gnomes-v0", "resource_hog": "longhouse/ResourceHog-v0"}
"""The Gymnasium id of each game."""


class LonghouseSeatEnv(gymnasium.Env):
    """One seat of a Longhouse game against built-in bots (see the module docstring).

    Args:
        game: ``"noggin"``, ``"gnomes"`` or ``"resource_hog"``.
        players: seats (2-4).
        seat: the agent's seat.
        opponents: a bot kind for every other seat, or a list of kinds taken round them.
        max_moves: moves (every seat's) after which the episode is truncated.
        utility: ``win``, ``score`` or ``rank``.
        variants: the game's options switched on.
        iterations: the budget of ``ismcts`` and ``expert`` opponents per decision (default
            the game's).
        render_mode: ``None`` or ``"ansi"``.
    Raises:
        ValueError: an unknown bot kind, utility, render mode, a seat out of range, ``max_moves``
            below 1 or ``iterations`` not a whole number from 1 to 100,000.
        services.rules.core.BadConfig: the players or variants do not fit the game.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: str, players: int = 2, seat: int = 0, opponents: str | list[str] = "random",
                 max_moves: int = DEFAULT_MAX_MOVES, utility: str = "rank", variants: dict[str, Any] | None = None,
                 iterations: int | None = None, render_mode: str | None = None):
        kinds = [opponents] if isinstance(opponents, str) else list(opponents)
        if not kinds or any(k not in BOT_KINDS for k in kinds):
            raise ValueError(f"opponents are bot kinds among {', '.join(BOT_KINDS)}, not {opponents!r}")
        if utility not in UTILITIES:
            raise ValueError(f"utility must be one of {', '.join(UTILITIES)}, not {utility!r}")
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not among the {players} seats")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if iterations is not None:
            iterations = check_iterations(iterations)
        max_moves = Episode(game, players, variants, max_moves=max_moves).max_moves  # checks players, variants, max_moves
        self.game, self.players, self.seat, self.max_moves = game, players, seat, max_moves
        self.utility, self.variants, self.iterations = utility, dict(variants or {}), iterations
        others = [s for s in range(players) if s != seat]
        self.opponents = {s: kinds[i % len(kinds)] for i, s in enumerate(others)}
        self.render_mode = render_mode
        self.bound = BOUNDS[game]
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (encode.size(game),), np.float32),
            "action_mask": spaces.Box(0, 1, (self.bound,), np.int8),
        })
        self.action_space = spaces.Discrete(self.bound)
        self.episode: Episode | None = None
        self._rng = random.Random()
        self._bot_seed = "0"

    def _observe(self) -> dict[str, np.ndarray]:
        ep = self.episode
        deciding = ep.current() == self.seat
        mask = np.zeros(self.bound, np.int8)
        if deciding:
            mask[ep.actions()] = 1
        tensor = encode.encode(self.game, ep.view(self.seat), self.seat, deciding, len(ep.prefix) if deciding else 0)
        return {"observation": tensor, "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        ep = self.episode
        return {"moves": ep.moves, "legal_moves": ep.legal_moves() if ep.current() == self.seat else []}

    def _advance(self) -> None:
        """Draw chance and play the bots until the agent decides or the episode is over."""
        ep = self.episode
        while not ep.is_over() and ep.current() != self.seat:
            if ep.current() == CHANCE:
                outcomes = ep.chance_outcomes()
                ep.chance(self._rng.choices([k for k, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            seat = ep.current()
            move = decide(self.opponents[seat], f"{self._bot_seed}:seat:{seat}", ep.rules, ep.state, seat, ep.moves,
                          ep.legal_moves(), self.iterations)
            ep.play(move)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new episode, played on by the bots to the agent's first decision; ``seed`` seeds chance
        and the bots. Returns ``(observation, info)``; info holds ``moves`` and the agent's
        ``legal_moves`` (the rules' move dicts, in action order)."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self._bot_seed = str(self._rng.getrandbits(64))
        self.episode = Episode(self.game, self.players, self.variants, max_moves=self.max_moves)
        self._advance()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Take ``action`` (an action the mask does not allow is taken modulo the allowed ones),
        then let the bots play to the agent's next decision. Returns ``(observation, reward,
        terminated, truncated, info)``; the reward is the utility at the end, 0 before.

        Raises RuntimeError if the episode is over (call ``reset``), TypeError for an action that is
        not a whole number."""
        ep = self.episode
        if ep is None or ep.is_over():
            raise RuntimeError("the episode is over: call reset()")
        actions = ep.actions()
        a = action_index(action)
        ep.step(a if a in actions else actions[a % len(actions)])
        self._advance()
        over = ep.is_over()
        reward = float(ep.returns(self.utility)[self.seat]) if over else 0.0
        truncated = over and ep.truncated()
        return self._observe(), reward, over and not truncated, truncated, self._info()

    def render(self) -> str | None:
        """The spectator view's JSON (``render_mode="ansi"``), else ``None``."""
        if self.render_mode != "ansi" or self.episode is None:
            return None
        return canonical_json(self.episode.view(None))


def _register() -> None:
    for game, env_id in ENVS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"{__name__}:LonghouseSeatEnv", kwargs={"game": game})


_register()

__all__ = ["ENVS", "LonghouseSeatEnv"]
