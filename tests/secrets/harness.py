"""Whole seeded games through the gateway, recording everything each client is told.

:func:`play_recorded` plays one game through the Flask test client (embedded ports, inline
phases, the private Redis of ``tests/gateway/conftest.py``) with every seat claimed and moved
by the built-in :class:`~services.bots.random_bot.RandomBot`. It records, per client (each
seat and a spectator), every answer it gets: the create and seat answers, the summary
(``GET /games/<id>``), the player view, the legal moves, the move answers, ``/wait``, error
answers to probing requests (an illegal move taken from earlier decisions, a malformed one,
another seat's turn, a stale version, no token) and, at the end, the SSE streams (with a
header token, a query token, and none; whole and resumed with ``Last-Event-ID``).

:func:`check_recorded` then judges it against the server's truth, the game's event log read
from the store:

* every event in the log carries the audience its game's catalogue declares for its type
  (public: ``to`` null; private: ``to`` = the seat it names; sealed: ``to`` = -1), and every
  SSE frame and move answer a client got holds exactly the events of that version the
  catalogue lets it see (so a private event reaches its seat alone, a sealed one nobody);
* replaying the log with the game's ``evolve`` gives the state at every version; from it a
  game's :class:`SecretsSpec` names the *needles* each client must not be told at that
  version (the seed, other seats' tokens, every seat's invitation outside the creation
  answer, other seats' hands or orders, face-down cards, deck contents), each checked to occur
  in server-side text (the state or its owner's view) so a check is never vacuous; no answer a
  client got at that version contains one;
* the replayed final state hashes to the summary's ``state_hash``, so the replay is the
  server's truth.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from services.bots.client import Conflict, GatewayError
from services.bots.random_bot import RandomBot
from services.coordinator.redis_store import RedisStore
from services.rules.core import SEALED, get_rules, state_hash
from services.rules.core.canonical import to_plain
from services.rules.core import match as core_match

SPECTATOR = None
"""The client id of a spectator (no token)."""


def text_of(obj: Any) -> str:
    """One canonical JSON text (sorted keys, no spaces, ASCII) for scanning an answer."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def frag(obj: Any) -> str:
    """The canonical JSON text of a value, as it appears inside :func:`text_of` output."""
    return text_of(obj)


def state_text(state: Any) -> str:
    """The whole state (its ``secret`` included) as :func:`text_of` text: where a needle that
    names a hidden fact must occur."""
    return text_of(to_plain(state))


def state_or_view_text(rules: Any, state: Any, where: str) -> str:
    """The server-side text a needle must occur in (a :attr:`SecretsSpec.owner_text`): a seat's own
    view for ``where`` = ``"view:<seat>"``, else the whole state."""
    if where.startswith("view:"):
        return text_of(rules.view(state, int(where.split(":")[1])))
    return state_text(state)


@dataclass
class Answer:
    """What one client was told: ``client`` (seat or ``None``), ``channel`` (``create``,
    ``seat``, ``summary``, ``view``, ``legal``, ``move``, ``wait``, ``error``, ``stream``),
    ``version`` (the game version it reflects) and ``body`` (parsed JSON)."""

    client: int | None
    channel: str
    version: int
    body: Any


@dataclass
class SecretsSpec:
    """What one game hides and from whom.

    Attributes:
        game: the registered game name.
        visibility: the game's catalogue rule, event type -> ``public``/``private``/``sealed``.
        catalogue: every event type the game can emit.
        unreachable: event types a run of human seats cannot produce, with the reason (each is
            tested elsewhere); the run must produce every other type of ``catalogue``.
        needles: ``(rules, state, client, knowledge) -> {label: (text, where)}``: the canonical
            JSON fragments ``client`` must not be told in ``state``, each with the name of the
            server-side text it must occur in; ``knowledge`` is :class:`Knowledge` (what the
            client was shown by events of its audience so far).
        owner_text: ``(rules, state, where) -> str``: that server-side text (``"state"``, a
            seat's own view, ...), which proves the needle is spelled as the secret really
            serialises, so the check can fail.
    """

    game: str
    visibility: Callable[[str], str]
    catalogue: frozenset[str]
    unreachable: dict[str, str]
    needles: Callable[[Any, Any, int | None, "Knowledge"], dict[str, tuple[str, str]]]
    owner_text: Callable[[Any, Any, str], str]


@dataclass
class Knowledge:
    """Words (strings and numbers as JSON tokens) each client has been shown by events of its
    audience, version by version (for facts such as a card's identity, secret until shown)."""

    words: dict[int | None, set[str]] = field(default_factory=lambda: defaultdict(set))

    def learn(self, client: int | None, data: Any) -> None:
        """Add every string inside ``data`` to what ``client`` knows."""
        if isinstance(data, str):
            self.words[client].add(data)
        elif isinstance(data, dict):
            for k, v in data.items():
                self.learn(client, k)
                self.learn(client, v)
        elif isinstance(data, list):
            for v in data:
                self.learn(client, v)

    def knows(self, client: int | None, word: str) -> bool:
        """True if ``client`` was shown ``word``."""
        return word in self.words[client]


def declared_to(spec: SecretsSpec, event: dict[str, Any]) -> int | None:
    """The audience the catalogue gives an event (``{"type", "data", "to"}``): None, its seat, or
    SEALED. Raises AssertionError for a type outside the catalogue."""
    kind = spec.visibility(event["type"])
    if event["type"] in core_match.EVENTS:  # strikes and forfeits: public facts of the match
        return None
    assert event["type"] in spec.catalogue, event["type"]
    if kind == "public":
        return None
    if kind == "sealed":
        return SEALED
    assert kind == "private", kind
    return event["data"]["seat"]


def may_see(to: int | None, client: int | None) -> bool:
    """The audience rule: public events reach everyone, a seat's private events that seat."""
    return to is None or (client is not None and to == client)


class RecordingClient:
    """The gateway's move API over a Flask test client, for :class:`RandomBot`, recording answers.

    Args:
        client: the Flask test client.
        run: the :class:`Run` that collects the answers.
    """

    def __init__(self, client: Any, run: "Run"):
        self.c = client
        self.run = run
        self._ids = itertools.count()

    def _call(self, who: int | None, channel: str, method: str, path: str, token: str | None = None,
              **kw: Any) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        resp = getattr(self.c, method)(path, headers=headers, **kw)
        body = resp.get_json()
        version = body.get("version") if isinstance(body, dict) and isinstance(body.get("version"), int) else None
        if resp.status_code >= 400:
            self.run.record(who, "error", self.run.version, body)
        else:
            self.run.record(who, channel, version if version is not None else self.run.version, body)
        return resp.status_code, body

    def legal_moves(self, game_id: str, token: str) -> dict[str, Any]:
        """``GET /games/<id>/legal-moves`` as the seat of ``token``."""
        status, body = self._call(self.run.seat_of[token], "legal", "get", f"/games/{game_id}/legal-moves", token)
        assert status == 200, body
        self.run.seen_moves.extend(body["moves"])
        return body

    def move(self, game_id: str, token: str, move: dict[str, Any], expected_version: int,
             move_id: str | None = None, legal: bool = False) -> dict[str, Any]:
        """``POST /games/<id>/moves`` (``legal``: with ``?legal=true``, the answer's ``next`` holds
        this seat's legal moves, recorded as seen); raises :class:`Conflict` on 409, GatewayError on
        other errors."""
        body = {"move_id": move_id or f"m{next(self._ids)}", "expected_version": expected_version, "move": move}
        path = f"/games/{game_id}/moves" + ("?legal=true" if legal else "")
        status, answer = self._call(self.run.seat_of[token], "move", "post", path, token, json=body)
        if status >= 400:
            raise (Conflict if status == 409 else GatewayError)(status, answer["error"], answer["reason"])
        self.run.seen_moves.extend((answer.get("next") or {}).get("legal_moves") or [])
        return answer


@dataclass
class Run:
    """One recorded game: its id, seed, seats' tokens, and every answer by client."""

    game: str
    players: int
    seed: str
    options: dict[str, Any]
    game_id: str = ""
    tokens: list[str] = field(default_factory=list)
    invitations: dict[str, str] = field(default_factory=dict)
    answers: list[Answer] = field(default_factory=list)
    version: int = 0
    seen_moves: list[dict[str, Any]] = field(default_factory=list)
    bot_seeds: list[str] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)

    @property
    def seat_of(self) -> dict[str, int]:
        """Token -> seat."""
        return {t: s for s, t in enumerate(self.tokens)}

    @property
    def clients(self) -> list[int | None]:
        """A spectator and every seat a client holds."""
        return [SPECTATOR, *range(len(self.tokens))]

    def record(self, client: int | None, channel: str, version: int, body: Any) -> None:
        """Keep one answer (an error also counts its code)."""
        self.answers.append(Answer(client, channel, version, body))
        if channel == "error":
            self.errors[body["error"]] += 1


def _sse(client: Any, path: str, headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The commit messages of a bounded SSE stream read through the test client."""
    text = client.get(path, headers=headers or {}).get_data(as_text=True)
    out = []
    for block in text.split("\n\n"):
        for line in block.split("\n"):
            if line.startswith("data: "):
                out.append(json.loads(line[len("data: "):]))
    return out


def play_recorded(client: Any, game: str, players: int, seed: str, options: dict[str, Any] | None = None,
                  move_cap: int = 1500, probe_every: int = 1, look_every: int = 1) -> Run:
    """Play one whole game through the gateway test client and record what every client is told.

    Args:
        client: the Flask test client of a gateway app (embedded ports, inline phases).
        game, players, seed, options: the game to create.
        move_cap: most moves before the game is given up (a failure of the test).
        probe_every: send the probing requests (illegal, malformed, other seat, stale, no
            token) every this many moves.
        look_every: every this many moves every client reads the summary, its view and
            ``/wait``; in between, one client in turn reads ``/wait`` (which says who moves).
    Returns:
        the :class:`Run`. Raises AssertionError if the game does not end within ``move_cap``.
    """
    run = Run(game, players, seed, options or {})
    rec = RecordingClient(client, run)
    status, created = rec._call(SPECTATOR, "create", "post", "/games",
                                json={"game": game, "players": players, "seed": seed, "options": run.options})
    assert status == 201, created
    gid = run.game_id = created["game_id"]
    run.version = created["version"]
    run.invitations = created["invitations"]
    assert sorted(run.invitations) == [str(s) for s in range(players)]
    for s in range(players):
        if s > 0:  # probe: the seat claimed with the invitation of a seat already taken
            status, body = rec._call(s, "seat", "post", f"/games/{gid}/seats/{s}",
                                     json={"invitation": run.invitations["0"]})
            assert status == 403 and body["error"] == "wrong_invitation", body
        status, body = rec._call(s, "seat", "post", f"/games/{gid}/seats/{s}",
                                 json={"invitation": run.invitations[str(s)]})
        assert status == 201, body
        run.tokens.append(body["token"])
    bots = [RandomBot(f"{seed}:bot:{s}") for s in range(players)]
    probe_rng = random.Random(f"{seed}:probe")
    for step in range(move_cap):
        looking = run.clients if step % look_every == 0 else [run.clients[step % len(run.clients)]]
        if step % look_every == 0:
            _, summary = rec._call(SPECTATOR, "summary", "get", f"/games/{gid}")
        for who in looking:
            token = run.tokens[who] if who is not None else None
            _, summary = rec._call(who, "wait", "get", f"/games/{gid}/wait?after={run.version - 1}&timeout=0", token)
            if len(looking) > 1:
                rec._call(who, "view", "get", f"/games/{gid}/view", token)
        run.version = summary["version"]
        if summary["status"] == "over":
            break
        assert summary["status"] == "active", summary  # inline phases never leave a game waiting
        mover = summary["to_move"][0]
        if step % probe_every == 0 and _probe(rec, run, gid, mover, summary["to_move"], probe_rng):
            continue  # a probe was accepted after all (a move legal again, a simultaneous decision)
        played = bots[mover].play(rec, gid, run.tokens[mover])
        assert played is not None, f"seat {mover} had no legal move"
        run.version = played["version"]
    else:
        raise AssertionError(f"{game} game {gid} did not end within {move_cap} moves")
    rec._call(SPECTATOR, "summary", "get", f"/games/{gid}")
    _read_streams(client, run)
    return run


def play_bots(client: Any, game: str, players: int, seed: str, options: dict[str, Any] | None = None,
              bots: dict[str, Any] | None = None) -> Run:
    """A game whose seats are all built-in bots on the bus (it plays out within ``POST /games``,
    inline), recorded as a spectator sees it: the create answer, the summary, ``/wait``, its
    view and its SSE stream. Faster than :func:`play_recorded`; it widens the event types a
    run produces (the log's audiences are checked as for any run).

    ``bots``: seat -> bot (default: ``random`` on every seat), seeds included so they can be
    looked for (a bot's seed is private to the server)."""
    run = Run(game, players, seed, options or {})
    bots = bots or {str(s): {"kind": "random", "seed": f"{seed}:bot-seed:{s}"} for s in range(players)}
    run.bot_seeds = [b["seed"] for b in bots.values() if isinstance(b, dict) and "seed" in b]
    rec = RecordingClient(client, run)
    status, created = rec._call(SPECTATOR, "create", "post", "/games",
                                json={"game": game, "players": players, "seed": seed, "options": run.options,
                                      "bots": bots})
    assert status == 201, created
    gid = run.game_id = created["game_id"]
    _, summary = rec._call(SPECTATOR, "summary", "get", f"/games/{gid}")
    assert summary["status"] == "over", summary
    run.version = summary["version"]
    rec._call(SPECTATOR, "view", "get", f"/games/{gid}/view")
    rec._call(SPECTATOR, "wait", "get", f"/games/{gid}/wait?after=0&timeout=0")
    _read_streams(client, run)
    return run


def _probe(rec: RecordingClient, run: Run, gid: str, mover: int, to_move: list[int], rng: random.Random) -> bool:
    """Requests that should be refused, each recorded with its answer: a move that was legal
    at an earlier decision but is not now, a malformed move, a move by a seat not to move, a
    stale version, a move and legal moves without a token, and legal moves with a token of
    another seat claiming the mover's seat. Returns True if one was accepted (the gateway
    plays a move against an older version when only other seats of the same simultaneous
    decision moved since, and an earlier move may be legal again), so the game moved on."""
    token = run.tokens[mover]
    current = rec.legal_moves(gid, token)["moves"]
    stale = [m for m in run.seen_moves[-400:] if m not in current]  # legal at an earlier decision
    if stale:
        rec._call(mover, "move", "post", f"/games/{gid}/moves", token,
                  json={"move_id": f"probe-{run.version}", "expected_version": run.version,
                        "move": rng.choice(stale)})
    rec._call(mover, "move", "post", f"/games/{gid}/moves", token,
              json={"move_id": f"probe-bad-{run.version}", "expected_version": run.version,
                    "move": {"type": "no_such_move", "card": "?"}})
    others = [s for s in range(run.players) if s not in to_move]
    if others:
        other = rng.choice(others)
        rec._call(other, "move", "post", f"/games/{gid}/moves", run.tokens[other],
                  json={"move_id": f"probe-turn-{run.version}", "expected_version": run.version,
                        "move": rng.choice(current)})
        rec._call(other, "legal", "get", f"/games/{gid}/legal-moves?seat={mover}", run.tokens[other])
    if run.version > 2:
        rec._call(mover, "move", "post", f"/games/{gid}/moves", token,
                  json={"move_id": f"probe-stale-{run.version}", "expected_version": run.version - 1,
                        "move": rng.choice(current)})
    rec._call(SPECTATOR, "move", "post", f"/games/{gid}/moves",
              json={"move_id": "probe-anon", "expected_version": run.version, "move": current[0]})
    rec._call(SPECTATOR, "legal", "get", f"/games/{gid}/legal-moves")
    return rec.c.get(f"/games/{gid}").get_json()["version"] != run.version


def _read_streams(client: Any, run: Run) -> None:
    """Every client's SSE stream of the finished game: whole (header token; a query token for
    the seats too; none for the spectator) and resumed after the middle version."""
    gid, version = run.game_id, run.version
    middle = max(1, version // 2)
    for who in run.clients:
        token = run.tokens[who] if who is not None else None
        ways = [({"Authorization": f"Bearer {token}"} if token else {}, "")]
        if token:
            ways.append(({}, f"&token={token}"))
        for headers, query in ways:
            frames = _sse(client, f"/games/{gid}/stream?max_events={version}{query}", headers)
            assert [f["version"] for f in frames] == list(range(1, version + 1))
            for f in frames:
                run.record(who, "stream", f["version"], f)
        resumed = _sse(client, f"/games/{gid}/stream?max_events={version - middle}",
                       {**({"Authorization": f"Bearer {token}"} if token else {}), "Last-Event-ID": f"{gid}:{middle}-0"})
        assert [f["version"] for f in resumed] == list(range(middle + 1, version + 1))
        for f in resumed:
            run.record(who, "stream", f["version"], f)


@dataclass
class Verdict:
    """What :func:`check_recorded` found: event types seen (and private ones delivered per
    seat), needles checked and found in server-side text, answers scanned by channel."""

    types: Counter = field(default_factory=Counter)
    private_delivered: Counter = field(default_factory=Counter)
    needles: Counter = field(default_factory=Counter)
    scanned: Counter = field(default_factory=Counter)


def check_recorded(run: Run, redis_client: Any, spec: SecretsSpec, verdict: Verdict | None = None) -> Verdict:
    """Judge a recorded :class:`Run` against the game's log (see the module docstring).

    Raises AssertionError naming the client, channel, version and needle of any leak, any event
    whose audience differs from the catalogue, or any frame or move answer that differs from
    what the audience rule allows.
    """
    verdict = verdict or Verdict()
    rules = get_rules(run.game)
    entries = RedisStore(redis_client).read(run.game_id)
    assert [e.version for e in entries] == list(range(1, run.version + 1))
    visible_at: dict[int, dict[int | None, list[dict[str, Any]]]] = {}
    for entry in entries:
        events = [e.to_json() for e in entry.events]
        for e in events:
            assert e["to"] == declared_to(spec, e), f"v{entry.version} {e['type']} to={e['to']}"
            verdict.types[e["type"]] += 1
        visible_at[entry.version] = {c: [e for e in events if may_see(e["to"], c)] for c in run.clients}
    # frames and move answers: exactly the events of that version the client may see
    for a in run.answers:
        if a.channel in ("stream", "move"):
            assert a.body["events"] == visible_at[a.version][a.client], \
                f"{a.channel} to client {a.client} at version {a.version} differs from the events of its audience"
            for e in a.body["events"]:
                if e["to"] is not None:
                    assert e["to"] == a.client, (a.client, e)
                    verdict.private_delivered[e["type"]] += 1
    # needles, version by version, from the replayed state
    by_version: dict[int, list[Answer]] = defaultdict(list)
    for a in run.answers:
        by_version[a.version].append(a)
    knowledge = Knowledge()
    state = rules.new_state()
    for entry in entries:
        for e in entry.events:
            rules.evolve(state, e)
            for c in run.clients:
                if may_see(e.to, c):
                    knowledge.learn(c, e.data)
        owners: dict[str, str] = {}
        for c in run.clients:
            needles = {"seed": run.seed, **{f"bot seed {i}": b for i, b in enumerate(run.bot_seeds)},
                       **{f"token of seat {s}": t.split(".", 1)[1] for s, t in enumerate(run.tokens) if s != c},
                       **{f"invitation of seat {s}": i for s, i in run.invitations.items()}}
            if rules.outcome(state) is None:
                for label, (needle, where) in spec.needles(rules, state, c, knowledge).items():
                    if where not in owners:
                        owners[where] = spec.owner_text(rules, state, where)
                    assert needle in owners[where], (label, needle, where)
                    needles[label] = needle
            for label in needles:
                verdict.needles[label.split(" ")[0]] += 1
            for a in by_version.get(entry.version, []):
                if a.client != c:
                    continue
                text = text_of(a.body)
                verdict.scanned[a.channel] += 1
                for label, needle in needles.items():
                    if a.channel == "create" and label.startswith("invitation"):
                        continue  # the creation answer is where the operator is shown them, once
                    assert needle not in text, (f"{run.game} {run.game_id}: {label} told to client {c} "
                                                f"in its {a.channel} answer at version {entry.version}: {text[:400]}")
    # answers given before any version existed (create) and the replay's truth
    for a in run.answers:
        if a.version not in visible_at:
            assert a.channel == "create", a
            assert run.seed not in text_of(a.body)
    summary = next(a.body for a in reversed(run.answers) if a.channel == "summary")
    assert summary["status"] == "over" and summary["state_hash"] == state_hash(rules.hash_view(state))
    assert all("state_hash" not in a.body for a in run.answers
               if a.channel in ("summary", "wait") and a.body["status"] != "over")
    return verdict


def check_coverage(spec: SecretsSpec, verdict: Verdict, private_types: Iterable[str]) -> None:
    """Every catalogue type not declared unreachable was seen, and every private type reached
    its seat over a stream or a move answer at least once."""
    missing = sorted(spec.catalogue - set(verdict.types) - set(spec.unreachable))
    assert missing == [], f"{spec.game}: event types never produced in the run: {missing}"
    wrongly_listed = sorted(set(spec.unreachable) & set(verdict.types))
    assert wrongly_listed == [], f"{spec.game}: listed as unreachable but produced: {wrongly_listed}"
    for t in private_types:
        assert verdict.private_delivered[t] > 0, f"{spec.game}: private {t} never delivered"
