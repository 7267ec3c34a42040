"""Headless Chromium for the browser tests: Debian's ``chromium`` driven by Playwright for Python.

No browser is ever downloaded (``playwright install`` is never run): Playwright launches the
system's ``/usr/bin/chromium`` (``LONGHOUSE_CHROMIUM`` names another). Where Playwright or the
browser is missing, :func:`missing_browser` says why, and the tests skip with that reason.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM = os.environ.get("LONGHOUSE_CHROMIUM", "/usr/bin/chromium")
"""The browser the tests launch (Debian's package)."""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
"""Headless, no sandbox (root in CI), and nothing that reaches the network by itself."""
VIEWPORT = {"width": 1280, "height": 800}
"""The size of every page (and so of every screenshot)."""
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
"""Where the tests save their screenshots (``var/`` is not committed)."""


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or ``None`` if they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (make setup installs it; the browser is Debian's chromium)"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"chromium is not installed at {CHROMIUM} (make setup installs Debian's chromium)"
    return None


def launch(playwright):
    """Launch the system's Chromium headless with :data:`CHROMIUM_ARGS`."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
