"""The registry of external agents: who they are, where the engine calls them, their secret.

An agent is registered once (``POST /agents`` on the gateway, or :meth:`AgentRegistry.register`)
with a name, a protocol (``grpc``: the ``Agent`` service of ``protos/agent.proto``; ``http``: the
same payloads as a signed JSON webhook) and an address, and gets an id that game and tournament
seats name (``{"kind": "agent", "agent": <id>}``). The secret signs every request the engine
sends the agent (:mod:`services.agents.protocol`); it is kept to sign with, and never shown
again: :meth:`AgentRecord.public` leaves it out.

Only addresses the operator's allow-list permits can be registered (:mod:`services.agents.addresses`,
``LONGHOUSE_AGENT_ALLOW``): the host is resolved and every address checked, and a refused address
registers nothing. The engine checks again at every connection it opens to the agent.

Records live in the game store's Redis (hash :data:`KEY`), or in memory for an embedded table;
the secrets in them (``secret``, ``previous_secret``) are stored encrypted
(:mod:`services.common.sealing`, :data:`SEALED_FIELDS`), the rest of the record in plain JSON.
"""

from __future__ import annotations

import json
import secrets as secrets_mod
import threading
import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from services.agents.addresses import AllowList, configured_allow_list
from services.agents.protocol import SECRET_PREFIX, signing_key

KEY = "longhouse:agents"
"""Redis hash: agent id -> the record as JSON (its :data:`SEALED_FIELDS` encrypted)."""
SEALED_FIELDS = ("secret", "previous_secret")
"""The fields of a stored record that hold secrets: stored sealed, never in plain text."""


def seal_record(record: dict[str, Any]) -> dict[str, Any]:
    """A record's fields as stored: each of :data:`SEALED_FIELDS` that is set, sealed."""
    from services.common.sealing import sealer

    return {k: (sealer().seal(v) if k in SEALED_FIELDS and isinstance(v, str) else v) for k, v in record.items()}


LOADED_MEMO = 1024
"""Most stored records an :class:`AgentRegistry` keeps opened (then it forgets them all)."""


def load_record(raw: str | bytes) -> "AgentRecord":
    """The :class:`AgentRecord` of a stored record (sealed fields opened; a field stored before
    encryption is taken as it is). Raises UnsealError if no configured key opens one."""
    from services.common.sealing import sealer

    data = json.loads(raw)
    for name in SEALED_FIELDS:
        if isinstance(data.get(name), str):
            data[name] = sealer().unseal(data[name])
    return AgentRecord.model_validate(data)


class AgentSpec(BaseModel):
    """What registering an agent takes.

    Attributes:
        name: a label for standings and logs (1-64 characters).
        protocol: ``grpc`` or ``http``.
        address: ``host:port`` for gRPC; an ``http://`` or ``https://`` URL for HTTP.
        secret: the shared HMAC key (16-256 characters): a Standard Webhooks ``whsec_<base64>``
            secret (the key is what the base64 decodes to, at least 16 bytes) or any other text
            (the key is its UTF-8 bytes).
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=64)
    protocol: Literal["grpc", "http"]
    address: str = Field(min_length=3, max_length=512)
    secret: str = Field(min_length=16, max_length=256, repr=False)

    @field_validator("secret")
    @classmethod
    def _secret_not_blank(cls, value: str) -> str:
        if len(value.strip()) < 16:
            raise ValueError("a secret has at least 16 characters that are not spaces")
        if value.startswith(SECRET_PREFIX) and len(signing_key(value)) < 16:
            raise ValueError("a whsec_ secret is the base64 of at least 16 bytes")
        return value

    @field_validator("address")
    @classmethod
    def _address_fits_protocol(cls, value: str, info: Any) -> str:
        from urllib.parse import urlsplit

        protocol = info.data.get("protocol")
        if protocol == "http":
            if not value.startswith(("http://", "https://")):
                raise ValueError("an http agent's address is an http:// or https:// URL")
            parts = urlsplit(value)
            if parts.username or parts.password:
                raise ValueError("an agent's URL carries no user name or password (the secret signs requests)")
            if not parts.hostname:
                raise ValueError("an http agent's URL names a host")
            try:
                port = parts.port
            except ValueError:
                raise ValueError("an http agent's URL has a port from 1 to 65535") from None
            if port == 0:
                raise ValueError("an http agent's URL has a port from 1 to 65535")
        if protocol == "grpc":
            host, _, port = value.rpartition(":")
            if "/" in value or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
                raise ValueError("a grpc agent's address is host:port, the port from 1 to 65535")
        return value


MAX_OVERLAP_S = 7 * 24 * 3600
"""The longest rotation window: an old secret signs at most a week after it was replaced."""


class AgentRecord(AgentSpec):
    """A registered agent: its spec plus ``agent_id`` and, during a secret's rotation window,
    the secret it replaced (``previous_secret``) and when that stops signing
    (``previous_until``, unix seconds)."""

    agent_id: str
    previous_secret: str | None = Field(default=None, repr=False)
    previous_until: int | None = None

    def signing_secrets(self, now: float | None = None) -> list[str]:
        """The secrets the engine signs each request to the agent with at ``now`` (unix seconds;
        default the clock): the current one, and the previous one while its window lasts."""
        now = time.time() if now is None else now
        if self.previous_secret and self.previous_until is not None and now < self.previous_until:
            return [self.secret, self.previous_secret]
        return [self.secret]

    def public(self, now: float | None = None) -> dict[str, Any]:
        """The record without its secrets: ``{"agent_id", "name", "protocol", "address",
        "previous_secret_until"}`` (the end of a rotation window still open at ``now``, else None)."""
        rotating = len(self.signing_secrets(now)) > 1
        return {"agent_id": self.agent_id, "name": self.name, "protocol": self.protocol, "address": self.address,
                "previous_secret_until": self.previous_until if rotating else None}


class UnknownAgent(LookupError):
    """No agent is registered under that id."""


class WrongSecret(PermissionError):
    """The secret given to prove who may change an agent is not its current one."""


class AgentRegistry:
    """Agents by id, in Redis (``client``) or in memory (``client=None``).

    Args:
        client: a Redis client of the game store, or None for a process-local registry.
    """

    def __init__(self, client: Any | None = None):
        self.client = client
        self._memory: dict[str, str] = {}
        self._lock = threading.Lock()
        self._loaded: dict[str | bytes, AgentRecord] = {}

    def register(self, spec: AgentSpec | dict[str, Any], allow: AllowList | None = None) -> AgentRecord:
        """Register an agent; returns its record with a new ``agent_id`` (12 hex digits).

        Args:
            spec: what to register.
            allow: the allow-list its address must pass (default: ``LONGHOUSE_AGENT_ALLOW``).
        Raises:
            pydantic.ValidationError: a bad spec.
            AddressRefused: the allow-list refuses the address, or its host does not resolve
                (nothing is registered).
        """
        spec = spec if isinstance(spec, AgentSpec) else AgentSpec.model_validate(spec)
        (allow if allow is not None else configured_allow_list()).check_agent(spec.protocol, spec.address)
        record = AgentRecord(agent_id=secrets_mod.token_hex(6), **spec.model_dump())
        self._put(record)
        return record

    def rotate_secret(self, agent_id: str, secret: str, current: str, overlap_s: int = 0,
                      now: float | None = None) -> AgentRecord:
        """Replace an agent's secret; only who knows the ``current`` one may (compared in
        constant time). With ``overlap_s`` > 0 (seconds, at most :data:`MAX_OVERLAP_S`) the
        current secret keeps signing beside the new one until ``now + overlap_s`` (a rotation
        window: the agent may switch at any moment of it); with 0 it stops at once. A rotation
        ends any earlier window. Raises UnknownAgent, WrongSecret, ValueError (``overlap_s`` out of
        range), pydantic.ValidationError (a bad new secret)."""
        import hmac

        if not 0 <= overlap_s <= MAX_OVERLAP_S:
            raise ValueError(f"overlap_s is from 0 to {MAX_OVERLAP_S} seconds")
        record = self.get(agent_id)
        if not hmac.compare_digest(record.secret.encode(), current.encode()):
            raise WrongSecret(f"that is not agent {agent_id}'s current secret")
        now = time.time() if now is None else now
        window = {"previous_secret": record.secret, "previous_until": int(now) + overlap_s} if overlap_s else \
            {"previous_secret": None, "previous_until": None}
        updated = AgentRecord.model_validate({**record.model_dump(), "secret": secret, **window})
        self._put(updated)
        return updated

    def remove(self, agent_id: str) -> AgentRecord:
        """Remove ``agent_id``'s registration; returns the record it had. The engine calls the
        agent no more: a seat it holds in a game still in play then strikes (``crash``) each turn,
        as for an agent that cannot be reached, until its match's strike limit forfeits it.
        Raises UnknownAgent."""
        record = self.get(agent_id)
        if self.client is not None:
            if not self.client.hdel(KEY, agent_id):
                raise UnknownAgent(f"no agent is registered as {agent_id!r}")
        else:
            with self._lock:
                if self._memory.pop(agent_id, None) is None:
                    raise UnknownAgent(f"no agent is registered as {agent_id!r}")
        return record

    def get(self, agent_id: str) -> AgentRecord:
        """The record of ``agent_id``, read from the store at every call (a removal or a rotation
        shows at once); a stored text already opened by this registry is not opened again, and the
        same record is returned for it (read it, do not change it). Raises UnknownAgent."""
        raw = self.client.hget(KEY, agent_id) if self.client is not None else self._memory.get(agent_id)
        return self.opened(agent_id, raw)

    def opened(self, agent_id: str, raw: str | bytes | None) -> AgentRecord:
        """The record of ``agent_id`` from ``raw``, its stored text just read from the store (field
        ``agent_id`` of :data:`KEY`; None if unset), as :meth:`get` returns it. Raises UnknownAgent
        for None."""
        if raw is None:
            raise UnknownAgent(f"no agent is registered as {agent_id!r}")
        record = self._loaded.get(raw)  # read every time, opened once: the same text is the same record
        if record is None:
            record = load_record(raw)
            if len(self._loaded) >= LOADED_MEMO:
                self._loaded.clear()
            self._loaded[raw] = record
        return record

    def all(self) -> list[AgentRecord]:
        """Every registered agent, by id."""
        raw = self.client.hgetall(KEY) if self.client is not None else dict(self._memory)
        return [load_record(v) for _, v in sorted(raw.items())]

    def _put(self, record: AgentRecord) -> None:
        text = json.dumps(seal_record(record.model_dump()), sort_keys=True)
        if self.client is not None:
            self.client.hset(KEY, record.agent_id, text)
        else:
            with self._lock:
                self._memory[record.agent_id] = text


def registry_for(table: Any) -> AgentRegistry:
    """The agent registry that goes with ``table``: the Redis of its store, or one in-memory
    registry per embedded table."""
    client = getattr(table.store, "r", None)
    existing = getattr(table, "_agent_registry", None)
    if existing is None:
        existing = AgentRegistry(client)
        table._agent_registry = existing
    return existing
