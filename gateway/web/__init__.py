"""Blueprint ``web``: the pages a person plays, watches and replays games on in a browser.

The pages are HTML shells (``templates/``) whose ES modules (``static/js/``, no build step) talk
to the JSON API of the same gateway, as any client would:

* ``GET /`` the lobby: games in play and finished (``GET /games``), tournaments, a form that
  creates a game (``POST /games``, with the operator key typed into the page) and takes a seat;
* ``GET /table/<game_id>`` a game's table: the board, the seat's own view, its legal moves as
  buttons, the log in words and the scores, live through the game's SSE stream;
* ``GET /replay/<game_id>`` a step slider over a game's log, showing the public view at each
  version (``GET /games/<id>/view?version=``);
* ``GET /standings/<tid>`` a tournament's standings, rating plot and matches;
* ``GET /board`` the drawing of one game's view alone (``?game_id=``, ``?version=``), or of any
  view a script hands to ``window.longhouseBoard.show(game, view, ctx)``.

Static files are served from ``static/`` at ``/static/`` (the app's static folder,
:func:`gateway.app.create_app`); each game's drawing is ``static/boards/<game>.js``
(``static/boards/README.md``). Seat tokens and invitations live in the browser's
``localStorage``, the operator key in the tab's ``sessionStorage``; no page puts one in a URL
except the stream's ``?token=``,
which ``EventSource`` needs (docs/API.md, Seat tokens).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, render_template

from services.bots.decide import BOT_KINDS
from services.coordinator.store import GameNotFound

from ..catalog import catalog
from ..errors import ApiError
from ..lookup import require_game
from ..openapi import Media, documented

bp = Blueprint("web", __name__, template_folder="templates")

_TOURNAMENT_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_PAGE = Media("text/html", {"type": "string"}, "An HTML page (its scripts call the JSON API)")
_MISSING = Media("text/html", {"type": "string"},
                 "An HTML page saying the game or tournament is unknown (error code game_not_found or "
                 "unknown_tournament), with a link to the lobby")


def games_offered() -> list[dict[str, Any]]:
    """Every game this gateway hosts, the built-in ones first, from the game catalog
    (:func:`gateway.catalog.catalog`, ``GET /catalog``): ``name``, ``title``, ``min_players``,
    ``max_players``, ``options`` (the variants' names) and ``option_help`` (name -> one line)."""
    return [{"name": e["name"], "title": e["title"], "min_players": e["seats"]["min"],
             "max_players": e["seats"]["max"], "options": [o["name"] for o in e["options"]],
             "option_help": {o["name"]: o["help"] for o in e["options"]}} for e in catalog()]


PAGE_HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Headers of every HTML answer: no other site may frame a page (the lobby holds the operator key
in the tab's storage: a framed page could be clicked into creating games), no type sniffing,
and no page address (a game id) sent on to another site."""


@bp.after_app_request
def _page_headers(response):
    """:data:`PAGE_HEADERS` on every HTML answer of the app (the pages, the API reference, the 404
    pages), unless a view set them itself."""
    if response.mimetype == "text/html":
        for name, value in PAGE_HEADERS.items():
            response.headers.setdefault(name, value)
    return response


def _page(template: str, **context: Any):
    return render_template(template, page={"games": games_offered(), "bots": list(BOT_KINDS), **context})


def _not_found(err: ApiError):
    """A page for an id the gateway does not know (HTML, status 404): the API's error code and
    message in words and a way back to the lobby; a browser is not shown raw JSON."""
    return render_template("not_found.html", page={"error": err.code, "reason": err.reason}), 404


@bp.errorhandler(GameNotFound)
def _no_game(exc: GameNotFound):
    """An unknown game on a page route: the 404 page (the app's JSON handler serves the API)."""
    return _not_found(ApiError(404, "game_not_found", str(exc)))


@bp.get("/")
@documented(responses={200: _PAGE})
def lobby():
    """The lobby (HTML): games in play and finished, tournaments, create a game, take a seat."""
    return _page("lobby.html")


@bp.get("/table/<game_id>")
@documented(responses={200: _PAGE, 404: _MISSING})
def table(game_id: str):
    """A game's table (HTML): the board, the seat's view and legal moves, the log, the scores;
    a 404 page for an unknown game."""
    meta = require_game(game_id)
    return _page("table.html", game_id=game_id, game=meta["game"], players=int(meta["players"]))


@bp.get("/replay/<game_id>")
@documented(responses={200: _PAGE, 404: _MISSING})
def replay(game_id: str):
    """A game's replay (HTML): a step slider over its log, the public view at each step; a 404
    page for an unknown game."""
    meta = require_game(game_id)
    return _page("replay.html", game_id=game_id, game=meta["game"], players=int(meta["players"]))


@bp.get("/standings/<tid>")
@documented(responses={200: _PAGE, 404: _MISSING})
def standings(tid: str):
    """A tournament's page (HTML): standings, the rating plot, each match with its replay; a 404
    page for an unknown tournament."""
    from services.tournament.jobs import TournamentStore

    from ..clients import get_redis

    if not _TOURNAMENT_ID.match(tid) or not TournamentStore(get_redis()).exists(tid):
        return _not_found(ApiError(404, "unknown_tournament", f"no tournament {tid!r}"))
    return _page("standings.html", tournament_id=tid)


@bp.get("/board")
@documented(responses={200: _PAGE, 404: _MISSING})
def board():
    """One drawing alone (HTML): ``?game_id=`` (and ``?version=``) draws that game's public view
    (a 404 page for an unknown game); a script may draw any view with
    ``window.longhouseBoard.show(game, view, ctx)``."""
    from flask import request

    game_id = request.args.get("game_id")
    if game_id is not None:
        require_game(game_id)
    return _page("board.html")
