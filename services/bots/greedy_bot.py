"""The greedy bot: a one-move look-ahead on points and progress.

For each legal move it applies the move with the forward model
(:mod:`services.rules.core.forward`) to a copy of the state it may know — rebuilt from
its player view, the hidden parts sampled (``Rules.state_from_view``), chance drawn with
its own seed — and keeps the move whose result scores best for its seat by
:func:`evaluate`; ties go to its own seeded generator. It never reads the true hidden
state: the embedded driver hands it the seat's player view, the HTTP driver reads it
from the gateway.

For a game without an evaluation here it plays like the random bot.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from services.rules.core import IllegalMove, get_rules
from services.rules.core.forward import apply, chance_from

from .random_bot import MoveClient, play_through

EXPLORE = 0.1
"""Share of decisions made at random, so that a batch of greedy games varies (epsilon-greedy)."""
MAX_EVALUATED = 48
"""At most this many legal moves are looked at per decision (a seeded sample); moves on
cards, bids and other decisions are always looked at."""
ALWAYS = ("saga", "invention", "auction", "evict", "character", "keep_card", "seers_tower", "fireworks", "bid",
          "builder", "restock", "use", "donate", "draw_reserve", "knut", "fishing_tokens")


NOGGIN_WEIGHTS = {
    "food": 0.5, "material": 1.5, "cart": 1.0, "placed": 1.0, "building": 8.0, "year2": 4.0, "transport": 4.0,
    "tile_nog": 1.0, "locked": 1.0, "card_per_season": 2.0, "card": 3.0, "saga_nog": 2.5, "saga_condition": 1.5,
    "saga_card": 3.0, "invention_nog": 3.0, "dragon": 12.0, "nogbad_loss": 50.0, "draw": 1.0,
}
"""How much :func:`noggin_value` weighs each thing beyond the final score (its defaults)."""


def noggin_value(state: Any, seat: int, weights: dict[str, float] | None = None) -> float:
    """How good ``state`` looks for ``seat`` in Noggin (rulebook 9.0 and 6.4-6.5): the final
    score if the game ended now, plus what is under way (resources in stock and carts,
    buildings, face-up Counting House cards still to score, Nogs on Sagas and Inventions,
    Nogs out on actions that will come home), plus Noggin's progress toward the crown
    (every player loses if Nogbad takes it), minus a great deal if he has lost it.
    ``weights`` override :data:`NOGGIN_WEIGHTS`."""
    from services.rules.noggin import content
    from services.rules.noggin import sagas as sagas_mod
    from services.rules.noggin.scoring import final_breakdown

    w = NOGGIN_WEIGHTS if weights is None else {**NOGGIN_WEIGHTS, **weights}
    p = state.players[seat]
    value = float(final_breakdown(state)[seat]["total"])
    value += w["placed"] * sum(p.placed.values())
    value += w["food"] * sum(p.stock[r] for r in ("fish", "harvest"))
    value += w["material"] * sum(p.stock[r] for r in ("stone", "wood"))
    if state.action is not None and state.action.seat == seat:
        value += w["cart"] * sum(state.action.cart.values())
    year1 = content.year1_ids()
    value += w["building"] * len(p.buildings) + w["year2"] * sum(1 for b in p.buildings if b not in year1)
    value += w["transport"] * len(p.transports) + w["tile_nog"] * sum(p.tile_nogs.values())
    value += w["locked"] * sum(sum(held.values()) for held in p.locked.values())
    # a face-up Counting House card scores 2 at every Change of Season still to come, and acts
    seasons_left = max(0, 8 - state.season)
    value += sum(w["card_per_season"] * seasons_left + w["card"] for c in p.counting_house if c["up"])
    for saga in state.sagas:
        if saga is None:
            continue
        own = sum(c["nogs"][seat] for c in saga.done) + (saga.current.nogs[seat] if saga.current else 0)
        value += w["saga_nog"] * own
        if saga.current is not None:
            value += w["saga_condition"] * sum(1 for m in saga.current.met if m is not None)
        value += w["saga_card"] * len(saga.done)
    for inv in state.inventions:
        if inv is not None:
            value += w["invention_nog"] * sum(1 for m in inv.met if m is not None and m["seat"] == seat)
    value += w["dragon"] * (len(state.players) + 1 - state.dragon)
    if state.ended is not None and state.ended.get("crown") == "nogbad":
        value -= w["nogbad_loss"]
    if sagas_mod.needs_draw(state) is not None:
        value += w["draw"]
    return value


GNOMES_WEIGHTS = {"mushroom": 2.0, "king": 9.0, "card": 0.4, "item": 1.0, "distance": 1.0, "week": 0.25,
                  "mountain": 1.0}
"""How much :func:`gnomes_value` weighs each thing beyond the final score (its defaults)."""


def gnomes_item_worth(item: str) -> float:
    """What an item is worth to the greedy bot at the start of a game, in points (its use, not
    a rule): a moving item 3, a bigger basket 3 per extra mushroom, a rucksack 1.5 per
    extra card, a map 2.5, a key 1, a starting item nothing."""
    from services.rules.gnomes.state import STARTING_ITEMS, equipment

    if item in STARTING_ITEMS:
        return 0.0
    e = equipment()[item]
    if e.mushrooms:
        return 3.0 * (e.mushrooms - 1)
    if e.hand:
        return 1.5 * (e.hand - 4)
    if e.route:
        return 2.5
    if e.move:
        return 3.0
    return 1.0


def gnomes_value(state: Any, seat: int, weights: dict[str, float] | None = None) -> float:
    """How good ``state`` looks for ``seat`` in A Game of Gnomes (rulebook H and C): the final
    score if the game ended now, plus carried mushrooms (a Montane King brings the golden
    mushroom), cards in hand and items, less the steps to the nearest buyer of what it
    carries (or to a mushroom while the basket has room) and the weeks already used this
    round, plus the mountain's level as the end nears. ``weights`` override
    :data:`GNOMES_WEIGHTS`."""
    from services.rules.gnomes import scoring
    from services.rules.gnomes.bot_hints import reach, steps_to_goal
    from services.rules.gnomes.state import basket_room, equipment

    w = GNOMES_WEIGHTS if weights is None else {**GNOMES_WEIGHTS, **weights}
    p = state.players[seat]
    value = float(scoring.breakdown(state)[seat]["total"])
    value += sum(w["king"] if m == "king" else w["mushroom"] for m in p.basket)
    value += w["card"] * p.hand_size
    left = max(0.2, (52 - state.calendar) / 52)
    value += w["item"] * left * sum(gnomes_item_worth(e) for e in p.equipment)
    if p.kings == 0:  # a map up to a Montane King still growing is worth the golden mushroom's chance
        kings = {pl for pl, ms in state.mushrooms.items() if "king" in ms}
        if kings and basket_room(p) > 0:
            near = [d for pl, d in reach(state, seat).items() if pl in kings]
            value -= w["distance"] * 0.5 * (min(near) if near else 12)
        value += w["item"] * left * sum(3.0 for e in p.equipment
                                        if equipment()[e].route and kings & set(equipment()[e].route or ()))
    value -= w["distance"] * steps_to_goal(state, seat)
    value -= w["week"] * p.timer
    if state.calendar >= 40:
        value += w["mountain"] * scoring.geo.rank(p.place)
    return value


RESOURCE_HOG_WEIGHTS = {"food": 1.5, "hunger": 4.0, "work": 0.5, "building": 0.6, "goods": 0.5, "land": 2.0}
"""How much :func:`resource_hog_value` weighs each thing beyond the wealth count (its defaults)."""


def resource_hog_value(state: Any, seat: int, weights: dict[str, float] | None = None) -> float:
    """How good ``state`` looks for ``seat`` in Resource Hog (docs/house-rules.md, Resource Hog):
    its wealth now, plus food made and stored against mouths to feed (hunger weighs more
    than plenty), peasants at work, buildings being worked, goods in store and land held."""
    from services.rules.resource_hog.content import content
    from services.rules.resource_hog.rules import wealth

    w = RESOURCE_HOG_WEIGHTS if weights is None else {**RESOURCE_HOG_WEIGHTS, **weights}
    content_wealth = content().setup.wealth
    costs = {b.id: b.money for b in content().buildings.buildings}
    value = float(wealth(state)[seat]["total"])
    for a in state.lands.values():
        if a.owner != seat:
            continue
        producers = sum(n for k, n in a.work.items() if k.startswith("fish:") or k in ("hunt", "toil"))
        mouths = a.nobles + max(0, a.peasants - producers)
        food = sum(a.fresh.values()) + a.store["preserved"]
        value += w["food"] * min(food, mouths) - w["hunger"] * max(0, mouths - food)
        value += w["work"] * sum(a.work.values())
        purse = state.players[seat].money
        for k in a.work:
            if k.startswith("build:"):  # only a building the purse can pay for is worth a peasant
                name = k.split(":", 1)[1]
                cost = costs[name]
                value += w["building"] * content_wealth[name] if purse >= cost else -w["work"]
                purse -= cost
        port = 1.5 if "harbour" in a.buildings else 1.0  # goods in a harbour area can be sold
        value += w["goods"] * port * (a.store["salt"] + a.store["weapons"]) + w["land"]
    return value


EVALUATIONS: dict[str, Callable[..., float]] = {"noggin": noggin_value, "gnomes": gnomes_value,
                                                "resource_hog": resource_hog_value}
"""Evaluation functions by game name."""
ALWAYS_BY_GAME = {"noggin": ALWAYS, "gnomes": ("sell", "buy", "quest", "pick", "sleep", "discard", "pond_pipes",
                                               "climb", "restock", "end_turn"),
                  "resource_hog": ("orders", "done", "ransom", "buy", "sell", "ship", "move_nobles")}
"""Move kinds always evaluated, by game; the others are sampled (:data:`MAX_EVALUATED`)."""


def _kind(move: dict[str, Any]) -> str:
    return move.get("op", move["type"]) if move["type"] == "market_day" else move["type"]


class GreedyBot:
    """A seat played by one-move look-ahead (see the module docstring).

    Args:
        seed: seeds the bot's generator and its chance for simulated draws.
        name: shown in standings and reports.
        weights: overrides of the evaluation's weights (a playing style), e.g.
            ``{"building": 16.0}`` for Noggin (see :data:`NOGGIN_WEIGHTS`).
    """

    kind = "greedy"

    def __init__(self, seed: str | int, name: str = "greedy", weights: dict[str, float] | None = None):
        self.seed = str(seed)
        self.name = name
        self.weights = dict(weights or {})
        self.rng = random.Random(self.seed)
        self.decisions = 0

    def choose(self, moves: list[dict[str, Any]], view: dict[str, Any] | None = None,
               game: str | None = None) -> dict[str, Any]:
        """The best of ``moves`` for the seat of ``view`` (the player view), or a random one when
        there is no view or no evaluation for ``game``. Raises ValueError if there are no moves."""
        if not moves:
            raise ValueError("no legal moves to choose from")
        self.decisions += 1
        evaluate = EVALUATIONS.get(game or "")
        if view is None or evaluate is None or len(moves) == 1 or self.rng.random() < EXPLORE:
            return moves[self.rng.randrange(len(moves))]
        rules = get_rules(game)
        seat = view["seat"]
        base = rules.state_from_view(view, f"{self.seed}:{self.decisions}")
        always = ALWAYS_BY_GAME.get(game or "", ())
        pool = [m for m in moves if _kind(m) in always]
        rest = [m for m in moves if _kind(m) not in always]
        if len(pool) + len(rest) > MAX_EVALUATED:
            rest = self.rng.sample(rest, max(0, min(len(rest), MAX_EVALUATED - len(pool))))
            pool = pool if len(pool) <= MAX_EVALUATED else self.rng.sample(pool, MAX_EVALUATED)
        best: list[dict[str, Any]] = []
        best_value = float("-inf")
        chance = chance_from(f"{self.seed}:sim:{self.decisions}")
        for move in pool + rest:
            state = rules.copy(base)
            try:
                apply(rules, state, seat, move, chance, checked=True)
            except IllegalMove:
                continue
            value = evaluate(state, seat, self.weights)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif abs(value - best_value) <= 1e-9:
                best.append(move)
        if not best:
            return moves[self.rng.randrange(len(moves))]
        return best[self.rng.randrange(len(best))]

    def play(self, client: MoveClient, game_id: str, token: str, attempts: int = 5) -> dict[str, Any] | None:
        """Make one move for the seat of ``token`` through the gateway (reads its view and legal
        moves first). Same contract as :meth:`RandomBot.play`."""
        def decide(legal: dict[str, Any]) -> dict[str, Any] | None:
            view = client.view(game_id, token)  # type: ignore[attr-defined]
            if view["version"] != legal["version"]:
                return None  # the game moved on between the two reads
            return self.choose(legal["moves"], view["view"], view["view"].get("config", {}).get("game"))

        return play_through(client, game_id, token, decide, attempts)
