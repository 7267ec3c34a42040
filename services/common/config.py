"""Settings of every Longhouse process, read from ``LONGHOUSE_*`` environment variables.

Defaults keep clear of a Redis already on 6379, of common development ports and of Linux's
ephemeral port range (32768-60999, where an outgoing connection could hold a port just when the
stack starts); every address is on loopback unless the environment says otherwise.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from services.common.allow_list import parse_allow_rules


class Settings(BaseSettings):
    """All ports and addresses, from the environment (prefix ``LONGHOUSE_``).

    Example: ``LONGHOUSE_REDIS_PORT=6480`` moves Redis; ``LONGHOUSE_GATEWAY_PORT``,
    ``LONGHOUSE_DECKS_PORT`` etc. move the other processes.
    """

    model_config = SettingsConfigDict(env_prefix="LONGHOUSE_", extra="ignore")

    host: str = "127.0.0.1"
    redis_port: int = 6479
    redis_db: int = 0
    celery_db: int = 1
    # Redis elsewhere than the stack's own redis-server (services/common/redis_client.py): the game
    # store, a redis:// URL or redis+cluster://host:port[,host:port...] for a Redis Cluster, and the
    # Celery broker, a plain Redis (Celery cannot use a cluster). Empty: the stack's own redis-server.
    store_url: str = ""
    broker_url: str = ""
    gateway_port: int = 8470
    decks_port: int = 29151
    market_port: int = 29152
    boards_port: int = 29153
    scoring_port: int = 29154
    # Prometheus metrics ports (services.common.metrics; 0: not served). The gateway serves its own at
    # GET /metrics on gateway_port. The k-th mover the launcher starts serves on mover_metrics_port + k.
    decks_metrics_port: int = Field(default=29161, ge=0, le=65535)
    market_metrics_port: int = Field(default=29162, ge=0, le=65535)
    boards_metrics_port: int = Field(default=29163, ge=0, le=65535)
    scoring_metrics_port: int = Field(default=29164, ge=0, le=65535)
    worker_metrics_port: int = Field(default=29165, ge=0, le=65535)
    mover_metrics_port: int = Field(default=29166, ge=0, le=65535)
    # Containers and Kubernetes, where each process has its own address: what the servers bind
    # to and where each peer is found. Empty (the default): ``host``, as on one machine.
    bind_host: str = ""  # e.g. 0.0.0.0 in a container that others reach by name
    redis_host: str = ""  # e.g. redis
    decks_host: str = ""  # e.g. decks (and so on for the other three services)
    market_host: str = ""
    boards_host: str = ""
    scoring_host: str = ""
    agent_allow: str = ""  # agent hosts and ports the engine may call (services/agents/addresses.py)
    agent_max_reply_bytes: int = Field(default=64 * 1024, ge=1024, le=16 * 1024 * 1024)  # largest agent answer read
    data_dir: str = "var"
    ports_mode: str = "grpc"  # "grpc" (hosted stack) or "embedded" (single process)
    phase_mode: str = "celery"  # "celery" or "inline"
    # who asks agent seats for their moves: the bus movers, commits batched (services/phases/agent_desk.py),
    # or the Celery worker, a task a decision (services/phases/agents.py)
    agent_asker: Literal["mover", "worker"] = "mover"
    celery_visibility_timeout: int = 30  # seconds before an unacknowledged phase task is redelivered
    grpc_timeout: float = 10.0  # seconds per domain call
    finished_ttl: int = 86400  # seconds a finished game keeps its keys other than log and meta
    phase_sweep_seconds: float = 15.0  # how often a worker looks for phases whose task was lost
    redis_appendfsync: Literal["always", "everysec", "no"] = "always"  # when Redis syncs its log to disk
    # Rate limits of the gateway (gateway.limits): "<n>/<unit>" items ("600/minute", "20/second;600/minute";
    # empty: no limit), per seat token (_token) and per client address (_address)
    rate_limits: bool = True  # false: no rate limit at all (the quota below stays)
    rate_limit_moves_token: str = "1200/minute"
    rate_limit_moves_address: str = "2400/minute"
    rate_limit_reads_token: str = "6000/minute"
    rate_limit_reads_address: str = "12000/minute"
    rate_limit_streams_token: str = "60/minute"
    rate_limit_streams_address: str = "300/minute"
    rate_limit_create_address: str = "60/minute"
    rate_limit_exempt: str = "127.0.0.0/8,::1/128"  # networks free of per-address limits and the quota
    trusted_proxies: int = 0  # proxy hops whose X-Forwarded-For is believed (0: none, the peer's address)
    quota_games_in_play: int = 50  # games not over one operator key may have at once (0: no quota)
    # Operator keys the gateway accepts (gateway.operators): sha256 hex digests, never the keys
    operator_keys: str = ""  # digests separated by commas, read at start
    operator_keys_file: str = ""  # a file of digests, one a line, read again whenever it changes
    # Keys that encrypt agent secrets and game seeds at rest (services/common/sealing.py): Fernet
    # keys separated by commas, the first encrypts, all decrypt. Empty: a development key (warned).
    secret_keys: str = Field(default="", repr=False)

    @property
    def redis_url(self) -> str:
        """URL of the game store: ``store_url``, or database ``redis_db`` of the stack's Redis."""
        return self.store_url or f"redis://{self.redis_host or self.host}:{self.redis_port}/{self.redis_db}"

    @property
    def celery_broker_url(self) -> str:
        """URL of the Celery broker: ``broker_url``, or database ``celery_db`` of the stack's Redis."""
        return self.broker_url or f"redis://{self.redis_host or self.host}:{self.redis_port}/{self.celery_db}"

    @property
    def own_redis(self) -> bool:
        """Whether the stack needs its own redis-server (the store or the broker is not elsewhere)."""
        return not (self.store_url and self.broker_url)

    def service_address(self, domain: str) -> str:
        """``host:port`` where the gRPC service of ``domain`` (deck, market, board, score) is reached."""
        name = {"deck": "decks", "market": "market", "board": "boards", "score": "scoring"}[domain]
        host = getattr(self, f"{name}_host") or self.host
        return f"{host}:{getattr(self, f'{name}_port')}"

    def metrics_port(self, process: str) -> int:
        """The Prometheus metrics port of ``process`` (``decks``, ``market``, ``boards``, ``scoring``,
        ``worker`` or ``mover``; 0: not served). Raises KeyError for another name."""
        if process not in ("decks", "market", "boards", "scoring", "worker", "mover"):
            raise KeyError(f"no metrics port for {process!r}")
        return getattr(self, f"{process}_metrics_port")

    @property
    def metrics_host(self) -> str:
        """The address the metrics servers bind to (``bind_host``, else ``host``)."""
        return self.bind_host or self.host

    def bind_address(self, domain: str) -> str:
        """``host:port`` the gRPC service of ``domain`` listens on (``bind_host``, else ``host``)."""
        return f"{self.bind_host or self.host}:{self.service_address(domain).rsplit(':', 1)[1]}"

    @field_validator("store_url")
    @classmethod
    def _store_url_parses(cls, value: str) -> str:
        from services.common.redis_client import check_url

        return check_url(value) if value else value  # ValueError says what is wrong, never a password

    @field_validator("broker_url")
    @classmethod
    def _broker_url_is_plain(cls, value: str) -> str:
        from services.common.redis_client import check_url, is_cluster

        if value and is_cluster(check_url(value)):
            raise ValueError("the Celery broker must be a single Redis server (Celery's Redis transport "
                             "cannot use a Redis Cluster); keep the game store on the cluster")
        return value

    @field_validator("agent_allow")
    @classmethod
    def _agent_allow_parses(cls, value: str) -> str:
        return ",".join(rule.text for rule in parse_allow_rules(value))  # ValueError names the bad entry


@lru_cache(maxsize=1)
def settings() -> Settings:
    """The process's settings (read once)."""
    return Settings()
