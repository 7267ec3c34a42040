"""Blueprint ``stream``: a game's event log as Server-Sent Events.

``GET /games/<id>/stream`` sends one message per log entry, in order::

    id: <game_id>:<version>-0
    event: commit
    data: {"version": v, "kind": "move", "seat": 0, "events": [...]}

``events`` holds only what this client may see (its seat's private events and the
public ones; a spectator, without a token, sees public events only). A message's id names
the game and the entry (:func:`gateway.feeds.event_id`). The stream resumes after
``Last-Event-ID`` (header, or ``?last_event_id=``) and otherwise starts at the first entry; an
id that is not ``<game_id>:<version>-0``, or is ahead of the game's log, is a 400
``bad_last_event_id``, and one of another game a 400 ``wrong_game_last_event_id``. New entries
come from the game's shared feed (:mod:`gateway.feeds`: one ``XREAD BLOCK`` per watched game
and process, not one per stream); while nothing
happens a ``: keep-alive`` comment goes out every ``SSE_KEEPALIVE_SECONDS`` (15).
``?max_events=N`` ends the stream after N messages and ``?idle_timeout=S`` after S
seconds without one, so tools and tests can bound every stream.
"""

from __future__ import annotations

import time
from typing import Iterator

import redis
from flask import Blueprint, Response, current_app, request

from services.coordinator.redis_store import entry_from_fields, entry_id, key

from .clients import get_feeds, get_redis, get_table
from .errors import ApiError
from .feeds import EVENT_ID_PATTERN, FeedHub, event_id, parse_event_id, sse_message, version_of
from .lookup import caller_seat, require_game
from .metrics import stream_opened
from .responses import StreamMessage
from .openapi import Media, Param, documented

bp = Blueprint("stream", __name__)

SSE_HEADERS = {
    "Cache-Control": "no-cache",
    "X-Accel-Buffering": "no",
}


def resume_version(game_id: str) -> int:
    """The version after which the current request's stream of ``game_id`` resumes: that of its
    ``Last-Event-ID`` header (or ``?last_event_id=``), 0 without one.

    Raises:
        ApiError 400 ``bad_last_event_id``: not an id this API sends (``<game_id>:<version>-0``).
        ApiError 400 ``wrong_game_last_event_id``: the id of another game's entry (resuming by its
            version alone would skip or repeat entries of this one).
    """
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    if not raw:
        return 0
    parsed = parse_event_id(raw)
    if parsed is None:
        raise ApiError(400, "bad_last_event_id",
                       'Last-Event-ID must be an id this stream sent: "<game_id>:<version>-0"')
    of_game, version = parsed
    if of_game != game_id:
        raise ApiError(400, "wrong_game_last_event_id",
                       f"Last-Event-ID {raw.strip()} is an entry of game {of_game}, not of this game {game_id}; "
                       f"resume from an id this game's stream sent, or without one to start over")
    return version


def _positive(name: str, integer: bool) -> float | None:
    raw = request.args.get(name)
    if raw is None:
        return None
    try:
        value = int(raw) if integer else float(raw)
    except ValueError:
        raise ApiError(400, "bad_request", f"{name} must be a positive number") from None
    if not value > 0 or value == float("inf"):
        raise ApiError(400, "bad_request", f"{name} must be a positive number")
    return value


def format_entry(game_id: str, fields: dict, seat: int | None) -> str:
    """One SSE message for a log entry's raw fields of ``game_id``, with only the events ``seat``
    may see."""
    return sse_message(game_id, entry_from_fields(fields), seat).decode("utf-8")


def sse_messages(client: redis.Redis, game_id: str, seat: int | None, after: int,
                 max_events: int | None, idle_timeout: float | None,
                 keepalive: float, feeds: FeedHub) -> Iterator[bytes]:
    """The SSE bytes of a stream: entries after version ``after``, then new ones as they come.

    The stream subscribes to the game's shared feed (:mod:`gateway.feeds`: one Redis reader
    per game and process, not one per stream), then reads what it missed from the log itself
    without blocking; it goes back to the log whenever a batch from the feed does not follow
    the last version it sent. Ends after ``max_events`` messages, or after ``idle_timeout``
    seconds without an entry; otherwise runs until the client goes away (noticed at the next
    write, a keep-alive at the latest). From its first byte to its end it counts in
    ``longhouse_event_streams_open`` (:func:`gateway.metrics.stream_opened`).
    """
    log_key = key(game_id, "log")
    last = after
    sent = 0
    closed = stream_opened()  # longhouse_event_streams_open, until the stream ends below
    try:
        yield b"retry: 2000\n\n"
        subscription = feeds.subscribe(game_id)
    except BaseException:  # closed at once, or Redis failed: no longer open
        closed()
        raise
    try:
        idle_deadline = time.monotonic() + idle_timeout if idle_timeout else None
        caught_up = False
        while True:
            if not caught_up:
                rows = client.xread({log_key: entry_id(last)}, count=100)  # no BLOCK: what is there
                if not rows:
                    caught_up = True
                    continue
                messages = [(version_of(stream_id), sse_message(game_id, entry_from_fields(fields), seat))
                            for stream_id, fields in rows[0][1]]
            else:
                block = keepalive
                if idle_deadline is not None:
                    block = min(block, idle_deadline - time.monotonic())
                    if block <= 0:
                        return
                batch = subscription.get(timeout=block)
                if batch is None:
                    if idle_deadline is not None and time.monotonic() >= idle_deadline:
                        return
                    yield b": keep-alive\n\n"
                    continue
                messages = [(v, m) for v, m in batch.messages(seat) if v > last]
                if messages and messages[0][0] != last + 1:
                    caught_up = False  # the feed is ahead of this stream: read the log
                    continue
            for version, message in messages:
                yield message
                last = version
                sent += 1
                if max_events is not None and sent >= max_events:
                    return
            if messages and idle_deadline is not None:
                idle_deadline = time.monotonic() + idle_timeout
    finally:
        subscription.close()
        closed()


@bp.get("/games/<game_id>/stream")
@documented(
    responses={200: Media("text/event-stream", None, "Server-Sent Events: one 'commit' message per log entry "
                          "(the schema is one message's), ': keep-alive' comments between", StreamMessage)},
    auth="stream", errors={400: "bad_last_event_id, wrong_game_last_event_id, bad_request",
                           401: "unknown_token, bad_authorization", 403: "wrong_game", 404: "game_not_found"},
    params=(Param("Last-Event-ID", "header", {"type": "string", "pattern": EVENT_ID_PATTERN},
                  "resume after this entry ('<game_id>:<version>-0', an id this game's stream sent; "
                  "not ahead of the log)"),
            Param("last_event_id", "query", {"type": "string", "pattern": EVENT_ID_PATTERN},
                  "the same as the Last-Event-ID header, for clients that cannot set it"),
            Param("max_events", "query", {"type": "integer", "minimum": 1},
                  "end the stream after this many messages"),
            Param("idle_timeout", "query", {"type": "number", "exclusiveMinimum": 0},
                  "end the stream after this many seconds without a message")))
def stream(game_id: str):
    """The SSE stream of a game (see the module docstring). 404 unknown game; 401/403 token."""
    require_game(game_id)
    seat = caller_seat(game_id, required=False, allow_query_token=True)
    after = resume_version(game_id)
    version = get_table().store.version(game_id)
    if after > version:
        # an id this log has not reached (made up) would skip the versions in between
        # without a word: refuse it
        raise ApiError(400, "bad_last_event_id",
                       f"Last-Event-ID {event_id(game_id, after)} is ahead of this game's log, which is at "
                       f"version {version}; "
                       f"resume from an id this game's stream sent, or without one to start over")
    max_events = _positive("max_events", integer=True)
    idle_timeout = _positive("idle_timeout", integer=False)
    messages = sse_messages(get_redis(), game_id, seat, after,
                            int(max_events) if max_events else None, idle_timeout,
                            float(current_app.config["SSE_KEEPALIVE_SECONDS"]), get_feeds())
    return Response(messages, status=200, mimetype="text/event-stream", headers=SSE_HEADERS,
                    direct_passthrough=True)
