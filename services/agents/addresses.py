"""Which agent addresses the engine may call: the operator's allow-list (``LONGHOUSE_AGENT_ALLOW``).

The engine sends requests to addresses that whoever registers an agent chooses, so it calls only
the hosts and ports the operator's configuration permits. The allow-list is a comma-separated
list of ``HOST:PORTS`` entries (spaces around entries are ignored; empty: no agent may be called):

==========================  ========================================================================
``HOST``                    permits
==========================  ========================================================================
``*``                       any host, as long as every address it resolves to is public
``agents.example.org``      that DNS name as written in the agent's address (case-insensitive),
                            as long as every address it resolves to is public
``*.example.org``           any name under ``example.org`` (not ``example.org`` itself), the same way
``203.0.113.7``             that IPv4 address, whatever it is (loopback and private ones included)
``10.0.0.0/8``              every IPv4 address in that network, whatever they are
``[2001:db8::7]``           that IPv6 address (in brackets), whatever it is
``[fd00::/8]``              every IPv6 address in that network (in brackets)
==========================  ========================================================================

``PORTS`` is one port (``50051``), a range (``8000-8099``) or ``*`` (any port). Example::

    LONGHOUSE_AGENT_ALLOW="*:443, agents.lab.example.org:50051, 10.1.0.0/16:8000-8099, 127.0.0.1:8601"

An agent's address ``host:port`` (for HTTP, the URL's host and port, 80 or 443 by default) is
allowed when **every** address the host resolves to is permitted on that port by some entry:

* a **public** address by ``*``, by a name entry matching the host as written, or by an address or
  network entry containing it;
* a **special** address — loopback, private, shared (100.64.0.0/10), link-local, unspecified,
  multicast, reserved, documentation or any other range that is not globally routable, IPv4 or
  IPv6; an IPv4-mapped IPv6 address (``::ffff:127.0.0.1``) or a 6to4 one counts as the IPv4 address
  inside it — only by an address or network entry that contains it. Names and ``*`` never permit
  a special address, so a DNS name that points at ``127.0.0.1`` is refused however it is listed.

A network entry permits everything in it: ``0.0.0.0/0:*`` would permit loopback too. The check
runs when an agent is registered and again at every connection the engine opens to it, on the
addresses just resolved; the engine then connects to one of exactly those addresses (no second
lookup that a rebinding DNS server could answer differently).

The text is parsed where the settings are read (:mod:`services.common.allow_list`, so a malformed
setting stops a process at start-up); this module checks addresses against the parsed entries.

Entry points: :func:`parse_allow_list` (the text -> :class:`AllowList`, pydantic-checked),
:meth:`AllowList.check` / :meth:`AllowList.check_agent` (-> :class:`Target` or
:class:`AddressRefused`), :func:`configured_allow_list` (the process's setting) and
:func:`resolve` (the resolver, replaceable in tests).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict

from services.common.allow_list import AllowRule, IPAddress, parse_allow_rules
from services.common import config

Resolver = Callable[[str, int], list[str]]


class AddressRefused(ValueError):
    """An agent address the engine will not call.

    Attributes:
        code: ``"address_not_allowed"`` (the allow-list does not permit it; the gateway answers
            403) or ``"bad_address"`` (its host does not resolve or it cannot be read; 400).
        reason: one sentence saying why, naming the host, port and refused address (never a
            URL's path, query or credentials).
    """

    def __init__(self, code: Literal["address_not_allowed", "bad_address"], reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class Target:
    """An agent address that passed the check.

    Attributes:
        host: the host as written in the agent's address (lower case, no brackets, no trailing dot).
        port: the port called.
        addresses: every address the host resolved to, each permitted, in the resolver's order
            (the engine connects to one of these and to nothing else).
    """

    host: str
    port: int
    addresses: tuple[str, ...]


class AllowList(BaseModel):
    """The allow-list of agent hosts and ports (see the module doc for the format and the rules).

    Build it with :func:`parse_allow_list`. ``str()`` gives the normalised text back.

    Attributes:
        rules: the entries, in the order written.
    """

    model_config = ConfigDict(frozen=True)

    rules: tuple[AllowRule, ...] = ()

    def __str__(self) -> str:
        return ",".join(rule.text for rule in self.rules)

    def check(self, host: str, port: int, resolver: Resolver | None = None) -> Target:
        """Resolve ``host`` and check every address against the entries for ``port``.

        Args:
            host: a DNS name or an IP address (IPv6 with or without brackets).
            port: 1-65535.
            resolver: ``(host, port) -> [address, ...]`` (default: :func:`resolve`, looked up at
                each call so tests can replace it).
        Returns:
            The :class:`Target`, its addresses all permitted.
        Raises:
            AddressRefused: ``address_not_allowed`` when an address is not permitted (the reason
                names it and says whether it is special), ``bad_address`` when the host does not
                resolve or the port is out of range.
        """
        name = host.strip().strip("[]").lower().rstrip(".")
        if not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535:
            raise AddressRefused("bad_address", f"port {port!r} is not from 1 to 65535")
        where = f"[{name}]:{port}" if ":" in name else f"{name}:{port}"
        if not self.rules:
            raise AddressRefused("address_not_allowed",
                                 f"agent address {where} is not allowed: the engine's allow-list of agent "
                                 "addresses (LONGHOUSE_AGENT_ALLOW) is empty, so no agent may be called")
        literal = _literal(name)
        if literal is not None:
            found = [literal]
        else:
            try:
                found = [ipaddress.ip_address(a.split("%", 1)[0]) for a in (resolver or resolve)(name, port)]
            except AddressRefused:
                raise
            except (OSError, UnicodeError, ValueError) as exc:
                raise AddressRefused("bad_address",
                                     f"agent host {name!r} does not resolve ({type(exc).__name__}), so its "
                                     "addresses cannot be checked") from None
            if not found:
                raise AddressRefused("bad_address", f"agent host {name!r} resolves to no address")
        checked: list[str] = []
        for raw in found:
            address = judged_address(raw)
            special = is_special(address)
            if not any(rule.permits(name, port, address, special) for rule in self.rules):
                shown = str(raw) if raw == address else f"{raw} (judged as {address})"
                via = "" if literal is not None else f" ({name} resolves to it)"
                word = special_kind(address)
                kind = f"{'an' if word[0] in 'aeiou' else 'a'} {word} address, refused unless listed explicitly" \
                    if special else "not in the allow-list"
                raise AddressRefused("address_not_allowed",
                                     f"agent address {where} is not allowed: {shown}{via} is {kind} "
                                     "(LONGHOUSE_AGENT_ALLOW)")
            if str(raw) not in checked:
                checked.append(str(raw))
        return Target(name, port, tuple(checked))

    def check_agent(self, protocol: str, address: str, resolver: Resolver | None = None) -> Target:
        """:meth:`check` for a registry address: an ``http://``/``https://`` URL (``protocol``
        ``"http"``) or ``host:port`` (``"grpc"``). Raises AddressRefused."""
        host, port = agent_endpoint(protocol, address)
        return self.check(host, port, resolver)


def parse_allow_list(text: str | None) -> AllowList:
    """The allow-list written as ``LONGHOUSE_AGENT_ALLOW`` (the format:
    :mod:`services.common.allow_list`) -> :class:`AllowList`.

    Raises:
        ValueError: an entry is not ``HOST:PORTS``; the message quotes the entry and says what
            is expected.
    """
    return AllowList(rules=parse_allow_rules(text))


def agent_endpoint(protocol: str, address: str) -> tuple[str, int]:
    """``(host, port)`` of a registry address: an HTTP(S) URL (default ports 80 and 443) or
    gRPC ``host:port`` (IPv6 in brackets). Raises AddressRefused (``bad_address``)."""
    if protocol == "http":
        parts = urlsplit(address)
        try:
            port = parts.port
        except ValueError:
            port = -1
        if parts.scheme not in ("http", "https") or not parts.hostname or port == -1:
            raise AddressRefused("bad_address", "an http agent's address is an http:// or https:// URL with a host")
        return parts.hostname, port or (443 if parts.scheme == "https" else 80)
    if protocol == "grpc":
        host, _, port_text = address.rpartition(":")
        host = host.strip()
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        if not host or not port_text.isdigit() or "/" in address:
            raise AddressRefused("bad_address", "a grpc agent's address is host:port")
        return host, int(port_text)
    raise AddressRefused("bad_address", "an agent's protocol is 'http' or 'grpc'")


def is_literal(host: str) -> bool:
    """True if ``host`` is an IP address (IPv6 with or without brackets), not a name: checking it
    resolves nothing, so it cannot wait on DNS."""
    return _literal(host.strip().strip("[]").lower().rstrip(".")) is not None


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def judged_address(address: IPAddress) -> IPAddress:
    """The address a check judges: the IPv4 address inside an IPv4-mapped (``::ffff:a.b.c.d``)
    or 6to4 (``2002:aabb:ccdd::``) IPv6 address, else the address itself."""
    if isinstance(address, ipaddress.IPv6Address):
        inner = address.ipv4_mapped or address.sixtofour
        if inner is not None:
            return inner
    return address


def is_special(address: IPAddress) -> bool:
    """True unless ``address`` is a public (globally routable unicast) address: loopback,
    private, shared, link-local, unspecified, multicast, reserved, site-local and every other
    range the stdlib does not call global are special. Judge :func:`judged_address` first."""
    return (not address.is_global or address.is_multicast or address.is_reserved or address.is_loopback
            or address.is_link_local or address.is_unspecified or address.is_private
            or (isinstance(address, ipaddress.IPv6Address) and address.is_site_local))


def special_kind(address: IPAddress) -> str:
    """A word for why ``address`` is special (``loopback``, ``private``, ...), for messages."""
    for word, test in (("loopback", address.is_loopback), ("unspecified", address.is_unspecified),
                       ("link-local", address.is_link_local), ("multicast", address.is_multicast),
                       ("reserved", address.is_reserved), ("private", address.is_private)):
        if test:
            return word
    return "non-public"


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to for a TCP connection to ``port``, in the system
    resolver's order, without repeats. Raises OSError (``socket.gaierror``) if it does not resolve."""
    out: list[str] = []
    for *_, sockaddr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        address = str(sockaddr[0])
        if address not in out:
            out.append(address)
    return out


@lru_cache(maxsize=8)
def _parsed(text: str) -> AllowList:
    return parse_allow_list(text)


def configured_allow_list() -> AllowList:
    """The process's allow-list: ``LONGHOUSE_AGENT_ALLOW`` as read by
    :func:`services.common.config.settings`. Raises ValueError if the setting is malformed
    (the settings themselves refuse that at start-up)."""
    return _parsed(config.settings().agent_allow)
