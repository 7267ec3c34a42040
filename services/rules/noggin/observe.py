"""Search over what a seat knows: determinising the hidden parts of a Noggin state, and
rebuilding a state from a player view (for bots that see only what a client sees).

What a seat does not know (``State.secret``): which card of its twins lies on each Saga
(the back: Nogbad's portrait or Nooka's knife, 6.4), the other seats' Friend or Foe
cards (variants), Knut's order when another seat chose it (6.1). A determinisation keeps
what the seat knows and samples the rest; the order of undrawn piles is never in a state,
so a search that draws with its own chance never sees it either.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from . import content
from .state import DECKS, Action, Invention, Marker, Player, ReserveCard, Saga, State, copy_state


def _twins(deck: str, needs: list[str], bonus: bool) -> list[str]:
    return [c.id for c in content.load().reserve.decks[deck] if c.needs == needs and c.bonus == bonus]


def determinise(state: State, seat: int | None, seed: str) -> State:
    """A copy with the Saga cards' identities, the other seats' Friend or Foe cards and Knut's
    unseen swaps replaced by a sample consistent with the public facts (``seed`` fixes it)."""
    rng = random.Random(f"{seed}:determinise")
    out = copy_state(state)
    cards: list[str | None] = []
    for saga in out.sagas:
        if saga is None or saga.current is None:
            cards.append(None)
            continue
        cards.append(rng.choice(_twins(saga.current.deck, saga.current.needs, saga.current.bonus)))
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
    out.secret = {"saga_cards": cards, "pool": dict(state.secret.get("pool", {})),
                  "swaps": {d: [] for d in DECKS}, "discard": dict(state.secret.get("discard", {d: [] for d in DECKS})),
                  "loyalty": loyalty}
    return out


def _build(cls: type, data: dict[str, Any]) -> Any:
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


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
    n = len(data["players"])
    data["secret"] = {"saga_cards": [None] * len(sagas), "pool": {}, "swaps": {d: [] for d in DECKS},
                      "discard": {d: [] for d in DECKS},
                      "loyalty": ([""] * n if view.get("my_loyalty") else [])}
    state = State(**data)
    seat = view.get("seat")
    if view.get("my_loyalty") and seat is not None:
        state.secret["loyalty"][seat] = view["my_loyalty"]
    return determinise(state, seat, seed)
