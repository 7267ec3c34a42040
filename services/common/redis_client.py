"""The one place Longhouse opens a Redis client: :func:`connect`.

The URL says what kind of Redis it is:

* ``redis://[[user]:password@]host:port/db`` (``rediss://`` with TLS, ``unix:///path?db=N``): one
  server, a :class:`redis.Redis` (``redis.Redis.from_url``);
* ``redis+cluster://[[user]:password@]host:port[,host:port...]`` (path empty or ``/0``: a cluster
  has only database 0): a Redis Cluster, a :class:`redis.cluster.RedisCluster` that starts from
  the nodes listed (any one that answers is enough; it learns the others from it). The scheme is
  the one the ``limits`` library uses for its cluster storage, so the gateway's rate limits take
  the same URL.

Both kinds answer the same commands for what Longhouse does, and fail alike: a cluster none of
whose nodes answers (or that does not serve every slot) raises :class:`redis.ConnectionError`, as
a single server that is down does, where redis-py's cluster client would raise its own
``RedisClusterException`` (not a ``RedisError``), which the outage handling of the gateway, the
movers, the services and the worker would not recognise (:class:`ClusterClient`). On a cluster every script and
transaction touches the keys of one hash slot only: a game's keys all carry the hash tag
``{<game_id>}`` (:func:`services.coordinator.redis_store.key`), a tournament's ``{t:<id>}``, and
the global keys (indices, the movers' ready list, quotas, the agent registry, rate-limit
counters) are only ever used one key per command or script.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Union
from urllib.parse import unquote, urlsplit, urlunsplit

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import RedisClusterException, SlotNotCoveredError

CLUSTER_SCHEME = "redis+cluster"
"""URL scheme of a Redis Cluster (:func:`connect`)."""

PLAIN_SCHEMES = ("redis", "rediss", "unix")
"""URL schemes of a single Redis server."""

Client = Union[redis.Redis, RedisCluster]
"""What :func:`connect` returns."""


_UNREACHABLE = ("Redis Cluster cannot be connected", "All slots are not covered",
                "startup_nodes could not agree")
"""How redis-py's cluster client begins the ``RedisClusterException`` of a cluster out of reach."""


def unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` is redis-py's cluster client saying the cluster cannot be reached or does not
    serve every slot (an outage), not a misuse of the client."""
    if isinstance(exc, SlotNotCoveredError):
        return True
    return type(exc) is RedisClusterException and str(exc).startswith(_UNREACHABLE)


@contextmanager
def _as_connection_errors() -> Iterator[None]:
    """Turn an outage of the cluster (:func:`unreachable`) into a :class:`redis.ConnectionError`."""
    try:
        yield
    except RedisClusterException as exc:
        if unreachable(exc):
            raise redis.ConnectionError(str(exc)) from exc
        raise


class ClusterClient(RedisCluster):
    """The :class:`~redis.cluster.RedisCluster` :func:`connect` makes: the same client, whose
    commands and pipelines raise :class:`redis.ConnectionError` while the cluster is out of reach
    (:func:`unreachable`); any other error is raised as redis-py raises it."""

    def execute_command(self, *args: Any, **options: Any) -> Any:
        """Run one command (see :meth:`RedisCluster.execute_command`)."""
        with _as_connection_errors():
            return super().execute_command(*args, **options)

    def pipeline(self, transaction: Any = None, shard_hint: Any = None) -> Any:
        """A cluster pipeline (see :meth:`RedisCluster.pipeline`) whose ``execute`` raises
        :class:`redis.ConnectionError` while the cluster is out of reach."""
        pipe = super().pipeline(transaction, shard_hint)
        execute = pipe.execute

        def checked_execute(raise_on_error: bool = True) -> list[Any]:
            with _as_connection_errors():
                return execute(raise_on_error)

        pipe.execute = checked_execute
        return pipe


def is_cluster(url: str) -> bool:
    """Whether ``url`` names a Redis Cluster (scheme ``redis+cluster``)."""
    return urlsplit(url).scheme.lower() == CLUSTER_SCHEME


def cluster_nodes(url: str) -> list[tuple[str, int]]:
    """The ``(host, port)`` start-up nodes of a ``redis+cluster://`` URL, in the order given.

    Raises:
        ValueError: not a cluster URL, no node, a node without a port or with a bad one, or a
            database other than 0.
    """
    parts = urlsplit(url)
    if parts.scheme.lower() != CLUSTER_SCHEME:
        raise ValueError(f"not a {CLUSTER_SCHEME}:// URL: {redact(url)!r}")
    if parts.path not in ("", "/", "/0"):
        raise ValueError(f"a Redis Cluster has only database 0, not {parts.path.lstrip('/')!r}")
    hosts = parts.netloc.rpartition("@")[2]
    nodes = []
    for item in hosts.split(","):
        host, sep, port = item.strip().rpartition(":")
        host = host.strip("[]")  # [::1]:7000
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"cluster nodes are host:port items separated by commas, not {item.strip()!r}")
        nodes.append((host, int(port)))
    return nodes


def check_url(url: str) -> str:
    """``url`` if :func:`connect` can use it (returned unchanged).

    Raises:
        ValueError: an unknown scheme or a malformed cluster URL; the message never shows a password.
    """
    scheme = urlsplit(url).scheme.lower()
    if scheme == CLUSTER_SCHEME:
        cluster_nodes(url)
    elif scheme not in PLAIN_SCHEMES:
        raise ValueError(f"a Redis URL starts with redis://, rediss://, unix:// or {CLUSTER_SCHEME}://, "
                         f"not {redact(url)!r}")
    return url


def connect(url: str, **options: Any) -> Client:
    """A client of the Redis at ``url`` (no connection is opened until the first command).

    Args:
        url: see the module docstring.
        options: keyword arguments of the connections, as ``redis.Redis`` takes them
            (``socket_timeout``, ``socket_connect_timeout``, ``socket_keepalive``,
            ``health_check_interval``, ``max_connections``, ``decode_responses``, ...); on a
            cluster they apply to each node's pool, and those a cluster node does not take
            (``health_check_interval``) are left out.
    Returns:
        a :class:`redis.Redis`, or for ``redis+cluster://`` a :class:`ClusterClient` (a
        :class:`~redis.cluster.RedisCluster`), which learns the cluster's layout at once.
    Raises:
        ValueError: a URL :func:`check_url` refuses.
        redis.ConnectionError: a cluster none of whose nodes listed answers.
    """
    check_url(url)
    if not is_cluster(url):
        return redis.Redis.from_url(url, **options)
    parts = urlsplit(url)
    userinfo = parts.netloc.rpartition("@")[0]
    if userinfo:
        user, has_password, password = userinfo.partition(":")
        options.setdefault("username", unquote(user) or None)
        if has_password:
            options.setdefault("password", unquote(password))
    options.pop("health_check_interval", None)
    nodes = [ClusterNode(host, port) for host, port in cluster_nodes(url)]
    with _as_connection_errors():
        return ClusterClient(startup_nodes=nodes, **options)


def redact(url: str) -> str:
    """``url`` with any password replaced by ``***`` (for logs and messages)."""
    parts = urlsplit(url)
    userinfo, at, hosts = parts.netloc.rpartition("@")
    if not at or ":" not in userinfo:
        return url
    user = userinfo.partition(":")[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{hosts}"))


def text(value: Any) -> str:
    """A value of a Redis reply as text: bytes decoded as UTF-8 (the clients here do not decode
    replies), anything else through ``str``."""
    return value.decode() if isinstance(value, bytes) else str(value)
