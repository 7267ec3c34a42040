"""A small HTTP client of the gateway, used by the built-in bots and the tournament.

One :class:`GatewayClient` holds one ``requests.Session`` (keep-alive); use one per
thread. Reads and moves are retried with back-off on a dropped connection or a 502/503/504
(:data:`RETRY`; a move keeps its ``move_id``, so a retry never plays it twice), also when the
connection drops in the middle of the answer (:data:`CUT_ANSWER_RETRIES`), so a short
outage costs no game. A 429 (rate limit, quota) is retried after its ``Retry-After``, a few
times, for every request (:data:`REFUSED_RETRY` for those sent once). Every call raises :class:`GatewayError` for a 4xx/5xx answer, carrying the
status and the gateway's ``{"error", "reason"}`` body; a 409 (stale version, not your
turn) is the subclass :class:`Conflict`, which a bot answers by reading again.

Creating games and tournaments needs an operator key (README, "Operator keys"): give it as
``operator_key=``, or let the client read it from the environment (:func:`operator_key_from_env`:
``LONGHOUSE_OPERATOR_KEY``, else the file named by ``LONGHOUSE_OPERATOR_KEY_FILE``). It goes in
the header ``X-Longhouse-Operator-Key`` of those requests only.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

RETRY = Retry(total=6, connect=6, read=6, status=6, backoff_factor=0.2, backoff_max=3.0, backoff_jitter=0.1,
              status_forcelist=(502, 503, 504), allowed_methods=frozenset({"GET", "POST"}),
              respect_retry_after_header=True, raise_on_status=False)
"""How a request that may safely be repeated is retried: on a dropped connection or a 502,
503 or 504, six more times with exponential back-off from 0.2 s to 3 s (about 10 s in all).
Reads are safe; so is a move, whose ``move_id`` makes a repeat answer with the first result.
Creating a game or a tournament and taking a seat are sent once."""
class _OnlyRefused(Retry):
    """A :class:`Retry` that honours ``Retry-After`` on a 429 only (urllib3 also does on 413 and
    503, which for a request sent once may have done something)."""

    RETRY_AFTER_STATUS_CODES = frozenset({429})


REFUSED_RETRY = _OnlyRefused(total=3, connect=0, read=0, status=3, other=0, redirect=0, status_forcelist=(429,),
                      allowed_methods=frozenset({"GET", "POST"}), respect_retry_after_header=True,
                      backoff_factor=0.2, backoff_max=3.0, raise_on_status=False)
"""How a request sent once (creating a game or a tournament, taking a seat) is retried: only when
the gateway answered 429 (a rate limit or the quota: it did nothing), up to three more times,
each after the answer's ``Retry-After`` (docs/API.md, Rate limits). :data:`RETRY` retries a 429
of the other requests the same way, after ``Retry-After``."""
CUT_ANSWER_RETRIES = 3
"""Times a read or a move is sent again when the connection drops in the middle of its answer
(after the status line: urllib3's :data:`RETRY` has already handed the response over). The
crash harness saw it when a gateway worker was killed while it answered."""


OPERATOR_KEY_HEADER = "X-Longhouse-Operator-Key"
"""The header of an operator key (:data:`gateway.operators.HEADER`)."""


def read_operator_key(path: str | os.PathLike[str]) -> str | None:
    """The operator key in the file at ``path``: its first word (a key file holds the key on its
    first line), or ``None`` for a file with nothing in it. The one reader of key files, for the
    clients and the launcher (:func:`gateway.operators.read_key_file`).

    Raises:
        OSError: the file cannot be read.
    """
    words = Path(path).read_text().split()
    return words[0] if words else None


def operator_key_from_env(environ: dict[str, str] | None = None) -> str | None:
    """The operator key a client sends by default: ``LONGHOUSE_OPERATOR_KEY``, else the first line
    of the file ``LONGHOUSE_OPERATOR_KEY_FILE`` names, else ``None`` (no key).

    Raises:
        OSError: the file named cannot be read.
    """
    env = os.environ if environ is None else environ
    key = (env.get("LONGHOUSE_OPERATOR_KEY") or "").strip()
    if key:
        return key
    path = (env.get("LONGHOUSE_OPERATOR_KEY_FILE") or "").strip()
    return read_operator_key(path) if path else None


class GatewayError(Exception):
    """The gateway answered with an error status.

    Attributes:
        status: the HTTP status code.
        error: the body's ``"error"`` (a short code), or ``"http_<status>"``.
        reason: the body's ``"reason"`` (readable), or the raw text.
    """

    def __init__(self, status: int, error: str, reason: str):
        super().__init__(f"{status} {error}: {reason}")
        self.status = status
        self.error = error
        self.reason = reason


class Conflict(GatewayError):
    """409: the expected version is stale or it is not the seat's turn; read and retry."""


class GatewayClient:
    """Calls of the gateway's HTTP API (``/games``, seats, views, legal moves, moves, wait).

    Args:
        base_url: e.g. ``http://127.0.0.1:8470``.
        timeout: seconds per request (a long-poll adds its own wait to it).
        operator_key: the operator key sent when creating games and tournaments; ``None``:
            :func:`operator_key_from_env` (which may find none: creation is then refused, 401).
    """

    def __init__(self, base_url: str, timeout: float = 30.0, operator_key: str | None = None):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.operator_key = operator_key if operator_key is not None else operator_key_from_env()
        self.session = requests.Session()  # requests that may be repeated: retried
        adapter = HTTPAdapter(max_retries=RETRY)
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)
        self.once = requests.Session()  # requests that must not be repeated blindly: only a 429 is
        refused = HTTPAdapter(max_retries=REFUSED_RETRY)
        self.once.mount("http://", refused)
        self.once.mount("https://", refused)

    def close(self) -> None:
        """Close the sessions' connections."""
        self.session.close()
        self.once.close()

    def __enter__(self) -> "GatewayClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- plumbing -----------------------------------------------------------------
    def _call(self, method: str, path: str, token: str | None = None, timeout: float | None = None,
              once: bool = False, operator: bool = False, **kwargs: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if operator and self.operator_key:
            headers[OPERATOR_KEY_HEADER] = self.operator_key
        session = self.once if once else self.session
        for cut in range(CUT_ANSWER_RETRIES + 1):
            try:
                resp = session.request(method, self.base_url + path, headers=headers,
                                       timeout=timeout or self.timeout, **kwargs)
                break
            except requests.exceptions.ChunkedEncodingError:  # the answer was cut off
                if once or cut == CUT_ANSWER_RETRIES:
                    raise
        if resp.status_code >= 400:
            try:
                body = resp.json()
                error, reason = str(body.get("error", f"http_{resp.status_code}")), str(body.get("reason", ""))
            except ValueError:
                error, reason = f"http_{resp.status_code}", resp.text[:500]
            cls = Conflict if resp.status_code == 409 else GatewayError
            raise cls(resp.status_code, error, reason)
        return resp.json()

    # -- the API --------------------------------------------------------------------
    def create_tournament(self, spec: dict[str, Any]) -> dict[str, Any]:
        """``POST /tournaments`` (with the operator key): ``{"tournament_id", "status", "planned"}``."""
        return self._call("POST", "/tournaments", json=spec, once=True, operator=True)

    def tournament(self, tournament_id: str) -> dict[str, Any]:
        """``GET /tournaments/<id>``: the report (standings so far, recorded matches)."""
        return self._call("GET", f"/tournaments/{tournament_id}")

    def health(self) -> bool:
        """True if ``GET /healthz`` answers 200."""
        try:
            return self.session.get(self.base_url + "/healthz", timeout=self.timeout).status_code == 200
        except requests.RequestException:
            return False

    def create_game(self, game: str, players: int, seed: str | None = None,
                    options: dict[str, Any] | None = None, bots: dict[str, Any] | None = None,
                    open: bool = False) -> dict[str, Any]:
        """``POST /games`` (with the operator key) -> ``{"game_id", "version", "status", "open",
        "invitations"}`` (``bots``: seat -> built-in bot on the bus; ``invitations``: seat -> the
        invitation :meth:`take_seat` needs, for every other seat; ``open``: no invitations needed)."""
        body: dict[str, Any] = {"game": game, "players": players, "options": options or {}}
        if seed is not None:
            body["seed"] = seed
        if bots:
            body["bots"] = bots
        if open:
            body["open"] = True
        return self._call("POST", "/games", json=body, once=True, operator=True)

    def game(self, game_id: str) -> dict[str, Any]:
        """``GET /games/<id>`` -> the summary (``version``, ``status``, ``to_move``, ``outcome`` ...)."""
        return self._call("GET", f"/games/{game_id}")

    def take_seat(self, game_id: str, seat: int, invitation: str | None = None) -> str:
        """``POST /games/<id>/seats/<seat>`` with the seat's ``invitation`` (from :meth:`create_game`;
        ``None`` for an open game); returns the seat's bearer token."""
        body = {"invitation": invitation} if invitation is not None else {}
        return self._call("POST", f"/games/{game_id}/seats/{seat}", once=True, json=body)["token"]

    def view(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        """``GET /games/<id>/view`` -> ``{"version", "seat", "status", "to_move", "outcome", "view"}``."""
        return self._call("GET", f"/games/{game_id}/view", token=token)

    def legal_moves(self, game_id: str, token: str) -> dict[str, Any]:
        """``GET /games/<id>/legal-moves`` -> ``{"version", "seat", "moves"}``."""
        return self._call("GET", f"/games/{game_id}/legal-moves", token=token)

    def move(self, game_id: str, token: str, move: dict[str, Any], expected_version: int,
             move_id: str | None = None, legal: bool = False) -> dict[str, Any]:
        """``POST /games/<id>/moves`` with a fresh move id -> ``{"version", "events", "next"}``:
        ``next`` is the game right after the move (``version``, ``status``, ``to_move``), with
        ``legal`` also this seat's ``legal_moves`` there (empty unless it decides next), so a seat
        that keeps the decision needs no other request for its next move.

        Raises:
            Conflict: 409, the version moved on or it is not this seat's turn.
            GatewayError: any other refusal (illegal or malformed move, unknown game).
        """
        body = {"move_id": move_id or uuid.uuid4().hex, "expected_version": expected_version, "move": move}
        params = {"legal": "true"} if legal else None
        return self._call("POST", f"/games/{game_id}/moves", token=token, json=body, params=params)

    def wait_turn(self, game_id: str, token: str, after: int, timeout: float = 10.0) -> dict[str, Any]:
        """``GET /games/<id>/wait?until=turn``: the summary once the seat of ``token`` decides at a
        version above ``after`` (or the game is over, or the long-poll times out), with the seat's
        ``seat`` and ``legal_moves`` at the summary's ``version`` (empty unless it decides)."""
        params = {"after": after, "timeout": timeout, "until": "turn"}
        return self._call("GET", f"/games/{game_id}/wait", token=token, params=params, timeout=self.timeout + timeout)

    def wait(self, game_id: str, after: int, timeout: float = 10.0, until_over: bool = False) -> dict[str, Any]:
        """``GET /games/<id>/wait?after=<v>&timeout=<s>``: the summary once the version passes ``after``
        (``until_over``: once the game is over), or when the long-poll times out."""
        params: dict[str, Any] = {"after": after, "timeout": timeout}
        if until_over:
            params["until"] = "over"
        return self._call("GET", f"/games/{game_id}/wait", params=params, timeout=self.timeout + timeout)
