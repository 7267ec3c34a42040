"""The web pages (``gateway/web``): served as HTML with their page data, their scripts and styles
served from ``/static/``, unknown games and tournaments 404, and no secret in a page."""

from __future__ import annotations

import json
import re

import pytest


def page_data(resp) -> dict:
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', resp.text, re.S)
    assert match, "the page carries its data"
    return json.loads(match.group(1))


def assert_not_found_page(resp, code: str, name: str) -> None:
    """An unknown id on a page route answers a 404 page in HTML (not the API's JSON) that names
    the id, the error code and links back to the lobby."""
    assert resp.status_code == 404 and resp.mimetype == "text/html"
    assert f"<code>{code}</code>" in resp.text and repr(name) in resp.text.replace("&#39;", "'")
    assert 'href="/"' in resp.text


def test_the_lobby_offers_every_game_with_its_seats_and_variants(client):
    resp = client.get("/")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    data = page_data(resp)
    games = {g["name"]: g for g in data["games"]}
    assert [g["name"] for g in data["games"]][:3] == ["gnomes", "noggin", "resource_hog"]  # built-in ones first
    assert games["noggin"]["min_players"] == 2 and games["noggin"]["max_players"] == 4
    assert "sos" in games["noggin"]["options"] and games["gnomes"]["options"] == ["gem_variant", "random_layout"]
    assert games["resource_hog"]["options"] == []
    assert set(data["bots"]) == {"random", "greedy", "scripted", "ismcts", "expert"}
    for label in ('for="operator-key"', 'for="game"', 'for="players"'):
        assert label in resp.text


@pytest.mark.parametrize("page", ["table", "replay"])
def test_game_pages_know_their_game_and_hold_no_secret(client, api, page):
    gid = api.create("noggin", 3, seed="page-secret-seed", bots={"2": {"kind": "random", "seed": "page-bot-seed"}})
    token = api.seat(gid, 0)
    resp = client.get(f"/{page}/{gid}", headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    data = page_data(resp)
    assert (data["game_id"], data["game"], data["players"]) == (gid, "noggin", 3)
    for secret in ("page-secret-seed", "page-bot-seed", token.split(".", 1)[1]):
        assert secret not in resp.text
    assert_not_found_page(client.get(f"/{page}/nosuchgame"), "game_not_found", "nosuchgame")


def test_static_files_are_served(client):
    for path, kind in (("/static/js/table.js", "javascript"), ("/static/js/api.js", "javascript"),
                       ("/static/css/longhouse.css", "css")):
        resp = client.get(path)
        assert resp.status_code == 200 and kind in resp.mimetype, path
    assert client.get("/static/js/nothing.js").status_code == 404


def test_the_board_page_and_unknown_tournaments(client):
    assert client.get("/board").status_code == 200
    assert_not_found_page(client.get("/board?game_id=nosuchgame&version=1"), "game_not_found", "nosuchgame")
    assert_not_found_page(client.get("/standings/nosuch"), "unknown_tournament", "nosuch")
    assert_not_found_page(client.get("/standings/bad%20id"), "unknown_tournament", "bad id")


def test_html_answers_may_not_be_framed_or_sniffed(client, api):
    """Every HTML answer (a page, the API reference, a 404 page) tells the browser that no other
    site may frame it and not to sniff types; a JSON answer is not a page."""
    gid = api.create("step_race", 2)
    for path in ("/", f"/table/{gid}", f"/replay/{gid}", "/board", "/docs", "/table/0123456789abcdef"):
        answer = client.get(path)
        assert answer.mimetype == "text/html", path
        assert answer.headers["X-Frame-Options"] == "DENY", path
        assert answer.headers["Content-Security-Policy"] == "frame-ancestors 'none'", path
        assert answer.headers["X-Content-Type-Options"] == "nosniff", path
        assert answer.headers["Referrer-Policy"] == "no-referrer", path
    assert "X-Frame-Options" not in client.get(f"/games/{gid}").headers
