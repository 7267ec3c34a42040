"""The events of a Resource Hog round, in the table's order (``resource-hog-actions-and-events.txt``,
the rows of type Event): clear woodland, build, produce from mines, produce nobles, feed,
population, starvation, preserve, spoil, fish growth, game growth. (Adjusting the trading
board and the slaves draw on chance and belong to the deck domain.)

Each function reads the state (never changes it) and returns the events of that step.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from services.rules.core import Event, public

from .content import content, game_max, lands
from .state import FOODS, FORTS, Land, State, produces_food, room


def clear_woodland(state: State) -> list[Event]:
    """One forest square becomes a field per peasant allocated to clearing (table: clear woodland)."""
    cleared = {a.id: min(a.work.get("clear", 0), a.forests) for a in state.lands.values() if a.work.get("clear")}
    return [public("WoodlandCleared", cleared=cleared)] if cleared else []


@lru_cache(maxsize=1)
def costs() -> dict[str, Any]:
    """Every building of ``buildings.json`` by id (its cost, what it extends, where it stands)."""
    return {b.id: b for b in content().buildings.buildings}


def _cost(name: str) -> Any:
    return costs()[name]


MARKER_SIDES = {"motte": ("motte", "castle")}
"""Buildings that share one two-sided marker (resource-hog-components.md: motte-and-bailey /
castle markers); any other building with markers has its own."""


def markers_on_map(state: State, name: str) -> int:
    """Markers of building ``name`` standing on the map (a castle counts as a motte's marker)."""
    sides = MARKER_SIDES.get(name, (name,))
    return sum(1 for a in state.lands.values() for b in a.buildings if b in sides)


def markers_left(state: State, name: str) -> int | None:
    """Markers of building ``name`` neither on the map nor claimed by a peasant allocated to
    build one this round (any seat's), or None when ``name`` takes no marker of its own (a
    castle turns its motte's over, a stone head a field marker): ``buildings.json``
    ``markers``, from resource-hog-components.md, Components (6 harbours, 12 mines, 12 roads,
    12 manors, 10 motte-and-bailey/castle markers; house rule, Costs)."""
    total = content().buildings.markers.get(name)
    if total is None:
        return None
    claimed = sum(a.work.get(f"build:{name}", 0) for a in state.lands.values())
    return total - markers_on_map(state, name) - claimed


def build(state: State) -> list[Event]:
    """Each worked building is built if it may stand there, one of its markers is off the map
    (resource-hog-components.md, Components: 6 harbour markers and so on; :func:`markers_left`)
    and its cost can be paid from the owner's purse and the area's store; else it is abandoned
    (table: build; house rules, ambiguity 14). A motte extends a manor, a castle a motte; a
    stone head takes a field. Areas in map order."""
    out: list[Event] = []
    money = {p.seat: p.money for p in state.players}
    markers = {name: total - markers_on_map(state, name) for name, total in content().buildings.markers.items()}
    for a in state.lands.values():
        store = dict(a.store)
        fields = a.fields
        buildings = list(a.buildings)
        for work in sorted(w for w in a.work if w.startswith("build:")):
            name = work.split(":", 1)[1]
            b = _cost(name)
            why = cannot_build(a, name, buildings, fields)
            if why is None and name in markers and markers[name] < 1:
                why = f"all {content().buildings.markers[name]} {name} markers are on the map"
            if why is None and money.get(a.owner, 0) < b.money:
                why = f"the purse holds {money.get(a.owner, 0)} money, the {name} costs {b.money}"
            if why is None and any(store.get(g, 0) < k for g, k in b.goods.items()):
                why = f"the store lacks {b.goods}"
            if why is not None or a.owner is None:
                out.append(public("BuildAbandoned", area=a.id, building=name, reason=why or "the area has no owner"))
                continue
            money[a.owner] -= b.money
            if name in markers:
                markers[name] -= 1
                if b.needs in markers:  # a motte's manor marker comes off the map
                    markers[b.needs] += 1
            for g, k in b.goods.items():
                store[g] -= k
            if name == "stone_head":
                fields -= 1
            elif b.needs:
                buildings.remove(b.needs)
                buildings.append(name)
            else:
                buildings.append(name)
            out.append(public("Built", seat=a.owner, area=a.id, building=name, money=b.money, goods=dict(b.goods)))
    return out


def cannot_build(a: Land, name: str, buildings: list[str], fields: int) -> str | None:
    """Why ``name`` cannot stand in ``a`` (None if it can)."""
    land = lands()[a.id]
    b = _cost(name)
    if b.where == "coast" and land.coast is None:
        return "a harbour needs a coast"
    if b.where == "ore" and not a.ore:
        return "a mine needs ore"
    if b.where == "field" and fields < 1:
        return "a stone head takes a field and the area has none"
    if b.needs and b.needs not in buildings:
        return f"a {name} extends a {b.needs}"
    if name in FORTS and b.needs is None and any(f in buildings for f in FORTS):
        return "the area is fortified already"
    if name in ("road", "harbour", "mine") and name in buildings:
        return f"the area has a {name} already"
    return None


def produce_from_mines(state: State) -> list[Event]:
    """The yield of every mine-working peasant goes to its area (table: produce from mines)."""
    produced: dict[str, dict[str, int]] = {}
    for a in state.lands.values():
        for work, n in a.work.items():
            if work.startswith("mine:") and "mine" in a.buildings:
                good = work.split(":", 1)[1]
                per = next(y[good] for y in content().buildings.mine_yields if good in y)
                produced.setdefault(a.id, {})
                produced[a.id][good] = produced[a.id].get(good, 0) + per * n
    return [public("MinesProduced", produced=produced)] if produced else []


def produce_nobles(state: State) -> list[Event]:
    """One noble in each area where a peasant works in a manor, motte or castle, for one arms
    and armour token; at most one an area (table: produce nobles). A noble is made only while
    its seat has room for one more of its 50 peasant/noble markers on the map, the areas taken
    in map order (resource-hog-components.md, Components); an area without room makes none
    and keeps its arms and armour.

    Returns ``[NoblesProduced(areas=[area, ...])]`` naming the areas that made one, or ``[]``."""
    free: dict[int, int] = {}
    areas = []
    for a in state.lands.values():
        if a.work.get("knight") and any(f in a.buildings for f in FORTS) and a.store["weapons"] >= 1:
            if a.owner is not None and free.setdefault(a.owner, room(state, a.owner)) > 0:
                free[a.owner] -= 1
                areas.append(a.id)
    return [public("NoblesProduced", areas=areas)] if areas else []


def feed(state: State) -> list[Event]:
    """Feed, population and starvation (table: feed, population increases, resolve
    starvation): an area that produced two kinds of food gains one grain, three kinds two;
    each noble and each peasant that did not produce food eats one, nobles first, fresh food
    from the producers first (fish, meat, grain), then preserved food; a spare food grows one
    peasant where one is allocated to population (house rule), once an area, while the seat has
    room for one more of its 50 peasant/noble markers on the map (resource-hog-components.md,
    Components; the areas in map order, counting those grown before); the unfed die.

    Returns ``Fed(eaten={area: {food: n}}, bonus={area: {"grain": n}})``, then
    ``PopulationGrew(grew={area: food used})`` if any area grew and ``Starved(lost={area:
    {"nobles": n, "peasants": n}})`` if any piece went unfed."""
    eaten: dict[str, dict[str, int]] = {}
    bonus: dict[str, dict[str, int]] = {}
    grew: dict[str, str] = {}
    lost: dict[str, dict[str, int]] = {}
    free: dict[int, int] = {}
    for a in state.lands.values():
        if a.owner is None:
            continue
        producers = sum(n for w, n in a.work.items() if produces_food(w))
        kinds = sum(1 for f in FOODS if a.fresh[f] > 0)
        extra = {2: 1, 3: 2}.get(kinds, 0)
        food = dict(a.fresh)
        if extra:
            bonus[a.id] = {"grain": extra}
            food["grain"] += extra
        food["preserved"] = a.store["preserved"]
        took: dict[str, int] = {}

        def eat() -> bool:
            for f in (*FOODS, "preserved"):
                if food[f] > 0:
                    food[f] -= 1
                    took[f] = took.get(f, 0) + 1
                    return True
            return False

        unfed_nobles = sum(1 for _ in range(a.nobles) if not eat())
        unfed_peasants = sum(1 for _ in range(max(0, a.peasants - producers)) if not eat())
        if took:
            eaten[a.id] = took
        if a.work.get("population") and not unfed_nobles and not unfed_peasants:
            spare = next((f for f in (*FOODS, "preserved") if food[f] > 0), None)
            if spare is not None and free.setdefault(a.owner, room(state, a.owner)) > 0:
                free[a.owner] -= 1
                grew[a.id] = spare
        if unfed_nobles or unfed_peasants:
            lost[a.id] = {"nobles": unfed_nobles, "peasants": unfed_peasants}
    out = [public("Fed", eaten=eaten, bonus=bonus)]
    if grew:
        out.append(public("PopulationGrew", grew=grew))
    if lost:
        out.append(public("Starved", lost=lost))
    return out


def salt_choices(state: State) -> dict[str, int]:
    """Area -> the most salt its owner may spend preserving: the fresh food left there after
    feeding and the salt in its store, whichever is less, for every owned area where that is at
    least 1 (table: produce preserved foods, one salt a token; house rule, Preserving: the owner
    chooses how much salt to spend). An area with no owner preserves nothing."""
    out = {}
    for a in state.lands.values():
        most = min(sum(a.fresh.values()), a.store["salt"])
        if a.owner is not None and most > 0:
            out[a.id] = most
    return out


def ask_preserve(state: State) -> list[Event]:
    """``PreservingAsked(areas={area: most salt})`` (:func:`salt_choices`): the owners of those
    areas now choose how much salt to spend, one ``preserve`` move an area (house rule,
    Preserving). With no area to ask about, ``areas`` is empty and the events go on."""
    return [public("PreservingAsked", areas=salt_choices(state))]


def preserved(state: State, area: str, salt: int) -> dict[str, int]:
    """The fresh food of ``area`` that ``salt`` salt preserve, one salt a token, fish first, then
    meat, then grain (table: produce preserved foods): ``{food: n}``, empty for no salt."""
    a = state.lands[area]
    here: dict[str, int] = {}
    for f in FOODS:
        k = min(a.fresh[f], salt)
        if k:
            here[f] = k
            salt -= k
    return here


def preserve(state: State, seat: int, area: str, salt: int) -> list[Event]:
    """The owner's choice for one area: ``FoodPreserved(seat, area, salt, made={food: n})``, the
    salt spent turning that many fresh tokens into preserved food; the rest of the salt stays
    in the store (table: produce preserved foods; house rule, Preserving)."""
    return [public("FoodPreserved", seat=seat, area=area, salt=salt, made=preserved(state, area, salt))]


def spoil(state: State) -> list[Event]:
    """All fresh food left spoils (table: spoil): ``FreshFoodSpoiled``."""
    return [public("FreshFoodSpoiled")]


def growth(n: int, cap: int) -> int:
    """A pool of ``n`` after growth: +1 from 1, +2 from 5, +3 from 9, at most ``cap`` (table:
    increase fish and game populations)."""
    if n <= 0:
        return n
    return min(cap, n + (3 if n >= 9 else 2 if n >= 5 else 1))


def grow(state: State) -> list[Event]:
    """Fish in every water area and game in every land area grow (table), up to the water's
    maximum and the area's :func:`.content.game_max` (4 a forest square, house rule map)."""
    waters = {w.id: w.max for w in content().map.waters}
    fish = {w: growth(n, waters[w]) for w, n in sorted(state.fish.items())}
    game = {a.id: growth(a.game, game_max(a.forests)) for a in state.lands.values()}
    return [public("FishGrew", fish=fish), public("GameGrew", game=game)]


BEFORE_PRESERVING = (clear_woodland, build, produce_from_mines, produce_nobles, feed, ask_preserve)
"""The event steps of the phase ``events``, in the table's order, up to asking the owners how
much salt to spend (house rule, Preserving)."""
AFTER_PRESERVING = (spoil, grow)
"""The event steps once every owner has chosen (the trading board follows in the deck domain)."""
EVENT_STEPS = BEFORE_PRESERVING + AFTER_PRESERVING
"""Every event step run on the board domain, in the table's order."""
