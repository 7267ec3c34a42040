"""Blueprint ``metrics``: the gateway's Prometheus metrics, ``GET /metrics`` (README, "Metrics").

What the gateway counts (families of :mod:`services.common.metrics`):

* ``longhouse_http_request_duration_seconds``: every request's time until its answer leaves the
  view, by method, Flask route (``request.url_rule``: ``/games/<game_id>/moves``, never the raw
  path, so game ids make no series; ``<unmatched>`` for a path no route takes) and status;
* ``longhouse_moves_total``: the moves it commits (``accepted``, counted by the coordinator's
  :class:`~services.coordinator.table.Table`) and the ones it refuses (``refused``, with the API's
  error code as ``reason``: :func:`count_refusal`);
* ``longhouse_event_streams_open``: event streams open now (:func:`stream_opened`);
* ``longhouse_games_in_play``: games whose status is ``active`` or ``phase``, by game, read from
  the store at each scrape (:class:`GamesInPlay`: the newest :data:`GAMES_SCANNED` games of the
  index, in pipelined chunks).

Under gunicorn the gateway's worker processes count in prometheus-client's multiprocess mode
(``PROMETHEUS_MULTIPROC_DIR``, prepared by :mod:`gateway.gunicorn_conf`), and any worker's
``/metrics`` answers for all of them. The route is never rate-limited and carries no secret (its
labels are game names, routes, status codes); expose it to the scraper, not the public.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any, Iterator

from flask import Blueprint, Flask, Response, g, request
from prometheus_client.core import GaugeMetricFamily

from services.common import metrics
from services.coordinator.redis_store import GAMES_INDEX, key
from services.coordinator.table import MoveIdReused, StaleVersion
from services.rules.core import RulesError

from .clients import get_probe_redis
from .openapi import Media, documented

bp = Blueprint("metrics", __name__)

GAMES_SCANNED = 10_000
"""Most games of the index (newest first) a scrape reads for ``longhouse_games_in_play``."""
CHUNK = 500
"""Games' ``meta`` statuses read per pipelined round trip."""
UNMATCHED = "<unmatched>"
"""The ``route`` label of a request no route matched (a 404 or 405 before any view)."""


class GamesInPlay:
    """A Prometheus collector: ``longhouse_games_in_play{game}``, the games of the newest
    ``limit`` of the index whose ``meta`` status is ``active`` or ``phase``, counted at each
    scrape from the store ``client``. A store that does not answer leaves the family out."""

    def __init__(self, client: Any, limit: int = GAMES_SCANNED):
        self.client = client
        self.limit = limit

    def counts(self) -> Counter[str]:
        """game name -> games in play (see the class docstring). Raises redis errors."""
        found: Counter[str] = Counter()
        for start in range(0, self.limit, CHUNK):
            ids = self.client.zrevrange(GAMES_INDEX, start, min(start + CHUNK, self.limit) - 1)
            if not ids:
                break
            pipe = self.client.pipeline(transaction=False)
            for raw in ids:
                pipe.hmget(key(raw.decode() if isinstance(raw, bytes) else str(raw), "meta"), "game", "status")
            for game, status in pipe.execute():
                if status in (b"active", b"phase", "active", "phase") and game:
                    found[game.decode() if isinstance(game, bytes) else str(game)] += 1
            if len(ids) < CHUNK:
                break
        return found

    def collect(self) -> Iterator[GaugeMetricFamily]:
        """Yield the gauge family, one sample per game with games in play."""
        import redis

        try:
            counts = self.counts()
        except (OSError, redis.RedisError):
            return
        family = GaugeMetricFamily("longhouse_games_in_play", "Games whose status is active or phase, by game "
                                   f"(among the newest {self.limit} of the index)", labels=["game"])
        for game, count in sorted(counts.items()):
            family.add_metric([game], count)
        yield family


def init_metrics(app: Flask) -> None:
    """Time every request of ``app`` into ``longhouse_http_request_duration_seconds`` (see the
    module docstring); make the stream gauge a series at 0 in this process."""
    histogram = metrics.families().http_latency
    metrics.families().streams_open.inc(0)

    @app.before_request
    def _metrics_start() -> None:
        g.metrics_started = time.perf_counter()

    @app.after_request
    def _metrics_done(response: Response) -> Response:
        started = g.get("metrics_started")
        if started is not None:
            rule = request.url_rule.rule if request.url_rule is not None else UNMATCHED
            histogram.labels(method=request.method, route=rule, status=str(response.status_code)).observe(
                time.perf_counter() - started)
        return response


def count_refusal(game: str, exc: Exception) -> None:
    """Count a refused move of a game of ``game`` by the API error code ``exc`` is answered with
    (:mod:`gateway.errors`): a rules error's own code, ``stale_version`` or ``move_id_reused``."""
    if isinstance(exc, RulesError):
        reason = exc.code
    elif isinstance(exc, StaleVersion):
        reason = "stale_version"
    elif isinstance(exc, MoveIdReused):
        reason = "move_id_reused"
    else:
        reason = "other"
    metrics.move_refused(game, reason)


def stream_opened() -> Any:
    """Count an event stream as open until the returned function is called (once)."""
    gauge = metrics.families().streams_open
    gauge.inc()
    closed = []

    def close() -> None:
        if not closed:
            closed.append(True)
            gauge.dec()

    return close


@bp.get("/metrics")
@documented(responses={200: Media("text/plain", {"type": "string"},
                                  "Prometheus text exposition of the gateway's metrics (README, Metrics)")})
def metrics_view():
    """The gateway's metrics in Prometheus's text format (all its worker processes under gunicorn)."""
    # the probes' client: short timeouts, so a store that does not answer costs a scrape 0.5 s, not 40
    body, content_type = metrics.exposition([GamesInPlay(get_probe_redis())])
    return Response(body, status=200, content_type=content_type)
