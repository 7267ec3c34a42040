"""The synchronous client of the Longhouse HTTP API (:class:`Client`).

One method per route of the gateway's ``/openapi.json`` (:data:`ROUTES` lists them), each
returning the pydantic model of the answer (:mod:`longhouse_client.models`) or raising the
:class:`~longhouse_client.errors.LonghouseError` subclass of the refusal.

Retries (:class:`RetryPolicy`):

* a ``429`` (a rate limit or the quota: the gateway did nothing) is sent again after its
  ``Retry-After``, for every request;
* a dropped connection or a ``502``/``503``/``504`` is retried with back-off only for requests
  that are safe to repeat: reads, a move (its ``move_id`` makes a repeat answer with the first
  result, never play twice), creating a game (the client sends an ``Idempotency-Key``, so a
  repeat answers with the game the first attempt made) and cancelling a tournament. Taking a
  seat, registering an agent, rotating a secret and creating a tournament are sent once.

Seat tokens go in ``Authorization: Bearer``; the operator key, where a route needs it, in
``X-Longhouse-Operator-Key`` (from ``operator_key=``, ``operator_key_file=``, or the environment:
``LONGHOUSE_OPERATOR_KEY``, else the file ``LONGHOUSE_OPERATOR_KEY_FILE`` names).
"""

from __future__ import annotations

import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, TypeVar

import httpx
from pydantic import BaseModel

from . import models
from .errors import LonghouseError, Unavailable, error_for
from .sse import Parser

OPERATOR_KEY_HEADER = "X-Longhouse-Operator-Key"
"""The header of an operator key."""
T = TypeVar("T", bound=BaseModel)

ROUTES: dict[tuple[str, str], str] = {
    ("GET", "/healthz"): "health",
    ("GET", "/livez"): "alive",
    ("GET", "/readyz"): "ready",
    ("GET", "/openapi.json"): "openapi",
    ("GET", "/metrics"): "metrics",
    ("GET", "/catalog"): "catalog",
    ("GET", "/catalog/{game}"): "catalog_game",
    ("GET", "/games"): "games",
    ("POST", "/games"): "create_game",
    ("GET", "/games/{game_id}"): "game",
    ("GET", "/games/{game_id}/wait"): "wait",
    ("POST", "/games/{game_id}/seats/{seat}"): "take_seat",
    ("GET", "/games/{game_id}/view"): "view",
    ("GET", "/games/{game_id}/legal-moves"): "legal_moves",
    ("POST", "/games/{game_id}/moves"): "move",
    ("GET", "/games/{game_id}/stream"): "events",
    ("GET", "/agents"): "agents",
    ("POST", "/agents"): "register_agent",
    ("GET", "/agents/{agent_id}"): "agent",
    ("DELETE", "/agents/{agent_id}"): "remove_agent",
    ("POST", "/agents/{agent_id}/secret"): "rotate_agent_secret",
    ("GET", "/tournaments"): "tournaments",
    ("POST", "/tournaments"): "create_tournament",
    ("GET", "/tournaments/{tid}"): "tournament",
    ("POST", "/tournaments/{tid}/cancel"): "cancel_tournament",
    ("GET", "/tournaments/{tid}/standings.csv"): "standings_csv",
    ("GET", "/tournaments/{tid}/ratings.png"): "ratings_png",
    ("GET", "/"): "page",
    ("GET", "/table/{game_id}"): "page",
    ("GET", "/replay/{game_id}"): "page",
    ("GET", "/standings/{tid}"): "page",
    ("GET", "/board"): "page",
    ("GET", "/docs"): "page",
    ("GET", "/docs/assets/{name}"): "page",
}
"""Every route of the API (method, OpenAPI path) -> the :class:`Client` method that calls it
(the web pages and the API reference's files share :meth:`Client.page`)."""


def read_operator_key(path: str | os.PathLike[str]) -> str:
    """The operator key in the file at ``path`` (its first word). Raises OSError, ValueError (empty)."""
    words = Path(path).read_text().split()
    if not words:
        raise ValueError(f"{path} holds no operator key")
    return words[0]


def operator_key_from_env(environ: Mapping[str, str] | None = None) -> str | None:
    """``LONGHOUSE_OPERATOR_KEY``, else the key in the file ``LONGHOUSE_OPERATOR_KEY_FILE`` names,
    else None. Raises OSError, ValueError for a named file that cannot be read or is empty."""
    env = os.environ if environ is None else environ
    key = (env.get("LONGHOUSE_OPERATOR_KEY") or "").strip()
    if key:
        return key
    path = (env.get("LONGHOUSE_OPERATOR_KEY_FILE") or "").strip()
    return read_operator_key(path) if path else None


@dataclass(frozen=True)
class RetryPolicy:
    """How requests are sent again.

    Attributes:
        attempts: sends at most, the first included (a 429 and a safe request's failure alike).
        backoff_s: the first back-off after a dropped connection or a 5xx, doubled each time...
        backoff_max_s: ...up to this.
        max_retry_after_s: the longest ``Retry-After`` waited for; a longer one is raised at once
            (:class:`~longhouse_client.errors.RateLimited`).
    """

    attempts: int = 4
    backoff_s: float = 0.2
    backoff_max_s: float = 3.0
    max_retry_after_s: float = 60.0

    def backoff(self, attempt: int) -> float:
        """Seconds to wait before attempt ``attempt + 1`` (``attempt`` counts from 1)."""
        return min(self.backoff_max_s, self.backoff_s * 2 ** (attempt - 1))


RETRY_STATUSES = frozenset({502, 503, 504})
"""Statuses after which a request that is safe to repeat is sent again."""


def retry_after(response: httpx.Response) -> float | None:
    """The ``Retry-After`` of ``response`` in seconds (delta-seconds form), or None."""
    raw = response.headers.get("Retry-After", "").strip()
    return float(raw) if raw.isdigit() else None


def retry_wait(policy: RetryPolicy, response: httpx.Response, safe: bool, attempt: int) -> float | None:
    """Seconds to wait before sending a request again after ``response`` (its ``attempt``-th
    answer), or None to keep the answer: a 429 after its ``Retry-After`` (1 s if it names none;
    kept if longer than ``policy.max_retry_after_s``), a 502/503/504 of a ``safe`` request after
    its ``Retry-After`` or the back-off; nothing once ``policy.attempts`` are spent."""
    if attempt >= policy.attempts:
        return None
    status = response.status_code
    if status == 429:
        wait = retry_after(response)
        wait = 1.0 if wait is None else wait
        return wait if wait <= policy.max_retry_after_s else None
    if status in RETRY_STATUSES and safe:
        wait = retry_after(response)
        return min(wait, policy.max_retry_after_s) if wait is not None else policy.backoff(attempt)
    return None


def commit_message(raw: Any) -> models.StreamMessage | None:
    """The event stream's ``commit`` message in ``raw`` (an SSE event the parser completed), or
    None for anything else (a keep-alive, another event, a line that completes nothing)."""
    if raw is None or raw.event != "commit":
        return None
    return models.StreamMessage(id=raw.id or "", event=raw.event,
                                entry=models.StreamEntry.model_validate_json(raw.data))


def _decode(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


class Client:
    """The Longhouse HTTP API, one method per route (:data:`ROUTES`).

    Args:
        base_url: the gateway, e.g. ``http://127.0.0.1:8470``.
        operator_key: the key sent on operator routes (creating games and tournaments, agents);
            None: ``operator_key_file``, else the environment (:func:`operator_key_from_env`).
        operator_key_file: a file holding the key (what ``make run`` writes).
        timeout: seconds per request (a long poll adds its own wait).
        retry: the :class:`RetryPolicy`.
        transport: an ``httpx`` transport (tests; default: a real connection pool).
        sleep: how the client waits between attempts (default ``time.sleep``).

    Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, base_url: str, *, operator_key: str | None = None,
                 operator_key_file: str | os.PathLike[str] | None = None, timeout: float = 30.0,
                 retry: RetryPolicy | None = None, transport: httpx.BaseTransport | None = None,
                 sleep: Callable[[float], None] = time.sleep):
        self.base_url = base_url.rstrip("/")
        if operator_key is None:
            operator_key = read_operator_key(operator_key_file) if operator_key_file else operator_key_from_env()
        self.operator_key = operator_key
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout, transport=transport,
                                  headers={"User-Agent": "longhouse-client"}, trust_env=False)

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing ----------------------------------------------------------------------------
    def _headers(self, token: str | None, operator: bool, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        headers = dict(extra or {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if operator and self.operator_key:
            headers[OPERATOR_KEY_HEADER] = self.operator_key
        return headers

    def request(self, method: str, path: str, *, token: str | None = None, operator: bool = False,
                json: Any = None, params: Mapping[str, Any] | None = None,
                headers: Mapping[str, str] | None = None, safe: bool = False,
                timeout: float | None = None) -> httpx.Response:
        """Send one request with the retries of :class:`RetryPolicy` and return its 2xx answer.

        Args:
            safe: True if repeating the request can do no harm (see the module docstring).
        Raises:
            LonghouseError: a 4xx/5xx answer (its subclass), after the retries.
            httpx.TransportError: the connection failed (after the retries, if ``safe``).
        """
        sent = self._headers(token, operator, headers)
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self._http.request(method, path, json=json, params=params, headers=sent,
                                              timeout=timeout or self.timeout)
            except httpx.TransportError:
                if not safe or attempt >= self.retry.attempts:
                    raise
                self._sleep(self.retry.backoff(attempt))
                continue
            wait = self._wait_before_retry(response, safe, attempt)
            if wait is None:
                break
            response.close()
            self._sleep(wait)
        if response.status_code >= 400:
            raise error_for(response.status_code, _decode(response), response.text)
        return response

    def _wait_before_retry(self, response: httpx.Response, safe: bool, attempt: int) -> float | None:
        """Seconds to wait before sending again, or None to answer with ``response``."""
        return retry_wait(self.retry, response, safe, attempt)

    def _get(self, model: type[T], path: str, **kwargs: Any) -> T:
        return model.model_validate(self.request("GET", path, safe=True, **kwargs).json())

    # -- health, the document, the catalog ------------------------------------------------------
    def health(self) -> models.Health:
        """``GET /healthz``. Raises Unavailable when the gateway's Redis does not answer."""
        return self._get(models.Health, "/healthz")

    def alive(self) -> models.Alive:
        """``GET /livez``: the gateway process answers (whatever Redis and the services do)."""
        return self._get(models.Alive, "/livez")

    def ready(self) -> models.Ready:
        """``GET /readyz``, asked once (no retry): every part of the stack serves.

        Raises:
            Unavailable: ``not_ready``; its ``body["checks"]`` says which part does not serve yet.
            httpx.TransportError: the gateway does not answer at all.
        """
        return models.Ready.model_validate(self.request("GET", "/readyz").json())

    def wait_ready(self, timeout_s: float = 120.0, poll_s: float = 0.25) -> models.Ready:
        """Ask :meth:`ready` every ``poll_s`` seconds until the stack serves or ``timeout_s`` seconds
        have passed (a stack just started: the gateway may not even answer yet).

        Raises:
            TimeoutError: not ready in time; the message holds the last answer's checks or error.
        """
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                return self.ready()
            except (Unavailable, httpx.TransportError) as exc:
                last = (exc.body.get("checks") or exc.reason) if isinstance(exc, Unavailable) else exc
            if time.monotonic() + poll_s > deadline:
                raise TimeoutError(f"{self.base_url} not ready within {timeout_s:.0f} s: {last}")
            self._sleep(poll_s)

    def openapi(self) -> dict[str, Any]:
        """``GET /openapi.json``: the OpenAPI 3.1 document of the gateway."""
        return self.request("GET", "/openapi.json", safe=True).json()

    def metrics(self) -> str:
        """``GET /metrics``: the gateway's Prometheus metrics, in the text exposition format
        (``longhouse_moves_total``, request latencies by route...; README, "Metrics")."""
        return self.request("GET", "/metrics", safe=True).text

    def catalog(self) -> models.Catalog:
        """``GET /catalog``: every game hosted, with seats, options, bot kinds, move and view schemas."""
        return self._get(models.Catalog, "/catalog")

    def catalog_game(self, game: str) -> models.CatalogGame:
        """``GET /catalog/<game>``. Raises NotFound (``unknown_game``)."""
        return self._get(models.CatalogGame, f"/catalog/{game}")

    def page(self, path: str = "/") -> str:
        """A web page's HTML (``/``, ``/table/<id>``, ``/replay/<id>``, ``/standings/<tid>``,
        ``/board``, the API reference ``/docs``), or a text file of the reference
        (``/docs/assets/<name>``). Raises NotFound for an unknown game, tournament or file."""
        return self.request("GET", path, safe=True).text

    # -- games ---------------------------------------------------------------------------------
    def games(self, *, status: str | None = None, game: str | None = None, limit: int | None = None,
              after: str | None = None) -> models.GameList:
        """``GET /games``: one page, newest first (``status``: active, phase, over or in_play;
        ``game``: a name; ``limit``: 1-100; ``after``: the previous page's ``next``)."""
        params = {k: v for k, v in (("status", status), ("game", game), ("limit", limit), ("after", after))
                  if v is not None}
        return self._get(models.GameList, "/games", params=params)

    def all_games(self, *, status: str | None = None, game: str | None = None,
                  max_pages: int = 1000) -> Iterator[models.GameListItem]:
        """Every game of the listing, following ``next`` page after page (at most ``max_pages``)."""
        after = None
        for _ in range(max_pages):
            page = self.games(status=status, game=game, limit=100, after=after)
            yield from page.games
            if page.next is None:
                return
            after = page.next

    def create_game(self, game: str, players: int, *, seed: str | None = None,
                    options: Mapping[str, Any] | None = None, bots: Mapping[str, Any] | None = None,
                    open: bool = False, time_control: Mapping[str, int] | None = None,
                    idempotency_key: str | None = None) -> models.CreatedGame:
        """``POST /games`` (operator key). ``bots``: seat (as a string) -> a bot kind, or
        ``{"kind": "agent", "agent": <id>}``; ``open``: free seats need no invitation. A fresh
        ``Idempotency-Key`` is sent (or ``idempotency_key``), so a retry never makes a second game.
        Raises Unprocessable (``unknown_game``, ``bad_config``), Unauthorized/Forbidden (the key)."""
        body: dict[str, Any] = {"game": game, "players": players, "options": dict(options or {})}
        if seed is not None:
            body["seed"] = seed
        if bots:
            body["bots"] = dict(bots)
        if open:
            body["open"] = True
        if time_control:
            body["time_control"] = dict(time_control)
        headers = {"Idempotency-Key": idempotency_key or uuid.uuid4().hex}
        response = self.request("POST", "/games", operator=True, json=body, headers=headers, safe=True)
        return models.CreatedGame.model_validate(response.json())

    def game(self, game_id: str) -> models.GameSummary:
        """``GET /games/<id>``: the public summary. Raises NotFound."""
        return self._get(models.GameSummary, f"/games/{game_id}")

    def wait(self, game_id: str, after: int, *, timeout: float = 25.0, until_over: bool = False,
             token: str | None = None, until_turn: bool = False, view: bool = False) -> models.WaitResult:
        """``GET /games/<id>/wait``: the summary once the version passes ``after`` (``until_over``:
        once the game is over; ``until_turn``, with the seat's ``token``: once that seat decides at a
        version above ``after``, or the game is over), or when ``timeout`` seconds (at most 30) have
        passed. With ``token`` the answer also holds the seat's ``legal_moves`` at its version (empty
        unless it decides then), and with ``view`` its player ``view``: a client learns its next
        decision in one long-poll, never by polling."""
        params: dict[str, Any] = {"after": after, "timeout": timeout}
        if until_over:
            params["until"] = "over"
        if until_turn:
            params["until"] = "turn"
        if view:
            params["view"] = "true"
        return self._get(models.WaitResult, f"/games/{game_id}/wait", token=token, params=params,
                         timeout=self.timeout + timeout)

    def take_seat(self, game_id: str, seat: int, invitation: str | None = None) -> models.SeatToken:
        """``POST /games/<id>/seats/<seat>`` with the seat's invitation (None for an open game): the
        seat's token. Sent once (a repeat would find the seat taken). Raises Unauthorized
        (``missing_invitation``), Forbidden (``wrong_invitation``), Conflict (``seat_taken``)."""
        body = {"invitation": invitation} if invitation is not None else {}
        return models.SeatToken.model_validate(self.request("POST", f"/games/{game_id}/seats/{seat}",
                                                            json=body).json())

    def view(self, game_id: str, token: str | None = None, *, seat: int | None = None,
             version: int | None = None) -> models.PlayerView:
        """``GET /games/<id>/view``: the token's seat's view (a spectator's without a token), at
        ``version`` of the log if given (a replay's step)."""
        params = {k: v for k, v in (("seat", seat), ("version", version)) if v is not None}
        return self._get(models.PlayerView, f"/games/{game_id}/view", token=token, params=params)

    def legal_moves(self, game_id: str, token: str) -> models.LegalMoves:
        """``GET /games/<id>/legal-moves``: the seat's legal moves now (empty: not its decision)."""
        return self._get(models.LegalMoves, f"/games/{game_id}/legal-moves", token=token)

    def move(self, game_id: str, token: str, move: Mapping[str, Any], expected_version: int, *,
             move_id: str | None = None, legal: bool = False, view: bool = False) -> models.MoveResult:
        """``POST /games/<id>/moves``: play ``move`` decided at ``expected_version``. A fresh
        ``move_id`` is made unless given; retries resend the same one, so the move is never
        played twice. The answer's ``next`` says who decides at which version after it; with
        ``legal`` it holds this seat's ``legal_moves`` there (empty unless it decides next), with
        ``view`` its player ``view``: one request a move while the seat keeps the decision.
        Raises Conflict (``stale_version``, ``not_your_turn``, ``move_id_reused``), IllegalMove,
        MalformedMove."""
        body = {"move_id": move_id or uuid.uuid4().hex, "expected_version": expected_version, "move": dict(move)}
        params = {k: "true" for k, on in (("legal", legal), ("view", view)) if on}
        response = self.request("POST", f"/games/{game_id}/moves", token=token, json=body, safe=True,
                                params=params or None)
        return models.MoveResult.model_validate(response.json())

    def events(self, game_id: str, token: str | None = None, *, last_event_id: str | None = None,
               max_events: int | None = None, idle_timeout: float | None = None,
               reconnects: int = 5) -> Iterator[models.StreamMessage]:
        """``GET /games/<id>/stream`` as an iterator of :class:`~longhouse_client.models.StreamMessage`,
        from the start of the log, or after ``last_event_id`` (an id the game's stream sent,
        ``"<game_id>:<version>-0"``; :func:`~longhouse_client.models.event_id` makes one).

        A dropped connection (or a stream the server ends though neither bound was asked for) is
        opened again with ``Last-Event-ID`` set to the last message received, so no entry is lost
        or repeated; at most ``reconnects`` times in a row without a message between. The iterator
        ends after ``max_events`` messages or ``idle_timeout`` seconds without one (the gateway's
        bounds), or when the caller stops reading (``break``).

        Raises:
            LonghouseError: the stream was refused (NotFound; BadRequest ``bad_last_event_id``, or
                ``wrong_game_last_event_id`` for an id of another game).
        """
        received = 0
        failures = 0
        while True:
            params: dict[str, Any] = {}
            if max_events is not None:
                params["max_events"] = max_events - received
            if idle_timeout is not None:
                params["idle_timeout"] = idle_timeout
            headers = self._headers(token, False, {"Accept": "text/event-stream"})
            if last_event_id:
                headers["Last-Event-ID"] = last_event_id
            ended_by_server = False
            try:
                with self._http.stream("GET", f"/games/{game_id}/stream", params=params, headers=headers,
                                       timeout=httpx.Timeout(self.timeout, read=None)) as response:
                    if response.status_code >= 400:
                        response.read()
                        raise error_for(response.status_code, _decode(response), response.text)
                    parser = Parser()
                    for line in response.iter_lines():
                        message = commit_message(parser.feed(line))
                        if message is None:
                            continue
                        last_event_id = message.id
                        received += 1
                        failures = 0
                        yield message
                        if max_events is not None and received >= max_events:
                            return
                    ended_by_server = True
            except (httpx.TransportError, httpx.DecodingError):
                pass
            if ended_by_server and (idle_timeout is not None or max_events is not None):
                return
            failures += 1
            if failures > reconnects:
                raise LonghouseError(0, "stream_lost", f"the stream of game {game_id} dropped "
                                                       f"{failures} times in a row")
            self._sleep(self.retry.backoff(failures))

    def replay(self, game_id: str, token: str | None = None) -> list[models.StreamMessage]:
        """The game's whole log as the stream gives it (the public events, and the token's seat's
        private ones), from version 1 to the version it has now."""
        version = self.game(game_id).version
        return list(self.events(game_id, token, max_events=version)) if version else []

    # -- agents ------------------------------------------------------------------------------
    def agents(self) -> models.AgentList:
        """``GET /agents`` (operator key): every registered agent, without secrets."""
        return self._get(models.AgentList, "/agents", operator=True)

    def agent(self, agent_id: str) -> models.AgentRecord:
        """``GET /agents/<id>`` (operator key). Raises NotFound (``unknown_agent``)."""
        return self._get(models.AgentRecord, f"/agents/{agent_id}", operator=True)

    def register_agent(self, name: str, protocol: str, address: str, secret: str) -> models.AgentRecord:
        """``POST /agents`` (operator key): ``protocol`` ``http`` (address an http(s) URL) or
        ``grpc`` (``host:port``); ``secret`` (16-256 characters, or ``whsec_<base64>``) signs every
        request the engine sends it. Raises Forbidden (``address_not_allowed``), BadRequest."""
        body = {"name": name, "protocol": protocol, "address": address, "secret": secret}
        return models.AgentRecord.model_validate(self.request("POST", "/agents", operator=True, json=body).json())

    def remove_agent(self, agent_id: str) -> models.AgentRecord:
        """``DELETE /agents/<id>`` (operator key): the record it had. Raises NotFound."""
        return models.AgentRecord.model_validate(self.request("DELETE", f"/agents/{agent_id}", operator=True).json())

    def rotate_agent_secret(self, agent_id: str, current: str, secret: str, *, overlap_s: int = 0) -> models.AgentRecord:
        """``POST /agents/<id>/secret`` (operator key and the current secret): the new secret signs
        from now on, the current one beside it for ``overlap_s`` seconds (at most a week).
        Raises Forbidden (``wrong_secret``), NotFound, BadRequest."""
        body = {"current": current, "secret": secret, "overlap_s": overlap_s}
        return models.AgentRecord.model_validate(
            self.request("POST", f"/agents/{agent_id}/secret", operator=True, json=body).json())

    # -- tournaments -------------------------------------------------------------------------
    def tournaments(self) -> models.TournamentList:
        """``GET /tournaments``: the newest 100."""
        return self._get(models.TournamentList, "/tournaments")

    def create_tournament(self, spec: Mapping[str, Any]) -> models.CreatedTournament:
        """``POST /tournaments`` (operator key) with the spec of docs/API.md (``games``, ``format``,
        ``players``, ``participants``, ...). Sent once. Raises Unprocessable (``bad_tournament``)."""
        return models.CreatedTournament.model_validate(
            self.request("POST", "/tournaments", operator=True, json=dict(spec)).json())

    def tournament(self, tid: str) -> models.Tournament:
        """``GET /tournaments/<id>``: status, standings so far and the recorded matches."""
        return self._get(models.Tournament, f"/tournaments/{tid}")

    def cancel_tournament(self, tid: str) -> models.Tournament:
        """``POST /tournaments/<id>/cancel`` (operator key); safe to repeat. Raises Conflict
        (``tournament_over``), NotFound."""
        return models.Tournament.model_validate(
            self.request("POST", f"/tournaments/{tid}/cancel", operator=True, safe=True).json())

    def wait_tournament(self, tid: str, *, timeout_s: float = 600.0, poll_s: float = 1.0) -> models.Tournament:
        """Poll :meth:`tournament` every ``poll_s`` seconds until it is finished; at most
        ``timeout_s``. Raises TimeoutError."""
        deadline = time.monotonic() + timeout_s
        while True:
            report = self.tournament(tid)
            if report.finished:
                return report
            if time.monotonic() > deadline:
                raise TimeoutError(f"tournament {tid} not finished within {timeout_s:g} s ({report.status})")
            self._sleep(poll_s)

    def standings_csv(self, tid: str) -> str:
        """``GET /tournaments/<id>/standings.csv``. Raises NotFound (``no_results`` before any rating)."""
        return self.request("GET", f"/tournaments/{tid}/standings.csv", safe=True).text

    def ratings_png(self, tid: str) -> bytes:
        """``GET /tournaments/<id>/ratings.png``: the rating plot. Raises NotFound (``no_results``)."""
        return self.request("GET", f"/tournaments/{tid}/ratings.png", safe=True).content
