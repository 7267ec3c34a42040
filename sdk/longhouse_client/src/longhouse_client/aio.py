"""A small asynchronous client (:class:`AsyncClient`): the calls a player or a watcher makes,
with the same models, errors and retries as :class:`~longhouse_client.client.Client`.

Its methods are the sync client's of the same names: ``health``, ``catalog``, ``create_game``,
``game``, ``wait``, ``take_seat``, ``view``, ``legal_moves``, ``move`` (retried by its move id) and
``events`` (an async iterator that resumes with ``Last-Event-ID``). For the rest (agents,
tournaments, listings) use the sync client.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from typing import Any, AsyncIterator, Awaitable, Callable, Mapping, TypeVar

import httpx
from pydantic import BaseModel

from . import models
from .client import RetryPolicy, _decode, commit_message, operator_key_from_env, read_operator_key, retry_wait, OPERATOR_KEY_HEADER
from .errors import LonghouseError, error_for
from .sse import Parser

T = TypeVar("T", bound=BaseModel)


class AsyncClient:
    """The player's part of the Longhouse HTTP API, for asyncio.

    Args: as :class:`~longhouse_client.client.Client` (``sleep`` is a coroutine function,
    default ``asyncio.sleep``). Use as an async context manager, or await :meth:`aclose`.
    """

    def __init__(self, base_url: str, *, operator_key: str | None = None,
                 operator_key_file: str | os.PathLike[str] | None = None, timeout: float = 30.0,
                 retry: RetryPolicy | None = None, transport: httpx.AsyncBaseTransport | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep):
        self.base_url = base_url.rstrip("/")
        if operator_key is None:
            operator_key = read_operator_key(operator_key_file) if operator_key_file else operator_key_from_env()
        self.operator_key = operator_key
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout, transport=transport,
                                       headers={"User-Agent": "longhouse-client"}, trust_env=False)

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _headers(self, token: str | None, operator: bool, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        headers = dict(extra or {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if operator and self.operator_key:
            headers[OPERATOR_KEY_HEADER] = self.operator_key
        return headers

    async def request(self, method: str, path: str, *, token: str | None = None, operator: bool = False,
                      json: Any = None, params: Mapping[str, Any] | None = None,
                      headers: Mapping[str, str] | None = None, safe: bool = False,
                      timeout: float | None = None) -> httpx.Response:
        """As :meth:`Client.request <longhouse_client.client.Client.request>`, awaited."""
        sent = self._headers(token, operator, headers)
        attempt = 0
        while True:
            attempt += 1
            try:
                response = await self._http.request(method, path, json=json, params=params, headers=sent,
                                                    timeout=timeout or self.timeout)
            except httpx.TransportError:
                if not safe or attempt >= self.retry.attempts:
                    raise
                await self._sleep(self.retry.backoff(attempt))
                continue
            wait = retry_wait(self.retry, response, safe, attempt)
            if wait is None:
                break
            await self._sleep(wait)
        if response.status_code >= 400:
            raise error_for(response.status_code, _decode(response), response.text)
        return response

    async def _get(self, model: type[T], path: str, **kwargs: Any) -> T:
        return model.model_validate((await self.request("GET", path, safe=True, **kwargs)).json())

    async def health(self) -> models.Health:
        """``GET /healthz``."""
        return await self._get(models.Health, "/healthz")

    async def alive(self) -> models.Alive:
        """``GET /livez``: the gateway process answers (whatever Redis and the services do)."""
        return await self._get(models.Alive, "/livez")

    async def catalog(self) -> models.Catalog:
        """``GET /catalog``."""
        return await self._get(models.Catalog, "/catalog")

    async def create_game(self, game: str, players: int, *, seed: str | None = None,
                          options: Mapping[str, Any] | None = None, bots: Mapping[str, Any] | None = None,
                          open: bool = False, idempotency_key: str | None = None) -> models.CreatedGame:
        """``POST /games`` (operator key), with an ``Idempotency-Key`` so a retry makes no second game."""
        body: dict[str, Any] = {"game": game, "players": players, "options": dict(options or {})}
        if seed is not None:
            body["seed"] = seed
        if bots:
            body["bots"] = dict(bots)
        if open:
            body["open"] = True
        headers = {"Idempotency-Key": idempotency_key or uuid.uuid4().hex}
        response = await self.request("POST", "/games", operator=True, json=body, headers=headers, safe=True)
        return models.CreatedGame.model_validate(response.json())

    async def game(self, game_id: str) -> models.GameSummary:
        """``GET /games/<id>``."""
        return await self._get(models.GameSummary, f"/games/{game_id}")

    async def wait(self, game_id: str, after: int, *, timeout: float = 25.0, until_over: bool = False,
                   token: str | None = None, until_turn: bool = False, view: bool = False) -> models.WaitResult:
        """``GET /games/<id>/wait`` (as :meth:`Client.wait <longhouse_client.client.Client.wait>`)."""
        params: dict[str, Any] = {"after": after, "timeout": timeout}
        if until_over:
            params["until"] = "over"
        if until_turn:
            params["until"] = "turn"
        if view:
            params["view"] = "true"
        return await self._get(models.WaitResult, f"/games/{game_id}/wait", token=token, params=params,
                               timeout=self.timeout + timeout)

    async def take_seat(self, game_id: str, seat: int, invitation: str | None = None) -> models.SeatToken:
        """``POST /games/<id>/seats/<seat>`` (sent once)."""
        body = {"invitation": invitation} if invitation is not None else {}
        response = await self.request("POST", f"/games/{game_id}/seats/{seat}", json=body)
        return models.SeatToken.model_validate(response.json())

    async def view(self, game_id: str, token: str | None = None, *, version: int | None = None) -> models.PlayerView:
        """``GET /games/<id>/view``."""
        params = {"version": version} if version is not None else {}
        return await self._get(models.PlayerView, f"/games/{game_id}/view", token=token, params=params)

    async def legal_moves(self, game_id: str, token: str) -> models.LegalMoves:
        """``GET /games/<id>/legal-moves``."""
        return await self._get(models.LegalMoves, f"/games/{game_id}/legal-moves", token=token)

    async def move(self, game_id: str, token: str, move: Mapping[str, Any], expected_version: int, *,
                   move_id: str | None = None, legal: bool = False, view: bool = False) -> models.MoveResult:
        """``POST /games/<id>/moves``; retries resend the same ``move_id`` (``legal``, ``view``: as
        :meth:`Client.move <longhouse_client.client.Client.move>`)."""
        body = {"move_id": move_id or uuid.uuid4().hex, "expected_version": expected_version, "move": dict(move)}
        params = {k: "true" for k, on in (("legal", legal), ("view", view)) if on}
        response = await self.request("POST", f"/games/{game_id}/moves", token=token, json=body, safe=True,
                                      params=params or None)
        return models.MoveResult.model_validate(response.json())

    async def events(self, game_id: str, token: str | None = None, *, last_event_id: str | None = None,
                     max_events: int | None = None, idle_timeout: float | None = None,
                     reconnects: int = 5) -> AsyncIterator[models.StreamMessage]:
        """``GET /games/<id>/stream`` as an async iterator, resumed with ``Last-Event-ID`` after a
        dropped connection (as :meth:`Client.events <longhouse_client.client.Client.events>`)."""
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
                async with self._http.stream("GET", f"/games/{game_id}/stream", params=params, headers=headers,
                                             timeout=httpx.Timeout(self.timeout, read=None)) as response:
                    if response.status_code >= 400:
                        await response.aread()
                        raise error_for(response.status_code, _decode(response), response.text)
                    parser = Parser()
                    async for line in response.aiter_lines():
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
            await self._sleep(self.retry.backoff(failures))
