"""The docs site: ``mkdocs build --strict`` (what ``make docs`` runs) builds with no warning, every
page declares where its samples run, each game's page carries the table generated from its move
schema, and every sample of the ``offline`` pages runs (the ``stack`` pages' samples run in
tests/stack/test_docs_samples.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .samples import DOCS, ROOT, RUN_LANGUAGES, TEXT_LANGUAGES, nav_pages, read_page, run_page

PAGES = [read_page(path) for path in nav_pages()]


def test_the_site_builds_strict_with_no_warning(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout
    assert "WARNING" not in proc.stdout, proc.stdout
    noggin = (tmp_path / "site" / "games" / "noggin" / "index.html").read_text()
    assert "<!-- moves:" not in noggin and "<code>fisherman</code>" in noggin


def test_every_sample_is_of_a_kind_that_runs_and_every_page_says_where():
    for page in PAGES:
        languages = {lang for lang, _ in page.blocks}
        assert languages <= set(RUN_LANGUAGES) | set(TEXT_LANGUAGES), (page.path, languages)
        has_samples = bool(languages & set(RUN_LANGUAGES))
        if page.path.startswith(("ARCHITECTURE", "house-rules", "balance", "benchmarks")):
            assert not has_samples, page.path  # the design documents are prose; a sample there would run nowhere
            continue
        assert page.kind in ("offline", "stack", "none"), page.path
        assert has_samples == (page.kind != "none"), page.path


def test_each_game_page_is_generated_from_its_move_schema():
    import importlib.util

    spec = importlib.util.spec_from_file_location("docs_moves_hook", DOCS / "_hooks" / "moves.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    from services.rules.catalog import game_entry

    for game in ("noggin", "gnomes", "resource_hog"):
        table = hook.on_page_markdown(f"<!-- moves: {game} -->")
        types = {d["properties"]["type"]["const"] for d in game_entry(game)["move_schema"]["$defs"].values()
                 if "const" in d.get("properties", {}).get("type", {})}
        assert types and all(f"| `{t}` |" in table for t in types), game


@pytest.mark.parametrize("page", [p for p in PAGES if p.kind == "offline"], ids=lambda p: p.path)
def test_the_offline_samples_run(page, tmp_path):
    outputs = run_page(page, {}, tmp_path)
    assert outputs and all(out.strip() for out in outputs), outputs
