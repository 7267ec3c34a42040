"""The ``expert`` Resource Hog bot: a tuned policy on the economy model (issue 22).

Measured against the other kinds (``make bench-bots``), a plan beats search here: a round's
choices interact through the feed event at its end, and the wealth that wins comes from a
few steady engines (``docs/house-rules.md``, Resource Hog: Length and winner; the table's
events in ``resource-hog-actions-and-events.txt``). The policy, from the seat's view only:

* **an outpost on ore**: in the first rounds the noble crosses one border into an unowned
  neighbouring land area with ore (table: move nobles), one peasant follows (table: move
  peasants: over own land) with the home's preserved food shipped after it (table: sell,
  moving goods), and the noble goes home once a peasant holds the area. Peasants follow
  only as far as the outpost can feed them;
* **a gold mine**: the outpost builds a mine (10 money, house rule costs) and from then on
  peasants mine gold, 2 gold tokens = 10 money each a round (table: produce from mines;
  house rule: gold to the purse), as many as the area can feed;
* **feed first** in every area: a peasant does other work only if the remaining free
  peasants can still feed everyone from food that regrows (fish leaving 5 in a pool, game
  leaving 1), and only the last round takes the pools down (nothing regrows for the count);
* **grow in every area**: one population peasant an area a round where food is spare
  (table: population increases: once per area per round);
* **build what pays** (the wealth count, house rule: every building counts its cost and 2
  more) once the mine stands: a harbour at home (trade, a fish more a sea fisher),
  the fortification chain manor, motte, castle, and in the last round whatever building its count pays for (a new peasant first);
* **war** (:mod:`.military`): take another seat's area that no noble defends (a sure win, the
  area and its peasants, goods and buildings change hands: house rules), guard its own
  valuable areas that another seat's nobles can reach, knight a peasant or buy a mercenary
  when one of them has no noble, or to take a rich area next door;
* the last round's trade sells every good (goods do not count at the end).

Rollouts (:func:`choose`, :data:`DEFAULT_ITERATIONS` by default, an operator's ``iterations``
for more) check each move of the policy against ``done`` by playing the game out.
"""

from __future__ import annotations

import random
from typing import Any

from services.bots.cancel import checkpoint
from services.rules.resource_hog import turns
from services.rules.resource_hog.content import content
from services.rules.resource_hog.state import State

from . import economy, military

DEFAULT_ITERATIONS = 0
"""Rollouts a candidate at a decision by default (:func:`choose`): none, the policy alone (well
under a millisecond a decision; it met every target of the ladder). An operator's budget buys
more: at 2 rollouts (about 90 ms of CPU a decision on average over a 2-seat game, measured)
the expert's wealth against scripted rose from 77 to 113 in 4 seeded games of 4."""
EXPAND_BY = 2
"""The last round in which the noble sets out for an outpost."""
FISH_KEEP = 5
"""Fish left in a pool before the last round (it regrows by two: table, increase fish)."""
LOW_KEEP = 2
"""Fish left when the pools that regrow by two are fished out by others (a pool shared at 3-4
seats): it still regrows by one."""
GAME_KEEP = 1
"""Game left on an area's squares before the last round (it regrows)."""
OUTPOST_CAP = 4
"""Peasants the outpost takes from home before it grows by itself."""
HOME_KEEP = 3
"""Free peasants the home keeps when one leaves for the outpost."""
GOLD = 10
"""Money a gold-mining peasant brings a round (2 gold tokens of 5: components, house rule)."""
RANSOM_COST = {"money": 10, "salt": 4, "weapons": 6, "preserved": 3, "peasants": 3}
"""What a unit of ransom costs the expert, in money (table: fight: 10 money, 2 salt, 1 weapon, 1
preserved food or 1 peasant; goods at :data:`military.GOOD_WORTH`, a peasant its count and its work)."""
MERCENARY_PRIZE = 20
"""The least another seat's area next to its land must be worth (:func:`military.area_worth`)
for it to buy a mercenary (10 money for a noble counting 5: house rules) to take it."""


def home(state: State, seat: int) -> str | None:
    """The seat's area with the most peasants (ties: ring order), or None if it has no land."""
    mine = economy.owned(state, seat)
    return max(mine, key=lambda a: (state.lands[a].peasants, -content().map.ring.index(a))) if mine else None


def outposts(state: State, seat: int) -> list[str]:
    """The seat's areas with ore (where a mine stands or can), in ring order."""
    return [a for a in economy.owned(state, seat) if state.lands[a].ore]


def target(state: State, seat: int) -> str | None:
    """An unowned land area with ore next to the seat's home, to settle (house rule map), or None."""
    from services.rules.resource_hog.nobles import ring_neighbours

    h = home(state, seat)
    if h is None or state.lands[h].ore:  # a home with ore builds its mine at home
        return None
    for n in ring_neighbours(h):
        if state.lands[n].ore and state.lands[n].owner is None:
            return n
    return None


def _sources(state: State, area: str, last: bool) -> list[str]:
    """Food work a peasant of ``area`` can do now, best first: fish and game that regrow by the
    most (all of it in the ``last`` round), then fish down to :data:`LOW_KEEP`, then toil."""
    a = state.lands[area]
    targets = turns.work_targets(state, area)
    fish_keep, game_keep = (0, 0) if last else (FISH_KEEP, GAME_KEEP)
    out = []
    pools = dict(state.fish)
    for w in economy.waters(area):
        if f"fish:{w}" in targets:
            out += [f"fish:{w}"] * max(0, pools[w] - max(1, fish_keep) + (1 if last else 0))
    if "hunt" in targets:  # one hunter a forest square (table: hunt; house rule map)
        spare = max(0, a.game - max(1, game_keep) + (1 if last else 0))
        out += ["hunt"] * min(a.forests - a.work.get("hunt", 0), spare)
    if not last:  # then fish a shared pool lower, still leaving enough to regrow by one
        for w in economy.waters(area):
            if f"fish:{w}" in targets:
                out += [f"fish:{w}"] * max(0, min(pools[w] - LOW_KEEP, FISH_KEEP - LOW_KEEP))
    if "toil" in targets:
        out += ["toil"] * (a.fields - a.work.get("toil", 0))
    return out


def _gain(work: str, toiling: int) -> int:
    """Food one more peasant at ``work`` makes beyond feeding itself: 1 fish or meat, a grain
    for every second toiler (table: allocate to toil)."""
    if work == "toil":
        return 1 if (toiling + 1) % 2 == 0 else 0
    return 1


def committed(state: State, area: str) -> int:
    """Preserved food of ``area`` that its owner's trade action will ship to a hungry outpost
    this round (:func:`trade_move`): all of it while another area of the owner goes hungry with
    nobody there at food work, else none."""
    seat = state.lands[area].owner
    if seat is None or area != home(state, seat):
        return 0
    for other in economy.owned(state, seat):
        o = state.lands[other]
        if other != area and economy.balance(o) < 0 and not economy.producers(o) and o.peasants == o.moved:
            return state.lands[area].store["preserved"]
    return 0


def reachable_balance(state: State, area: str, spare_free: int, last: bool) -> int:
    """The area's food balance if ``spare_free`` of its free peasants go to food work, best
    source first (:func:`economy.balance` counts them as mouths now; each producer stops
    eating and adds what it makes, and two or three kinds of fresh food add the variety
    bonus: table, feed), less the preserved food the trade action will ship away
    (:func:`committed`)."""
    a = state.lands[area]
    bal = economy.balance(a) - committed(state, area)
    toiling = a.work.get("toil", 0)
    fresh = dict(a.fresh)
    for work in _sources(state, area, last)[:max(0, spare_free)]:
        gain = _gain(work, toiling)
        bal += 1 + gain
        kind = "grain" if work == "toil" else "meat" if work == "hunt" else "fish"
        fresh[kind] += gain
        toiling += work == "toil"
    return bal + economy.variety_bonus(fresh) - economy.variety_bonus(a.fresh)


def allocation(state: State, seat: int, legal: list[dict[str, Any]],
               forbid: frozenset[str] = frozenset()) -> dict[str, Any] | None:
    """The expert's next peasant move (one of ``legal``) or None when the action is done; it
    never allocates to a work named in ``forbid`` (``"build:harbour"``: what ``make balance``
    measures a building's worth against)."""
    last = economy.rounds_left(state) == 0
    if not any(state.lands[x].work for x in economy.owned(state, seat)):
        move = _settle(state, seat, legal, last)
        if move is not None:
            return move
    purse = state.players[seat].money
    for area in economy.owned(state, seat):
        a = state.lands[area]
        free = turns.free_peasants(state, area)
        if free < 1:
            continue
        targets = [t for t in turns.work_targets(state, area) if t not in forbid]
        pick = None
        spare = reachable_balance(state, area, free - 1, last) >= 0
        if "build:mine" in targets and purse >= _mine_cost() and economy.rounds_left(state) >= 1 and spare:
            pick = "build:mine"
        elif "mine:gold" in targets and "mine" in a.buildings and spare:
            pick = "mine:gold"
        elif "population" in targets and last and reachable_balance(state, area, free - 1, last) >= 1:
            pick = "population"  # the last round: a new peasant counts 2, more than a building's margin
        elif spare and (work := _invest(state, seat, area, targets)) is not None:
            pick = work
        elif "population" in targets and reachable_balance(state, area, free - 1, last) >= 1:
            pick = "population"
        else:
            srcs = _sources(state, area, last)
            if srcs:
                pick = srcs[0]
            elif economy.balance(a) < 0:
                pick = next((w for w in [*(f"fish:{x}" for x in economy.waters(area)), "hunt"] if w in targets), None)
        if pick is not None:
            move = economy.find(legal, type="allocate", area=area, work=pick)
            if move is not None:
                return move
    return None


def _invest(state: State, seat: int, area: str, targets: list[str]) -> str | None:
    """Work for a peasant the area's food can spare, beyond the mine (``targets`` as
    :func:`turns.work_targets` gives them, so each build is one the seat can pay for): in its home
    a harbour (trade, and a fish more a sea fisher: table, buy and fish), then the
    fortification chain (manor, then motte, then castle, each extending the one before: table,
    build; each counts its cost and 2 more, house rule); a noble where a fortification stands
    and arms and armour are in store while one of its areas is :func:`military.exposed` with no
    noble (table: produce nobles); in the last
    round any building whose count pays for its cost (house rule, Length and winner); else arms
    and armour from a mine whose gold is out (table: allocate to a mine)."""
    a = state.lands[area]
    left = economy.rounds_left(state)
    is_home = area == home(state, seat)
    if _mine_first(state, seat):
        return None
    if is_home:
        if "build:harbour" in targets and left >= 2:
            return "build:harbour"
        if "build:castle" in targets:
            return "build:castle"
        if "build:motte" in targets and left >= 1:
            return "build:motte"
        if "build:manor" in targets:
            return "build:manor"
    if "knight" in targets and a.store["weapons"] >= 1 and any(
            state.lands[x].nobles == 0 and military.exposed(state, seat, x) for x in economy.owned(state, seat)):
        return "knight"
    if left == 0:
        w = content().setup.wealth
        for b in ("harbour", "mine", "stone_head", "road"):
            if f"build:{b}" in targets and w[b] > _cost(b):
                return f"build:{b}"
    if "mine:weapons" in targets and "mine:gold" not in targets and left >= 1:
        return "mine:weapons"
    return None


def _mine_first(state: State, seat: int) -> bool:
    """Whether the seat still saves for a mine: it has ore without one, or an ore area to
    settle in the first rounds (:data:`EXPAND_BY`)."""
    if any("mine" not in state.lands[x].buildings for x in outposts(state, seat)):
        return True
    return not outposts(state, seat) and state.round <= EXPAND_BY + 1 and target(state, seat) is not None


def _cost(name: str) -> int:
    return next(b.money for b in content().buildings.buildings if b.id == name)


def _mine_cost() -> int:
    return next(b.money for b in content().buildings.buildings if b.id == "mine")


def _settle(state: State, seat: int, legal: list[dict[str, Any]], last: bool) -> dict[str, Any] | None:
    """A peasant moved from home to an ore outpost that can feed it this round (its peasants
    that stay produce food), or None."""
    h = home(state, seat)
    for out in outposts(state, seat):
        if out == h:
            continue
        o = state.lands[out]
        workers = o.peasants - o.moved
        if o.peasants >= OUTPOST_CAP or last or turns.free_peasants(state, h) <= HOME_KEEP:
            continue
        if workers == 0:  # the first settler eats the preserved food shipped after it (trade)
            feedable = state.lands[h].store["preserved"] + o.store["preserved"] - o.nobles - o.moved
        else:  # newcomers are fed by the outpost's own peasants at food work
            feedable = reachable_balance(state, out, workers, last)
        if feedable < 1:
            continue
        move = economy.find(legal, type="move_peasants", to=out, count=1, **{"from": h})
        if move is not None:
            return move
    return None


def nobles_move(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Send the noble to settle an ore area early; take another seat's area that no noble
    defends (:func:`military.attack`); put a noble into a valuable area that another seat could
    take (:func:`military.guard`); bring a noble home from an outpost no one threatens once a
    peasant holds it."""
    h = home(state, seat)
    if state.round <= EXPAND_BY and not [x for x in outposts(state, seat) if x != h]:
        t = target(state, seat)
        if t is not None and h is not None and state.lands[h].store["preserved"] >= 2:
            move = economy.find(legal, type="move_nobles", to=t, count=1, **{"from": h})
            if move is not None:
                return move
    move = military.attack(state, seat, legal) or military.guard(state, seat, legal)
    if move is not None:
        return move
    for out in outposts(state, seat):
        o = state.lands[out]
        if out != h and o.nobles - o.nobles_moved > 0 and o.peasants >= 1 and not military.exposed(state, seat, out):
            return economy.find(legal, type="move_nobles", to=h, count=o.nobles - o.nobles_moved, **{"from": out})
    return None


def trade_move(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Ship the home's preserved food to an outpost that would go hungry this round; buy a
    mercenary (a noble, house rule) while one of its areas that another seat can reach has no
    noble, or to take another seat's area worth :data:`MERCENARY_PRIZE` next round: it joins in
    the richest such area, else next to the prize, else at home, else anywhere, in an area whose
    food this round feeds one more (a mercenary marches into any of the buyer's areas, house
    rule; table: feed); in the last round sell every good it can (goods do not count at the end:
    table, buy, sell; house rule, Length and winner)."""
    h = home(state, seat)
    for out in economy.owned(state, seat):
        if out != h and economy.balance(state.lands[out]) < 0 and state.players[seat].money >= 1:
            move = economy.find(legal, type="ship", good="preserved", to=out, **{"from": h})
            if move is not None:
                return move
    exposed = sorted((a for a in economy.owned(state, seat)
                      if state.lands[a].nobles == 0 and military.exposed(state, seat, a)),
                     key=lambda a: -military.area_worth(state, a))
    prize = military.best_prize(state, seat)
    if (exposed or (prize >= MERCENARY_PRIZE and economy.rounds_left(state) >= 1)) and "buy:mercenary" not in state.traded:
        # where the noble is needed first, in an area with food to spare for him (table: feed)
        for to in dict.fromkeys([*exposed[:1], *military.prize_borders(state, seat), h, *economy.owned(state, seat)]):
            if to is not None and economy.balance(state.lands[to]) >= 1:
                move = economy.find(legal, type="buy", good="mercenary", to=to)
                if move is not None:
                    return move
    if economy.rounds_left(state) == 0:  # goods count for nothing at the end (house rule): sell them
        return next((m for m in legal if m["type"] == "sell" and m["good"] != "slave"), None)
    return None


def policy(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]], seed: str = "expert",
           version: int = 0, forbid: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The policy's move for the seat of ``view`` (one of ``legal``, the very object): the orders
    nobles, peasants, trade; the first ransom offered; all the salt it can when preserving (the
    first preserve move offered); else the move of the action under way
    (:func:`nobles_move`, :func:`allocation`, :func:`trade_move`), ``done`` when it has none.
    ``forbid``: works it never allocates to (:func:`allocation`).

    Raises:
        ValueError: ``legal`` is empty.
    """
    if not legal:
        raise ValueError("no legal move to choose from")
    seat = view["seat"]
    kinds = {m["type"] for m in legal}
    if "orders" in kinds:
        return economy.find(legal, type="orders", order=["nobles", "peasants", "trade"]) or legal[0]
    if "ransom" in kinds:  # the payment that costs it least at the count
        return min(legal, key=lambda m: sum(RANSOM_COST.get(k, 10) * n for k, n in m["pay"].items()))
    if "preserve" in kinds:  # preserving: all the salt it can, the first move offered
        return legal[0]
    state = rules.state_from_view(view, f"{seed}:{version}:expert")
    action = (view.get("acting") or [None, None])[1]
    move = None
    if action == "peasants":
        move = allocation(state, seat, legal, forbid)
    elif action == "nobles":
        move = nobles_move(state, seat, legal)
    elif action == "trade":
        move = trade_move(state, seat, legal)
    if move is None:
        move = economy.find(legal, type="done")
    return move if move is not None else legal[0]


def rollout(rules: Any, state: State, seat: int, seed: str, cap: int = 2000) -> float:
    """Play ``state`` (changed in place) to its end on the forward model, ``seat`` by this
    policy and every other seat by the scripted bot, chance drawn from ``seed``; returns
    ``seat``'s wealth less the best other seat's (house rule, Length and winner)."""
    from services.rules.core.forward import chance_from, play_out

    from . import scripted

    rng = random.Random(seed)

    def choose(mover: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
        view = rules.view(state, mover)
        return policy(rules, view, legal, seed) if mover == seat else scripted.choose(rules, view, legal, rng)

    play_out(rules, state, chance_from(f"{seed}:rollout"), choose, cap)
    counts = [economy.wealth(state, s) for s in range(len(state.players))]
    return counts[seat] - max(c for s, c in enumerate(counts) if s != seat)


def choose(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]], seed: str, version: int,
           iterations: int | None = None) -> dict[str, Any]:
    """The expert's move for the seat of ``view`` (a Resource Hog player view): one of ``legal``
    (the very object), a function of the view, ``seed`` and ``version`` alone.

    The :func:`policy` move, checked against ``done`` (the passive choice) at every decision
    of an action where they differ: each is played out ``iterations`` times to the end of the
    game (:func:`rollout`: other seats scripted, samples of what the seat cannot see) and the
    one with the better mean lead is played, the policy's on a tie. ``iterations`` None means
    :data:`DEFAULT_ITERATIONS`; 0 plays the policy alone (no rollout, no chance, well under a
    millisecond); an operator may give more.

    Raises:
        ValueError: ``legal`` is empty.
    """
    move = policy(rules, view, legal, seed, version)
    done = economy.find(legal, type="done")
    iterations = DEFAULT_ITERATIONS if iterations is None else iterations
    if not iterations or iterations <= 0 or done is None or move is done:
        return move
    from services.rules.core.forward import apply, chance_from

    seat = view["seat"]
    means = []
    for candidate in (move, done):
        total = 0.0
        for i in range(iterations):
            checkpoint()  # a caller that is stopping gives the decision up
            sample = rules.state_from_view(view, f"{seed}:{version}:sample:{i}")
            apply(rules, sample, seat, candidate, chance_from(f"{seed}:{version}:first:{i}"), checked=True)
            total += rollout(rules, sample, seat, f"{seed}:{version}:{i}")
        means.append(total / iterations)
    return move if means[0] >= means[1] else done


