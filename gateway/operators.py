"""Operator keys: who may create games and tournaments, register agents and read operator data.

An operator key is a random bearer secret, ``lhop_<43 url-safe characters>``, sent in its own
header, :data:`HEADER` (``X-Longhouse-Operator-Key: <key>``), never in ``Authorization``
(which carries seat tokens). The gateway never stores a key: it is configured with the
**sha256 hex digests** of the keys it accepts, from two places, both optional:

* ``LONGHOUSE_OPERATOR_KEYS`` (app config ``OPERATOR_KEYS``): digests separated by commas,
  read when the gateway starts;
* ``LONGHOUSE_OPERATOR_KEYS_FILE`` (app config ``OPERATOR_KEYS_FILE``): a file with one
  digest per line (``#`` starts a comment; blank lines are skipped), read again whenever
  the file changes, so a key is added or withdrawn without a restart.

A gateway with no digest configured refuses every operator request. A key's **id** is the
first 12 hex digits of its digest (:func:`key_id`): audit lines name an operator by it and
never by the key.

``python -m gateway.operators new`` makes a key and prints it with its digest and id;
``python -m gateway.operators digest`` prints the digest of a key read from standard input.
Rotation (README, "Operator keys"): make a new key, add its digest, use it, then remove the
old digest.

In a view, :func:`require_operator` answers 401 ``missing_operator_key`` without the header
and 403 ``wrong_operator_key`` for a key whose digest is not configured (compared in constant
time); :func:`operator_id` gives the id of the request's operator for audit lines and quotas.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import ipaddress
import os
import re
import secrets
import sys
import threading
from pathlib import Path
from typing import Iterable

from flask import current_app, g, request

from services.bots.client import read_operator_key
from services.common import logs

from .errors import ApiError

HEADER = "X-Longhouse-Operator-Key"
"""The request header that carries an operator key."""
PREFIX = "lhop_"
"""How every operator key starts (so a key found somewhere can be recognised as one)."""
_DIGEST = re.compile(r"[0-9a-f]{64}")

log = logs.get_logger()


def new_key() -> str:
    """A new operator key: ``lhop_`` and 32 random bytes, URL-safe base64 (43 characters)."""
    return PREFIX + secrets.token_urlsafe(32)


def digest(key: str) -> str:
    """The sha256 hex digest of ``key`` (what the gateway is configured with)."""
    return hashlib.sha256(key.strip().encode("utf-8")).hexdigest()


def key_id(key_digest: str) -> str:
    """The short id of a key, the first 12 hex digits of its digest (safe to log)."""
    return key_digest[:12]


def parse_digests(text: str, where: str) -> list[str]:
    """The digests in ``text``: separated by commas or new lines, ``#`` comments skipped.

    Raises:
        ValueError: an entry that is not 64 lowercase hex digits (the message names its
            position in ``where``, never its content: it may be a key pasted by mistake).
    """
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        for part in line.split("#", 1)[0].split(","):
            part = part.strip().lower()
            if not part:
                continue
            if not _DIGEST.fullmatch(part):
                raise ValueError(f"{where}, line {n}: an entry is not a sha256 hex digest (64 hex digits); "
                                 f"configure the digest of a key (python -m gateway.operators digest), not the key")
            out.append(part)
    return out


class OperatorKeys:
    """The digests one gateway accepts: fixed ones plus a file read again when it changes.

    Args:
        digests: digests given at start (``OPERATOR_KEYS``).
        path: a file of digests (``OPERATOR_KEYS_FILE``), or ``None``.
    Raises:
        ValueError: a malformed digest in ``digests`` or in the file as it is at start.
    """

    def __init__(self, digests: Iterable[str] = (), path: str | os.PathLike[str] | None = None):
        self.fixed = parse_digests("\n".join(digests), "OPERATOR_KEYS")
        self.path = Path(path) if path else None
        self._lock = threading.Lock()
        self._stamp: tuple[int, int] | None = None
        self._from_file: list[str] = []
        if self.path is not None and self.path.exists():
            self._from_file = parse_digests(self.path.read_text(), str(self.path))
            self._stamp = self._stat()

    def _stat(self) -> tuple[int, int] | None:
        try:
            st = self.path.stat() if self.path else None
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size) if st else None

    def digests(self) -> list[str]:
        """Every accepted digest now (the file is read again if it changed; a file that has
        become unreadable or malformed keeps the digests read before, with a warning logged)."""
        if self.path is not None:
            stamp = self._stat()
            if stamp != self._stamp:
                with self._lock:
                    if stamp != self._stamp:
                        try:
                            self._from_file = parse_digests(self.path.read_text(), str(self.path)) if stamp else []
                            log.info("operator keys reloaded", file=str(self.path), keys=len(self._from_file))
                        except (OSError, ValueError) as exc:
                            log.warning("operator keys file not reloaded", file=str(self.path), error=str(exc))
                        self._stamp = stamp
        return [*self.fixed, *self._from_file]

    def match(self, key: str) -> str | None:
        """The digest of ``key`` if it is accepted, else ``None``; every configured digest is
        compared, each in constant time, so the answer's timing tells nothing about which."""
        wanted = digest(key)
        found = None
        for known in self.digests():
            if hmac.compare_digest(known, wanted):
                found = known
        return found


def init_operators(app) -> None:
    """Attach the app's :class:`OperatorKeys` (from ``OPERATOR_KEYS``/``OPERATOR_KEYS_FILE``).

    Raises:
        ValueError: a malformed digest in the configuration.
    """
    fixed = app.config.get("OPERATOR_KEYS") or ()
    if isinstance(fixed, str):
        fixed = [fixed]
    app.extensions["operators"] = OperatorKeys(fixed, app.config.get("OPERATOR_KEYS_FILE") or None)


def client_address() -> str:
    """The address of the client of the current request, for the audit lines and the rate limits
    alike (:func:`gateway.limits.client_address` is this function).

    ``request.remote_addr``: the TCP peer's address, or, behind ``TRUSTED_PROXIES`` = ``n`` > 0
    proxy hops, the one Werkzeug's ``ProxyFix`` took from ``X-Forwarded-For`` (the ``n``-th from
    the right; installed by :func:`gateway.limits.init_limits`). An IP address comes back in its
    canonical form (``::1``, not ``0:0:0:0:0:0:0:1``); ``"-"`` when the server gave none.
    """
    address = request.remote_addr or "-"
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return address


def require_operator() -> str:
    """The id of the request's operator key (:func:`key_id`); stored as ``g.operator``.

    Raises:
        ApiError 401 ``missing_operator_key``: no :data:`HEADER`.
        ApiError 403 ``wrong_operator_key``: a key whose digest is not configured.
    """
    key = request.headers.get(HEADER)
    if key is None or not key.strip():
        audit("operator.refused", why="missing_operator_key")
        raise ApiError(401, "missing_operator_key",
                       f"this request needs an operator key (header \"{HEADER}: <key>\")")
    found = current_app.extensions["operators"].match(key)
    if found is None:
        audit("operator.refused", why="wrong_operator_key")
        raise ApiError(403, "wrong_operator_key", "this operator key is not accepted here")
    g.operator = key_id(found)
    return g.operator


def operator_id() -> str | None:
    """The id of the request's operator if it sent an accepted key, else ``None``; never raises
    (for quotas and audit lines of routes that do not require a key)."""
    if "operator" in g:
        return g.operator
    key = request.headers.get(HEADER)
    if not key or not key.strip():
        return None
    found = current_app.extensions["operators"].match(key)
    return key_id(found) if found else None


def idempotent_game_id(key: str, operator: str | None) -> str:
    """The id of the game that ``POST /games`` with ``Idempotency-Key: key`` creates for the operator
    key whose id is ``operator`` (16 hex digits): each operator key has keys of its own, so another
    key's retry never lands on (or shows the invitations of) a game it did not make."""
    return hashlib.sha256(f"idempotency:{operator}:{key}".encode()).hexdigest()[:16]


def audit(action: str, **fields) -> None:
    """One structured audit line: ``event="audit"``, ``action`` (e.g. ``game.create``), the
    operator's key id (``operator``, if the request had an accepted key), the client's
    address (``client``) and ``fields`` (ids, seats: never a token, key, invitation or secret)."""
    who = {"client": client_address()}
    if "operator" in g:
        who["operator"] = g.operator
    log.info("audit", action=action, **who, **fields)


def main(argv: list[str] | None = None) -> int:
    """``python -m gateway.operators new [--key-file PATH]`` or ``digest`` (a key on standard input)."""
    parser = argparse.ArgumentParser(prog="python -m gateway.operators",
                                     description="Make an operator key, or print a key's digest.")
    sub = parser.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new", help="make a key; print it once, with its digest and id")
    new.add_argument("--key-file", type=Path, help="write the key to this file (mode 0600) instead of printing it")
    sub.add_parser("digest", help="read a key on standard input, print its digest")
    args = parser.parse_args(argv)
    if args.command == "digest":
        key = sys.stdin.readline().strip()
        if not key:
            parser.error("no key on standard input")
        print(digest(key))
        return 0
    key = new_key()
    d = digest(key)
    if args.key_file:
        write_key_file(args.key_file, key)
        print(f"key written to {args.key_file} (mode 0600)")
    else:
        print(f"key:    {key}")
    print(f"digest: {d}")
    print(f"id:     {key_id(d)}")
    print("Add the digest to LONGHOUSE_OPERATOR_KEYS or to the LONGHOUSE_OPERATOR_KEYS_FILE file; "
          "send the key as \"" + HEADER + ": <key>\".")
    return 0


def write_key_file(path: str | os.PathLike[str], key: str) -> None:
    """Write ``key`` to ``path``, readable by its owner only (created 0600, never wider)."""
    path = Path(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (key + "\n").encode())
    finally:
        os.close(fd)


def ensure_key_file(path: str | os.PathLike[str]) -> str:
    """The key in ``path``, made and written there first (mode 0600) if the file does not exist.

    Raises:
        OSError / ValueError: the file exists but cannot be read or holds no key.
    """
    if not Path(path).exists():
        write_key_file(path, new_key())
    return read_key_file(path)


def read_key_file(path: str | os.PathLike[str]) -> str:
    """The key in ``path`` (its first line, stripped). Raises OSError / ValueError (empty)."""
    key = read_operator_key(path)
    if not key:
        raise ValueError(f"{path} holds no key")
    return key


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
