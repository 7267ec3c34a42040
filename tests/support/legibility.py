"""Measuring a board drawing in a real browser: text sizes, overlaps, and what lies outside.

Issue 12, acceptance 2: at 1280x800 a table page shows each game's whole table, every text at
11 px or more, no two texts overlapping. :data:`MEASURE` runs in the page (Playwright's
``page.evaluate(MEASURE, selector)``) and returns the drawing's box and every text's rendered font
size (CSS px: its font size times the drawing's scale) and box; the functions below judge them.
Both the fixture renderer (``tests/web/test_boards.py``) and the stack's table pages
(``tests/stack/test_browser.py``) use them.
"""

from __future__ import annotations

from typing import Any

LEGIBLE_PX = 11
"""The smallest size a text of a board may render at on a 1280x800 table page (CSS px)."""

MEASURE = """(selector) => {
  const svg = document.querySelector(selector);
  if (!svg) return null;
  const scale = svg.getScreenCTM().a;
  const r = svg.getBoundingClientRect();
  const texts = [];
  for (const el of svg.querySelectorAll('text, tspan')) {
    const b = el.getBoundingClientRect();
    if (!el.textContent.trim() || b.width === 0 || b.height === 0) continue;
    texts.push({text: el.textContent.trim().slice(0, 40), size: parseFloat(getComputedStyle(el).fontSize) * scale,
                box: [b.left, b.top, b.right, b.bottom], nested: el.tagName === 'tspan'});
  }
  return {box: [r.left, r.top, r.right, r.bottom], texts};
}"""
"""JavaScript: ``{box, texts: [{text, size, box, nested}]}`` of the ``<svg>`` at a CSS selector."""


def overlapping(texts: list[dict[str, Any]], share: float = 0.25) -> list[tuple[str, str]]:
    """Pairs of texts whose boxes overlap by more than ``share`` of the smaller box (font boxes
    include line gaps, so a little overlap of neighbouring lines is normal)."""
    flat = [t for t in texts if not t["nested"]]
    pairs = []
    for i, a in enumerate(flat):
        ax0, ay0, ax1, ay1 = a["box"]
        for b in flat[i + 1:]:
            bx0, by0, bx1, by1 = b["box"]
            w, h = min(ax1, bx1) - max(ax0, bx0), min(ay1, by1) - max(ay0, by0)
            if w <= 0 or h <= 0:
                continue
            smaller = min((ax1 - ax0) * (ay1 - ay0), (bx1 - bx0) * (by1 - by0))
            if w * h > share * smaller:
                pairs.append((a["text"], b["text"]))
    return pairs


def outside(texts: list[dict[str, Any]], box: list[float], slack: float = 1.0) -> list[str]:
    """Texts whose box reaches past ``box`` (the drawing's, or the window's) by more than ``slack`` px."""
    x0, y0, x1, y1 = box
    return [t["text"] for t in texts
            if t["box"][0] < x0 - slack or t["box"][1] < y0 - slack or t["box"][2] > x1 + slack or t["box"][3] > y1 + slack]


def problems(measured: dict[str, Any] | None, least: float = LEGIBLE_PX) -> list[str]:
    """What makes a measured drawing illegible: no drawing, texts under ``least`` px, texts that
    overlap, texts cut off at the drawing's edge; an empty list when there is nothing wrong."""
    if not measured or not measured["texts"]:
        return ["no drawing with texts"]
    texts = measured["texts"]
    out = []
    small = sorted((round(t["size"], 2), t["text"]) for t in texts if t["size"] < least - 0.01)
    if small:
        out.append(f"{len(small)} of {len(texts)} texts under {least} px, e.g. {small[:5]}")
    clashes = overlapping(texts)
    if clashes:
        out.append(f"{len(clashes)} pairs of texts overlap, e.g. {clashes[:5]}")
    cut = outside(texts, measured["box"])
    if cut:
        out.append(f"{len(cut)} texts reach past the drawing's edge, e.g. {cut[:5]}")
    return out
