"""Rate limits and the games-in-play quota of the gateway (issue 13, "Access control").

**Rate limits** (fixed windows of the ``limits`` library over the gateway's Redis, so every
gunicorn worker and every gateway process of a stack counts in the same place). Each request
falls in one category (:func:`category`):

=========  =====================================================================================
``moves``   ``POST /games/<id>/moves``
``reads``   every other ``GET`` (views, legal moves, summaries, ``/wait``, agents, tournaments)
``streams`` opening ``GET /games/<id>/stream`` (an open stream costs nothing more)
``create``  every other ``POST``: games, tournaments, seat claims, agents
=========  =====================================================================================

The probes (``GET /healthz``, ``/livez``, ``/readyz``), ``GET /openapi.json`` and ``GET /metrics``
are never limited.
Each category has a limit per seat token (the ``Authorization: Bearer`` token, or the stream's ``?token=``; counted under
a digest of it, never the token itself) and one per client address (:func:`client_address`),
both configuration (``RATE_LIMIT_<CATEGORY>_TOKEN`` / ``_ADDRESS``, from the
``LONGHOUSE_RATE_LIMIT_*`` settings): ``"<n>/<unit>"`` items separated by ``;``
(``"1200/minute"``, ``"20/second;600/minute"``), empty for none. Windows are fixed windows
that start with a key's first request. Over a limit the answer is ``429 rate_limited`` with a
``Retry-After`` header (whole seconds until the window ends) and the same figure in the
reason and in ``"retry_after"``.

The check (:class:`RateLimits`, one ``before_request`` hook) looks only at the limits of the
request's own category, in the order Flask-Limiter used (shortest window first, the token's before
the address's), and counts each in one Lua call (``limits``' ``FixedWindowRateLimiter.hit``) under
the keys Flask-Limiter used (``LIMITS:LIMITER/longhouse/<who>/<category>:<token|address>/<n>/<m>/<unit>``),
stopping at the first breach. The gateway carried Flask-Limiter before, whose per-request work
over all seven limits was about a third of a move's gateway CPU (docs/benchmarks.md, "Gateway CPU
a move").

**A move's counters are counted by its commit.** For ``POST /games/<id>/moves`` the hook only
works out the counters (the same keys, amounts, windows and order) and leaves them to the move's
commit script (:class:`~services.coordinator.store.Counters`), which counts them first, the way
``limits`` does, and commits nothing if one is over: a move is one Redis round trip, its commit.
The answers are those of counting first (:func:`counted_at_commit`): over a limit, 429 with the
same ``Retry-After`` and reason, nothing of the game changed; a request that ends without reaching
a commit (a bad token or body, an unknown game, a stale version, an illegal or malformed move, a
repeated move id answered with its first result) counts them as it ends, and is answered 429
instead if one is over. So every request to the route counts, refused or not, as before: an
illegal move counts toward the limit as much as a good one (a request the store itself failed,
a 503, excepted: :func:`counted_at_commit`). Counting first stays for a token or
address this process has seen over its limit in the window (a client over its limit costs one
counter call and no move's work), with ``RATE_LIMITS_IN_COMMIT`` false (app config), and on a
Redis Cluster (the counters are not in the game's hash slot). Auth is no round trip either once a
process knows the token (:func:`gateway.lookup.caller_seat`).

Addresses in ``RATE_LIMIT_EXEMPT`` (networks; loopback by default) skip the per-address limits
and the quota, but not the per-token limits: loopback is the machine itself (the launcher's
tournament, the load and crash tools, the benchmarks, the tests), and the stack binds to
loopback unless told otherwise. Behind a reverse proxy on the same machine every client
would look like loopback: set ``TRUSTED_PROXIES`` to the proxy hops in front of the gateway
(1 for one proxy) so the client's address is read from ``X-Forwarded-For``; by default that
header is ignored, since any client can send it. Werkzeug's
:class:`~werkzeug.middleware.proxy_fix.ProxyFix` (``x_for`` = ``TRUSTED_PROXIES``) does the
reading, so ``request.remote_addr`` is the client's address everywhere: the limits and the
audit lines (:func:`gateway.operators.audit`) see the same one.

**Quota.** ``POST /games`` is refused with ``429 quota_exceeded`` while the creator
(:func:`creator`: the operator key the request carries, :func:`gateway.operators.operator_id`)
has ``QUOTA_GAMES_IN_PLAY`` games that are not over. The games of a creator are the sorted set
``longhouse:quota:<creator>`` (game id -> creation time, ms); a slot is reserved atomically
before the game is made (a ``pending:`` member, so two requests at once cannot both take the
last slot) and finished games are dropped from the set (their slot freed) at the creator's
next creation. A retry with an ``Idempotency-Key`` of a game the creator already holds needs
no new slot.
"""

from __future__ import annotations

import functools
import ipaddress
import math
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import redis
from flask import Flask, current_app, g, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.middleware.proxy_fix import ProxyFix

from services.common import logs
from services.common.config import settings
from services.coordinator.redis_store import key as game_key
from services.coordinator.store import Counters, OverLimit

from . import operators
from .auth import token_hash
from .clients import REDIS_MAX_CONNECTIONS, get_redis, get_table, store_timeout
from .errors import error_response

log = logs.get_logger()

CATEGORIES = ("moves", "reads", "streams", "create")
"""The kinds of request that have limits of their own (see the module docstring)."""

LIMIT_SETTINGS: dict[tuple[str, str], str] = {
    ("moves", "token"): "RATE_LIMIT_MOVES_TOKEN",
    ("moves", "address"): "RATE_LIMIT_MOVES_ADDRESS",
    ("reads", "token"): "RATE_LIMIT_READS_TOKEN",
    ("reads", "address"): "RATE_LIMIT_READS_ADDRESS",
    ("streams", "token"): "RATE_LIMIT_STREAMS_TOKEN",
    ("streams", "address"): "RATE_LIMIT_STREAMS_ADDRESS",
    ("create", "address"): "RATE_LIMIT_CREATE_ADDRESS",
}
"""(category, counted by) -> the config key of its limit. Creation carries no seat token, so it
is counted by address; what an operator key may hold at once is the quota's business."""

UNLIMITED_ENDPOINTS = frozenset({"healthz", "readiness.livez", "readiness.readyz", "openapi.openapi_json",
                                 "static", "metrics.metrics_view"})
"""Endpoints no limit applies to: probes, the API description and the metrics."""

QUOTA_KEY_PREFIX = "longhouse:quota:"
"""``longhouse:quota:<creator>``: sorted set of the creator's games in play (and pending slots)."""

QUOTA_RETRY_AFTER = 30
"""Seconds a ``quota_exceeded`` answer's ``Retry-After`` suggests (a slot frees when a game ends)."""

PENDING_SLOT_MS = 120_000
"""A reserved slot whose creation never reported back (its process died) is dropped after this."""

_CATEGORY_TEXT = {"moves": "moves", "reads": "reads", "streams": "streams opened", "create": "creations"}
_WHO_TEXT = {"token": "seat token", "address": "client address"}


def default_config() -> dict[str, Any]:
    """The app config of this module, from the ``LONGHOUSE_*`` settings (keys as in the README).

    Returns:
        ``{"RATE_LIMITS": bool, "RATE_LIMIT_<CATEGORY>_<TOKEN|ADDRESS>": str, "RATE_LIMIT_EXEMPT": str,
        "TRUSTED_PROXIES": int, "QUOTA_GAMES_IN_PLAY": int}``.
    """
    s = settings()
    out: dict[str, Any] = {"RATE_LIMITS": s.rate_limits, "RATE_LIMIT_EXEMPT": s.rate_limit_exempt,
                           "TRUSTED_PROXIES": s.trusted_proxies, "QUOTA_GAMES_IN_PLAY": s.quota_games_in_play}
    for name in LIMIT_SETTINGS.values():
        out[name] = getattr(s, name.lower())
    return out


# -- who is asking -------------------------------------------------------------------------

client_address = operators.client_address
"""The address of the client of the current request (:func:`gateway.operators.client_address`:
the peer's, or behind trusted proxies the one ``ProxyFix`` read from ``X-Forwarded-For``), so the
limits count the same address the audit lines name."""


def is_exempt(address: str) -> bool:
    """Whether ``address`` lies in one of the ``RATE_LIMIT_EXEMPT`` networks."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in _parse_networks(current_app.config.get("RATE_LIMIT_EXEMPT", "")))


def creator() -> str | None:
    """Who the games-in-play quota of the current request is kept for, or ``None``: no quota.

    The operator key's id (``"operator:<id>"``, :func:`gateway.operators.operator_id`), whatever
    address it comes from; ``None`` from an exempt address (``RATE_LIMIT_EXEMPT``) and for a
    request without an accepted key (which ``POST /games`` refuses anyway, 401 or 403).
    """
    if is_exempt(client_address()):
        return None
    who = operators.operator_id()
    return f"operator:{who}" if who else None


def seat_token() -> str | None:
    """The seat token the request carries (bearer header, or ``?token=`` on the stream), unchecked."""
    header = request.headers.get("Authorization")
    if header is not None:
        scheme, _, value = header.strip().partition(" ")
        if scheme.lower() != "bearer":
            return None
        return value.strip() or None
    if request.endpoint == "stream.stream":
        return request.args.get("token") or None
    return None


def category(endpoint: str | None, method: str) -> str | None:
    """The limit category of a request to ``endpoint`` with ``method`` (``None``: not limited).

    Args:
        endpoint: the Flask endpoint (``"moves.play"``); ``None`` for an unknown route.
        method: the HTTP method.
    """
    if not endpoint or endpoint in UNLIMITED_ENDPOINTS:
        return None
    if endpoint == "stream.stream":
        return "streams"
    if endpoint == "moves.play":
        return "moves"
    if method in ("GET", "HEAD"):
        return "reads"
    if method == "POST":
        return "create"
    return None


RETRY_AFTER_HEADER = {
    "description": "Whole seconds to wait before sending the request again (rate_limited: until the "
                   "window ends; quota_exceeded: a polling hint, a slot frees when a game is over)",
    "schema": {"type": "integer", "minimum": 1},
}
"""The OpenAPI Header Object of a 429's ``Retry-After``."""


def documented_errors(endpoint: str, method: str) -> dict[int, str]:
    """The 429 answers a route may give, for the OpenAPI document: ``{429: "<codes>"}`` or ``{}``.

    Args:
        endpoint: the Flask endpoint (``"games.create_game"``).
        method: the HTTP method.
    """
    cat = category(endpoint, method.upper())
    if cat is None:
        return {}
    who = "client address" if cat == "create" else "seat token or client address"
    what = f"rate_limited (too many {_CATEGORY_TEXT[cat]} from this {who}; see Retry-After)"
    if endpoint == "games.create_game" and method.upper() == "POST":
        what += ", quota_exceeded (the creator's games in play are at the quota)"
    return {429: what}


def _token_key() -> str | None:
    """The current request's seat-token counter name, ``token:<32 hex digits of its digest>``, or
    ``None`` without a token."""
    token = seat_token()
    return f"token:{token_hash(token)[:32]}" if token else None


def _address_key() -> str | None:
    """The current request's address counter name, ``address:<client address>``, or ``None`` when
    the address is exempt (``RATE_LIMIT_EXEMPT``)."""
    address = client_address()
    return None if is_exempt(address) else f"address:{address}"


_KEYS = {"token": _token_key, "address": _address_key}


_NETWORKS: dict[str, tuple] = {}
"""Parsed ``RATE_LIMIT_EXEMPT`` values (a handful of distinct strings per process)."""


def _parse_networks(raw: str) -> tuple:
    """``"127.0.0.0/8,::1/128"`` -> networks (cached). Raises ValueError for a malformed one."""
    if raw not in _NETWORKS:
        _NETWORKS[raw] = tuple(ipaddress.ip_network(part.strip(), strict=False)
                               for part in raw.split(",") if part.strip())
    return _NETWORKS[raw]


KEY_PREFIX = "longhouse"
"""The first part of every counter's name after ``limits``' own ``LIMITS:LIMITER/``."""


class RateLimits:
    """The gateway's rate limits: per category, the ``(item, who)`` pairs to count, and the
    fixed-window counters in the store (see the module docstring).

    Args:
        config: the app's config (``REDIS_URL``, ``RATE_LIMITS``, ``RATE_LIMIT_<CATEGORY>_<WHO>``,
            ``REDIS_MAX_CONNECTIONS``).
    Raises:
        ValueError: a limit that is not ``"<n>/<unit>"`` items separated by ``;``.
    """

    def __init__(self, config: dict[str, Any]):
        self.enabled = bool(config.get("RATE_LIMITS", True))
        pairs: dict[str, list[tuple[RateLimitItem, str]]] = {cat: [] for cat in CATEGORIES}
        for (cat, who), name in LIMIT_SETTINGS.items():
            value = (config.get(name) or "").strip()
            if not value:
                continue
            try:
                items = parse_many(value)
            except ValueError as exc:
                raise ValueError(f"{name} must be '<n>/<unit>' items separated by ';', not {value!r}") from exc
            pairs[cat] += [(item, who) for item in items]
        # Flask-Limiter's order: shortest window first, otherwise as configured (sorted is stable)
        self.limits: dict[str, tuple[tuple[RateLimitItem, str], ...]] = {
            cat: tuple(sorted(found, key=lambda pair: pair[0].GRANULARITY.seconds)) for cat, found in pairs.items()}
        storage = storage_from_string(
            config["REDIS_URL"], max_connections=int(config.get("REDIS_MAX_CONNECTIONS", REDIS_MAX_CONNECTIONS)),
            socket_connect_timeout=5, socket_timeout=store_timeout(config), health_check_interval=30)
        self.counters = FixedWindowRateLimiter(storage)
        """The counters (``limits``' fixed windows over the store: ``hit`` is one Lua call)."""
        self.in_commit = bool(config.get("RATE_LIMITS_IN_COMMIT", True))
        """Whether a move's counters may be left to its commit (:class:`Deferred`; config
        ``RATE_LIMITS_IN_COMMIT``, on by default; the store must count too, see :meth:`_defers`)."""
        self._store_counts: bool | None = None
        self._over: dict[str, float] = {}
        """Counter key -> until when (monotonic clock) this process saw it over its limit."""

    def check(self):
        """``before_request``: count the request against its category's limits; the 429 answer of
        the first one it breaches, or ``None`` (go on). Raises the store's errors (answered 503).

        A move's counters are left to its commit instead when they can be (:meth:`_defers`), and
        none of them was seen over its limit in this process lately (:class:`Deferred`)."""
        if not self.enabled:
            return None
        cat = _request_category()
        pairs = self.limits.get(cat) if cat is not None else None
        if not pairs:
            return None
        names: dict[str, str | None] = {}
        counted: list[tuple[RateLimitItem, tuple[str, str, str]]] = []
        for item, who in pairs:
            if who not in names:
                names[who] = _KEYS[who]()
            name = names[who]
            if name is not None:
                counted.append((item, (KEY_PREFIX, name, f"{cat}:{who}")))
        if not counted:
            return None
        if cat == "moves" and self._defers():
            deferred = self._deferred(counted)
            now = time.monotonic()
            if not any(self._over.get(k, 0.0) > now for k in deferred.counters.keys):
                g.deferred_limits = deferred
                return None
        return self._hit(counted)

    def _hit(self, counted: list[tuple[RateLimitItem, tuple[str, str, str]]]):
        """Count each of ``counted`` (``(item, identifiers)``, in order) until one is over its limit:
        that one's 429 answer, or ``None``. Raises the store's errors (answered 503)."""
        for item, args in counted:
            if not self.counters.hit(item, *args):
                return self._too_many_requests(item, args)
        return None

    def _defers(self) -> bool:
        """Whether moves' counters are left to their commits: :attr:`in_commit`, and the game store
        counts them in its commit script (a single Redis server: the limits' counters and the
        games live on the same ``REDIS_URL``; not a Redis Cluster, whose scripts touch one hash slot)."""
        if self._store_counts is None:
            self._store_counts = bool(getattr(get_table().store, "counts_in_commit", False))
        return self.in_commit and self._store_counts

    def _deferred(self, counted: list[tuple[RateLimitItem, tuple[str, str, str]]]) -> "Deferred":
        """The :class:`Deferred` counting of ``counted`` (``(item, identifiers)`` pairs, in order)."""
        storage = self.counters.storage
        keys = tuple(storage.prefixed_key(item.key_for(*args)) for item, args in counted)
        return Deferred(Counters(keys, tuple(item.amount for item, _ in counted),
                                 tuple(item.get_expiry() for item, _ in counted)), counted)

    def settle(self, deferred: "Deferred"):
        """Count ``deferred``'s counters now if its move's commit did not (a move refused before
        it, or answered from its first result): as :meth:`check` would have counted them. The 429
        answer of the first one breached, or ``None``. Raises the store's errors (answered 503)."""
        if deferred.counters.counted:
            return None
        deferred.counters.counted = True
        return self._hit(deferred.limits)

    def refused(self, deferred: "Deferred", over: OverLimit):
        """The 429 answer of a move whose commit found counter ``over.index`` of ``deferred`` over
        its limit (``over.ttl``: seconds left in its window), with nothing committed."""
        item, args = deferred.limits[over.index]
        return self._too_many_requests(item, args, ttl=over.ttl)

    def _too_many_requests(self, item: RateLimitItem, args: tuple[str, str, str], ttl: int | None = None):
        """The JSON 429 of a breached limit ``item`` counted under ``args``, with ``Retry-After``
        (whole seconds until the counter's window ends; the whole window if the store cannot say).
        ``ttl``: the counter's time to live in seconds, known already (else asked of the store)."""
        _, _, scope = args
        cat, _, who = scope.partition(":")
        retry = item.get_expiry()
        try:
            # limits' get_window_stats: reset time = now + the key's TTL (seconds, at least 0)
            reset = (max(ttl, 0) + time.time() if ttl is not None
                     else self.counters.get_window_stats(item, *args).reset_time)
            retry = int(reset + 1) - time.time()
        except (redis.RedisError, OSError):  # the window's end is unknown: the whole window
            pass
        retry = max(1, math.ceil(retry))
        if cat == "moves":
            self._remember_over(self.counters.storage.prefixed_key(item.key_for(*args)), retry)
        log.info("rate limited", category=cat, counted_by=who, path=request.path)
        reason = (f"too many {_CATEGORY_TEXT.get(cat, 'requests')} from this {_WHO_TEXT.get(who, 'client')} "
                  f"(at most {item.amount} per {_window_text(item)}); retry in {retry} s")
        return too_many(reason, "rate_limited", retry)

    def _remember_over(self, key: str, seconds: float) -> None:
        """Note that counter ``key`` is over its limit for ``seconds``: until then this process
        counts the moves of that token or address before their views run (a client over its limit
        costs one counter call and no move's work), not in their commits."""
        now = time.monotonic()
        if len(self._over) >= 4096:
            self._over = {k: until for k, until in self._over.items() if until > now}
        self._over[key] = now + seconds


@dataclass(slots=True)
class Deferred:
    """A move's rate-limit counting left to its commit: the ``counters`` handed to
    :meth:`services.coordinator.table.Table.play` (their keys, amounts and windows are those of
    ``limits``, in :meth:`RateLimits.check`'s order), and the ``(item, identifiers)`` of each,
    for the 429 answer. See :func:`counted_at_commit`."""

    counters: Counters
    limits: list[tuple[RateLimitItem, tuple[str, str, str]]]


def deferred_counters() -> Counters | None:
    """The current request's rate-limit counters left to its commit (:class:`Deferred`), or ``None``
    (counted already, or nothing to count): for :meth:`~services.coordinator.table.Table.play`."""
    deferred = g.get("deferred_limits")
    return deferred.counters if deferred is not None else None


def settle_deferred() -> None:
    """Count the current request's deferred counters now (:meth:`RateLimits.settle`), if its commit
    has not: for a view about to answer a refused move, so that a move over its limit is answered
    429, as when the counters were counted before the view.

    Raises:
        RateLimited: one of them is over its limit (:func:`counted_at_commit` answers its 429).
    """
    deferred = g.get("deferred_limits")
    if deferred is not None and not deferred.counters.counted:
        answer = current_app.extensions["longhouse_limits"].settle(deferred)
        if answer is not None:
            raise RateLimited(answer)


class RateLimited(Exception):
    """A request over its rate limit found after its view began (:func:`settle_deferred`);
    ``answer``: its 429 answer."""

    def __init__(self, answer: Any):
        super().__init__("rate limited")
        self.answer = answer


def counted_at_commit(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap the view of ``POST /games/<id>/moves`` so that its rate-limit counters may be counted by
    its commit (:meth:`RateLimits.check` leaves them, a :class:`Deferred`, when it can): one Redis
    round trip a move. The answers stay those of counting before the view:

    * the commit counts them first and commits nothing if one is over: 429 with ``Retry-After``;
    * a request that ends without counting them (refused before its commit: a bad token or body,
      an unknown game, a stale version found on reading, an illegal move; or a repeated move id
      answered with its first result) counts them then, and is answered 429 instead if one is
      over. Nothing of the game has changed then, so the client sees what it saw before.

    A refused move counts as much as a committed one (as before the folding: every request to the
    route is counted, its fate unknown when it is). An illegal move is counted too. One exception:
    a request that failed on the store itself (a ``redis.RedisError``: 503) is not counted, since
    counting would wait on that store again (a Redis that does not answer would double the wait).
    """

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        deferred = g.get("deferred_limits")
        if deferred is None:
            return view(*args, **kwargs)
        limits: RateLimits = current_app.extensions["longhouse_limits"]
        try:
            answer = view(*args, **kwargs)
        except RateLimited as exc:
            return exc.answer
        except OverLimit as exc:
            return limits.refused(deferred, exc)
        except redis.RedisError:
            raise  # the store is what failed: settling the counters there would wait on it again
        except Exception:
            refused = limits.settle(deferred)
            if refused is not None:
                return refused
            raise
        refused = limits.settle(deferred)
        return refused if refused is not None else answer

    return wrapper


def _request_category() -> str | None:
    """The limit category of the current request (:func:`category`), worked out once per request."""
    if "limit_category" not in g:
        g.limit_category = category(request.endpoint, request.method)
    return g.limit_category


# -- wiring --------------------------------------------------------------------------------

def init_limits(app: Flask) -> RateLimits:
    """Install the rate limits, the 429 answers and the quota on ``app``.

    Call once from the app factory, before hooks that should not run for a refused request.

    Returns:
        the app's :class:`RateLimits` (also ``app.extensions["longhouse_limits"]``).
    Raises:
        ValueError: a limit that is not ``"<n>/<unit>"`` items, a malformed exempt network, or a
            negative ``TRUSTED_PROXIES`` or ``QUOTA_GAMES_IN_PLAY``.
    """
    cfg = app.config
    for name in ("TRUSTED_PROXIES", "QUOTA_GAMES_IN_PLAY"):
        if int(cfg.get(name, 0) or 0) < 0:
            raise ValueError(f"{name} must be 0 or more, not {cfg[name]!r}")
    _parse_networks(cfg.get("RATE_LIMIT_EXEMPT", ""))
    limits = RateLimits(cfg)
    trust_proxies(app)
    app.extensions["longhouse_limits"] = limits
    app.before_request(limits.check)
    app.before_request(_reserve_slot)
    app.after_request(_record_game)
    app.teardown_request(_release_slot)
    return limits


def trust_proxies(app: Flask) -> None:
    """Wrap ``app.wsgi_app`` in Werkzeug's ``ProxyFix`` believing ``TRUSTED_PROXIES`` hops of
    ``X-Forwarded-For`` (each proxy appends the address it saw; the ``n``-th from the right is the
    client's, and with fewer than ``n`` entries the peer's address stands). With 0 (the default)
    nothing is wrapped and the header is ignored. Only ``X-Forwarded-For`` is believed: no route
    builds an absolute URL from the scheme, host or prefix."""
    hops = int(app.config.get("TRUSTED_PROXIES", 0) or 0)
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=0, x_host=0, x_port=0, x_prefix=0)


def too_many(reason: str, code: str, retry_after: int):
    """A 429 answer ``{"error": code, "reason": reason, "retry_after": s}`` with ``Retry-After: s``."""
    body, status = error_response(429, code, reason, retry_after=retry_after)
    body.headers["Retry-After"] = str(retry_after)
    return body, status


def _window_text(item) -> str:
    unit = item.GRANULARITY.name
    return unit if item.multiples == 1 else f"{item.multiples} {unit}s"


# -- the quota -----------------------------------------------------------------------------

_RESERVE = """
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[1]) then return n end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
return -1
"""


def quota_key(who: str) -> str:
    """The Redis key of ``who``'s games in play (a sorted set)."""
    return QUOTA_KEY_PREFIX + who


def games_in_play(client: redis.Redis, who: str, now_ms: int | None = None) -> list[str]:
    """Ids of ``who``'s games that are not over; drops finished or vanished games and dead
    pending slots from the set first (that is how a finished game frees its slot).

    Returns:
        the game ids still in play (pending slots not included).
    Raises:
        redis.RedisError: the store does not answer.
    """
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    k = quota_key(who)
    members = [(m.decode() if isinstance(m, bytes) else m, score)
               for m, score in client.zrange(k, 0, -1, withscores=True)]
    games = [m for m, _ in members if not m.startswith("pending:")]
    drop = [m for m, score in members if m.startswith("pending:") and now_ms - score > PENDING_SLOT_MS]
    statuses: Iterable[Any] = []
    if games:
        pipe = client.pipeline(transaction=False)
        for game_id in games:
            pipe.hget(game_key(game_id, "meta"), "status")
        statuses = pipe.execute()
    in_play = []
    for game_id, status in zip(games, statuses):
        if status is None or status in (b"over", "over"):
            drop.append(game_id)
        else:
            in_play.append(game_id)
    if drop:
        client.zrem(k, *drop)
    return in_play


def _reserve_slot():
    """``before_request``: take a slot of the creator's quota for ``POST /games`` (or refuse)."""
    if request.endpoint != "games.create_game" or request.method != "POST":
        return None
    limit = int(current_app.config.get("QUOTA_GAMES_IN_PLAY", 0) or 0)
    who = creator() if limit > 0 else None
    if who is None:
        return None
    client = get_redis()
    in_play = games_in_play(client, who)
    idem = request.headers.get("Idempotency-Key")
    if idem is not None:
        if operators.idempotent_game_id(idem, operators.operator_id()) in in_play:
            return None  # a retry of a creation that already holds its slot
    pending = f"pending:{uuid.uuid4().hex}"
    held = client.eval(_RESERVE, 1, quota_key(who), limit, pending, int(time.time() * 1000))
    if held != -1:
        log.info("quota exceeded", in_play=int(held), quota=limit)
        return too_many(f"this operator key already has {int(held)} games in play, the most allowed at once "
                        f"({limit}); retry when one of them is over (Retry-After is a polling hint)",
                        "quota_exceeded", QUOTA_RETRY_AFTER)
    g.quota_slot = (who, pending)
    return None


def _record_game(response):
    """``after_request``: the created game takes the reserved slot."""
    slot = g.pop("quota_slot", None)
    if slot is None:
        return response
    who, pending = slot
    game_id = (response.get_json(silent=True) or {}).get("game_id") if response.status_code == 201 else None
    try:
        pipe = get_redis().pipeline(transaction=True)
        if game_id:
            pipe.zadd(quota_key(who), {game_id: int(time.time() * 1000)})
        pipe.zrem(quota_key(who), pending)
        pipe.execute()
    except (redis.RedisError, OSError):  # the answer stands; the pending slot ages out
        log.warning("quota slot not recorded", error="store unavailable")
    return response


def _release_slot(_exc: BaseException | None = None) -> None:
    """``teardown_request``: give back a slot whose request failed before :func:`_record_game`."""
    slot = g.pop("quota_slot", None)
    if slot is None:
        return
    who, pending = slot
    try:
        get_redis().zrem(quota_key(who), pending)
    except (redis.RedisError, OSError):  # dropped as stale by the next creation
        log.warning("quota slot not released", error="store unavailable")
