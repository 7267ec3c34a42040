"""A Redis connection that loses one reply: the fault of a connection broken after Redis ran a
command and before its reply arrived (docs/reliability.md, faults 9-12).

:class:`ReplyLoss` makes the connection class: once :meth:`ReplyLoss.arm` is called, the next
command (or pipeline) sent whose packed bytes ``match`` is run by Redis, its reply read and thrown
away, and the connection closed with :class:`redis.ConnectionError`, as a broken one would be.
The reply is read first, so Redis has surely run the command.
"""

from __future__ import annotations

from typing import Callable

import redis
from redis.connection import Connection


class ReplyLoss:
    """One armed loss at a time; :attr:`lost` counts the replies lost so far."""

    def __init__(self) -> None:
        self.lost = 0
        self._match: Callable[[bytes], bool] | None = None
        self._pending = False
        loss = self

        class LosesOneReply(Connection):
            """Loses the reply of the command its :class:`ReplyLoss` is armed for."""

            def send_packed_command(self, command, *args, **kwargs):
                packed = command if isinstance(command, bytes) else b"".join(command)
                hit = loss._match is not None and loss._match(packed)
                super().send_packed_command(command, *args, **kwargs)  # connecting first if need be
                if hit:
                    loss._match, loss._pending = None, True

            def read_response(self, *args, **kwargs):
                if loss._pending:
                    loss._pending = False
                    super().read_response(*args, **kwargs)  # Redis ran it
                    loss.lost += 1
                    self.disconnect()
                    raise redis.ConnectionError("the reply was lost (test)")
                return super().read_response(*args, **kwargs)

        self.connection_class = LosesOneReply
        """The :class:`~redis.connection.Connection` subclass to give a connection pool."""

    def arm(self, match: Callable[[bytes], bool] = lambda packed: True) -> None:
        """Lose the reply of the next command sent whose packed bytes ``match`` (any, by default)."""
        self._match = match

    @property
    def armed(self) -> bool:
        """True until the armed command has been sent."""
        return self._match is not None
