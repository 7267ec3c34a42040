"""Blueprint ``catalog``: what games the gateway hosts and how to play them, as data.

* ``GET /catalog`` -> ``{"games": [entry, ...]}``, the built-in games first;
* ``GET /catalog/<game>`` -> one entry; 404 ``unknown_game`` for a name it does not host.

An entry (:class:`gateway.responses.CatalogGame`) is the game's catalog entry
(:func:`services.rules.catalog.game_entry`: name, title, seats, options, ``move_schema``,
``view_schema``) plus ``bots``, the built-in bot kinds (:data:`services.bots.decide.BOT_KINDS`).
The entries never change while a process runs, so each app builds them once, on first use.
No token or key is needed; the catalog counts as a read for the rate limits.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from services.bots.decide import BOT_KINDS
from services.rules.catalog import catalog_names, game_entry

from . import responses
from .errors import ApiError
from .openapi import documented

bp = Blueprint("catalog", __name__)

_EXTENSION = "longhouse_catalog"


def catalog() -> list[dict[str, Any]]:
    """Every entry, the built-in games first (built once per app, kept in ``app.extensions``)."""
    entries = current_app.extensions.get(_EXTENSION)
    if entries is None:
        entries = [{**game_entry(name), "bots": list(BOT_KINDS)} for name in catalog_names()]
        current_app.extensions[_EXTENSION] = entries
    return entries


@bp.get("/catalog")
@documented(responses={200: responses.Catalog})
def list_catalog():
    """Every game hosted: name, title, seats, options, bot kinds, move and view schemas."""
    return {"games": catalog()}


@bp.get("/catalog/<game>")
@documented(responses={200: responses.CatalogGame}, errors={404: "unknown_game"})
def one_game(game: str):
    """One game's catalog entry; 404 ``unknown_game`` if the gateway does not host it."""
    for entry in catalog():
        if entry["name"] == game:
            return entry
    raise ApiError(404, "unknown_game", f"no game {game!r} here; GET /catalog lists the games hosted")
