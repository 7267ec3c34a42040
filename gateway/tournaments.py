"""Blueprint ``tournaments``: tournaments as jobs on the stack's workers.

* ``POST /tournaments`` a :class:`~services.tournament.jobs.TournamentSpec` -> 201
  ``{"tournament_id", "status", "planned"}``; 422 ``bad_tournament`` for a spec that cannot be
  planned or names an unknown agent; needs an operator key (401 ``missing_operator_key``, 403
  ``wrong_operator_key``), and writes the audit line ``tournament.create``
* ``GET /tournaments`` -> ``{"tournaments": [{"tournament_id", "status", "played", "planned"}]}``
* ``GET /tournaments/<id>`` -> :func:`~services.tournament.jobs.report` (standings so far)
* ``GET /tournaments/<id>/standings.csv`` and ``/ratings.png`` -> the files

With the Celery phase mode the steps run on the workers; with the inline mode (an embedded
gateway) the tournament is played within the request.
"""

from __future__ import annotations

import tempfile
import threading
from collections import OrderedDict
from pathlib import Path

from flask import Blueprint, Response, current_app

from services.agents.registry import UnknownAgent, registry_for
from services.rules.core import get_rules
from services.rules.core.errors import RulesError
from services.tournament import jobs

from .bodies import parse_body
from .clients import get_redis, get_table
from . import operators, responses
from .errors import ApiError
from .openapi import Media, documented

bp = Blueprint("tournaments", __name__)


def _store() -> jobs.TournamentStore:
    return jobs.TournamentStore(get_redis())


def _report(tid: str) -> dict:
    try:
        return jobs.report(_store(), tid)
    except KeyError:
        raise ApiError(404, "unknown_tournament", f"no tournament {tid!r}") from None


@bp.post("/tournaments")
@documented(body=jobs.TournamentSpec, responses={201: responses.CreatedTournament}, operator=True,
            errors={400: "bad_json, bad_request", 422: "bad_tournament"})
def create_tournament():
    """Create and start a tournament (operator key required). 201; 400 bad body; 422 a spec
    that cannot be played."""
    operators.require_operator()
    spec = parse_body(jobs.TournamentSpec)
    table = get_table()
    try:
        for game in spec.games:
            rules = get_rules(game)
            if not rules.min_players <= spec.players <= rules.max_players:
                raise ValueError(f"{rules.title} takes {rules.min_players} to {rules.max_players} players, "
                                 f"not {spec.players}")
        for p in spec.participants:
            if p.agent is not None:
                registry_for(table).get(p.agent)
        store = _store()
        tid = store.create(spec)
    except (ValueError, UnknownAgent, RulesError) as exc:
        raise ApiError(422, "bad_tournament", str(exc)) from None
    operators.audit("tournament.create", tournament_id=tid, format=spec.format, games=list(spec.games),
                    participants=len(spec.participants),
                    agents=sorted({p.agent for p in spec.participants if p.agent is not None}))
    scheduler = table.scheduler
    if current_app.config["PHASE_MODE"] == "celery":
        jobs.start(store, scheduler.phases.app, tid)
    else:
        jobs.run_inline(table, store, tid)
    report = jobs.report(store, tid)
    return {"tournament_id": tid, "status": report["status"], "planned": report["planned"]}, 201


@bp.post("/tournaments/<tid>/cancel")
@documented(responses={200: responses.TournamentRow}, operator=True,
            errors={404: "unknown_tournament", 409: "tournament_over"})
def cancel_tournament(tid: str):
    """Cancel a running tournament (operator key required): no match starts or is recorded after
    it; 200 its row, also when it was already cancelled; 409 tournament_over for one that ended."""
    operators.require_operator()
    report = _report(tid)
    status = _store().cancel(tid)
    if status in ("done", "failed"):
        raise ApiError(409, "tournament_over", f"tournament {tid} has already ended: {status}")
    operators.audit("tournament.cancel", tournament_id=tid, played=report["played"], planned=report["planned"])
    return {"tournament_id": tid, "status": status, "played": report["played"], "planned": report["planned"]}


@bp.get("/tournaments")
@documented(responses={200: responses.TournamentList})
def list_tournaments():
    """The newest 100 tournaments."""
    store = _store()
    out = []
    for tid in store.all():
        status = store.status(tid)
        out.append({"tournament_id": tid, "status": status.get("status"), "played": int(status.get("played", 0)),
                    "planned": int(status.get("planned", 0))})
    return {"tournaments": out}


@bp.get("/tournaments/<tid>")
@documented(responses={200: responses.TournamentDocument}, errors={404: "unknown_tournament"})
def get_tournament(tid: str):
    """The tournament: spec, status, standings so far, every recorded match."""
    return _report(tid)


_FILES: OrderedDict[tuple[str, str, int], dict[str, bytes]] = OrderedDict()
"""A tournament's files by (id, status, matches played): made once per state, not per request."""
_FILES_KEPT = 32
_FILES_LOCK = threading.Lock()


def _files_of(doc: dict) -> dict[str, bytes]:
    """The tournament's output files (:func:`jobs.write_outputs`) as name -> bytes, made once for
    each state of the tournament (its status and the matches played) and kept for the next request."""
    state = (doc["tournament_id"], doc["status"], int(doc["played"]))
    with _FILES_LOCK:
        files = _FILES.get(state)
    if files is None:
        with tempfile.TemporaryDirectory() as tmp:
            jobs.write_outputs(doc, tmp)
            files = {path.name: path.read_bytes() for path in Path(tmp).iterdir()}
        with _FILES_LOCK:
            _FILES[state] = files
            while len(_FILES) > _FILES_KEPT:
                _FILES.popitem(last=False)
    return files


def _file(tid: str, name: str, mimetype: str) -> Response:
    files = _files_of(_report(tid))
    if name not in files:
        raise ApiError(404, "no_results", "no match has been rated yet")
    return Response(files[name], mimetype=mimetype)


@bp.get("/tournaments/<tid>/standings.csv")
@documented(responses={200: Media("text/csv", {"type": "string"}, "A header and one row per participant")},
            errors={404: "unknown_tournament"})
def standings_csv(tid: str):
    """The standings as CSV (a header and one row per participant)."""
    return _file(tid, "standings.csv", "text/csv")


@bp.get("/tournaments/<tid>/ratings.png")
@documented(responses={200: Media("image/png", {"type": "string", "contentMediaType": "image/png"},
                                     "Each participant's rating over the matches")},
            errors={404: "unknown_tournament, no_results"})
def ratings_png(tid: str):
    """Each participant's rating over the matches, as a PNG plot."""
    return _file(tid, "ratings.png", "image/png")
