"""Response bodies of the gateway, as pydantic models.

The views build their answers as plain dicts (``gateway/games.py`` and the other
blueprints); these models state the shape of each answer so that :mod:`gateway.openapi`
can publish it, and the schema tests (``tests/gateway/test_schemathesis.py``) check every
answer the gateway gives against it. Request bodies are in :mod:`gateway.bodies` and
beside their domain (``AgentSpec``, ``TournamentSpec``). The fields are those of
``docs/API.md``; game-specific parts (a player view, a move, an event's data) stay open
objects whose shapes are listed per game there.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Json

from services.tournament.jobs import TournamentSpec
from services.tournament.standings import MatchResult, Standings

from .feeds import EVENT_ID_PATTERN

GameStatus = Literal["active", "phase", "over"]
"""``active`` (seats to decide), ``phase`` (the rules run a phase between turns), ``over``
(:func:`services.coordinator.table.status_of`)."""


class _Closed(BaseModel):
    """A response object with exactly the listed fields."""

    model_config = ConfigDict(extra="forbid")


class Error(_Closed):
    """Every 4xx/5xx answer (``gateway/errors.py``): ``{"error": code, "reason": text, "request_id": id}``.

    ``version`` is added to a 409 ``stale_version``: the game's current version;
    ``retry_after`` to a 429 (``rate_limited``, ``quota_exceeded``): its ``Retry-After`` in seconds;
    ``checks`` to a 503 ``not_ready`` of ``GET /readyz``: each check's ``"ok"`` or its failure.
    """

    error: str = Field(description="machine-readable code, e.g. 'stale_version' (docs/API.md, Errors)")
    reason: str = Field(description="one sentence for a person")
    request_id: str = Field(description="the request's id, as in the answer's X-Request-ID header: the client's "
                            "X-Request-ID if sane, else one the gateway made (quote it when reporting a fault)")
    version: int | None = Field(default=None, description="409 stale_version only: the game's current version")
    retry_after: int | None = Field(default=None, ge=1, description="429 only: seconds to wait, as in Retry-After")
    checks: dict[str, str] | None = Field(default=None, description="503 not_ready (GET /readyz) only: each "
                                          "check's 'ok' or why it failed")


class Health(_Closed):
    """``GET /healthz``: ``{"status": "ok"}`` while Redis answers a PING."""

    status: Literal["ok"]


class Alive(_Closed):
    """``GET /livez``: ``{"status": "alive"}`` whenever the gateway process answers (no dependency)."""

    status: Literal["alive"]


class Ready(_Closed):
    """``GET /readyz``: ``{"status": "ready", "checks": {name: "ok"}}`` while every part of the
    stack serves (gateway.readiness lists the checks)."""

    status: Literal["ready"]
    checks: dict[str, str]


class Outcome(BaseModel):
    """How a game ended (``rules.outcome``): ``reason`` always; most games add ``scores``
    (per seat) and ``winners`` (seats), and a game may add its own facts (Noggin's
    ``crown``, a forfeit's ``forfeited``)."""

    model_config = ConfigDict(extra="allow")

    reason: str
    scores: list[int | float] | None = None
    winners: list[int] | None = None


class CreatedGame(_Closed):
    """``POST /games`` 201: the new game (its seed is never echoed) and its seats' invitations."""

    game_id: str = Field(description="16 hex digits")
    version: int = Field(ge=0, description="the game's version after set-up")
    status: GameStatus
    open: bool = Field(description="true: a free seat is claimed without an invitation")
    invitations: dict[str, str] = Field(
        description="seat -> its invitation ('lhinv_...'), for every seat no bot or agent holds; shown only "
                    "here (a retry with the same Idempotency-Key shows the same ones); {} for an open game")


class GameSummary(_Closed):
    """``GET /games/<id>`` and ``/wait``: the public summary (:func:`gateway.lookup.public_summary`).

    ``state_hash`` appears only once the game is over; ``strikes`` once an agent seat has had one.
    """

    game_id: str
    game: str = Field(description="the game's name, e.g. 'noggin'")
    version: int = Field(ge=0)
    moves: int = Field(ge=0, description="moves committed (phases and set-up not counted)")
    status: GameStatus
    to_move: list[int] = Field(description="seats whose decision it is")
    outcome: Outcome | None = Field(description="null while the game runs")
    seats_taken: list[int] = Field(description="seats claimed by a client or held by a built-in bot, ascending")
    bots: dict[str, str] = Field(description="seat -> the kind of built-in bot or agent on it")
    strikes: dict[str, int] | None = Field(default=None, description="agent seats' strikes so far")
    state_hash: str | None = Field(default=None, description="sha256 of the final state; only once over")


class GameListItem(_Closed):
    """One game of ``GET /games`` (:func:`gateway.listing.item`): public facts only."""

    game_id: str
    game: str = Field(description="the game's name, e.g. 'noggin'")
    players: int = Field(ge=0, description="seats")
    status: GameStatus
    version: int = Field(ge=0)
    moves: int = Field(ge=0, description="moves committed (phases and set-up not counted)")
    created: int = Field(ge=0, description="when the game was made, Unix seconds")
    options: dict[str, Any] = Field(description="the options (variants) it was created with")
    bots: dict[str, str] = Field(description="seat -> the kind of built-in bot or agent on it")
    seats_taken: list[int] = Field(description="seats claimed by a client or held by a bot, ascending")
    open: bool | None = Field(description="true: a free seat is claimed without an invitation; false: with "
                                          "its invitation only; null: the game records neither")


class GameList(_Closed):
    """``GET /games``: a page of games, newest first, and the cursor of the next page."""

    games: list[GameListItem]
    next: str | None = Field(description="pass as ?after= for the next page; null: no more games")


class PlayerView(_Closed):
    """``GET /games/<id>/view``: the view of the token's seat (a spectator's without a token)."""

    version: int = Field(ge=0)
    seat: int | None = Field(description="the token's seat; null for a spectator")
    status: GameStatus
    to_move: list[int]
    outcome: Outcome | None
    view: dict[str, Any] = Field(description="the game's view for this seat (docs/API.md, per game)")


class SeatToken(_Closed):
    """``POST /games/<id>/seats/<seat>`` 201: the seat and its token, shown once."""

    seat: int = Field(ge=0)
    token: str = Field(description="bearer token '<game_id>.<random>'; send as 'Authorization: Bearer <token>'")


class LegalMoves(_Closed):
    """``GET /games/<id>/legal-moves``: the token's seat's legal moves now."""

    version: int = Field(ge=0)
    seat: int = Field(ge=0)
    moves: list[dict[str, Any]] = Field(description="each a move body for POST /moves (docs/API.md, per game)")


class EventOut(_Closed):
    """One event as a client sees it (``Event.to_json``)."""

    type: str = Field(description="past-tense name, e.g. 'FishCaught'")
    data: dict[str, Any]
    to: int | None = Field(description="the seat it is private to; null: public")


class NextDecision(_Closed):
    """``next`` of a move's answer: the game right after the move, for the client's next decision
    (:func:`gateway.lookup.next_decision`); ``seat`` and ``legal_moves`` only with ``?legal=true``,
    ``seat`` and ``view`` only with ``?view=true``."""

    version: int = Field(ge=0, description="the version these facts are of (the move's own, or later)")
    status: GameStatus
    to_move: list[int] = Field(description="seats whose decision it is")
    seat: int | None = Field(default=None, ge=0, description="with ?legal=true: the token's seat")
    legal_moves: list[dict[str, Any]] | None = Field(
        default=None, description="with ?legal=true: the seat's legal moves at this version, each a move body for "
                                  "POST /moves with expected_version = version; empty unless the seat decides now")
    view: dict[str, Any] | None = Field(default=None, description="with ?view=true: the seat's player view at this "
                                                                  "version (as GET /games/{id}/view)")


class MoveResult(_Closed):
    """``POST /games/<id>/moves`` 200: the new version, the events the seat may see, and its next decision."""

    version: int = Field(ge=0)
    events: list[EventOut]
    next: NextDecision


class WaitResult(GameSummary):
    """``GET /games/<id>/wait``: the public summary; with a seat token also the token's ``seat`` and
    its ``legal_moves`` at the summary's version (empty unless it decides then)."""

    seat: int | None = Field(default=None, ge=0, description="with a seat token: its seat")
    legal_moves: list[dict[str, Any]] | None = Field(
        default=None, description="with a seat token: its legal moves at version (move bodies for POST /moves); "
                                  "empty unless the seat decides now")
    view: dict[str, Any] | None = Field(default=None, description="with a seat token and ?view=true: its player "
                                                                  "view at version")


class StreamEntry(_Closed):
    """The data of one SSE message: a log entry with the events this client may see."""

    version: int = Field(ge=1)
    kind: str = Field(description="'create', 'setup', 'move', 'phase', ...")
    seat: int = Field(description="the seat that moved; -1 for the rules' own entries")
    events: list[EventOut]


class StreamMessage(_Closed):
    """One message of ``GET /games/<id>/stream`` (``gateway.stream.format_entry``), as an SSE
    parser reads it: ``id: <game_id>:<version>-0``, ``event: commit``, ``data: <StreamEntry as JSON>``."""

    id: str = Field(pattern=EVENT_ID_PATTERN, description="'<game_id>:<version>-0': the game and the log "
                    "entry; resume after it with Last-Event-ID (an id of another game is refused)")
    event: Literal["commit"]
    data: Json[StreamEntry]


class AgentRecord(_Closed):
    """An agent without its secret (``Agent.public``)."""

    agent_id: str
    name: str
    protocol: Literal["grpc", "http"]
    address: str
    previous_secret_until: int | None = Field(
        default=None, description="during a secret's rotation window, when the old secret stops signing "
                                  "(unix seconds); null otherwise")


class AgentList(_Closed):
    """``GET /agents``: every registered agent, without secrets."""

    agents: list[AgentRecord]


class CreatedTournament(_Closed):
    """``POST /tournaments`` 201."""

    tournament_id: str
    status: str = Field(description="'running', 'done', 'failed' or 'cancelled'")
    planned: int = Field(ge=0, description="matches in the plan")


class TournamentRow(_Closed):
    """One line of ``GET /tournaments``."""

    tournament_id: str
    status: str | None
    played: int = Field(ge=0)
    planned: int = Field(ge=0)


class TournamentList(_Closed):
    """``GET /tournaments``: the newest 100 tournaments."""

    tournaments: list[TournamentRow]


class TournamentMatch(MatchResult):
    """A recorded match of a tournament report: its result plus the rules' ``outcome``
    (``seed`` is null until the tournament is done)."""

    model_config = ConfigDict(extra="forbid")

    outcome: Outcome | None = None


class TournamentDocument(_Closed):
    """``GET /tournaments/<id>`` (:func:`services.tournament.jobs.report`): the spec (without
    its seed until done), status, standings so far and every recorded match."""

    tournament_id: str
    status: str = Field(description="'running', 'done', 'failed' or 'cancelled'")
    spec: TournamentSpec
    played: int = Field(ge=0)
    planned: int = Field(ge=0)
    standings: Standings
    matches: list[TournamentMatch]
    error: str | None = Field(default=None, description="why a failed tournament stopped")


class CatalogOption(_Closed):
    """One option (variant) of a game, switched on at creation with ``"options": {name: true}``."""

    name: str
    type: Literal["boolean"] = Field(description="every option today is true or false")
    default: bool
    help: str = Field(description="what it changes, in the rulebook's words")


class CatalogSeats(_Closed):
    """How many seats a game of it may have (``players`` in ``POST /games``)."""

    min: int = Field(ge=1)
    max: int = Field(ge=1)


class CatalogGame(_Closed):
    """``GET /catalog/<game>``: one game (:mod:`services.rules.catalog`, :mod:`gateway.catalog`)."""

    name: str = Field(description="the name POST /games takes, e.g. 'noggin'")
    title: str
    seats: CatalogSeats
    options: list[CatalogOption]
    bots: list[str] = Field(description="the built-in bot kinds a seat may be given, weakest first")
    move_schema: dict[str, Any] = Field(
        description="JSON Schema (2020-12) of a move, from the game's strict move models: every legal move "
                    "validates against it; a move that does not is 422 malformed_move")
    view_schema: dict[str, Any] = Field(
        description="JSON Schema (2020-12) of the game's player view (the 'view' of GET /games/{id}/view), "
                    "inferred from seeded games: open objects, required keys those always present")


class Catalog(_Closed):
    """``GET /catalog``: every game this gateway hosts, the built-in ones first."""

    games: list[CatalogGame]
