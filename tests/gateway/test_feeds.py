"""The shared tails of game logs (gateway/feeds.py; issue: reliability, fault 1 and acceptance 1).

Every SSE stream held its own Redis connection in its own ``XREAD BLOCK``: 1,000 streams were
1,000 Redis connections, and a move was read and decoded once per stream. Streams of one game
now share one feed per process; these tests check the sharing and that a stream which joins
a feed already ahead of its resume point loses nothing.
"""

from __future__ import annotations

import time

from gateway.feeds import FeedHub, event_id, parse_event_id, version_of
from gateway.stream import sse_messages
from services.coordinator.redis_store import key


def _add(redis_client, game_id: str, version: int) -> None:
    redis_client.xadd(key(game_id, "log"), {"v": version, "kind": "move", "seat": 0, "events": "[]"},
                      id=f"{version}-0")


def test_streams_of_one_game_share_one_feed_and_one_batch(redis_client):
    hub = FeedHub(redis_client, block_seconds=0.2)
    _add(redis_client, "g1", 1)
    subs = [hub.subscribe("g1") for _ in range(5)]
    assert list(hub.feeds) == ["g1"]  # one reader for five streams
    _add(redis_client, "g1", 2)
    batches = [sub.get(timeout=5) for sub in subs]
    assert all(b is batches[0] for b in batches)  # read once, handed to every stream
    assert [v for v, _ in batches[0].rows] == [2]
    for sub in subs:
        sub.close()
    deadline = time.monotonic() + 5
    while hub.feeds and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hub.feeds == {}  # the reader stops once no stream is left


def test_a_stream_resuming_behind_a_running_feed_reads_what_it_missed_then_the_feed(redis_client):
    hub = FeedHub(redis_client, block_seconds=0.2)
    for v in (1, 2, 3):
        _add(redis_client, "g2", v)
    ahead = hub.subscribe("g2")  # a feed that starts after version 3
    stream = sse_messages(redis_client, "g2", None, 1, max_events=4, idle_timeout=5, keepalive=0.2, feeds=hub)
    assert next(stream) == b"retry: 2000\n\n"
    _add(redis_client, "g2", 4)
    _add(redis_client, "g2", 5)
    ids = [m.split(b"\n", 1)[0] for m in stream if m.startswith(b"id: ")]
    assert ids == [b"id: g2:2-0", b"id: g2:3-0", b"id: g2:4-0", b"id: g2:5-0"]
    assert ahead.get(timeout=5) is not None
    ahead.close()


def test_version_of_a_stream_id():
    assert version_of(b"17-0") == 17 and version_of("3-0") == 3


def test_an_event_id_names_the_game_and_the_entry():
    assert event_id("0123abcd", 17) == "0123abcd:17-0"
    assert parse_event_id(" 0123abcd:17-0 ") == ("0123abcd", 17)
    assert parse_event_id("g_1-x:0-0") == ("g_1-x", 0)
    for bad in ("17-0", "0123abcd:17", "0123abcd:17-1", "a:b:1-0", "0123abcd:017-0", "0123abcd:1-0\n1"):
        assert parse_event_id(bad) is None, bad
