"""A Server-Sent Events parser (the WHATWG event-stream format) for the game streams.

:func:`parse` reads decoded lines and yields one :class:`RawEvent` per blank-line-terminated
block that has data: ``id:``, ``event:`` and ``data:`` fields (several ``data:`` lines join with
a newline); comments (``: keep-alive``) and ``retry:`` are skipped. Shared by the sync and the
async client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator


@dataclass(frozen=True)
class RawEvent:
    """One event as sent: ``id`` (None if the block named none), ``event`` (``message`` by
    default) and ``data`` (text)."""

    id: str | None
    event: str
    data: str


class Parser:
    """Feed lines one at a time (:meth:`feed`); each completed event is returned."""

    def __init__(self) -> None:
        self._id: str | None = None
        self._event = ""
        self._data: list[str] = []

    def feed(self, line: str) -> RawEvent | None:
        """One line without its line ending; returns the event a blank line completes, else None."""
        if line == "":
            if not self._data:
                self._event = ""
                return None
            done = RawEvent(self._id, self._event or "message", "\n".join(self._data))
            self._event, self._data = "", []
            return done
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value
        return None


def parse(lines: Iterable[str]) -> Iterator[RawEvent]:
    """Every event of ``lines`` (decoded, without line endings), in order."""
    parser = Parser()
    for line in lines:
        event = parser.feed(line.rstrip("\r"))
        if event is not None:
            yield event
