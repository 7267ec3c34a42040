"""Each game's :class:`Spec`: what ``make balance`` watches in it (:mod:`.core` plays and measures).

* Resource Hog (``resource-hog-actions-and-events.txt``; ``resource-hog-components.md``): the
  start position is the seat's starting land; a seat's features are the buildings it built and
  the goods it bought (mercenaries and slaves included); occurrences are every event type, each
  building, purchase and sale, and fights; the probes are single-strategy policies
  (:mod:`services.bench.balance.probes`).
* Noggin (rulebook 5.5, 6.5, 9.0): features are the buildings and transport upgrades a seat
  took; only games where Noggin was crowned count toward the seat-order shares.
* A Game of Gnomes (rulebook C.3, C.4, C.7): features are the equipment cards bought and the
  quests accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from services.bots.arena import Policy


@dataclass
class Spec:
    """How one game is watched.

    Attributes:
        game: the game's name.
        players: seats at the table (3 for the issue's measures).
        start: ``start(state, seat) -> label`` of the seat's start position (read once, after
            set-up), or ``None`` when seats differ only by order.
        features: ``features(event) -> [(seat, key)]``: what a seat took that may add to its
            final score (``"built:mill"``, ``"bought:mercenary"``), from one event.
        occurrences: ``occurrences(event) -> [key]``: what happened (``"action:build"``,
            ``"fight"``), counted per game.
        probes: single-strategy policies by name (:data:`services.bots.arena.Policy`), each
            played against ``players - 1`` experts.
        fair_game: ``fair_game(outcome)`` whether a game counts toward the seat-order shares
            (Noggin: only games where Noggin was crowned); default every game.
        order: ``order(state) -> [seat, ...]``: the seats in turn order after set-up (read once),
            when that is not seat order (Noggin draws it, set-up E); ``None``: seat 0 first.
        ablations: the expert without one choice, by name (``"without:mine"``), each played on
            one seat (rotated) of the experts' games with the same seeds, so that what the
            choice adds is a paired difference.
    """

    game: str
    players: int = 3
    start: Callable[[Any, int], str] | None = None
    features: Callable[[Any], Iterable[tuple[int, str]]] = lambda event: ()
    occurrences: Callable[[Any], Iterable[str]] = lambda event: ()
    probes: dict[str, Policy] = field(default_factory=dict)
    fair_game: Callable[[dict[str, Any]], bool] = lambda outcome: True
    ablations: dict[str, Policy] = field(default_factory=dict)
    order: Callable[[Any], list[int]] | None = None


def _types(event: Any) -> list[str]:
    return [f"event:{event.type}"]


# -- Resource Hog -----------------------------------------------------------------------------

def _hog_start(state: Any, seat: int) -> str:
    from services.rules.resource_hog.content import content

    return content().map.starting_lands[str(len(state.players))][seat]


def _hog_features(event: Any) -> Iterable[tuple[int, str]]:
    d = event.data
    if event.type == "Built":
        return [(d["seat"], f"built:{d['building']}")]
    if event.type == "GoodsBought":
        return [(d["seat"], f"bought:{d['good']}")]
    return []


def _hog_occurrences(event: Any) -> Iterable[str]:
    d = event.data
    out = _types(event)
    if event.type == "Built":
        out.append(f"built:{d['building']}")
    elif event.type == "GoodsBought":
        out.append(f"bought:{d['good']}")
    elif event.type == "GoodsSold":
        out.append(f"sold:{d['good']}")
    elif event.type == "BattleFought":
        out.append("fight")
    elif event.type == "ActionDone":
        out.append(f"action:{d['action']}")
    return out


# -- Noggin -------------------------------------------------------------------------------------

def _nog_features(event: Any) -> Iterable[tuple[int, str]]:
    d = event.data
    if event.type == "BuildingBuilt":
        return [(d["seat"], f"built:{d['building']}")]
    if event.type == "TransportUpgraded":
        return [(d["seat"], f"upgraded:{d['transport']}")]
    return []


def _nog_order(state: Any) -> list[int]:
    """The seats in Noggin's turn order: the large Nogs are drawn at random (set-up E), dummy
    players' colours among them, so seat 0 is not always first."""
    return [m.seat for m in state.markers if m.seat is not None]


def _nog_occurrences(event: Any) -> Iterable[str]:
    out = _types(event)
    if event.type == "BuildingBuilt":
        out.append(f"built:{event.data['building']}")
    return out


# -- A Game of Gnomes -----------------------------------------------------------------------------

def _gnome_start(state: Any, seat: int) -> str:
    """The seat's gnome house: its colour, drawn at set-up (house rule ``gnomes:B/gnomes-drawn``)."""
    return f"{state.players[seat].colour} house"


def _gnome_features(event: Any) -> Iterable[tuple[int, str]]:
    d = event.data
    if event.type == "CardBought":
        return [(d["seat"], f"bought:{d['card']}")]
    if event.type == "QuestAccepted":
        return [(d["seat"], f"quest:{d['quest']}")]
    return []


def _gnome_occurrences(event: Any) -> Iterable[str]:
    out = _types(event)
    if event.type == "CardBought":
        out.append(f"bought:{event.data['card']}")
    return out


def spec(game: str) -> Spec:
    """The :class:`Spec` of ``game``, its probes included.

    Raises:
        ValueError: ``game`` is not one of the three.
    """
    from .probes import ablations, probes

    if game == "resource_hog":
        return Spec(game, 3, _hog_start, _hog_features, _hog_occurrences, probes(game), ablations=ablations(game))
    if game == "noggin":
        return Spec(game, 3, None, _nog_features, _nog_occurrences, probes(game),
                    fair_game=lambda outcome: outcome.get("crown") == "noggin", order=_nog_order)
    if game == "gnomes":
        return Spec(game, 3, _gnome_start, _gnome_features, _gnome_occurrences, probes(game))
    raise ValueError(f"no balance report for {game!r}; games: noggin, gnomes, resource_hog")
