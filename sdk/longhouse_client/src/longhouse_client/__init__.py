"""longhouse_client: a typed client of the Longhouse game engine's HTTP API.

:class:`Client` (sync, every route) and :class:`AsyncClient` (asyncio, the player's calls) return
the pydantic models of :mod:`longhouse_client.models` and raise the errors of
:mod:`longhouse_client.errors`. :func:`play_seat` plays one seat of a game with a plain function,
driven by the game's event stream.
"""

from .aio import AsyncClient
from .client import ROUTES, Client, RetryPolicy, operator_key_from_env, read_operator_key
from .errors import (BadRequest, Conflict, Forbidden, IllegalMove, LonghouseError, MalformedMove, NotFound,
                     RateLimited, Unauthorized, Unavailable, Unprocessable)
from .models import event_id
from .play import play_seat

__all__ = ["AsyncClient", "BadRequest", "Client", "Conflict", "Forbidden", "IllegalMove", "LonghouseError",
           "MalformedMove", "NotFound", "ROUTES", "RateLimited", "RetryPolicy", "Unauthorized", "Unavailable",
           "Unprocessable", "event_id", "operator_key_from_env", "play_seat", "read_operator_key"]
__version__ = "0.1.0"
