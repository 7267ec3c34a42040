"""The ISMCTS bot: single-observer information-set Monte Carlo tree search.

Source: P. I. Cowling, E. J. Powley and D. Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE Transactions on Computational Intelligence and AI in Games 4(2), 2012,
pp. 120-143 (SO-ISMCTS, Algorithm 3).

The bot decides from the seat's player view only (``rules.view(state, seat)``), never
from the true state. Every iteration:

1. **determinise**: a full state is sampled from the view
   (``rules.state_from_view(view, sample_seed)``: the parts the seat cannot see are drawn
   from what it has not seen), with a sample seed of the bot's seed, the version and the
   iteration (:func:`sample_seed`), so samples vary from one iteration and one decision
   to the next but a decision is the same for the same seed, version and view (drawn as
   ``rules.determinise`` of one state rebuilt from the view, the same sample for less
   work: :func:`determinisation`);
2. **select**: from the root, while every move available in this determinisation has a
   child, descend to the child of highest UCB, counting *availability* (how often the move
   could have been chosen) instead of the parent's visits (the paper's 3.3); moves are
   plain dicts, a child is keyed by the seat that moves and the move's canonical JSON;
3. **expand**: one untried move (drawn with the bot's generator) becomes a child;
4. **roll out**: at most ``depth`` moves (:data:`DEPTHS`; uniform at random unless a
   ``rollout`` policy is given), then the leaf is scored by the game's evaluation
   (:func:`services.bots.evaluation.rewards`: each seat's reward in [0, 1], losses every
   seat shares counted for every seat; at the end of the game the winners share 1, and
   nobody gets anything when nobody won), unless a ``reward`` function is given;
5. **back-propagate**: every node on the path adds the reward of the seat that made its move.

Moves, phases (``rules.pending_phase``) and chance are resolved by the forward model
(:mod:`services.rules.core.forward`), chance drawn from the bot's own seed. When several
seats decide at once (sealed orders), the searching seat moves first in the tree, so its
choice never depends on a sealed choice it could not see. The budget is a number of
iterations, never a clock, so a decision is deterministic; :data:`DEFAULT_ITERATIONS`
keeps one decision around 50-150 ms on a 2-core machine.

Progressive widening (optional, ``widen``): a node offers only its ``widen`` ordering's first
``ceil(WIDEN_BASE * visits ** WIDEN_POWER)`` moves (Coulom 2007; Chaslot et al., "Progressive
strategies for Monte-Carlo tree search", 2008), the best by the game's own prior first.

The root's moves are the seat's legal moves (they depend only on what it sees); each is
checked against the sample before it is played there. The move returned is the root's
most visited child (ties: the higher mean reward, then the order of the legal moves).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from services.bots.cancel import checkpoint
from services.rules.core import IllegalMove, MalformedMove, NotYourTurn
from services.rules.core.canonical import plain_json
from services.rules.core.forward import apply, apply_phase, chance_from

from . import evaluation

DEFAULT_ITERATIONS = {"noggin": 120, "gnomes": 64, "resource_hog": 150}
"""Iterations of one decision by game (about 50-150 ms each on a 2-core machine, measured
by ``make bench-bots``); :data:`FALLBACK_ITERATIONS` for other games."""
FALLBACK_ITERATIONS = 100
"""Iterations of one decision for a game without an entry in :data:`DEFAULT_ITERATIONS`."""
DEFAULT_DEPTH = 2
"""Uniform random moves played after the tree before the leaf is evaluated, unless
:data:`DEPTHS` names the game."""
DEPTHS = {"gnomes": 6}
"""Rollout depths by game where they differ from :data:`DEFAULT_DEPTH`: a gnome's turn is
a run of moves (travel, pick, sell, ..., end the turn) and the evaluation reads a
finished turn better (tuned against random: 90 matches at 64 iterations won
94 % at depth 6)."""
EXPLORATION = 0.7
"""The UCB exploration constant (rewards lie in [0, 1])."""
WIDEN_BASE = 2.0
"""Progressive widening: a node with ``n`` visits offers ``ceil(WIDEN_BASE * n ** WIDEN_POWER)``
moves (at least one)."""
WIDEN_POWER = 0.5
MAX_SIMULATED = 400
"""Failure guard: an iteration stops after this many moves and phases."""


def default_iterations(game: str) -> int:
    """The budget of one decision in ``game``: its evaluation module's ``ISMCTS_ITERATIONS``, else
    :data:`DEFAULT_ITERATIONS`, else :data:`FALLBACK_ITERATIONS`."""
    m = evaluation.module(game)
    return int(getattr(m, "ISMCTS_ITERATIONS", 0) or DEFAULT_ITERATIONS.get(game, FALLBACK_ITERATIONS))


def default_depth(game: str) -> int:
    """Rollout moves in ``game``: its evaluation module's ``ISMCTS_DEPTH``, else :data:`DEPTHS`,
    else :data:`DEFAULT_DEPTH`."""
    m = evaluation.module(game)
    depth = getattr(m, "ISMCTS_DEPTH", None)
    return int(depth) if depth is not None else DEPTHS.get(game, DEFAULT_DEPTH)


def sample_seed(seed: str, version: int, iteration: int) -> str:
    """The seed of iteration ``iteration``'s determinisation at ``version`` for a bot seeded
    ``seed``: ``"<seed>:<version>:<iteration>"``."""
    return f"{seed}:{version}:{iteration}"


def determinisation(rules: Any, view: dict[str, Any], seed: str, version: int, iteration: int,
                    base: Any | None = None) -> Any:
    """The state iteration ``iteration`` searches: ``rules.state_from_view(view,
    sample_seed(seed, version, iteration))``, the hidden parts drawn from what the view's
    seat has not seen.

    Args:
        base: any state already rebuilt from ``view`` (``rules.state_from_view(view, s)``
            for some ``s``); given, the sample is ``rules.determinise(base, seat,
            sample_seed(...))``, which draws the same sample without rebuilding the view
            (ten times cheaper for Noggin), as the games' ``state_from_view`` is that
            rebuild followed by ``determinise``.
    Raises:
        NotImplementedError: the game cannot rebuild a state from a view.
    """
    s = sample_seed(seed, version, iteration)
    if base is None:
        return rules.state_from_view(view, s)
    return rules.determinise(base, view.get("seat"), s)


def move_key(seat: int, move: dict[str, Any]) -> str:
    """A child's key: the moving seat and the move's canonical JSON, ``"<seat>|<json>"``."""
    return f"{seat}|{plain_json(move)}"


Reward = Callable[[Any, Any], list[float]]
"""``reward(rules, state) -> [reward of each seat in [0, 1]]``."""
Rollout = Callable[[Any, Any, int, list[dict[str, Any]], random.Random], dict[str, Any]]
"""``rollout(rules, state, seat, legal, rng) -> one of legal``: a rollout's policy."""
Widen = Callable[[Any, Any, int, list[dict[str, Any]]], list[dict[str, Any]]]
"""``widen(rules, state, seat, legal) -> legal`` ordered best first (a subset may be returned):
the prior of progressive widening."""


def rewards(rules: Any, state: Any) -> list[float]:
    """Each seat's reward in [0, 1] for the (simulated) ``state``: the game's evaluation,
    :func:`services.bots.evaluation.rewards` (at the end, the winners share 1 and a game
    nobody won pays nobody)."""
    return evaluation.rewards(rules, state)


@dataclass(eq=False, slots=True)
class Node:
    """A node of the tree: the move (of ``seat``) that led to it, and its statistics.

    Attributes:
        move: the move dict (``None`` at the root).
        seat: the seat that made ``move`` (``-1`` at the root).
        visits: iterations that went through it.
        available: iterations in which its move was available at its parent (the root: 0).
        reward: the sum of ``seat``'s rewards over those visits.
        children: by :func:`move_key`.
    """

    move: dict[str, Any] | None = None
    seat: int = -1
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[str, Node] = field(default_factory=dict)

    def ucb(self, exploration: float) -> float:
        """Mean reward plus ``exploration * sqrt(ln(available) / visits)``; infinite if unvisited."""
        if self.visits == 0:
            return math.inf
        return self.reward / self.visits + exploration * math.sqrt(math.log(max(1, self.available)) / self.visits)


@dataclass
class Decision:
    """What one search decided, with its statistics.

    Attributes:
        move: the chosen move (one of the legal moves given).
        root: the search tree's root.
        iterations: iterations run.
        failed: iterations whose determinisation allowed none of the legal moves given
            (none, as the seat's own moves depend only on what it sees; they add nothing).
    """

    move: dict[str, Any]
    root: Node
    iterations: int
    failed: int = 0


def _mover(rules: Any, state: Any, seat: int) -> int | None:
    movers = rules.to_move(state)
    if not movers:
        return None
    return seat if seat in movers else movers[0]


def _settle(rules: Any, state: Any, chance: Any, budget: list[int]) -> None:
    """Run pending phases (the forward model), as the embedded drivers do."""
    while rules.outcome(state) is None and rules.pending_phase(state) and budget[0] > 0:
        apply_phase(rules, state, chance)
        budget[0] -= 1


def search(rules: Any, view: dict[str, Any], seed: str, version: int, iterations: int | None = None,
           depth: int | None = None, legal: list[dict[str, Any]] | None = None,
           exploration: float = EXPLORATION, reward: Reward | None = None, rollout: Rollout | None = None,
           widen: Widen | None = None) -> Decision:
    """Run SO-ISMCTS for the seat of ``view`` (a player view, ``rules.view(state, seat)``).

    Args:
        rules: the game's rules.
        view: the seat's player view; the search reads nothing else of the game.
        seed: the bot's seed (determinisations, chance and its generator derive from it).
        version: the game's version (with ``seed``, fixes the decision).
        iterations: the budget; default :func:`default_iterations` of the game.
        depth: rollout moves after the tree before the evaluation; default
            :func:`default_depth` of the game.
        legal: the seat's legal moves (as ``rules.legal_moves`` lists them); default
            those of the first determinisation.
        exploration: the UCB constant.
        reward: scores a leaf (:data:`Reward`); default :func:`rewards`.
        rollout: the rollout policy (:data:`Rollout`); default uniform at random.
        widen: the prior of progressive widening (:data:`Widen`); default the game's
            evaluation module's ``ISMCTS_WIDEN`` if it has one, else none (every move is
            offered at once).
    Returns:
        a :class:`Decision`; its ``move`` is one of ``legal`` (the same dict).
    Raises:
        ValueError: no legal move, or ``iterations`` below 1.
        NotImplementedError: the game cannot rebuild a state from a view.
    """
    seat = view["seat"]
    game = rules.name
    iterations = default_iterations(game) if iterations is None else iterations
    depth = default_depth(game) if depth is None else depth
    reward = rewards if reward is None else reward
    if widen is None:  # a game's evaluation may name the prior of its progressive widening
        widen = getattr(evaluation.module(game), "ISMCTS_WIDEN", None)
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    base = rules.state_from_view(view, sample_seed(seed, version, 0))
    if legal is None:
        legal = rules.legal_moves(base, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal move at version {version}")
    root = Node()
    if len(legal) == 1:
        return Decision(legal[0], root, 0)
    root_moves = legal if widen is None else _ordered(legal, widen(rules, base, seat, legal))
    root_keys = [move_key(seat, m) for m in root_moves]
    rng = random.Random(f"{seed}:{version}:ismcts")
    failed = 0
    for i in range(iterations):
        checkpoint()  # a caller that is stopping gives the decision up
        state = rules.clone(base) if i == 0 else determinisation(rules, view, seed, version, i, base)
        chance = chance_from(f"{sample_seed(seed, version, i)}:chance")
        budget = [MAX_SIMULATED]
        node = root
        path = [root]
        refused: set[str] = set()  # root moves this determinisation does not allow
        while budget[0] > 0:
            _settle(rules, state, chance, budget)
            if rules.outcome(state) is not None:
                break
            mover = _mover(rules, state, seat)
            if mover is None:
                break
            if node is root:
                pairs = [(m, k) for m, k in zip(root_moves, root_keys) if k not in refused]
            else:
                moves = rules.legal_moves(state, mover)
                if widen is not None and len(moves) > 1:
                    moves = widen(rules, state, mover, moves)
                pairs = [(m, move_key(mover, m)) for m in moves]
            if widen is not None:
                pairs = pairs[:max(1, math.ceil(WIDEN_BASE * (node.visits + 1) ** WIDEN_POWER))]
            if not pairs:
                break
            untried = [(m, k) for m, k in pairs if k not in node.children]
            if untried:
                move, key = untried[0] if widen is not None else untried[rng.randrange(len(untried))]
                child = node.children[key] = Node(move, mover)
            else:
                key = max((k for _, k in pairs), key=lambda k: node.children[k].ucb(exploration))
                child = node.children[key]
            try:  # a root move comes from the seat's list: checked against this sample
                apply(rules, state, mover, child.move, chance, checked=node is not root)
            except (IllegalMove, MalformedMove, NotYourTurn):
                refused.add(key)
                if child.visits == 0:
                    del node.children[key]
                continue
            for _, k in pairs:  # availability: the moves this sample offered here
                if k in node.children:
                    node.children[k].available += 1
            budget[0] -= 1
            node = child
            path.append(node)
            if untried:
                break
        if len(path) == 1 and refused:
            failed += 1
            continue
        for _ in range(depth):
            _settle(rules, state, chance, budget)
            if rules.outcome(state) is not None or budget[0] <= 0:
                break
            mover = _mover(rules, state, seat)
            if mover is None:
                break
            moves = rules.legal_moves(state, mover)
            if not moves:
                break
            move = moves[rng.randrange(len(moves))] if rollout is None or len(moves) == 1 \
                else rollout(rules, state, mover, moves, rng)
            apply(rules, state, mover, move, chance, checked=True)
            budget[0] -= 1
        _settle(rules, state, chance, budget)
        scores = reward(rules, state)
        for n in path:
            n.visits += 1
            if n.seat >= 0:
                n.reward += scores[n.seat]
    best = legal[0]
    best_rank: tuple[int, float, int] | None = None
    for j, m in enumerate(legal):
        child = root.children.get(move_key(seat, m))
        rank = (0, 0.0, -j) if child is None else (child.visits, child.reward / max(1, child.visits), -j)
        if best_rank is None or rank > best_rank:
            best, best_rank = m, rank
    return Decision(best, root, iterations, failed)


def _ordered(legal: list[dict[str, Any]], ranked: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``legal`` in the order of ``ranked`` (a widening's answer, maybe a subset of the moves or
    copies of them), the dicts of ``legal`` kept; moves ``ranked`` leaves out come last."""
    keys = {plain_json(m): n for n, m in enumerate(ranked)}
    return sorted(legal, key=lambda m: keys.get(plain_json(m), len(keys)))
