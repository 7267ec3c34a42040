"""Cancelling a bot's decision from outside it: a search at a large budget takes seconds to
minutes, and a process that is asked to stop (a mover at a deploy) should not wait for it.

The caller names an event (:func:`cancelled_by`); the searches look at it once an iteration
(:func:`checkpoint`) and give up with :class:`DecisionCancelled` once it is set. A decision that
is not cancelled is the same as without it: the look changes nothing the search draws or
returns, so seeded decisions stay reproducible.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

_EVENT: ContextVar[threading.Event | None] = ContextVar("longhouse_bot_cancel", default=None)


class DecisionCancelled(Exception):
    """A bot's decision was given up because its caller's cancel event was set
    (:func:`cancelled_by`); no move was made."""


@contextmanager
def cancelled_by(event: threading.Event) -> Iterator[None]:
    """Within the block, a search in this thread (or context) gives up once ``event`` is set.

    Raises (from the searches inside the block):
        DecisionCancelled: ``event`` was set before the decision ended.
    """
    token = _EVENT.set(event)
    try:
        yield
    finally:
        _EVENT.reset(token)


def checkpoint() -> None:
    """Called by a search once an iteration (a playout or a sampled world).

    Raises:
        DecisionCancelled: the event of the enclosing :func:`cancelled_by` is set.
    """
    event = _EVENT.get()
    if event is not None and event.is_set():
        raise DecisionCancelled("the decision was cancelled: its caller is stopping")
