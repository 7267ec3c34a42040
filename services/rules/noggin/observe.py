"""Search over what a seat knows: determinising the hidden parts of a Noggin state, and
rebuilding a state from a player view (for bots that see only what a client sees).

What a seat does not know (``State.secret``): which card of its twins lies on each Saga
(the back: Nogbad's portrait or Nooka's knife, 6.4), the other seats' Friend or Foe
cards (variants), Knut's order when another seat chose it (6.1), and the order of every
face-down pile (1.0 set-up F, N, O, S). A real state never stores that order (each draw
recomputes it from the game's chance), so a search that drew with its own chance would
deal a pile as a permutation of the whole pile, items already drawn included. A
determinisation (:func:`determinise`) therefore deals every hidden pile, deck and card
back from exactly the items the seat has not seen, uniformly, and fixes the piles' orders
in the sampled state (``secret["dealt"]``, read by :func:`.decks.dealt`).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import fields
from typing import Any

from services.rules.core.match import MatchRecord

from . import content, decks
from .state import (DECKS, Action, Invention, Marker, Player, ReserveCard, Saga, State, copy_state, live_peeks, option,
                    saga_peeks)


def _twins(deck: str, needs: list[str], bonus: bool) -> list[str]:
    return [c.id for c in content.load().reserve.decks[deck] if c.needs == needs and c.bonus == bonus]


def _deal(rng: random.Random, universe: list[str], known: list[str], drawn: int) -> list[str]:
    """A pile of ``universe`` (a multiset) from the top, ``drawn`` items already drawn: the
    drawn positions hold ``""`` (never read again), the rest is a uniform arrangement of the
    items not in ``known`` (what the seat saw leave the pile). Should the record of what was
    seen fall short (fewer drawn items known than drawn), a uniform part of the unseen items
    is dealt, so no seen item ever comes back."""
    free = Counter(universe)
    free.subtract(Counter(known))
    rest = sorted(free.elements())
    rng.shuffle(rest)
    return [""] * drawn + rest[:max(0, len(universe) - drawn)]


def _take(rng: random.Random, free: Counter, options: list[str]) -> str:
    """One of ``options`` not yet placed (uniformly), removed from ``free``; any option if
    every one is placed (a record that fell short)."""
    left = [c for c in options if free[c] > 0]
    card = rng.choice(left or options)
    free[card] -= 1
    return card


def _reserve(rng: random.Random, state: State, seat: int | None = None
             ) -> tuple[list[str | None], dict[str, list[str]], dict[str, list[str]]]:
    """The Reserve cards the seat cannot identify, dealt (6.4): each card lying resource side up
    on a Saga and each card Nooka discarded unturned gets an id with its front among the
    cards not seen elsewhere; the rest of each deck's current epoch is a uniform arrangement
    of what is left, but for the cards ``seat`` saw by Knut or the Telescope (:func:`.state.live_peeks`),
    which stay where it saw them. Returns ``(saga_cards, discard piles, dealt orders by label)``."""
    seen_discard = (state.seen or {}).get("discard", {})
    peeks = live_peeks(state, seat)
    known_sagas = saga_peeks(state, seat)
    saga_cards: list[str | None] = [None] * len(state.sagas)
    discard: dict[str, list[str]] = {}
    orders: dict[str, list[str]] = {}
    for deck in DECKS:
        free = Counter(content.reserve_ids(deck))
        peeked = peeks.get(deck, {})
        free.subtract(Counter(peeked.values()))
        for slot, card in known_sagas.items():  # only Sagas with a card (saga_peeks)
            if state.sagas[slot].current.deck == deck:
                free[card] -= 1
                saga_cards[slot] = card
        for saga in state.sagas:
            for c in (saga.done if saga is not None else []):
                if c["deck"] == deck:
                    free[c["card"]] -= 1
        entries = seen_discard.get(deck, [])
        for e in entries:
            if "card" in e:
                free[e["card"]] -= 1
        for slot, saga in enumerate(state.sagas):
            cur = saga.current if saga is not None else None
            if cur is not None and cur.deck == deck and slot not in known_sagas:
                saga_cards[slot] = _take(rng, free, _twins(deck, cur.needs, cur.bonus))
        discard[deck] = [e["card"] if "card" in e else _take(rng, free, _twins(deck, e["needs"], e["bonus"]))
                         for e in entries]
        r = state.reserve[deck]
        left = max(0, r["size"] - r["top"] - r["bottom"])
        rest = sorted(Counter({k: v for k, v in free.items() if v > 0}).elements())
        rng.shuffle(rest)
        middle = rest[:left - len(peeked)]
        while len(middle) < left - len(peeked):  # a record that fell short: never a blank card to draw
            middle.append(rng.choice(content.reserve_ids(deck)))
        for i in sorted(peeked):
            middle.insert(i - r["top"], peeked[i])
        orders[f"reserve:{deck}:{r['epoch']}"] = [""] * r["top"] + middle + [""] * r["bottom"]
    return saga_cards, discard, orders


def _year_tiles(state: State, year2: bool) -> list[str]:
    """Building tiles of Year 1 (or 2) that left their pile face up: in the rows, on the
    discard pile, built on a player board (5.5, 7.1)."""
    year1 = content.year1_ids()
    on_table = [t for row in ("bottom", "top") for t in state.rows.get(row, []) if t]
    on_table += list(state.building_discard)
    on_table += [b for p in state.players for b in p.buildings]
    return [t for t in on_table if (t not in year1) == year2]


def piles(state: State, rng: random.Random) -> dict[str, list[str]]:
    """Every face-down pile dealt from the items the seat has not seen, by the label the deck
    domain draws it under (:func:`.decks.dealt`): the Year 1 and Year 2 Building tiles
    (set-up F, 5.5), the Mine tiles (set-up S), the Saga, Invention and Counting House decks
    (set-up N, 7.1) and the Reserve decks (:func:`_reserve`, separately)."""
    c = content.load()
    out: dict[str, list[str]] = {}
    if state.buildings_drawn < len(decks.year1_tiles(state)):
        out["buildings"] = _deal(rng, decks.year1_tiles(state), _year_tiles(state, False), state.buildings_drawn)
    out["buildings:year2"] = _deal(rng, list(content.year2_tiles()), _year_tiles(state, True), state.year2_drawn)
    mine = [t.id for t in c.mine.tiles if t.id != state.mine_first]
    placed = [t["tile"] for t in state.mine_tiles if t["tile"] != state.mine_first]
    placed += [state.drawn["mine_tile"]] if state.drawn.get("mine_tile") else []
    out["mine_tiles"] = _deal(rng, mine, placed, state.mine_drawn)
    sagas = [x.id for x in c.sagas.sagas]
    shown = list(state.sagas_done) + [x.card for x in state.sagas if x is not None]
    order = _deal(rng, sagas, shown, state.sagas_drawn)
    money = next(x.id for x in c.sagas.sagas if x.money)
    if option(state, "money_money_money") and state.sagas_drawn < 4 and money in order:
        # the Money Saga was shuffled into the top four (variants): among those still down
        order.remove(money)
        order.insert(rng.randrange(state.sagas_drawn, 4), money)
    out["sagas"] = order
    seen = state.seen or {}
    inventions = [x.id for x in c.inventions.inventions]
    shown = [x.card for x in state.inventions if x is not None] + [i for p in state.players for i in p.inventions]
    out["inventions"] = _deal(rng, inventions, shown + list(seen.get("inventions", [])), state.inventions_drawn)
    cards = [x.id for x in c.counting_house.cards]
    shown = ([state.counting_house] if state.counting_house else []) + [
        x["card"] for p in state.players for x in p.counting_house]
    out["counting_house"] = _deal(rng, cards, shown + list(seen.get("counting_house", [])), state.ch_drawn)
    return out


def determinise(state: State, seat: int | None, seed: str) -> State:
    """A copy of ``state`` with everything ``seat`` cannot see dealt again, uniformly, from
    what it has not seen (``seed`` fixes the deal; the public part and the seat's own secret
    are kept):

    * each Reserve card lying resource side up on a Saga, and each one Nooka discarded,
      is a card with the same front not seen elsewhere (6.4, 6.1);
    * every face-down pile — Building tiles, Mine tiles, the Saga, Invention, Counting House
      and Reserve decks — holds exactly the items that have not left it, in a uniform order,
      written in ``secret["dealt"]`` so that every later draw of the search reads it
      (:func:`.decks.dealt`); what left a pile face up is known from the table and
      ``State.seen``;
    * the other seats' Friend or Foe cards are dealt from those not shown (variants), the
      seat's own kept;
    * Knut's earlier swaps are forgotten (the dealt order is already uniform), but the
      cards the seat itself saw by Knut (6.1) or the Telescope (appendix) stay where it saw
      them, and it keeps that record.

    ``seat`` None (a spectator) keeps no secret. Reads only the public part of ``state``
    and the seat's own card, so a true state and a state rebuilt from the seat's view give
    the same worlds."""
    rng = random.Random(f"{seed}:determinise")
    out = copy_state(state)
    cards, discard, orders = _reserve(rng, out, seat)
    orders.update(piles(out, rng))
    loyalty = list(state.secret.get("loyalty") or [])
    if loyalty:
        fof = content.load().characters.friend_or_foe
        known = {i: (loyalty[i] if i == seat else out.players[i].shown) for i in range(len(loyalty))}
        pool = ["noggin"] * fof.friends + ["nogbad"] * fof.foes
        for c in known.values():
            if c:
                pool.remove(c)
        rng.shuffle(pool)
        loyalty = [known[i] or pool.pop() for i in range(len(loyalty))]
    out.secret = {"saga_cards": cards, "pool": {d: [c for c in orders[f"reserve:{d}:{out.reserve[d]['epoch']}"] if c]
                                                for d in DECKS},
                  "swaps": {d: [] for d in DECKS}, "discard": discard, "loyalty": loyalty, "dealt": orders}
    for key in ("peeks", "saga_peeks"):
        mine = (state.secret.get(key) or {}).get(str(seat)) if seat is not None else None
        if mine:
            out.secret[key] = {str(seat): mine}
    return out


def _build(cls: type, data: dict[str, Any]) -> Any:
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


def match_record(plain: dict[str, Any] | None) -> MatchRecord | None:
    """The match record (strikes and forfeits, :mod:`services.rules.core.match`) from its plain
    form in a view: ``{"strikes": {seat: count}, "forfeited": [seat]}``, seats as ints or as
    the strings JSON makes of them; ``None`` stays ``None``.

    Raises:
        ValueError: a seat or count that is not a whole number.
    """
    if plain is None:
        return None
    return MatchRecord(strikes={int(k): int(v) for k, v in (plain.get("strikes") or {}).items()},
                       forfeited=[int(s) for s in plain.get("forfeited") or []])


def state_from_view(view: dict[str, Any], seed: str) -> State:
    """Rebuild a :class:`State` from a player view (``rules.view(state, seat)``): the public
    fields as they are, the hidden ones sampled as by :func:`determinise`."""
    data = {k: v for k, v in view.items() if k in {f.name for f in fields(State)}}
    data["players"] = [_build(Player, p) for p in view["players"]]
    data["markers"] = [_build(Marker, m) for m in view["markers"]]
    sagas = []
    for s in view["sagas"]:
        if s is None:
            sagas.append(None)
            continue
        cur = s.get("current")
        sagas.append(Saga(card=s["card"], needed=s["needed"], done=list(s["done"]),
                          current=None if cur is None else _build(ReserveCard, cur)))
    data["sagas"] = sagas
    data["inventions"] = [None if i is None else _build(Invention, i) for i in view["inventions"]]
    data["action"] = None if view.get("action") is None else _build(Action, view["action"])
    data["match"] = match_record(view.get("match"))
    n = len(data["players"])
    data["secret"] = {"saga_cards": [None] * len(sagas), "pool": {}, "swaps": {d: [] for d in DECKS},
                      "discard": {d: [] for d in DECKS},
                      "loyalty": ([""] * n if view.get("my_loyalty") else [])}
    state = State(**data)
    seat = view.get("seat")
    if view.get("my_loyalty") and seat is not None:
        state.secret["loyalty"][seat] = view["my_loyalty"]
    mine: dict[str, dict[str, Any]] = {}
    for peek in view.get("my_peeks") or []:
        r = state.reserve[peek["deck"]]
        known = mine.setdefault(peek["deck"], {"epoch": r["epoch"], "cards": {}})
        known["cards"][str(r["top"] + int(peek["from_top"]))] = peek["card"]
    if mine and seat is not None:
        state.secret["peeks"] = {str(seat): mine}
    if view.get("my_saga_peeks") and seat is not None:
        state.secret["saga_peeks"] = {str(seat): {str(p["saga"]): p["card"] for p in view["my_saga_peeks"]}}
    return determinise(state, seat, seed)
