"""Paying costs: which cubes a seat may hand over for a cost, and the distinct choices.

Implements rulebook 5.1 ("when you must spend resources, Gold can be used instead") and
6.6 (coins "can replace any resource in any situation"; they exist only once the Money
Saga is completed). A cost is a list of *slots*; each slot asks for one cube:

* a basic resource (``"stone"``, ``"wood"``, ``"fish"``, ``"harvest"``),
* ``"food"``: a Fish or a Harvest cube (6.1, 6.4),
* ``"any"``: any basic resource (Olaf's swap, 6.1).

Gold and coins fill any slot. A payment is a list of cubes (``["wood", "wood", "gold"]``);
the player chooses it and the legal moves list each distinct choice once (house rule:
a cost paid without naming the cubes takes the named resources first, then Gold, then
coins). Everything paid goes back to the Nog Market (3.7).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Callable

from services.rules.core import IllegalMove

from .content import BASIC
from .state import SUBSTITUTES, Player

FOOD = ("fish", "harvest")
"""Food is a Fish or a Harvest cube (3.7)."""


def accepts(slot: str) -> tuple[str, ...]:
    """The basic cubes that fill ``slot`` (Gold and coins fill every slot as well)."""
    if slot == "food":
        return FOOD
    if slot == "any":
        return BASIC
    return (slot,)


def _fits(slots: list[str], cubes: list[str]) -> bool:
    """True if ``cubes`` fill ``slots`` one to one: basic cubes go to the narrowest slot
    that takes them (one resource, then Food, then any), Gold and coins to what is left."""
    open_ = list(slots)
    subs = 0
    for cube in sorted(cubes, key=lambda c: c in SUBSTITUTES):
        if cube in SUBSTITUTES:
            subs += 1
            continue
        for want in (cube, "food", "any"):
            if want in open_ and cube in accepts(want):
                open_.remove(want)
                break
        else:
            return False
    return subs == len(open_)


def check_payment(p: Player, slots: list[str], cubes: list[str], what: str) -> None:
    """Raise :class:`IllegalMove` unless ``cubes`` pay for ``slots`` and the seat holds them.

    ``what`` names the cost in the message, e.g. ``"a building (2 Wood and 1 Stone)"``.
    """
    if len(cubes) != len(slots):
        raise IllegalMove(f"{what} takes {len(slots)} cube(s); you offered {len(cubes)}")
    for cube in set(cubes):
        if cube not in p.stock:
            raise IllegalMove(f"{cube!r} is not a resource")
        if p.stock[cube] < cubes.count(cube):
            raise IllegalMove(f"you do not have {cubes.count(cube)} {cube} to pay {what}")
    if not _fits(slots, cubes):
        raise IllegalMove(f"those cubes do not pay {what}; Gold or coins may replace any resource "
                          f"(rulebook 5.1, 6.6)")


def default_payment(p: Player, slots: list[str]) -> list[str] | None:
    """The payment taken when a move names none: the named resources first, then Gold, then
    coins (house rule); ``None`` if the seat cannot pay."""
    stock = dict(p.stock)
    out: list[str] = []
    for slot in sorted(slots, key=lambda s: len(accepts(s))):
        for cube in (*accepts(slot), *SUBSTITUTES):
            if stock.get(cube, 0) > 0:
                stock[cube] -= 1
                out.append(cube)
                break
        else:
            return None
    return sorted(out)


def pay_for(p: Player, slots: list[str], pay: list[str] | None, what: str) -> list[str]:
    """The cubes a move pays for ``slots``: ``pay`` when it names them (checked), else the
    :func:`default_payment`. ``what`` names the cost in the error.

    Raises:
        IllegalMove: the seat cannot pay, or ``pay`` does not fit the cost.
    """
    if pay is None:
        cubes = default_payment(p, slots)
        if cubes is None:
            raise IllegalMove(f"you cannot pay {what} (Gold or coins may replace any resource, rulebook 5.1, 6.6)")
        return cubes
    check_payment(p, slots, sorted(pay), what)
    return sorted(pay)


def payment_options(p: Player, slots: list[str]) -> list[list[str]]:
    """Every distinct payment of ``slots`` the seat can make, each a sorted list of cubes (a new
    list each call; the choices depend on the seat's stock alone, so they are worked out once
    for each stock and cost)."""
    return [list(pay) for pay in _payment_options(tuple(sorted(p.stock.items())), tuple(slots))]


def payment_choices(p: Player) -> Callable[[tuple[str, ...]], list[list[str]]]:
    """``choices(slots)``: :func:`payment_options` of the seat's stock as it is now for the cost
    ``slots`` (a tuple; ``()`` gives ``[[]]``, the one way to pay nothing), each cost's list
    made once and then shared by every call of this ``choices`` (read only)."""
    stock = tuple(p.stock.items())  # in the stock's own order: the options do not depend on it
    known: dict[tuple[str, ...], list[list[str]]] = {(): [[]]}

    def choices(slots: tuple[str, ...]) -> list[list[str]]:
        got = known.get(slots)
        if got is None:
            got = known[slots] = [list(pay) for pay in _payment_options(stock, slots)]
        return got

    return choices


@lru_cache(maxsize=4096)
def _payment_options(stock: tuple[tuple[str, int], ...], slots: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    have = dict(stock)
    choices = [[c for c in (*accepts(s), *SUBSTITUTES) if have.get(c, 0) > 0] for s in slots]
    seen: set[tuple[str, ...]] = set()
    out = []
    for combo in product(*choices):
        key = tuple(sorted(combo))
        if key in seen:
            continue
        seen.add(key)
        if all(have[c] >= key.count(c) for c in set(key)):
            out.append(key)
    return tuple(sorted(out))


def can_pay(p: Player, slots: list[str]) -> bool:
    """True if the seat can pay ``slots`` in some way."""
    return default_payment(p, slots) is not None
