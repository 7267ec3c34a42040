"""The games in words (``gateway/web/static/js/words.js``) over real seeded games, in headless Chromium.

A few seeded games of each game are played with the rules' forward model as
``tests/gateway/test_api_doc.py``'s ``sent()`` plays them (random legal moves, random options),
keeping every event (public, private and sealed, the phases' included) and, at every decision, the
seat's player view (what ``GET /games/<id>/view`` answers in ``view``) with its legal moves. The
module then runs in the page :class:`tests.web.boards_browser.Boards` serves, and:

* every event type a game's rules know has a sentence of its own (``PHRASED``), and every event
  of the games reads as its own sentence (``sentence`` is not null), naming its seat with who(),
  things by the content's names, and holding no raw id (no underscore, bracket or brace);
* in every state visited, the labels of the seat's legal moves are pairwise distinct;
* the costs are the rules' own: a Noggin move's Steps are ``turns.step_cost`` (a bid's
  ``market.bid_cost``, the Hnefetfl's its Steps; the Moon Stone and the Ring of Nudrug tried on
  real states), a Gnomes move's weeks and price are those its events report when it is played
  (every shop card's price the content's), a Resource Hog trade's money is what
  ``trade.events_of`` charges or pays, a noble move's fee what ``nobles.move_events`` charges, a
  build's what the cost table says; and on the board fixtures' real views a buy's price is read
  from the view's trading board and a shipment's fee from its roads.

The tests skip, saying why, where Playwright for Python or Debian's ``chromium`` is missing.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pytest

from services.rules.core import match as core_match
from services.rules.core.forward import apply, chance_from, clone
from services.rules.core.game import get_rules
from tests.support.browser import missing_browser
from tests.support.seeded import random_game
from tests.web.boards_browser import GAMES, Boards, fixtures, load

WHY = missing_browser()
pytestmark = [pytest.mark.browser, pytest.mark.skipif(WHY is not None, reason=WHY or "")]

SEEDS = {"noggin": (9, 10, 19, 50), "gnomes": (0, 1, 3), "resource_hog": (0, 8, 35)}
"""The seeded games played of each game (seed ``i`` has ``min_players + i % span`` players):
random play ends most Noggin games before a Saga is finished, so these are seeds whose games
between them send every event type the rules have but the Reserve deck's reshuffle (in
:data:`EXTRA`). If the rules change and a type is no longer reached, the test says which."""
RAW = re.compile(r"[_\[\]{}]|undefined|NaN|\[object|null")
"""What a text in words never holds: an id's underscore, a list's brackets, an object's braces,
or a JavaScript value printed as is."""

RUN = """async ([game, data]) => {
  const {logs, states} = JSON.parse(data);  // one string: Playwright passes a long one far faster than a tree
  const w = await import("/static/js/words.js");
  const who = (s) => (s === null || s === undefined ? "nobody" : `Seat ${s}`);
  return JSON.stringify({
    phrased: [...w.PHRASED[game]],
    lines: logs.map((log) => log.map((e) => [w.sentence(game, e, who), w.eventLine(game, e, who)])),
    labels: states.map((st) => st.moves.map((m) => [w.moveLabel(game, m, st.view), w.moveCost(game, m, st.view)])),
  });
}"""

EXTRA = {
    # match events any game may send (services/rules/core/match.py), in their documented shapes
    "*": [{"type": "StrikeRecorded", "data": {"seat": 1, "reason": "timeout", "strikes": 1}, "to": None},
          {"type": "SeatForfeited", "data": {"seat": 1, "reason": "strikes", "strikes": 3}, "to": None}],
    # events, and shapes of events, that the seeded games here happen not to reach, as the rules build them
    "noggin": [
        {"type": "StepsUsed", "data": {"marker": 0, "seat": 0, "to": 14}, "to": None},
        {"type": "ReserveDeckReshuffled", "data": {"deck": "B", "size": 12}, "to": None},
        {"type": "ReservePoolSealed", "data": {"deck": "B", "cards": ["B01", "B07"]}, "to": -1},
        {"type": "NogbadMoved", "data": {"to": "dungeon", "gaoler": 1}, "to": None},
        {"type": "SagaEndStage", "data": {"stage": "fireworks", "adjust": 1, "seat": 2}, "to": None},
        {"type": "SagaEndStage", "data": {"stage": "score", "seat": 2, "fireworks": True}, "to": None},
        {"type": "AbilityUsed", "data": {"seat": 0, "card": "windmill", "once": "season", "nogs": 1,
                                         "paid": ["harvest", "harvest"]}, "to": None},
        {"type": "AbilityUsed", "data": {"seat": 0, "card": "royal_horse_trough", "locked": {"stone": 1}}, "to": None},
        {"type": "Accused", "data": {"seat": 0, "accused": 3, "card": "nogbad", "right": True}, "to": None},
    ],
    "gnomes": [{"type": "QuestCompleted", "data": {"seat": 2, "quest": "reach_the_summit"}, "to": None}],
    "resource_hog": [
        {"type": "RansomPaid", "data": {"loser": 1, "winner": 0, "area": "L2", "pay": {"money": 1, "salt": 1},
                                        "full": False, "left_map": 2}, "to": None},
        {"type": "BattleSettled", "data": {"area": "L2", "attacker": 0, "takes": True, "attackers_to": None,
                                           "defenders_to": "L3", "left_map": 1}, "to": None},
        {"type": "BuildAbandoned", "data": {"area": "L1", "building": "manor", "reason": "the store lacks {'weapons': 1}"},
         "to": None},
        # random play seldom mines or knights since no start has ore (house rule: the map, ore)
        {"type": "MinesProduced", "data": {"produced": {"L2": {"gold": 2, "weapons": 1}}}, "to": None},
        {"type": "NoblesProduced", "data": {"areas": ["L1"]}, "to": None},
    ],
}
"""Events added to the seeded games' logs: the match events, and rare ones, so every type is read."""


def plain(value: Any) -> Any:
    """``value`` as the JSON the API sends."""
    return json.loads(json.dumps(value))


@dataclass
class Played:
    """The seeded games of one game: their logs, and every decision of them (the state, the seat
    to move, its view and its legal moves)."""

    logs: list[list[dict[str, Any]]] = field(default_factory=list)
    decisions: list[tuple[Any, int, dict[str, Any], list[dict[str, Any]]]] = field(default_factory=list)


@lru_cache(maxsize=None)
def played(game: str) -> Played:
    rules = get_rules(game)
    out = Played()
    for i in SEEDS[game]:
        players = rules.min_players + i % (rules.max_players - rules.min_players + 1)
        events = random_game(rules, players, f"words-{game}-{i}", 0.5, lambda state, seat, moves: out.decisions.append(
            (clone(rules, state), seat, plain(rules.view(state, seat)), moves)))
        out.logs.append([e.to_json() for e in events])
    return out


@pytest.fixture(scope="module")
def boards():
    with Boards() as b:
        yield b


_results: dict[str, dict[str, Any]] = {}
"""words.js's answers per game, read once (see :func:`read`)."""


def read(boards: Boards, game: str) -> dict[str, Any]:
    """words.js over the seeded games of ``game`` (and :data:`EXTRA`): ``phrased``, the event
    types with a sentence; ``lines``, each log's [sentence, eventLine] per event; ``labels``,
    each decision's [label, cost] per legal move. Run once per game."""
    if game not in _results:
        p = played(game)
        logs = [*p.logs, EXTRA["*"] + EXTRA[game]]
        states = [{"view": view, "moves": moves} for _, _, view, moves in p.decisions]
        data = json.dumps({"logs": logs, "states": states})
        _results[game] = json.loads(boards.page.evaluate(RUN, [game, data]))
        assert boards.errors == []
    return _results[game]


def event_types(game: str) -> set[str]:
    """Every event type the rules of ``game`` know (the types its state's evolve applies) and the
    match events every game accepts."""
    handlers = importlib.import_module(f"services.rules.{game}.state")._HANDLERS
    return set(handlers) | set(core_match.EVENTS)


# -- events ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_event_type_has_a_sentence_of_its_own(boards, game):
    """PHRASED holds every event type the game's rules know: public, private, sealed and the
    phases', and the match events."""
    phrased = set(read(boards, game)["phrased"])
    missing = event_types(game) - phrased
    assert not missing, f"{game}: no sentence for {sorted(missing)}"
    sent = {e["type"] for log in played(game).logs for e in log}
    assert sent <= event_types(game)  # the list above is the rules' own: nothing sent is outside it


@pytest.mark.parametrize("game", GAMES)
def test_every_event_reads_as_its_own_sentence(boards, game):
    """Every event of the seeded games (and of :data:`EXTRA`) is written by its type's sentence,
    not the fallback line, names its seat as who() does and holds no raw id or value."""
    result = read(boards, game)
    logs = [*played(game).logs, EXTRA["*"] + EXTRA[game]]
    read_types = set()
    for log, lines in zip(logs, result["lines"]):
        for event, (said, line) in zip(log, lines):
            read_types.add(event["type"])
            assert said is not None, f"{game}: {event} has no sentence ({line})"
            assert said == line and said.strip(), event
            assert not RAW.search(said), f"{game}: {said!r} from {event}"
            seat = event["data"].get("seat")
            if isinstance(seat, int) and seat >= 0:
                assert f"Seat {seat}" in said, f"{game}: {said!r} does not name seat {seat}"
    assert read_types >= event_types(game), f"{game}: never read {sorted(event_types(game) - read_types)}"


def test_ids_are_named_from_the_content(boards):
    """A few ids of the trial's raw lines come out as the content's names."""
    said = {game: [line for lines in read(boards, game)["lines"] for _, line in lines] for game in GAMES}
    gnomes = " ".join(said["gnomes"])
    assert "Market Meadow" in gnomes and "market meadow item" not in gnomes.lower()
    assert not re.search(r"\bsite \d", gnomes)  # every site by the tile the log laid on it
    assert re.search(r"the quest to sell a (yellow|red) mushroom in \w+ or \w+", gnomes)
    hog = " ".join(said["resource_hog"])
    assert "L5 Eastwold" in hog and "L1 Ashby" in hog
    noggin = " ".join(said["noggin"])
    assert re.search(r"Harbourside of The [A-Z]", noggin) and "Reserve card from the" in noggin
    assert not re.search(r"the (first|second|other) (Saga|Invention)", noggin)  # each by the card the log drew


# -- moves: labels ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_legal_moves_have_distinct_labels(boards, game):
    """In every state visited, two different legal moves of the seat never read the same, and a
    label or cost holds no raw id or value."""
    result = read(boards, game)
    decisions = played(game).decisions
    assert len(decisions) == len(result["labels"]) > 50
    for (_, seat, _, moves), labels in zip(decisions, result["labels"]):
        seen: dict[str, dict[str, Any]] = {}
        for move, (label, cost) in zip(moves, labels):
            assert label and not RAW.search(label) and not RAW.search(cost), (move, label, cost)
            other = seen.setdefault(label, move)
            assert other == move, f"{game}, seat {seat}: {move} and {other} both read {label!r}"


# -- moves: costs ----------------------------------------------------------------------------------

STEPS = re.compile(r"(\d+) Steps?")


def _noggin_steps(state: Any, seat: int, move: dict[str, Any]) -> int:
    """The Steps the rules charge for ``move`` (0 for none)."""
    from services.rules.noggin import market, turns

    if move["type"] == "bid":
        return market.bid_cost(state, seat, move["steps"]) if move["steps"] else 0
    if move["type"] == "use" and move["card"] == "hnefetfl":
        return move["steps"]
    if move["type"] in ("miner", "fisherman", "woodcutter", "farmer", "builder", "restock", "market_day"):
        return turns.step_cost(state, move)
    return 0


def test_noggin_costs_are_the_steps_the_rules_charge(boards):
    result = read(boards, "noggin")
    checked: dict[str, int] = {}
    for (state, seat, _, moves), labels in zip(played("noggin").decisions, result["labels"]):
        for move, (label, cost) in zip(moves, labels):
            want = _noggin_steps(state, seat, move)
            got = STEPS.search(cost)
            if want:
                assert got and int(got.group(1)) == want, f"{move}: {cost!r}, the rules charge {want} Step(s)"
                kind = move["type"] + (f":{move['op']}" if move["type"] in ("miner", "market_day") else "")
                checked[kind] = checked.get(kind, 0) + 1
            else:
                assert not got or int(got.group(1)) == 0, f"{move}: {cost!r}, the rules charge no Step"
                if move["type"] in ("builder", "market_day", "miner"):
                    assert cost.startswith("no Step"), f"{move}: {cost!r} should say why it costs no Step"
                    checked["free " + move["type"]] = checked.get("free " + move["type"], 0) + 1
    for kind in ("miner:dig", "miner:walk", "fisherman", "woodcutter", "farmer", "builder", "restock",
                 "market_day:trade", "free market_day"):
        assert checked.get(kind), f"no {kind} move was checked: {checked}"


def _gnomes_costs(rules: Any, state: Any, seat: int, move: dict[str, Any]) -> tuple[int | None, int | None]:
    """(weeks, price in brown gems) the move's own events report when it is played."""
    after = clone(rules, state)
    events = apply(rules, after, seat, move, chance_from("words-cost"))
    weeks = next((e.data["weeks"] for e in events if e.type in ("GnomeMoved", "MushroomPicked", "Scouted", "ShopRestocked")), None)
    price = next((e.data["cost"] for e in events if e.type == "CardBought"), None)
    return weeks, price


def test_gnomes_costs_are_the_weeks_and_gems_the_rules_charge(boards):
    rules = get_rules("gnomes")
    result = read(boards, "gnomes")
    checked: dict[str, int] = {}
    for (state, seat, _, moves), labels in zip(played("gnomes").decisions, result["labels"]):
        for move, (label, cost) in zip(moves, labels):
            weeks, price = _gnomes_costs(rules, state, seat, move)
            if weeks is not None:
                want = f"{weeks} week" if weeks else "no time"
                assert want in cost, f"{move}: {cost!r}, the rules take {weeks} week(s)"
                checked[move["type"]] = checked.get(move["type"], 0) + 1
            if price is not None:
                assert cost.startswith(f"{price} brown gem"), f"{move}: {cost!r}, the rules charge {price}"
                if move.get("nuggets"):
                    assert f"{move['nuggets']} nugget card" in cost
                checked["buy"] = checked.get("buy", 0) + 1
            if move["type"] == "sleep" and move["piles"]:
                assert f"{sum(move['piles'])} sleep week" in cost
    for kind in ("travel", "pick", "scout", "buy"):
        assert checked.get(kind), f"no {kind} move was checked: {checked}"


def test_resource_hog_costs_are_the_money_the_rules_charge(boards):
    from services.rules.resource_hog import nobles, trade
    from services.rules.resource_hog.content import content

    result = read(boards, "resource_hog")
    build = {b.id: b for b in content().buildings.buildings}
    checked: dict[str, int] = {}
    for (state, seat, _, moves), labels in zip(played("resource_hog").decisions, result["labels"]):
        for move, (label, cost) in zip(moves, labels):
            t = move["type"]
            if t in ("buy", "sell", "ship"):
                data = trade.events_of(state, seat, move)[0].data
                want = data["fee"] if t == "ship" else data["money"]
                if t == "ship" and want == 0:
                    assert cost.startswith("no fee"), (move, cost)
                else:
                    assert re.search(rf"(^|gains ){want} money", cost), f"{move}: {cost!r}, the rules say {want} money"
            elif t == "move_nobles" and any(move.get("goods", {}).values()):
                fee = nobles.move_events(state, seat, move)[0].data["fee"]
                assert cost.startswith(f"{fee} money"), f"{move}: {cost!r}, the fee is {fee}"
            elif t == "allocate" and move["work"].startswith("build:"):
                b = build[move["work"].split(":", 1)[1]]
                assert cost.startswith(f"{b.money} money"), (move, cost)
                for good, n in b.goods.items():
                    assert f"{n} arms and armour" in cost if good == "weapons" else good in cost
            else:
                continue
            checked[t] = checked.get(t, 0) + 1
    for kind in ("buy", "sell", "allocate"):
        assert checked.get(kind), f"no {kind} move was checked: {checked}"


COST_ON = """([game, move, view]) => import("/static/js/words.js").then((w) => w.moveCost(game, move, view))"""


def test_costs_on_the_fixtures_real_views(boards):
    """On real views of the board fixtures: a Resource Hog buy costs what the view's trading board
    asks (trade.py's prices, buying down the column), a sale gains what it pays; a Noggin Miner dig
    costs 1 Step, a Builder 2, a first Market Day pick 1 and a Fisherman as many as its draws."""
    from services.rules.resource_hog import trade
    from services.rules.resource_hog.content import content

    def cost(game: str, move: dict[str, Any], view: dict[str, Any]) -> str:
        return boards.page.evaluate(COST_ON, [game, move, view])

    hogs = [load(p) for p in fixtures("resource_hog")]
    assert hogs
    for fx in hogs:
        view = fx["views"]["0"]["view"]
        for good, have in view["board"].items():
            prices = content().trading.goods[good]
            for n in (1, 2, 3):
                want, left = 0, have
                for _ in range(n):
                    want += trade.buy_price(good, left)
                    left = max(0, left - 1)
                assert cost("resource_hog", {"type": "buy", "good": good, "count": n, "to": "L1"}, view) == f"{want} money"
            assert cost("resource_hog", {"type": "sell", "good": good, "count": 1, "from": "L1"}, view) == \
                f"gains {trade.sell_price(good, have)} money"
            assert trade.buy_price(good, have) in prices
        assert cost("resource_hog", {"type": "buy", "good": "slave", "count": 2, "to": "L1"}, view) == \
            f"{2 * content().trading.slave_price} money"
        assert cost("resource_hog", {"type": "sell", "good": "slave", "count": 2, "from": "L1"}, view) == \
            f"gains {2 * content().trading.slave_sell_price} money"
    for path in fixtures("noggin"):
        view = load(path)["views"]["0"]["view"]
        if view.get("action") is not None:
            continue
        assert cost("noggin", {"type": "miner", "op": "dig", "square": [0, 4]}, view) == "1 Step"
        assert cost("noggin", {"type": "fisherman", "draws": 3}, view) == "3 Steps"
        assert cost("noggin", {"type": "builder", "transport": "boat", "pay": ["wood", "wood"]}, view) == "2 Steps"
        assert cost("noggin", {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "fish"}, view) == "1 Step"
        assert cost("noggin", {"type": "restock", "kind": "fish", "amount": 4, "orchard": 0}, view) == "2 Steps"


LINE_OF = """([game, events]) => import("/static/js/words.js").then((w) =>
  events.map((e) => w.eventLine(game, e, (s) => `Seat ${s}`)))"""


def test_names_are_the_contents(boards):
    """Each id of the content (Sagas, Inventions, Counting House cards, Building tiles and
    characters; shop cards, treasures, villages and shops; land areas) is written with the
    content's own name; and a shop card's price is the content's."""
    from services.rules.gnomes.content import content as gnomes_content
    from services.rules.noggin import content as noggin_content
    from services.rules.resource_hog.content import content as hog_content

    def lines(game: str, events: list[dict[str, Any]]) -> list[str]:
        return boards.page.evaluate(LINE_OF, [game, [{"type": t, "data": d, "to": None} for t, d in events]])

    n = noggin_content
    named = [(("SagaDrawn", {"slot": 0, "card": c.id, "needed": c.reserve}), c.name) for c in n.saga_index().values()]
    named += [(("InventionDrawn", {"slot": 1, "card": c.id}), c.name) for c in n.invention_index().values()]
    named += [(("CountingHouseDrawn", {"card": c.id}), c.name) for c in n.counting_house_index().values()]
    named += [(("BuildingRowDrawn", {"row": "top", "tiles": [c.id]}), c.name) for c in n.building_index().values()]
    named += [(("CharacterUsed", {"seat": 0, "character": c.id, "paid": ["fish"]}), c.name) for c in n.load().characters.characters]
    said = lines("noggin", [e for e, _ in named])
    for (event, name), line in zip(named, said):
        assert name in line, (event, line)

    g = gnomes_content()
    named = [(("CardBought", {"seat": 0, "shop": "market_meadow", "card": c.id, "cost": c.cost, "nuggets": 0, "gems": {}}), c.name)
             for c in [*g.cards.shop, *g.cards.treasures] if not c.id.startswith("map_")]
    named += [(("MushroomSold", {"seat": 0, "mushroom": "red", "at": v.id, "gem": "white", "from": v.id}), v.name)
              for v in g.tiles.villages]
    named += [(("ShopRestocked", {"seat": 0, "shop": s.id, "returned": [], "weeks": 2}), s.name) for s in g.tiles.shops]
    said = lines("gnomes", [e for e, _ in named])
    for (event, name), line in zip(named, said):
        assert name in line, (event, line)
    for c in [*g.cards.shop, *g.cards.treasures]:
        cost = boards.page.evaluate(COST_ON, ["gnomes", {"type": "buy", "card": c.id, "nuggets": 0}, {}])
        assert cost.startswith(f"{c.cost} brown gem"), (c.id, c.cost, cost)

    named = [(("Built", {"seat": 0, "area": a.id, "building": "road", "money": 5, "goods": {}}), f"{a.id} {a.name}")
             for a in hog_content().map.lands]
    said = lines("resource_hog", [e for e, _ in named])
    for (event, name), line in zip(named, said):
        assert name in line, (event, line)


def test_resource_hog_ship_fees_on_a_real_view(boards):
    """Shipping costs 1 money a border round the ring (trade.borders), none between two areas with
    roads, on a fixture's real view."""
    from services.rules.resource_hog import trade
    from services.rules.resource_hog.content import content

    view = load(fixtures("resource_hog")[0])["views"]["0"]["view"]
    ring = content().map.ring
    with_roads = json.loads(json.dumps(view))
    for a in ring[:2]:
        with_roads["lands"][a]["buildings"] = [b for b in with_roads["lands"][a]["buildings"] if b != "road"] + ["road"]
    for a in ring:
        for b in ring:
            if a == b:
                continue
            move = {"type": "ship", "good": "salt", "count": 1, "from": a, "to": b}
            plain_view = json.loads(json.dumps(view))
            for x in (a, b):
                plain_view["lands"][x]["buildings"] = [y for y in plain_view["lands"][x]["buildings"] if y != "road"]
            assert boards.page.evaluate(COST_ON, ["resource_hog", move, plain_view]) == f"{trade.borders(a, b)} money"
    move = {"type": "ship", "good": "salt", "count": 1, "from": ring[0], "to": ring[1]}
    assert boards.page.evaluate(COST_ON, ["resource_hog", move, with_roads]).startswith("no fee")


def test_noggin_artefacts_change_the_steps_as_the_rules_do(boards):
    """The Moon Stone makes a Miner's first walk of an action free and the Ring of Nudrug a won bid
    1 Step cheaper: on real states given the artefact, the cost shown is the rules' own."""
    from services.rules.noggin import market, turns

    rules = get_rules("noggin")
    walks = [(s, seat, m) for s, seat, _, moves in played("noggin").decisions for m in moves
             if m["type"] == "miner" and m["op"] == "walk"]
    bids = [(s, seat, m) for s, seat, _, moves in played("noggin").decisions for m in moves
            if m["type"] == "bid" and m["steps"]]
    assert walks and bids
    checked = 0
    for (state, seat, move), card in [(walks[0], "moon_stone"), (walks[-1], "moon_stone"), (bids[0], "ring_of_nudrug"),
                                      (bids[-1], "ring_of_nudrug")]:
        for has in (False, True):
            s = rules.copy(state)  # changed directly below: a deep copy, not a copy-on-write clone
            holder = s.markers[s.active].seat if move["type"] == "miner" else seat
            p = s.players[holder]
            p.counting_house = [c for c in p.counting_house if c["card"] != card] + ([{"card": card, "up": True}] if has else [])
            view = plain(rules.view(s, seat))
            cost = boards.page.evaluate(COST_ON, ["noggin", move, view])
            want = market.bid_cost(s, seat, move["steps"]) if move["type"] == "bid" else turns.step_cost(s, move)
            if want:
                assert cost.startswith(f"{want} Step"), (card, has, move, cost, want)
            else:
                assert cost.startswith("no Step") and ("Moon Stone" in cost or move["type"] == "bid"), (card, has, move, cost)
            if has and card == "ring_of_nudrug":
                assert "Ring of Nudrug" in cost
            checked += 1
    assert checked == 8
