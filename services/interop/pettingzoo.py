"""Every Longhouse game as a native PettingZoo AEC environment.

    from services.interop.pettingzoo import env
    e = env(game="gnomes", players=3, max_moves=500)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

The agents are ``player_0`` .. ``player_{n-1}`` (the seats). Observations are
``{"observation": float32[encode.size(game)], "action_mask": int8[bound]}``: the seat's
observation tensor (:mod:`.encode`, from its player view only) and which actions are legal
now (none for a seat that is not deciding). An action is an index into the seat's legal
moves, or a step towards one when it has more than the bound (:mod:`.episode`). Chance is
drawn inside the environment from ``reset(seed=...)``'s generator, so the same seed and the
same actions give the same episode. The game ends as the rules end it (every agent
terminated) or after ``max_moves`` moves (every agent truncated); rewards are paid at the
end only, by the ``utility`` (``win`` | ``score`` | ``rank``, :meth:`.episode.Episode.returns`).

Source: PettingZoo's AEC API (``pettingzoo.AECEnv``, "Environment creation" in its
documentation, pettingzoo 1.27); ``pettingzoo.test.api_test`` and ``seed_test`` pass.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from services.common.integers import whole_number
from services.rules.core.canonical import canonical_json

from . import encode
from .episode import BOUNDS, CHANCE, DEFAULT_MAX_MOVES, UTILITIES, Episode, action_index

DEFAULT_UTILITY = "rank"


class LonghouseEnv(AECEnv):
    """A Longhouse game as an AEC environment (see the module docstring).

    Args:
        game: ``"noggin"``, ``"gnomes"`` or ``"resource_hog"``.
        players: seats (2-4).
        max_moves: moves after which the episode is truncated.
        utility: ``win``, ``score`` or ``rank`` (the rewards at the end).
        variants: the game's options switched on (``{"sos": True}``).
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the spectator view's JSON).
    Raises:
        ValueError: an unknown utility or render mode.
        services.rules.core.BadConfig: the players or variants do not fit the game.
    """

    metadata = {"name": "longhouse_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, players: int = 2, max_moves: int = DEFAULT_MAX_MOVES, utility: str = DEFAULT_UTILITY,
                 variants: dict[str, Any] | None = None, render_mode: str | None = None):
        super().__init__()
        if utility not in UTILITIES:
            raise ValueError(f"utility must be one of {', '.join(UTILITIES)}, not {utility!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game, self.players, self.max_moves, self.utility = game, players, max_moves, utility
        self.variants = dict(variants or {})
        self.render_mode = render_mode
        Episode(game, players, self.variants, max_moves=max_moves)  # checks players, variants and max_moves now
        self.bound = BOUNDS[game]
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (encode.size(game),), np.float32),
            "action_mask": spaces.Box(0, 1, (self.bound,), np.int8),
        }) for a in self.possible_agents}
        self._actions = {a: spaces.Discrete(self.bound) for a in self.possible_agents}
        self.episode: Episode | None = None
        self._rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Dict:
        """``Dict(observation=Box(0, 1, (size,), float32), action_mask=Box(0, 1, (bound,), int8))``."""
        return self._spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(bound)``: an index into the legal moves (or a step towards one)."""
        return self._actions[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode; ``seed`` seeds chance (and the same seed gives the same episode).
        Raises TypeError for a seed that is not a whole number (or None)."""
        if seed is not None:
            self._rng = random.Random(_seed_number(seed))
        self.episode = Episode(self.game, self.players, self.variants, max_moves=self.max_moves)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._advance()

    def _advance(self) -> None:
        """Draw chance until a seat decides or the episode is over; then point at who acts."""
        ep = self.episode
        while ep.current() == CHANCE:
            outcomes = ep.chance_outcomes()
            r, acc = self._rng.random(), 0.0
            pick = outcomes[-1][0]
            for k, p in outcomes:
                acc += p
                if r < acc:
                    pick = k
                    break
            ep.chance(pick)
        if ep.is_over():
            done = ep.truncated()
            for a, u in zip(self.possible_agents, ep.returns(self.utility)):
                if a in self.agents:
                    self.rewards[a] = float(u)
                    self.truncations[a] = done
                    self.terminations[a] = not done
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[ep.current()]

    def _started(self) -> Episode:
        """The episode. Raises RuntimeError before :meth:`reset`."""
        if self.episode is None:
            raise RuntimeError("no episode yet: call reset() first")
        return self.episode

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation tensor and action mask (zeros unless it is deciding).
        Raises RuntimeError before :meth:`reset`, ValueError for an agent not among
        ``possible_agents``."""
        ep = self._started()
        if agent not in self.possible_agents:
            raise ValueError(f"{agent!r} is not one of {', '.join(self.possible_agents)}")
        seat = self.possible_agents.index(agent)
        deciding = ep.current() == seat
        mask = np.zeros(self.bound, np.int8)
        if deciding:
            mask[ep.actions()] = 1
        tensor = encode.encode(self.game, ep.view(seat), seat, deciding, len(ep.prefix) if deciding else 0)
        return {"observation": tensor, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``(observation, cumulative reward, terminated, truncated, info)`` of the
        agent selected. Raises RuntimeError before :meth:`reset` or once every agent is done."""
        self._started()
        if not self.agents:
            raise RuntimeError("the episode is over and every agent is done: call reset()")
        return super().last(observe)

    def step(self, action: int | None) -> None:
        """Take ``action`` for the agent selected (``None`` once it is terminated or truncated).

        Raises RuntimeError before :meth:`reset` or once every agent is done (call ``reset``),
        TypeError for an action that is not a whole number, ValueError for one its mask does not
        allow."""
        ep = self._started()
        if not self.agents:
            raise RuntimeError("the episode is over and every agent is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or action_index(action) not in ep.actions():
            raise ValueError(f"{agent} may not take action {action} now")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        ep.step(action_index(action))
        self._advance()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The spectator view's JSON (``render_mode="ansi"``), else ``None``."""
        if self.render_mode != "ansi" or self.episode is None:
            return None
        return canonical_json(self.episode.view(None))

    def close(self) -> None:
        """Nothing to release."""


def _seed_number(seed: Any) -> int:
    """A reset's seed as a whole number. Raises TypeError for anything else (as Gymnasium's
    ``reset(seed=...)`` does; ``random.Random`` would take any hashable)."""
    try:
        return whole_number(seed)
    except TypeError:
        raise TypeError(f"seed must be a whole number or None, not {seed!r}") from None


def env(game: str, players: int = 2, max_moves: int = DEFAULT_MAX_MOVES, utility: str = DEFAULT_UTILITY,
        variants: dict[str, Any] | None = None, render_mode: str | None = None) -> LonghouseEnv:
    """A :class:`LonghouseEnv` (PettingZoo's convention: ``env(**kwargs)`` makes the environment)."""
    return LonghouseEnv(game, players, max_moves, utility, variants, render_mode)


__all__ = ["LonghouseEnv", "env"]
