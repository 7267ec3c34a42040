"""Cancelling a bot's decision from outside it: a search at a large budget takes seconds to
minutes, and a process that is asked to stop (a mover at a deploy) should not wait for it.

The caller names an event (:func:`cancelled_by`); the searches look at it once an iteration
(:func:`checkpoint`) and give up with :class:`DecisionCancelled` once it is set; each look also
tells the caller the search is alive. A decision that is not cancelled is the same as without
it: the look changes nothing the search draws or returns, so seeded decisions stay reproducible.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator

_EVENT: ContextVar[tuple[threading.Event, Callable[[], None] | None] | None] = ContextVar(
    "longhouse_bot_cancel", default=None)


class DecisionCancelled(Exception):
    """A bot's decision was given up because its caller's cancel event was set
    (:func:`cancelled_by`); no move was made."""


@contextmanager
def cancelled_by(event: threading.Event, progress: Callable[[], None] | None = None) -> Iterator[None]:
    """Within the block, a search in this thread (or context) gives up once ``event`` is set.

    Args:
        event: the caller's stop.
        progress: called at each look (once an iteration): the search is alive. A mover notes
            it, so that a decision of many minutes (an allowed budget) is not taken for a stuck
            loop (``STALL_S``; a trial: Resource Hog's expert at 100,000 iterations, about 20
            minutes, lost its mover's heartbeat after 5 and its game was played twice).

    Raises (from the searches inside the block):
        DecisionCancelled: ``event`` was set before the decision ended.
    """
    token = _EVENT.set((event, progress))
    try:
        yield
    finally:
        _EVENT.reset(token)


def checkpoint() -> None:
    """Called by a search once an iteration (a playout or a sampled world).

    Raises:
        DecisionCancelled: the event of the enclosing :func:`cancelled_by` is set.
    """
    caller = _EVENT.get()
    if caller is None:
        return
    event, progress = caller
    if event.is_set():
        raise DecisionCancelled("the decision was cancelled: its caller is stopping")
    if progress is not None:
        progress()
