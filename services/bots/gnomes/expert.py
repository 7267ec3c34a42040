"""The ``expert`` bot of A Game of Gnomes: the scripted round trip (pick, carry, sell) planned
with the way-finder, plus what the scripted bot leaves alone:

* **shops** (C.4): an item that moves a gnome for a week without a card while winter is far
  (I, G), a map that opens the way to a
  Montane King still growing (C.1 mountain, C.2: its golden mushroom is 8 points, H); near the
  end, treasure that scores more than it costs (H); and a detour to a shop for such a map;
* **quests** (C.7), with their risk: a quest is taken only when its task is within reach
  before week 52 (its penalty, 5 or 10, counts against the gems it pays), and a held
  quest's task becomes a goal of the way-finder;
* **the mountain's bonus** (H): in the last round a gnome with a map climbs as high as it
  can reach;
* **sleep and the hand limit** (D, E) as the scripted bot.

At 2 seats it buys no map to a Montane King (:data:`KING_MAP_TWO`; the kings grow on the
snow level there). Measured with paired runs of 200 2-seat games against
scripted (seats alternated): 20.5 points to 18.0, 68.5 % of the wins (62.5 % before); one
expert with two scripted at 3 seats, 90 games: 19.1 points and 61 % of the wins to 16.6 and
19 % each.

Deterministic: it reads only the seat's view (a state rebuilt with a fixed seed, of which
only the seat's own hand is read); by default it does not search, and its CPU is a few
milliseconds a decision. An operator's budget (``iterations``) makes it search with its
policy as prior and rollout (:func:`search_move`).
"""

from __future__ import annotations

from typing import Any

from services.rules.gnomes import geo
from services.rules.gnomes.content import content
from services.rules.gnomes.state import KING, State, basket_room, equipment, gem_value, held, quests, treasures

from . import evaluation, plan, policy

SEARCH_FROM = 16
"""A budget of at least this many iterations makes the expert search (:func:`search_move`);
below it (and by default) it plays its policy, which needs no search. Measured with one
expert against two scripted bots over 12 games: the search at 24 iterations made 20.2
points a game (110 ms a decision), the policy 21.2 (1 ms), so the policy is the default;
against ISMCTS at 2 seats (20 seeded games each, seats alternated) the search at 32 iterations
(100 ms a decision) won 45 %, where ISMCTS itself at 180 iterations (210 ms) won 35 % against
the policy, and 32 % with the policy as its widening prior; searching only the sleep and
discard decisions (200 iterations) changed no result over 150 games against scripted."""
SEARCH_DEPTH = 8
"""Moves the expert's policy plays after the search tree before the leaf is scored."""
LATE = 42
"""From this calendar week on, gems buy treasure (H) rather than items."""
ITEMS_UNTIL = 30
QUEST_REACH = 6
"""Weeks within which a quest's task must lie for the expert to take it (C.7: its penalty
is paid at the end if it is not done)."""
MOVE_ITEM = 0.25
"""Points a week left until winter (G) that an item moving a gnome for a week without a card
is worth (I): roughly a week saved every four."""
BASKET = 0.0
"""Points a mushroom more in the basket is worth (C.2). Measured at 0: over 60 games of one
expert against two scripted bots, an expert that bought bigger baskets (4 points a mushroom)
made 16.6 points a game, one that never did 18.0 (a second mushroom is seldom sold at the
same buyer, and the gems are points, H)."""
KING_MAP = 10.0
"""Points a map that opens the way to a Montane King is worth (its golden mushroom 8 and a
gem, C.3, H, less the climb), at 3 or more seats."""
KING_MAP_TWO = 0.0
"""The same at 2 seats, where the Montane Kings grow on the snow level (C.1 mountain): the
maps' price and the climb cost more than the king brings. Measured over 200 2-seat games
against scripted (same seeds): with 10 the expert made 20.4 points to 19.3 and won 62.5 %,
with 0 it made 20.5 to 18.0 and won 68.5 %; at 3 seats (one expert, two scripted, 90 games)
0 cost the expert 2 points (19.1 to 17.0), so it stays 10 there."""
"""Movement items (discarded in winter, G) are bought only before this week."""


def choose(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]], seed: str, version: int,
           iterations: int | None = None) -> dict[str, Any]:
    """The expert's move for the seat of ``view`` (its player view), one of ``legal`` (the same dict).

    Args:
        rules: the Gnomes rules (``rules.state_from_view`` rebuilds what the view shows).
        view: the seat's player view; nothing else of the game is read.
        legal: the seat's legal moves.
        seed, version: the dispatcher's arguments (they fix a search's samples).
        iterations: ``None`` (the default) or fewer than :data:`SEARCH_FROM`: the policy,
            a few milliseconds a decision; more: an operator's budget for
            :func:`search_move`.
    Raises:
        ValueError: ``legal`` is empty.
    """
    if not legal:
        raise ValueError("no legal move to choose from")
    if len(legal) == 1:
        return legal[0]
    if iterations is not None and iterations >= SEARCH_FROM:
        return search_move(rules, view, legal, seed, version, iterations)
    if legal[0]["type"] == "sleep":
        return policy.sleep_move(legal)
    if legal[0]["type"] == "discard":
        return policy.discard_move(legal)
    frog = frog_move(legal)
    if frog is not None:
        return frog
    state = rules.state_from_view(view, "expert")
    return turn_move(state, view["seat"], legal)


def frog_move(legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Pond Pipes whenever they may be used (from summer, one player a round: B equipment, F):
    on the frog any travel card crosses any land route, a double card two, a nugget card one
    for no time, so the round's moves go further. Measured with the same seeds, 2 seats: against
    scripted (150 games) 83.7 % of the wins and 22.0 points to 17.3 (77.3 % and 20.5 without);
    against ISMCTS (30 games) 70 % and 21.5 to 16.7 (63 % and 21.2 without); one expert with two
    scripted bots at 3 seats (300 games) 68 % and 20.2 points to 16.6 (52 % and 18.2 without).
    ISMCTS, which found it, used them 0.9 times a game; the expert before, never."""
    return next((m for m in legal if m["type"] == "pond_pipes"), None)


def play(rules: Any, state: State, seat: int, legal: list[dict[str, Any]], rng: Any = None) -> dict[str, Any]:
    """The expert's policy on a full (simulated) ``state``: the rollout and the prior of
    :func:`search_move` (``rng`` unused). Reads only what ``seat`` may see."""
    if len(legal) == 1:
        return legal[0]
    if legal[0]["type"] == "sleep":
        return policy.sleep_move(legal)
    if legal[0]["type"] == "discard":
        return policy.discard_move(legal)
    return frog_move(legal) or turn_move(state, seat, legal)


def search_move(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]], seed: str, version: int,
                iterations: int) -> dict[str, Any]:
    """The expert with an operator's search budget: SO-ISMCTS (:func:`services.bots.ismcts.search`)
    over ``iterations`` determinisations, the expert's own move first at every node
    (progressive widening) and the expert playing every seat for :data:`SEARCH_DEPTH` moves
    after the tree, leaves scored by :func:`.evaluation.rewards`. Deterministic for
    ``seed``, ``version`` and the view. Raises ValueError for no legal move."""
    from services.bots.ismcts import search

    def widen(rules: Any, state: Any, seat: int, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
        first = play(rules, state, seat, moves)
        return [first] + [m for m in moves if m is not first]

    return search(rules, view, seed, version, iterations, depth=SEARCH_DEPTH, legal=legal,
                  rollout=play, widen=widen, reward=lambda r, s: evaluation.rewards(s)).move


# -- shops (C.4) ---------------------------------------------------------------------------

def king_places(state: State, seat: int) -> set[str]:
    """Places where a Montane King the seat may still pick grows (C.2: one a game)."""
    if state.players[seat].kings:
        return set()
    return {pl for pl, ms in state.mushrooms.items() if KING in ms}


def opens_king(state: State, seat: int, card: str) -> bool:
    """Whether map ``card`` would let the gnome reach a Montane King it cannot reach now."""
    kings = king_places(state, seat)
    if not kings or not equipment()[card].route:
        return False
    now = plan.weeks_from(state, seat)
    if kings & set(now):
        return False
    p = state.players[seat]
    items, cards, water, winter, maps, tunnel = plan.means(state, seat)
    maps = tuple(sorted(maps + (tuple(equipment()[card].route or ()),)))
    after = dict(plan._weeks(p.place, items, cards, water, winter, maps, tunnel))
    return bool(kings & set(after))


def item_gain(state: State, seat: int, card: str) -> float:
    """What buying ``card`` should bring, in points, before its price (0: not worth it)."""
    p = state.players[seat]
    week = state.calendar
    if card in treasures():
        return float(treasures()[card].value) if week >= LATE else 0.0
    e = equipment()[card]
    if week >= LATE:
        return 0.0
    if e.mushrooms:
        cap = max((equipment()[b].mushrooms or 0 for b in held(p, "basket")), default=0)
        return BASKET * (e.mushrooms - cap) if e.mushrooms > cap else 0.0
    if e.route:
        worth = KING_MAP_TWO if len(state.players) == 2 else KING_MAP
        return worth if opens_king(state, seat, card) and len(held(p, "map")) < content().cards.max_maps else 0.0
    if e.move in ("meadow", "forest", "mountain") and week < ITEMS_UNTIL and card not in p.equipment:
        return MOVE_ITEM * (content().calendar.freeze_at - week)
    return 0.0


def buy_move(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The purchase here that gains most over its price (:func:`item_gain`), paid with gems
    first (a nugget in hand scores the same, H, and gives an icon, C.1)."""
    from services.rules.gnomes.actions import price

    best, best_gain = None, 0.5
    for m in policy.by_type(legal, "buy"):
        gain = item_gain(state, seat, m["card"]) - price(m["card"])
        key = gain - 0.01 * m.get("nuggets", 0)
        if key > best_gain:
            best, best_gain = m, key
    return best


def shop_goal(state: State, seat: int) -> tuple[float, str | None]:
    """``(worth, shop site)``: a shop worth the detour, for a map to a Montane King or a bigger
    basket the seat can pay for (C.4)."""
    from services.rules.gnomes.actions import price

    p = state.players[seat]
    if state.calendar >= LATE - 8:
        return float("-inf"), None
    dist = plan.weeks_from(state, seat)
    money = gem_value(p.gems) + state.secret["hands"][seat].count("nugget")
    best = (float("-inf"), None)
    for site, tile in state.layout.items():
        if geo.tile_kinds()[tile] != "shop" or site not in dist:
            continue
        for card in state.shops.get(tile, []):
            if card in treasures() or price(card) > money:
                continue
            gain = item_gain(state, seat, card) - price(card)
            if equipment()[card].move:
                gain = min(gain, 1.0)
            worth = gain - policy.DISTANCE * dist[site]
            if gain > 0 and worth > best[0]:
                best = (worth, site)
    return best


# -- quests (C.7) --------------------------------------------------------------------------

def quest_need(state: State, seat: int, quest: str) -> tuple[float | None, str | None]:
    """``(weeks, place)``: about how many weeks the task of ``quest`` still needs and where it
    is done, or ``(None, None)`` if it cannot be done before week 52 (the risk of its penalty)."""
    p = state.players[seat]
    task = quests()[quest].task
    dist = plan.weeks_from(state, seat)
    left = content().calendar.end - state.calendar - 2

    def nearest(places: set[str]) -> tuple[float | None, str | None]:
        ds = [(dist[s], s) for s in sorted(places) if s in dist]
        return min(ds) if ds else (None, None)

    if "visit" in task:
        houses = {geo.house_of_colour()[o.colour] for o in state.players if o.seat != seat}
        d, s = nearest({site for site, t in state.layout.items() if t in houses})
    elif "reach" in task:
        d, s = nearest({content().board.mountain.summit})
    elif "cross" in task:
        if not (state.frozen or "leaf_boat" in p.equipment):
            return None, None
        d, s = nearest(set(content().board.lake))
        d = None if d is None else d + 2
    else:
        colour = task["sell"]
        at = {site for site, t in state.layout.items() if t in task["at"] and any(state.gems.get(t, {}).values())}
        d, s = nearest(at)
        if d is None:
            return None, None
        if colour not in p.basket:
            growing = any(colour in ms for ms in state.mushrooms.values())
            if not growing or plan.rot_week(state, colour) - state.calendar < 10:
                return None, None
            d += 6
    if d is None or d > left:
        return None, None
    return d, s


def quest_move(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The quest worth taking here (C.7), only when its task is sure to be done in time (the
    penalty, 5 or 10, outweighs the gems it pays): another player's house within
    :data:`QUEST_REACH` weeks, the lake or the summit within reach with what the gnome holds,
    a colour sold where the quest says while the gnome carries it and the village is within
    this round's weeks. An item reward takes the best item on offer."""
    p = state.players[seat]
    best, best_worth = None, 0.5
    for m in policy.by_type(legal, "quest"):
        q = quests()[m["quest"]]
        need, _ = quest_need(state, seat, m["quest"])
        if need is None or need > QUEST_REACH:
            continue
        if "sell" in q.task and (q.task["sell"] not in p.basket or need > 7 - p.timer):
            continue
        reward = float(q.reward.get("brown", 0))
        if m.get("item"):
            reward = max(item_gain(state, seat, m["item"]), 0.0) * 0.5
            if reward <= 0:
                continue
        worth = reward - policy.DISTANCE * need * 0.5
        if worth > best_worth:
            best, best_worth = m, worth
    return best


# -- a turn ----------------------------------------------------------------------------------

def climb_move(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """In the last round, a map's climb to a higher level (free, C.1 mountain; H: the highest
    gnomes get a white gem)."""
    if state.calendar + 7 < content().calendar.end:
        return None
    here = geo.rank(state.players[seat].place)
    ups = [m for m in policy.by_type(legal, "climb") if geo.rank(m["to"]) > here]
    return max(ups, key=lambda m: geo.rank(m["to"])) if ups else None


def last_round(state: State) -> bool:
    """Whether the game ends after this round at the latest (H: week 52; a round moves the
    calendar by at most the 7 weeks of the timing track, D)."""
    return state.calendar + 7 >= content().calendar.end


def mountain_goal(state: State, seat: int) -> tuple[float, str | None]:
    """``(worth, space)``: in the last round, the highest mountain space the gnome can reach
    this turn at least as high as every other gnome, for the white gem of H (3 points)."""
    p = state.players[seat]
    if not last_round(state):
        return float("-inf"), None
    others = max((geo.rank(o.place) for o in state.players if o.seat != seat), default=0)
    dist = plan.weeks_from(state, seat)
    best = (float("-inf"), None)
    for space in sorted(geo.mountain_level()):
        d = dist.get(space)
        if d is None or d > 7 - p.timer or geo.rank(space) < others:
            continue
        worth = 3.0 * (0.5 if geo.rank(space) == others else 1.0) + 0.2 * geo.rank(space) - 0.3 * d
        if worth > best[0]:
            best = (worth, space)
    return best


def goals(state: State, seat: int) -> list[tuple[float, str]]:
    """Candidate places to head for, each with its worth in points (best first): the best
    buyer of what is carried, the best mushroom to pick while there is room, a held quest's
    task, a shop worth the detour, in the last round the top of the mountain."""
    p = state.players[seat]
    out: list[tuple[float, str]] = []
    if p.basket:
        worth, place = policy.best_sale(state, seat)
        if place is not None:
            full = basket_room(p) == 0
            out.append((worth + (2.0 if full else 0.0), place))
    if basket_room(p) > 0:
        worth, place = policy.best_pick(state, seat)
        if place is not None:
            out.append((worth, place))
    if p.quest is not None:
        need, place = quest_need(state, seat, p.quest)
        if place is not None and need is not None:
            left = content().calendar.end - state.calendar
            urgency = 1.0 + max(0.0, 14 - left) * 0.3
            out.append((quests()[p.quest].penalty * urgency - policy.DISTANCE * need, place))
    worth, place = shop_goal(state, seat)
    if place is not None:
        out.append((worth, place))
    worth, place = mountain_goal(state, seat)
    if place is not None:
        out.append((worth, place))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


def turn_move(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """One move of a turn: sell, buy, take a quest, pick, climb at the end, else walk towards
    the best goal (:func:`goals`), scout when nothing gets closer, else end the turn (also
    when the best goal is where the gnome stands)."""
    end = policy.by_type(legal, "end_turn")[0]
    move = policy.sell_move(state, seat, legal)
    if move is not None and not (move["mushroom"] != KING and state.players[seat].place == content().board.tower
                                 and policy.best_sale(state, seat)[0] > 1.6):
        return move
    for pick in (buy_move, quest_move):
        move = pick(state, seat, legal)
        if move is not None:
            return move
    move = policy.pick_move(state, seat, legal)
    if move is not None:
        return move
    move = climb_move(state, seat, legal)
    if move is not None:
        return move
    for _, goal in goals(state, seat):
        if goal == state.players[seat].place:
            return end
        move = policy.step_towards(state, seat, legal, goal)
        if move is not None:
            return move
        scout = policy.by_type(legal, "scout")
        if scout:
            return scout[0]
        break
    return end
