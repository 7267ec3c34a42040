"""The answers of the Longhouse HTTP API as pydantic models.

Each model is the body of one route (the gateway's ``/openapi.json`` names the same shapes). Every
model keeps fields it does not list (``extra="allow"``), so a gateway newer than this client adds
fields without breaking it; game-specific parts (a player view, a move, an event's data) are plain
dicts whose shapes the game catalog gives (``Client.catalog``: ``move_schema``, ``view_schema``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

GameStatus = Literal["active", "phase", "over"]
"""``active`` (seats to decide), ``phase`` (the rules run a phase between turns), ``over``."""


class Model(BaseModel):
    """Base of every answer: unknown fields are kept (``model_extra``), never refused."""

    model_config = ConfigDict(extra="allow")


class Health(Model):
    """``GET /healthz``: ``{"status": "ok"}`` while the gateway's Redis answers."""

    status: str


class Alive(Model):
    """``GET /livez``: ``{"status": "alive"}`` whenever the gateway process answers (it asks no
    dependency: the liveness probe)."""

    status: str


class Ready(Model):
    """``GET /readyz``: ``{"status": "ready", "checks": {name: "ok"}}`` once Redis, the gRPC
    services, a mover and a worker all serve."""

    status: str
    checks: dict[str, str]


class Outcome(Model):
    """How a game ended: ``reason``; most games add ``scores`` (per seat) and ``winners`` (seats),
    and a game may add its own facts (Noggin's ``crown``, a forfeit's ``forfeited``)."""

    reason: str
    scores: list[int | float] | None = None
    winners: list[int] | None = None


class CreatedGame(Model):
    """``POST /games``: the new game and an invitation (``lhinv_…``) per seat no bot holds."""

    game_id: str
    version: int
    status: GameStatus
    open: bool = False
    invitations: dict[str, str] = Field(default_factory=dict)


class GameSummary(Model):
    """``GET /games/<id>`` and ``/wait``: the public summary; ``state_hash`` only once over."""

    game_id: str
    game: str
    version: int
    moves: int
    status: GameStatus
    to_move: list[int]
    outcome: Outcome | None = None
    seats_taken: list[int] = Field(default_factory=list)
    bots: dict[str, str] = Field(default_factory=dict)
    strikes: dict[str, int] | None = None
    state_hash: str | None = None

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.status == "over"


class GameListItem(Model):
    """One game of ``GET /games``: public facts only."""

    game_id: str
    game: str
    players: int
    status: GameStatus
    version: int
    moves: int
    created: int
    options: dict[str, Any] = Field(default_factory=dict)
    bots: dict[str, str] = Field(default_factory=dict)
    seats_taken: list[int] = Field(default_factory=list)
    open: bool | None = None


class GameList(Model):
    """``GET /games``: a page, newest first; ``next`` is the ``after`` of the next page (None: done)."""

    games: list[GameListItem]
    next: str | None = None


class SeatToken(Model):
    """``POST /games/<id>/seats/<seat>``: the seat and its bearer token (shown once)."""

    seat: int
    token: str


class PlayerView(Model):
    """``GET /games/<id>/view``: the seat's view (public state and its own secrets), or a spectator's."""

    version: int
    seat: int | None = None
    status: GameStatus
    to_move: list[int]
    outcome: Outcome | None = None
    view: dict[str, Any]


class WaitResult(GameSummary):
    """``GET /games/<id>/wait``: the summary; with a seat token also its ``seat`` and ``legal_moves``
    at ``version`` (empty unless it decides then), and with ``view=True`` its player ``view``."""

    seat: int | None = None
    legal_moves: list[dict[str, Any]] | None = None
    view: dict[str, Any] | None = None


class LegalMoves(Model):
    """``GET /games/<id>/legal-moves``: the seat's legal moves at ``version`` (empty: not its decision)."""

    version: int
    seat: int
    moves: list[dict[str, Any]]


class Event(Model):
    """One event as this client may see it: ``to`` is the seat it is private to, None if public."""

    type: str
    data: dict[str, Any] = Field(default_factory=dict)
    to: int | None = None


class NextDecision(Model):
    """``next`` of a move's answer: the game right after the move. ``seat`` and ``legal_moves`` come
    with ``legal=True`` (empty unless the seat decides next), ``view`` with ``view=True``."""

    version: int
    status: GameStatus
    to_move: list[int]
    seat: int | None = None
    legal_moves: list[dict[str, Any]] | None = None
    view: dict[str, Any] | None = None


class MoveResult(Model):
    """``POST /games/<id>/moves``: the new version, the events the seat may see, and its next
    decision (``next``; ``None`` from a gateway older than it)."""

    version: int
    events: list[Event]
    next: NextDecision | None = None


class StreamEntry(Model):
    """One entry of a game's log as the stream sends it: ``kind`` is ``create``, ``setup``,
    ``move`` or ``phase``; ``seat`` the mover (-1 for the rules' own entries)."""

    version: int
    kind: str
    seat: int
    events: list[Event]


def event_id(game_id: str, version: int) -> str:
    """The stream id of ``game_id``'s log entry at ``version``, ``"<game_id>:<version>-0"``: what
    ``Last-Event-ID`` (``last_event_id=`` of the clients' ``events``) resumes after. The gateway
    refuses an id of another game (400 ``wrong_game_last_event_id``)."""
    return f"{game_id}:{version}-0"


class StreamMessage(Model):
    """One Server-Sent Event of ``GET /games/<id>/stream``: its ``id`` (``<game_id>:<version>-0``,
    :func:`event_id`, what ``Last-Event-ID`` resumes after) and its entry."""

    id: str
    event: str = "commit"
    entry: StreamEntry

    @property
    def version(self) -> int:
        """The entry's version."""
        return self.entry.version

    @property
    def game_id(self) -> str:
        """The game the message's id names."""
        return self.id.rpartition(":")[0]


class AgentRecord(Model):
    """A registered agent, never with its secret; ``previous_secret_until`` (unix seconds) while a
    rotation window lets the old secret sign too."""

    agent_id: str
    name: str
    protocol: Literal["grpc", "http"]
    address: str
    previous_secret_until: int | None = None


class AgentList(Model):
    """``GET /agents``."""

    agents: list[AgentRecord]


class CreatedTournament(Model):
    """``POST /tournaments``: its id, status and the matches planned so far."""

    tournament_id: str
    status: str
    planned: int


class TournamentRow(Model):
    """One line of ``GET /tournaments``."""

    tournament_id: str
    status: str | None = None
    played: int = 0
    planned: int = 0


class TournamentList(Model):
    """``GET /tournaments``: the newest 100."""

    tournaments: list[TournamentRow]


class StandingsRow(Model):
    """One participant's line of a tournament's standings (rank by the rating's ``ordinal``)."""

    rank: int
    name: str
    matches: int
    wins: float
    win_rate: float
    average_score: float
    mu: float
    sigma: float
    ordinal: float


class Standings(Model):
    """A tournament's standings so far: ``rows``, the rating ``history`` and ``failed`` matches."""

    rows: list[StandingsRow] = Field(default_factory=list)


class Tournament(Model):
    """``GET /tournaments/<id>`` and ``POST /tournaments/<id>/cancel``: status, counts, and (for the
    first) the spec, standings and every recorded match (plain dicts)."""

    tournament_id: str
    status: str
    played: int = 0
    planned: int = 0
    spec: dict[str, Any] | None = None
    standings: Standings | None = None
    matches: list[dict[str, Any]] = Field(default_factory=list)
    error: str | None = None

    @property
    def finished(self) -> bool:
        """True once the tournament is ``done``, ``failed`` or ``cancelled``."""
        return self.status in ("done", "failed", "cancelled")


class CatalogOption(Model):
    """An option (variant) of a game: ``{"options": {name: true}}`` at creation."""

    name: str
    type: str
    default: Any = None
    help: str = ""


class CatalogSeats(Model):
    """The seat counts a game takes."""

    min: int
    max: int


class CatalogGame(Model):
    """``GET /catalog/<game>``: the game's name, title, seats, options, bot kinds and the JSON
    Schemas of its moves (``move_schema``) and player view (``view_schema``)."""

    name: str
    title: str
    seats: CatalogSeats
    options: list[CatalogOption] = Field(default_factory=list)
    bots: list[str] = Field(default_factory=list)
    move_schema: dict[str, Any] = Field(default_factory=dict)
    view_schema: dict[str, Any] = Field(default_factory=dict)


class Catalog(Model):
    """``GET /catalog``: every game hosted, the built-in ones first."""

    games: list[CatalogGame]

    def game(self, name: str) -> CatalogGame:
        """The entry of ``name``. Raises KeyError."""
        for entry in self.games:
            if entry.name == name:
                return entry
        raise KeyError(name)
