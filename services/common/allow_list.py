"""The text of the agent allow-list (``LONGHOUSE_AGENT_ALLOW``) parsed into its entries.

The setting is a comma-separated list of ``HOST:PORTS`` entries (spaces around entries are
ignored; empty: no agent may be called). ``HOST`` is ``*`` (any host), a DNS name
(``agents.example.org``), a suffix (``*.example.org``), an IPv4 address or network
(``203.0.113.7``, ``10.0.0.0/8``) or an IPv6 address or network in brackets (``[2001:db8::7]``,
``[fd00::/8]``); ``PORTS`` is one port (``50051``), a range (``8000-8099``) or ``*``.

The settings (:class:`services.common.config.Settings`) parse the text when a process starts, so
a malformed entry stops it there; what the entries permit, and the check of an agent's address
against them, is :mod:`services.agents.addresses`.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
"""An IPv4 or IPv6 address."""
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
"""An IPv4 or IPv6 network."""

_NAME_RE = re.compile(r"(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*")
_PORTS_RE = re.compile(r"\*|([0-9]{1,5})(?:-([0-9]{1,5}))?")


class AllowRule(BaseModel):
    """One entry of the allow-list, parsed from its text ``HOST:PORTS`` (see the module doc).

    Attributes:
        kind: ``"any"`` (``*``), ``"name"`` (one DNS name), ``"suffix"`` (``*.domain``) or
            ``"network"`` (an address or a network; one address is a /32 or /128).
        name: the name or the domain of a suffix, lower case, no trailing dot (else None).
        network: the network of a ``network`` entry (else None).
        low, high: the ports permitted, ``low <= port <= high``.
        text: the entry as written.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["any", "name", "suffix", "network"]
    name: str | None = None
    network: IPNetwork | None = None
    low: int
    high: int
    text: str

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        text = value.strip()
        host, sep, ports = text.rpartition(":")
        if not sep or not host:
            raise ValueError(f"{text!r} is not HOST:PORTS (e.g. agents.example.org:443, 10.0.0.0/8:50051, "
                             "[fd00::/8]:*)")
        low, high = _parse_ports(ports, text)
        out: dict[str, Any] = {"low": low, "high": high, "text": text}
        if host == "*":
            return {**out, "kind": "any"}
        if host.startswith("["):
            if not host.endswith("]"):
                raise ValueError(f"{text!r}: an IPv6 address or network goes in brackets, e.g. [fd00::/8]:50051")
            return {**out, "kind": "network", "network": _parse_network(host[1:-1], text, version=6)}
        if ":" in host:
            raise ValueError(f"{text!r}: write an IPv6 address or network in brackets, e.g. [::1]:50051")
        if re.fullmatch(r"[0-9./]+", host):
            return {**out, "kind": "network", "network": _parse_network(host, text, version=4)}
        name = host.lower().rstrip(".")
        kind = "name"
        if name.startswith("*."):
            kind, name = "suffix", name[2:]
        if not _NAME_RE.fullmatch(name):
            raise ValueError(f"{text!r}: {host!r} is not a host name, an address, a network or *")
        return {**out, "kind": kind, "name": name}

    def permits(self, host: str, port: int, address: IPAddress, special: bool) -> bool:
        """True if this entry permits connecting to ``address`` (resolved from ``host``, as written
        in the agent's address, lower case) on ``port``; ``special``: the address is not public."""
        if not self.low <= port <= self.high:
            return False
        if self.kind == "network":
            assert self.network is not None
            return address.version == self.network.version and address in self.network
        if special:
            return False
        if self.kind == "any":
            return True
        if self.kind == "name":
            return host == self.name
        return host.endswith("." + str(self.name))

    def __str__(self) -> str:
        return self.text


def _parse_ports(text: str, entry: str) -> tuple[int, int]:
    match = _PORTS_RE.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{entry!r}: the port is a number, a range like 8000-8099, or *")
    if text.strip() == "*":
        return 1, 65535
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) else low
    if not 1 <= low <= high <= 65535:
        raise ValueError(f"{entry!r}: ports run from 1 to 65535, a range from its low end to its high end")
    return low, high


def _parse_network(text: str, entry: str, version: int) -> IPNetwork:
    try:
        network = ipaddress.ip_network(text, strict=True)
    except ValueError as exc:
        raise ValueError(f"{entry!r}: {text!r} is not an IPv{version} address or network ({exc})") from None
    if network.version != version:
        raise ValueError(f"{entry!r}: {text!r} is not an IPv{version} address or network")
    if isinstance(network, ipaddress.IPv6Network) and network.prefixlen >= 96:
        mapped = network.network_address.ipv4_mapped
        if mapped is not None and network.prefixlen == 128:
            return ipaddress.ip_network(mapped)  # ::ffff:a.b.c.d is judged as a.b.c.d
    return network


def parse_allow_rules(text: str | None) -> tuple[AllowRule, ...]:
    """The entries of the allow-list text ``text`` (``LONGHOUSE_AGENT_ALLOW``), in the order
    written; empty or None: no entry.

    Raises:
        ValueError: an entry is not ``HOST:PORTS``; the message starts ``LONGHOUSE_AGENT_ALLOW:``,
            quotes the entry and says what is expected.
    """
    entries = [part.strip() for part in (text or "").split(",")]
    entries = [e for e in entries if e]
    try:
        return tuple(AllowRule.model_validate(e) for e in entries)
    except ValidationError as exc:
        first = exc.errors()[0]
        message = str(first.get("msg", "bad entry")).removeprefix("Value error, ")
        raise ValueError(f"LONGHOUSE_AGENT_ALLOW: {message}") from None
