"""What every game's state records about a match beyond its rules: strikes and forfeits.

A seat held by an external agent answers under a time control. A late, crashed, malformed or
illegal answer is a **strike**: the event ``StrikeRecorded`` goes into the game's log, followed
by the default move played for the seat; the strike that reaches the match's limit is
followed instead by ``SeatForfeited``, which ends the game (house rule "Forfeit" in
docs/house-rules.md: the forfeiting seat loses, every other seat shares the win, and the
scores are those of the forfeit, 0 for everyone, since no game's rules score an unfinished
game). Both events are public.

The record lives on each game's state as ``state.match`` (``None`` until the first strike, so
a game without strikes has exactly the state and hash it had before). Each game's rules call
:func:`evolve` for :data:`EVENTS`, :func:`over` in ``to_move`` and :func:`outcome` first in
``outcome``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .events import Event

STRIKE = "StrikeRecorded"
"""``{"seat", "reason", "strikes"}``: a seat's answer did not count (reason ``timeout``,
``crash``, ``malformed``, ``illegal``); ``strikes`` is the seat's count including this one."""
FORFEIT = "SeatForfeited"
"""``{"seat", "reason", "strikes"}``: the seat forfeits the match, which ends here."""
EVENTS = frozenset({STRIKE, FORFEIT})
"""The event types :func:`evolve` applies (every game accepts them)."""
REASONS = ("timeout", "crash", "malformed", "illegal")
"""Why an answer did not count."""


@dataclass(slots=True)
class MatchRecord:
    """Strikes per seat and the seats that forfeited.

    Attributes:
        strikes: ``{seat: count}`` of strikes so far.
        forfeited: seats that forfeited, in order (at most one: the first ends the game).
    """

    strikes: dict[int, int] = field(default_factory=dict)
    forfeited: list[int] = field(default_factory=list)

    def copy(self) -> "MatchRecord":
        """An independent copy."""
        return MatchRecord(dict(self.strikes), list(self.forfeited))


def evolve(record: MatchRecord | None, event: Event) -> MatchRecord:
    """Apply a :data:`STRIKE` or :data:`FORFEIT` event; returns the (new) record.

    Raises:
        ValueError: another event type.
    """
    record = MatchRecord() if record is None else record
    seat = int(event.data["seat"])
    if event.type == STRIKE:
        record.strikes[seat] = int(event.data["strikes"])
    elif event.type == FORFEIT:
        if seat not in record.forfeited:
            record.forfeited.append(seat)
    else:
        raise ValueError(f"{event.type!r} is not a match event")
    return record


def over(state: Any) -> bool:
    """True once a seat of ``state`` (any game's state with a ``match`` attribute) has forfeited."""
    record = getattr(state, "match", None)
    return bool(record is not None and record.forfeited)


def strikes(state: Any, seat: int) -> int:
    """Strikes of ``seat`` so far (0 when none)."""
    record = getattr(state, "match", None)
    return 0 if record is None else record.strikes.get(seat, 0)


def outcome(state: Any, players: int) -> dict[str, Any] | None:
    """The outcome of a forfeited match, or ``None`` if nobody forfeited: ``{"reason":
    "forfeit", "forfeited": [seat], "winners": [every other seat], "scores": [0, ...]}``."""
    if not over(state):
        return None
    lost = list(state.match.forfeited)
    return {"reason": "forfeit", "forfeited": lost, "winners": [s for s in range(players) if s not in lost],
            "scores": [0] * players}


def strike_events(state: Any, seat: int, reason: str, max_strikes: int) -> list[Event]:
    """The events of one strike against ``seat``: ``[StrikeRecorded]``, plus ``SeatForfeited``
    when the strike reaches ``max_strikes`` (>= 1).

    Raises:
        ValueError: unknown ``reason`` or ``max_strikes`` < 1.
    """
    if reason not in REASONS:
        raise ValueError(f"a strike's reason is one of {', '.join(REASONS)}, not {reason!r}")
    if max_strikes < 1:
        raise ValueError(f"max_strikes is at least 1, not {max_strikes}")
    count = strikes(state, seat) + 1
    events = [Event(STRIKE, {"seat": seat, "reason": reason, "strikes": count})]
    if count >= max_strikes:
        events.append(Event(FORFEIT, {"seat": seat, "reason": "strikes", "strikes": count}))
    return events
