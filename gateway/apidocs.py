"""Blueprint ``apidocs``: the rendered API reference, Swagger UI over ``/openapi.json``.

* ``GET /docs`` -> an HTML page that draws every route of :func:`gateway.openapi.build_document`
  with Swagger UI (try-it-out included: the operator key and seat tokens are typed into its
  *Authorize* dialog and stay in the page);
* ``GET /docs/assets/<name>`` -> one of Swagger UI's own files (:data:`ASSETS`), served from the
  pinned ``flask-swagger-ui`` package's ``dist/`` folder (constraints.txt): nothing comes from a
  CDN, so the reference works on a machine with no Internet. Any other name is 404 ``not_found``.

The page's own start-up script is ``static/js/apidocs.js`` (the web pages' static files).
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, render_template, send_from_directory

from .errors import ApiError
from .openapi import Media, documented

bp = Blueprint("apidocs", __name__, template_folder="web/templates")

ASSETS = {
    "swagger-ui.css": "text/css",
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui-standalone-preset.js": "text/javascript",
    "favicon-32x32.png": "image/png",
}
"""The Swagger UI files the page loads -> their media types."""


def assets_dir() -> Path:
    """Swagger UI's ``dist/`` folder inside the installed ``flask-swagger-ui`` package.

    Raises:
        ModuleNotFoundError: the package is not installed (``make setup`` installs it).
    """
    import flask_swagger_ui

    return Path(flask_swagger_ui.__file__).resolve().parent / "dist"


def swagger_ui_version() -> str:
    """The bundled Swagger UI's version, e.g. ``"v5.34.0"`` (its ``dist/VERSION`` file)."""
    return (assets_dir() / "VERSION").read_text(encoding="utf-8").strip()


@bp.get("/docs")
@documented(responses={200: Media("text/html", {"type": "string"},
                                  "The API reference page (Swagger UI over /openapi.json)")})
def reference():
    """The rendered API reference: Swagger UI drawing ``/openapi.json``, served from this gateway."""
    return render_template("apidocs.html", swagger_ui_version=swagger_ui_version())


@bp.get("/docs/assets/<name>")
@documented(responses={200: Media("text/css", {"type": "string"},
                                  "One of Swagger UI's files (a script, a style sheet or an icon)",
                                  also=tuple(sorted(set(ASSETS.values()) - {"text/css"})))},
            errors={404: "not_found"},
            path_params={"name": {"type": "string", "enum": sorted(ASSETS)}})
def asset(name: str):
    """One of Swagger UI's own files, from the pinned package (no CDN); 404 ``not_found`` for another name."""
    if name not in ASSETS:
        raise ApiError(404, "not_found", f"no asset {name!r}; the reference page loads {', '.join(sorted(ASSETS))}")
    return send_from_directory(assets_dir(), name, mimetype=ASSETS[name], max_age=3600)
