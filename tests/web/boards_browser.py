"""Running the board drawings (``gateway/web/static/boards/<game>.js``) in headless Chromium.

The modules are plain ES modules; a page loads them from a made-up origin whose every request
Playwright answers from the static folder (no server, no network). :class:`Boards` renders a
view to its SVG string and screenshots an SVG at 1280x800. Chromium is Debian's package
(:mod:`tests.support.browser`), driven by Playwright for Python; no browser is ever downloaded.
"""

from __future__ import annotations

import json
import mimetypes
from pathlib import Path
from typing import Any

from tests.support.browser import VIEWPORT, launch

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "gateway" / "web" / "static"
BOARDS = STATIC / "boards"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "boards"
ORIGIN = "http://boards.invalid"
"""The page's origin: every request to it is answered from :data:`STATIC` by a route."""
GAMES = ("noggin", "gnomes", "resource_hog")
"""The games, as the API names them; one drawing module each."""

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>boards</title>
<style>html,body{margin:0;padding:0;background:#fff}
#table{width:960px;margin:0 auto}#table svg{display:block}</style></head><body><div id="table"></div></body></html>"""

RENDER = """async ([game, view, ctx]) => {
  const m = await import(`/static/boards/${game}.js`);
  return m.render(view, ctx);
}"""


def fixtures(game: str | None = None) -> list[Path]:
    """The fixture files, of one game or all."""
    return sorted(p for p in FIXTURES.glob("*.json") if game is None or p.name.startswith(game + "-"))


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def ctx_of(fixture: dict[str, Any], who: str) -> dict[str, Any]:
    """The ``ctx`` a table page passes with the view of ``who`` (``"spectator"`` or a seat)."""
    return {"game": fixture["game"], "seat": None if who == "spectator" else int(who),
            "players": fixture["players"], "summary": fixture["summary"]}


class Boards:
    """One Chromium page with the drawings loaded; use as a context manager."""

    def __enter__(self) -> "Boards":
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        self.browser = launch(self._pw)
        self.page = self.browser.new_page(viewport=VIEWPORT)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.route(f"{ORIGIN}/**", self._serve)
        self.page.goto(f"{ORIGIN}/index.html")
        return self

    def __exit__(self, *exc: Any) -> None:
        self.browser.close()
        self._pw.stop()

    def _serve(self, route: Any) -> None:
        path = route.request.url[len(ORIGIN):].split("?", 1)[0]
        if path in ("/", "/index.html"):
            route.fulfill(status=200, content_type="text/html", body=PAGE)
            return
        file = (ROOT / "gateway" / "web" / path.lstrip("/")).resolve()
        if STATIC not in file.parents or not file.is_file():
            route.fulfill(status=404, body="not found")
            return
        kind = "text/javascript" if file.suffix == ".js" else mimetypes.guess_type(file.name)[0] or "text/plain"
        route.fulfill(status=200, content_type=kind, body=file.read_bytes())

    def render(self, game: str, view: Any, ctx: dict[str, Any]) -> str:
        """The SVG string ``render(view, ctx)`` of ``game``'s module returns."""
        return self.page.evaluate(RENDER, [game, view, ctx])

    def measure(self, svg: str) -> dict[str, Any]:
        """``svg`` drawn at one unit a pixel and measured (:data:`tests.support.legibility.MEASURE`):
        ``{box, texts}``, every text's rendered size and box."""
        from tests.support.legibility import MEASURE

        self.page.evaluate("svg => { document.getElementById('table').innerHTML = svg; }", svg)
        try:
            return self.page.evaluate(MEASURE, "#table svg")
        finally:
            self.page.evaluate("() => { document.getElementById('table').innerHTML = ''; }")

    def screenshot(self, svg: str, path: Path) -> None:
        """A PNG of ``svg`` at its own size (one unit a pixel, as a 1280x800 table page shows it),
        the whole drawing: 1280 wide, as tall as the drawing."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.evaluate("svg => { document.getElementById('table').innerHTML = svg; }", svg)
        self.page.screenshot(path=str(path), full_page=True)
        self.page.evaluate("() => { document.getElementById('table').innerHTML = ''; }")
