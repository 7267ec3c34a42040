"""The web pages in a real browser against the whole stack (issue 12, acceptance 1-3).

Headless Chromium (Debian's package, :mod:`tests.support.browser`) opens the stack's gateway:
a person creates a game from the lobby with the operator key, sits at seat 0 against a bot and
plays by clicking legal moves until the game ends, for every game; the bot's moves reach the
page through the game's SSE stream (the page asks for nothing until an entry arrives). A replay
is stepped with its buttons and the keyboard; a tournament's page shows its standings, plot and
replays. A test cuts the page's connections in the middle of a game (a TCP proxy between
browser and gateway) and checks that the page still received every entry of the log exactly
once. Screenshots of each table at 1280x800 go to ``var/screenshots/`` (not committed).

Every wait is Playwright's wait for a selector or condition, with a timeout; nothing sleeps.
"""

from __future__ import annotations

import random
import time
from urllib.parse import urlparse

import pytest
import requests

from tests.support.browser import SCREENSHOTS, VIEWPORT, launch, missing_browser
from tests.support.legibility import MEASURE, problems
from tests.support.tcp_proxy import TcpProxy
from tests.support.wait import wait_for

MISSING = missing_browser()
try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # the module skips without Playwright (MISSING says why)
    PlaywrightTimeout = TimeoutError
pytestmark = [pytest.mark.browser, pytest.mark.stack, pytest.mark.skipif(MISSING is not None, reason=MISSING or "")]

OPERATOR_HEADER = "X-Longhouse-Operator-Key"
GAMES = {
    # game: (bot on seat 1, seed, options): seeds whose whole games take a few dozen clicks
    "noggin": ("random", "browser-noggin", {}),
    "gnomes": ("greedy", "browser-gnomes", {"random_layout": True}),
    "resource_hog": ("greedy", "browser-hog", {}),
}
READY = "() => ['ready', 'over'].includes(document.querySelector('#moves').dataset.state)"
MOVE_TIMEOUT_MS = 60_000
CLICK_TIMEOUT_MS = 15_000
"""How long a click waits for the button of the render it read; a render drawn again meanwhile is read again."""
OFFERED = """(previous) => {
  const moves = document.querySelector('#moves');
  if (moves.dataset.key === previous || !['ready', 'over'].includes(moves.dataset.state)) return null;
  return {state: moves.dataset.state, key: moves.dataset.key, version: moves.dataset.version,
          labels: Array.from(moves.querySelectorAll('button.move'), (b) => b.innerText)};
}"""
"""The moves the page offers once it is ready for a move (or over) with a decision other than
``previous`` (its ``data-key``): ``{state, key, version, labels}``, else null (Playwright waits on)."""


def operator_key(stack) -> str:
    """The stack's operator key ("" for a gateway that asks for none)."""
    return getattr(stack, "operator_key", "") or ""


def operator_headers(stack) -> dict[str, str]:
    key = operator_key(stack)
    return {OPERATOR_HEADER: key} if key else {}


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = launch(pw)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh page (its own browser context: its own storage) at 1280x800; fails the test on a script error."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(MOVE_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.console_lines = []  # for a failure's message (page_state)
    page.on("console", lambda msg: page.console_lines.append(f"{msg.type}: {msg.text}"))
    yield page
    context.close()
    assert not errors, f"script errors on the page: {errors}"


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def create_from_lobby(page, base: str, stack, game: str, bot: str, seed: str, options: dict[str, bool]) -> str:
    """Fill the lobby's form (operator key, game, two seats: you and a bot, variants, seed), create
    the game and land on its table; returns the game id."""
    page.goto(f"{base}/")
    page.wait_for_selector("body[data-ready='true']")
    page.get_by_label("Operator key").fill(operator_key(stack))
    page.get_by_label("Game", exact=True).select_option(game)
    page.get_by_label("Seats", exact=True).fill("2")
    page.get_by_label("Seats", exact=True).dispatch_event("change")
    for option in options:
        page.locator(f"#option-{option}").check()
    page.get_by_label("Seed").fill(seed)
    page.locator("#seat-0-kind").select_option("me")
    page.locator("#seat-1-kind").select_option(bot)
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(f"{base}/table/*")
    return urlparse(page.url).path.rsplit("/", 1)[1]


def play_to_the_end(page, rng: random.Random, screenshot: str | None = None, cut=None, max_clicks: int = 400,
                    stop_at: int | None = None) -> int:
    """Click a legal move (chosen by ``rng``; every tenth pressed with the keyboard) whenever the page
    offers some, until it says the game is over; ``cut(clicks)`` runs before each click. Returns
    the number of clicks (stops after ``stop_at`` clicks, if given). The page is read once a turn
    (:data:`OFFERED`: one round trip, where a query for each thing took five).

    The click is pinned to the decision that was read (the moves ``ready`` for its
    ``data-version``): a stream entry's refresh may draw the moves of another decision between the
    read and the click (or none, while a move is sent); the loop then reads the page again instead
    of waiting for a button that is gone. The same decision drawn again (a move's answer, then the
    refresh after it) is clicked as read. A decision that stays on the page and cannot be clicked
    fails, with the page's state in the message."""
    clicks = 0
    key = None
    while True:
        try:
            offered = page.wait_for_function(OFFERED, arg=key, timeout=MOVE_TIMEOUT_MS).json_value()
        except PlaywrightTimeout as exc:
            raise AssertionError(f"no new render of the moves after {clicks} clicks: {page_state(page)}") from exc
        if offered["state"] == "over" or clicks == stop_at:
            return clicks
        assert clicks < max_clicks, "the game did not end"
        if screenshot and clicks == 6:
            assert_legible(page, f"{screenshot} after 6 clicks")
            shot(page, screenshot)
        if cut is not None:
            cut(clicks)
            offered = page.wait_for_function(OFFERED, arg=None, timeout=MOVE_TIMEOUT_MS).json_value()
        key, labels, version = offered["key"], offered["labels"], offered["version"]
        assert labels
        choice = rng.randrange(len(labels))
        assert labels[choice].strip() and "{" not in labels[choice]  # a label in words, not JSON
        decision = f'#moves[data-state="ready"][data-version="{version}"]'
        button = page.locator(f"{decision} button.move").nth(choice)
        try:
            if clicks % 10 == 9:  # now and then by keyboard: a move is a button that Enter presses
                button.press("Enter", timeout=CLICK_TIMEOUT_MS)
            else:
                button.click(timeout=CLICK_TIMEOUT_MS)
        except PlaywrightTimeout as exc:
            if page.locator(decision).count():
                raise AssertionError(f"move {choice} of version {version} could not be clicked: {page_state(page)}") from exc
            key = None  # another decision drawn before the click: read what the page offers now
            continue
        clicks += 1


def page_state(page) -> dict:
    """What the table shows, for a failure's message: the moves' state and key, its status line,
    the stream's connection, the version, and the page's last console lines."""
    shown = page.evaluate("""() => ({moves: {...document.querySelector('#moves').dataset},
      buttons: document.querySelectorAll('#moves button.move').length,
      status: document.querySelector('#status').innerText,
      connection: document.querySelector('#connection').dataset.state,
      version: document.body.dataset.version})""")
    return {**shown, "console": page.console_lines[-10:]}


def assert_legible(page, what: str) -> float:
    """The whole drawing of the table is in the window, every text of it renders at LEGIBLE_PX or
    more, none overlaps another or reaches past the drawing's edge, and its panel does not scroll;
    returns the smallest text size (px)."""
    measured = page.evaluate(MEASURE, "#board svg")
    found = problems(measured)
    assert found == [], f"{what}: {found}"
    x0, y0, x1, y1 = measured["box"]
    assert x0 >= 0 and y0 >= 0 and x1 <= VIEWPORT["width"] + 0.5 and y1 <= VIEWPORT["height"] + 0.5, \
        f"{what}: the drawing {measured['box']} is not all in the {VIEWPORT} window"
    scroll = page.evaluate("() => { const a = document.querySelector('.board-area');"
                           " return [a.scrollHeight, a.clientHeight, document.documentElement.scrollHeight]; }")
    assert scroll[0] <= scroll[1] + 1 and scroll[2] <= VIEWPORT["height"], f"{what}: the table scrolls {scroll}"
    return min(t["size"] for t in measured["texts"])


def check_log_complete(page, base: str, game_id: str) -> dict:
    """The page received every entry of the game's log exactly once, in order; returns the summary."""
    summary = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    page.wait_for_function("(v) => window.longhouseTable.last >= v", arg=summary["version"])
    seen = page.evaluate("window.longhouseTable.seen")
    logged = page.evaluate("window.longhouseTable.logged")
    assert logged == list(range(1, summary["version"] + 1))
    expected = [f"{game_id}:{v}-0" for v in range(1, summary["version"] + 1)]  # ids carry the game
    assert sorted(set(seen), key=lambda i: int(i.rpartition(":")[2].split("-")[0])) == expected
    return summary


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_by_clicking_against_a_live_bot(page, stack, game):
    bot, seed, options = GAMES[game]
    base = stack.gateway_url
    started = time.monotonic()
    game_id = create_from_lobby(page, base, stack, game, bot, seed, options)
    assert page.evaluate("(id) => JSON.parse(localStorage.getItem('longhouse:seat:' + id)).seat", game_id) == 0
    assert "token" not in page.url and "lhinv_" not in page.url
    clicks = play_to_the_end(page, random.Random(seed), screenshot=f"table-{game}")
    summary = check_log_complete(page, base, game_id)
    assert summary["status"] == "over" and summary["outcome"] is not None
    assert page.locator("body").get_attribute("data-status") == "over"
    assert "The game is over" in page.locator("#status").inner_text()
    assert page.locator("#score-label").inner_text() == "Final score"
    assert page.locator("#scores-body tr").count() == 2
    # the bot answered live: its moves are in the log the stream filled, each a line in words
    bot_lines = page.locator("#log li[data-seat='1'][data-kind='move']")
    mine = page.locator("#log li[data-seat='0'][data-kind='move']")
    assert bot_lines.count() > 0 and mine.count() > 0 and clicks > 10
    assert "{" not in page.locator("#log").inner_text()
    assert summary["moves"] >= clicks
    assert_legible(page, f"{game} at the end")
    shot(page, f"table-{game}-end")
    print(f"{game}: {clicks} clicks, {summary['moves']} moves, {time.monotonic() - started:.1f} s")


@pytest.mark.parametrize("game", list(GAMES))
def test_the_table_is_legible_at_1280x800(page, stack, game):
    """Issue 12, acceptance 2: at 1280x800 the whole drawing of a game's table is in the window
    without scrolling, every text of it renders at 11 px or more (its font size times the
    drawing's scale on the page), no two texts of it overlap, and the legal moves and the log are
    on screen beside it."""
    bot, seed, options = GAMES[game]
    create_from_lobby(page, stack.gateway_url, stack, game, bot, seed, options)
    play_to_the_end(page, random.Random(seed), stop_at=4)
    page.wait_for_function(READY, timeout=MOVE_TIMEOUT_MS)
    smallest = assert_legible(page, game)
    for part in ("#moves", "#log"):
        box = page.locator(part).bounding_box()
        assert box and box["width"] >= 200 and box["height"] >= 60 and box["y"] + 40 <= VIEWPORT["height"], part
    assert page.locator("#moves button.move").count() > 0
    if game == "resource_hog":  # its score column is the wealth that wins, not the purse
        assert page.locator("#score-label").inner_text() == "Wealth"
    shot(page, f"table-{game}-legible")
    page.locator("#board svg").screenshot(path=str(SCREENSHOTS / f"table-{game}-board.png"))
    print(f"{game}: smallest board text {smallest:.1f} px")


def test_a_dropped_stream_resumes_without_missing_or_repeating_an_entry(page, stack):
    gateway = urlparse(stack.gateway_url)
    proxy = TcpProxy((gateway.hostname, gateway.port))
    base = f"http://127.0.0.1:{proxy.port}"
    cuts: list[int] = []
    try:
        game_id = create_from_lobby(page, base, stack, "resource_hog", "random", "browser-drop", {})

        def cut(clicks: int) -> None:
            if clicks in (5, 15):
                cuts.append(proxy.cut())
                page.wait_for_function("() => document.getElementById('connection').dataset.state === 'reconnecting'")
                # moves go on over HTTP while the stream is down: wait for it to be back, or a game that ends
                # before the browser's reconnection delay (longer on a busy machine) never asks for it again
                page.wait_for_function("() => document.getElementById('connection').dataset.state === 'live'")

        play_to_the_end(page, random.Random("drop"), cut=cut)
        summary = check_log_complete(page, base, game_id)
    finally:
        proxy.close()
    assert len(cuts) == 2 and all(cuts)
    seen = page.evaluate("window.longhouseTable.seen")
    assert len(seen) == len(set(seen)) == summary["version"]  # nothing repeated, nothing missing
    streams = bytes(proxy.sent).count(f"GET /games/{game_id}/stream".encode())
    assert streams >= 3  # the first stream and one after each cut
    assert bytes(proxy.sent).count(b"Last-Event-ID: ") >= 2  # the browser resumed where it was


def _finished_game(stack, game: str, seed: str) -> str:
    resp = requests.post(f"{stack.gateway_url}/games", headers=operator_headers(stack), timeout=30,
                         json={"game": game, "players": 2, "seed": seed, "bots": {"0": "greedy", "1": "random"}})
    assert resp.status_code == 201, resp.text
    game_id = resp.json()["game_id"]
    wait_for(lambda: requests.get(f"{stack.gateway_url}/games/{game_id}/wait?after=0&until=over&timeout=20",
                                  timeout=30).json()["status"] == "over", 120, "the bots' game to end")
    return game_id


def test_a_replay_steps_through_the_public_views(page, stack):
    base = stack.gateway_url
    game_id = _finished_game(stack, "gnomes", "browser-replay")
    summary = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    views: list[tuple[str, str | None]] = []
    page.on("request", lambda r: views.append((r.url, r.headers.get("authorization")))
            if "/view" in r.url else None)
    # the lobby lists it among the finished games with its result, and links to its replay
    page.goto(f"{base}/")
    row = page.locator(f"#finished tr[data-game-id='{game_id}']")
    row.wait_for()
    page.wait_for_function("(id) => document.querySelector(`td[data-result='${id}']`).textContent !== '…'", arg=game_id)
    outcome = summary["outcome"]
    result = row.locator("td.result").inner_text()
    assert result.startswith(f"Seat {' and seat '.join(map(str, outcome['winners']))} won"), result
    assert ", ".join(map(str, outcome["scores"])) in result
    row.get_by_role("link", name="Replay").click()
    page.wait_for_url(f"{base}/replay/{game_id}")
    page.wait_for_selector("body[data-step='1']")
    assert page.locator("body").get_attribute("data-steps") == str(summary["version"])
    page.get_by_role("button", name="Next step").click()
    page.wait_for_selector("body[data-step='2']")
    page.get_by_role("button", name="Next step").click()
    page.wait_for_selector("body[data-step='3']")
    page.get_by_role("button", name="Previous step").click()
    page.wait_for_selector("body[data-step='2']")
    slider = page.get_by_label("Version")
    slider.focus()
    page.keyboard.press("End")  # the slider is a range input: the keyboard moves it
    page.wait_for_selector(f"body[data-step='{summary['version']}']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"body[data-step='{summary['version'] - 1}']")
    page.get_by_role("button", name="Last step").click()
    page.wait_for_selector(f"body[data-step='{summary['version']}']")
    page.locator("#board").click()  # the keys step from anywhere on the page, not only the slider
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-step='1']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-step='2']")
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{summary['version']}']")
    assert page.locator("#board").get_attribute("data-drawn") in ("board", "tree")
    assert page.locator("#log li.current").count() > 0
    assert "Final scores" in page.locator("#log").inner_text()
    # only public views: never a token, always a version
    assert views and all(auth is None and "version=" in url for url, auth in views)
    public = requests.get(f"{base}/games/{game_id}/view?version=2", timeout=10).json()
    assert public["seat"] is None
    shot(page, "replay-gnomes")


def test_a_tournament_page_shows_standings_the_plot_and_replays(page, stack):
    base = stack.gateway_url
    spec = {"games": ["resource_hog"], "format": "series", "matches": 2, "players": 2, "seed": "browser",
            "participants": [{"name": "r", "kind": "random"}, {"name": "g", "kind": "greedy"}]}
    resp = requests.post(f"{base}/tournaments", json=spec, headers=operator_headers(stack), timeout=30)
    assert resp.status_code == 201, resp.text
    tid = resp.json()["tournament_id"]
    wait_for(lambda: requests.get(f"{base}/tournaments/{tid}", timeout=10).json()["status"] == "done", 180,
             "the tournament to finish")
    page.goto(f"{base}/")
    page.wait_for_selector(f"#tournaments a[href='/standings/{tid}']").click()
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_selector("body[data-plot='shown']")
    assert page.locator("#standings tbody tr").count() == 2
    assert page.locator("#ratings").evaluate("img => img.naturalWidth") > 100
    links = page.locator("#matches a[href^='/replay/']")
    assert links.count() == 2
    shot(page, "tournament")
    links.first.click()
    page.wait_for_selector("body[data-step='1']")


def _supports_open(stack) -> bool:
    doc = requests.get(f"{stack.gateway_url}/openapi.json", timeout=10).json()
    return "open" in doc["components"]["schemas"]["CreateGameBody"]["properties"]


def test_the_lobby_lists_games_takes_a_seat_of_an_open_game_and_watches(page, stack):
    base = stack.gateway_url
    body = {"game": "gnomes", "players": 2, "seed": "browser-lobby", "bots": {"1": "random"}}
    if _supports_open(stack):
        body["open"] = True
    resp = requests.post(f"{base}/games", json=body, headers=operator_headers(stack), timeout=30)
    assert resp.status_code == 201, resp.text
    game_id = resp.json()["game_id"]
    page.goto(f"{base}/")
    row = page.locator(f"#playing tr[data-game-id='{game_id}']")
    row.wait_for()
    assert "A Game of Gnomes" in row.inner_text() and "free: 0" in row.inner_text()
    shot(page, "lobby")
    row.get_by_role("button", name="Take seat 0").click()
    page.wait_for_url(f"{base}/table/{game_id}")
    page.wait_for_function(READY)
    assert page.locator("body").get_attribute("data-seat") == "0"
    assert page.locator("#mine").is_visible()  # the seat's own hand, from its own view
    # another tab is a spectator: no moves, no hand, and the stream without a token
    watcher = page.context.browser.new_context(viewport=VIEWPORT).new_page()
    try:
        streams: list[str] = []
        watcher.on("request", lambda r: streams.append(r.url) if "/stream" in r.url else None)
        watcher.goto(f"{base}/")
        watcher.locator(f"#playing tr[data-game-id='{game_id}']").get_by_role("link", name="Watch").click()
        watcher.wait_for_url(f"{base}/table/{game_id}")
        watcher.wait_for_selector("body[data-seat='spectator']")
        watcher.wait_for_function("() => document.getElementById('log').children.length > 0")
        assert watcher.locator("#moves button.move").count() == 0 and not watcher.locator("#mine").is_visible()
        assert streams and all("token=" not in url for url in streams)
    finally:
        watcher.context.close()


def test_a_seat_of_a_game_by_invitation_is_taken_from_its_table_page(page, stack):
    """A game that is not open: its table page refuses the seat without the invitation and with a
    wrong one (saying why, the page still a spectator's), then takes it with the right one and
    offers the seat's moves; the invitation never reaches the URL."""
    base = stack.gateway_url
    body = {"game": "resource_hog", "players": 2, "seed": "browser-invite", "bots": {"1": "random"}}
    resp = requests.post(f"{base}/games", json=body, headers=operator_headers(stack), timeout=30)
    assert resp.status_code == 201, resp.text
    game_id, invitation = resp.json()["game_id"], resp.json()["invitations"]["0"]
    page.goto(f"{base}/table/{game_id}")
    page.wait_for_selector("body[data-seat='spectator']")
    page.wait_for_selector("#claim-seat")
    assert page.locator("#claim-seat option").all_inner_texts() == ["Seat 0"]
    take = page.get_by_role("button", name="Take the seat")
    take.click()
    page.wait_for_function("() => document.getElementById('claim-error').textContent !== ''")
    assert "Could not take seat 0" in page.locator("#claim-error").inner_text()
    page.get_by_label("Invitation").fill("lhinv_not-the-right-one")
    page.get_by_label("Invitation").press("Enter")  # the form submits from the keyboard too
    page.wait_for_function("() => document.getElementById('claim-error').textContent.includes('invitation')")
    assert page.locator("body").get_attribute("data-seat") == "spectator"
    assert requests.get(f"{base}/games/{game_id}", timeout=10).json()["seats_taken"] == [1]
    page.get_by_label("Invitation").fill(invitation)
    take.click()
    page.wait_for_selector("body[data-seat='0']")
    page.wait_for_function(READY)
    assert page.locator("#moves button.move").count() > 0
    assert "You hold seat 0" in page.locator("#seat-box").inner_text()
    assert invitation not in page.url and "lhinv_" not in page.url


def test_the_creator_hands_out_invitations_from_the_table_and_keeps_the_seat_in_a_new_tab(page, stack):
    """From the lobby: you on seat 0, another person on seat 1, a bot on seat 2 (two seats marked
    as yours are refused first). The table shows the creator seat 1's invitation; another browser
    takes seat 1 with it from its own table page, and then the invitation is no longer shown. A new
    tab of the creator's browser holds seat 0 still."""
    base = stack.gateway_url
    page.goto(f"{base}/")
    page.wait_for_selector("body[data-ready='true']")
    page.get_by_label("Operator key").fill(operator_key(stack))
    page.get_by_label("Game", exact=True).select_option("resource_hog")
    page.get_by_label("Seats", exact=True).fill("9")  # more than the game takes: rows up to its most, and refused
    page.get_by_label("Seats", exact=True).dispatch_event("change")
    assert page.locator("#seats .seat-row").count() == 4
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_function("() => document.querySelector('#create-result').textContent.includes('takes 2 to 4 seats')")
    page.get_by_label("Seats", exact=True).fill("3")
    page.get_by_label("Seats", exact=True).dispatch_event("change")
    page.get_by_label("Seed").fill("browser-hand-out")
    page.locator("#seat-0-kind").select_option("me")
    page.locator("#seat-1-kind").select_option("me")
    page.locator("#seat-2-kind").select_option("random")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_selector("#create-result [role='alert']")
    assert "both" in page.locator("#create-result").inner_text() and page.url == f"{base}/"
    page.locator("#seat-1-kind").select_option("human")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(f"{base}/table/*")
    game_id = urlparse(page.url).path.rsplit("/", 1)[1]
    page.wait_for_selector("body[data-seat='0']")
    code = page.locator("#invitations code[data-seat='1']")
    invitation = code.inner_text()
    assert invitation.startswith("lhinv_") and page.locator("#invitations code").count() == 1
    other = page.context.browser.new_context(viewport=VIEWPORT).new_page()
    try:
        other.goto(f"{base}/table/{game_id}")
        other.wait_for_selector("#claim-seat")
        assert other.locator("#invitations").count() == 0  # only the creator's browser has them
        other.get_by_label("Invitation").fill(invitation)
        other.get_by_role("button", name="Take the seat").click()
        other.wait_for_selector("body[data-seat='1']")
    finally:
        other.context.close()
    page.reload()  # taking a seat adds nothing to the log: the page learns it when it next reads the game
    page.wait_for_selector("body[data-seat='0']")
    page.wait_for_function(READY)
    assert page.locator("#invitations").count() == 0  # seat 1 is taken now
    again = page.context.new_page()  # a new tab of the same browser
    try:
        again.goto(f"{base}/table/{game_id}")
        again.wait_for_selector("body[data-seat='0']")
        again.wait_for_function("() => document.getElementById('seat-box').textContent.includes('You hold seat 0')")
        assert again.locator("#claim-seat").count() == 0
    finally:
        again.close()


def test_a_game_without_a_drawing_shows_its_view_as_a_folding_tree(page, stack):
    page.goto(f"{stack.gateway_url}/board")
    page.wait_for_function("() => window.longhouseBoard !== undefined")
    view = {"round": 3, "secret_free": True, "board": {"lands": {"L1": {"owner": 0, "peasants": 4}}, "year": 2}}
    drawn = page.evaluate("([v]) => window.longhouseBoard.show('a_game_with_no_drawing', v, {seat: null})", [view])
    assert drawn == "tree" and page.locator("#board").get_attribute("data-drawn") == "tree"
    text = page.locator("#board").inner_text()
    assert "Round" in text and "3" in text and "Secret free" in text and "Lands" not in text
    page.locator("#board details > summary").first.click()  # a nested part folds open
    assert "Lands" in page.locator("#board").inner_text()
