"""Honest determinisation: a world sampled from a seat's view (``rules.state_from_view``, what
every search from a view does) is a world that could be true for that seat.

What is hidden (noggin-the-nog-rulebook.txt 1.0 set-up F, N, O, S; 6.4; 6.1; variants): the
order of every face-down pile, the back of each Reserve card lying resource side up, the
cards Nooka sends away unturned, the other seats' Friend or Foe cards. 1,000 worlds are drawn
from real views at many points of seeded games played by bots (2, 3 and 4 seats, Friend or
Foe among them), and every one is checked: no item more often than it exists, nothing the
seat saw leave a pile dealt again, every Reserve card's identity matching its printed front,
and the seat's view of the world the very view it came from (everything public, and its own
card, unchanged). The search reads the dealt piles: a Change of Season in a world draws the
rows its pile holds.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from services.rules.core import Event, GameConfig, canonical_json, get_rules
from services.rules.core import match as core_match
from services.rules.core.forward import apply, apply_phase, chance_from, start
from services.rules.noggin import content, decks

RULES = get_rules("noggin")
WORLDS = 1000
"""Worlds checked in all."""
PER_VIEW = 10
"""Worlds drawn from each view."""
GAMES = ((2, {}, "det-2"), (3, {}, "det-3"), (4, {}, "det-4"), (4, {"friend_or_foe": True}, "det-fof"),
         (3, {"money_money_money": True}, "det-money"))
"""Seeded games the views come from: players, variants, seed."""


def _views(players: int, options: dict, seed: str, every: int, wanted: int) -> list[tuple[dict, object]]:
    """``(view, true state)`` of the deciding seat at every ``every``-th decision of a seeded game
    played by random bots (their moves reach Nooka, Knut, discards and reshuffles), up to
    ``wanted`` views; a game that ends early starts again with the next seed."""
    out: list[tuple[dict, object]] = []
    game = 0
    while len(out) < wanted:
        chance = chance_from(f"{seed}:{game}")
        state, _ = start(RULES, GameConfig(game="noggin", players=players, options=options), chance)
        rng = random.Random(f"{seed}:{game}")
        step = 0
        while RULES.outcome(state) is None and len(out) < wanted:
            if RULES.pending_phase(state):
                apply_phase(RULES, state, chance)
                continue
            seat = RULES.to_move(state)[0]
            legal = RULES.legal_moves(state, seat)
            step += 1
            if step % every == 0:
                out.append((RULES.view(state, seat), RULES.copy(state)))
            apply(RULES, state, seat, legal[rng.randrange(len(legal))], chance, checked=True)
        game += 1
    return out


def _undrawn(world, label: str) -> list[str]:
    return [x for x in (world.secret["dealt"].get(label) or []) if x]


def _impossible(view: dict, world) -> list[str]:
    """Why ``world`` could not be true for the seat of ``view`` (empty if it could)."""
    why: list[str] = []
    seat = view["seat"]
    if canonical_json(RULES.view(world, seat)) != canonical_json(view):
        why.append("the seat's view of the world is not its view")
    # Reserve decks: every card exactly once across Sagas, discard piles and the undrawn deck
    for deck in decks.DECKS if hasattr(decks, "DECKS") else ("A", "B", "C"):
        ids: list[str] = []
        for slot, saga in enumerate(world.sagas):
            if saga is None:
                continue
            ids += [c["card"] for c in saga.done if c["deck"] == deck]
            if saga.current is not None and saga.current.deck == deck:
                card = world.secret["saga_cards"][slot]
                info = content.reserve_index()[card]
                if (info.needs, info.bonus) != (saga.current.needs, saga.current.bonus):
                    why.append(f"Saga {slot}'s card {card} does not have the front on the table")
                ids.append(card)
        ids += world.secret["discard"][deck]
        seen = [e["card"] for e in (world.seen or {}).get("discard", {}).get(deck, []) if "card" in e]
        if Counter(seen) - Counter(world.secret["discard"][deck]):
            why.append(f"a turned card of {deck}'s discard pile is not on it")
        r = world.reserve[deck]
        undrawn = _undrawn(world, f"reserve:{deck}:{r['epoch']}")
        if len(undrawn) != r["size"] - r["top"] - r["bottom"]:
            why.append(f"Reserve deck {deck} holds {len(undrawn)} cards, not {r['size'] - r['top'] - r['bottom']}")
        twice = [c for c, k in Counter(ids + undrawn).items() if k > 1]
        if twice:
            why.append(f"Reserve cards {twice} are in two places")
        if Counter(ids + undrawn) != Counter(content.reserve_ids(deck)):
            why.append(f"Reserve deck {deck}'s cards are not the deck's")
    # what the seat saw by Knut (6.1) or the Telescope (appendix) lies where it saw it
    for peek in view.get("my_peeks") or []:
        r = world.reserve[peek["deck"]]
        order = world.secret["dealt"].get(f"reserve:{peek['deck']}:{r['epoch']}") or []
        if order[r["top"] + peek["from_top"]] != peek["card"]:
            why.append(f"{peek['card']}, seen {peek['from_top']} from the top of {peek['deck']}, is not there")
    for peek in view.get("my_saga_peeks") or []:
        if world.secret["saga_cards"][peek["saga"]] != peek["card"]:
            why.append(f"{peek['card']}, seen before it went onto Saga {peek['saga']}, is not there")
    # Building tiles: never more copies than exist, nothing on the table dealt again
    table = [t for row in ("bottom", "top") for t in world.rows.get(row, []) if t]
    table += list(world.building_discard) + list(world.year1_pile) + [b for p in world.players for b in p.buildings]
    every = Counter(decks.year1_tiles(world)) + Counter(content.year2_tiles())
    if world.buildings_drawn < len(decks.year1_tiles(world)):
        table += _undrawn(world, "buildings")
    table += _undrawn(world, "buildings:year2")
    over = Counter(table) - every
    if over:
        why.append(f"Building tiles {dict(over)} more often than they exist")
    # Mine tiles, Sagas, Inventions, Counting House: each card once
    mine = [t["tile"] for t in world.mine_tiles] + _undrawn(world, "mine_tiles")
    mine += [world.drawn["mine_tile"]] if world.drawn.get("mine_tile") else []
    sagas = list(world.sagas_done) + [s.card for s in world.sagas if s is not None] + _undrawn(world, "sagas")
    seen = world.seen or {}
    inventions = ([i.card for i in world.inventions if i is not None] + [c for p in world.players for c in p.inventions]
                  + list(seen.get("inventions", [])) + _undrawn(world, "inventions"))
    cards = ([world.counting_house] if world.counting_house else []) + [
        c["card"] for p in world.players for c in p.counting_house] + list(seen.get("counting_house", []))
    cards += _undrawn(world, "counting_house")
    for name, items in (("Mine tile", mine), ("Saga", sagas), ("Invention", inventions), ("Counting House", cards)):
        twice = [c for c, k in Counter(items).items() if k > 1]
        if twice:
            why.append(f"{name} cards {twice} in two places")
    if world.secret.get("loyalty"):
        fof = content.load().characters.friend_or_foe
        if Counter(world.secret["loyalty"]) - Counter({"noggin": fof.friends, "nogbad": fof.foes}):
            why.append("more Friend or Foe cards of a kind than exist")
    return why


@pytest.fixture(scope="module")
def worlds() -> list[tuple[dict, object, object]]:
    """``(view, true state, world)``: :data:`WORLDS` worlds, :data:`PER_VIEW` from each view."""
    views = []
    per_game = WORLDS // PER_VIEW // len(GAMES)
    for players, options, seed in GAMES:
        views += _views(players, options, seed, every=7, wanted=per_game)
    out = []
    for n, (view, truth) in enumerate(views):
        for k in range(PER_VIEW):
            out.append((view, truth, RULES.state_from_view(view, f"world {n} {k}")))
    return out


@pytest.mark.rules("noggin:secrets/determinise-unseen-only")
def test_a_thousand_worlds_from_real_views_are_all_possible(worlds):
    assert len(worlds) == WORLDS
    bad = [(view["seat"], view["season"], why) for view, _, world in worlds for why in _impossible(view, world)]
    assert bad == []


@pytest.mark.rules("noggin:secrets/determinise-unseen-only")
def test_the_true_state_passes_the_same_checks(worlds):
    """The checks can tell: the true states pass them too, and a world with a 4th copy of a
    Year 1 tile (the old determinisation's fault) fails them."""
    view, truth, world = next(w for w in worlds if w[2].buildings_drawn < 18 and _undrawn(w[2], "buildings"))
    assert _impossible(view, RULES.determinise(truth, view["seat"], "true")) == []
    on_table = next(t for t in world.rows["bottom"] + world.rows["top"] if t)
    broken = RULES.copy(world)
    pile = broken.secret["dealt"]["buildings"]
    pile[pile.index(next(x for x in pile if x and x != on_table))] = on_table
    broken.secret["dealt"]["buildings"] = pile
    three = Counter(decks.year1_tiles(broken))[on_table]
    if Counter(_undrawn(broken, "buildings") + [t for r in ("bottom", "top") for t in broken.rows[r] if t]
               + list(broken.building_discard) + [b for p in broken.players for b in p.buildings])[on_table] > three:
        assert any("Building tiles" in why for why in _impossible(view, broken))


@pytest.mark.rules("noggin:secrets/determinise-own-secret", "noggin:6.1/knut-look", "noggin:secrets/knut-cards-private")
def test_what_the_seat_peeked_at_stays_where_it_saw_it(worlds):
    """The views carry the Reserve cards the seat saw by Knut or the Telescope (``my_peeks``),
    and every world keeps them in place (checked by ``_impossible`` for all 1,000); the rest
    of the deck still varies, and moving a peeked card is caught."""
    peeked = [(v, t, w) for v, t, w in worlds if v["my_peeks"]]
    assert len(peeked) >= 50
    view, truth, world = peeked[0]
    peek = view["my_peeks"][0]
    r = truth.reserve[peek["deck"]]
    label = f"reserve:{peek['deck']}:{r['epoch']}"
    others = {tuple(w.secret["dealt"][label]) for v, _, w in peeked if v is view}
    assert len(others) > 1
    broken = RULES.copy(world)
    order = list(broken.secret["dealt"][label])
    i = r["top"] + peek["from_top"]
    j = next(k for k in range(r["top"], r["size"] - r["bottom"]) if order[k] != order[i])
    order[i], order[j] = order[j], order[i]
    broken.secret["dealt"][label] = order
    assert any("is not there" in why for why in _impossible(view, broken))
    assert RULES.view(truth, None)["my_peeks"] == []


@pytest.mark.rules("noggin:secrets/determinise-own-secret", "noggin:6.1/knut-look")
def test_a_peeked_card_drawn_onto_a_saga_is_known_there(worlds):
    """A card the seat saw at the end of a deck, then drawn from that end onto a Saga resource
    side up (6.4), is the card the seat knows lies there (``my_saga_peeks``); every world
    sampled from that view holds it, and no other seat's view or a spectator's shows it."""
    from services.rules.noggin.state import evolve

    found = None
    for view, _, world in worlds:
        for peek in view["my_peeks"]:
            r = world.reserve[peek["deck"]]
            place = r["top"] + peek["from_top"]
            end = "top" if place == r["top"] else "bottom" if place == r["size"] - 1 - r["bottom"] else None
            slots = [i for i, saga in enumerate(world.sagas) if saga is not None]
            if end and slots:
                found = (view, RULES.copy(world), peek, end, slots[0])
                break
        if found:
            break
    assert found is not None
    view, state, peek, end, slot = found
    for e in decks.draw_reserve(state, chance_from("draw"), slot, peek["deck"], end):
        evolve(state, e)
    seat = view["seat"]
    after = RULES.view(state, seat)
    assert after["my_saga_peeks"] == [{"saga": slot, "card": peek["card"]}]
    assert RULES.view(state, None)["my_saga_peeks"] == []
    assert all(RULES.view(state, s)["my_saga_peeks"] == [] for s in range(len(state.players)) if s != seat)
    for k in range(20):
        w = RULES.state_from_view(after, f"saga peek {k}")
        assert w.secret["saga_cards"][slot] == peek["card"]
        r = w.reserve[peek["deck"]]
        assert peek["card"] not in _undrawn(w, f"reserve:{peek['deck']}:{r['epoch']}")


@pytest.mark.rules("noggin:secrets/determinise-unseen-only")
def test_worlds_vary_and_the_next_card_is_any_unseen_one(worlds):
    """Uniform dealing: from one view, the next Year 1 tile differs between worlds, and is never
    a kind of which every copy is already on the table."""
    view, truth, _ = worlds[0]
    nexts = Counter()
    for k in range(200):
        w = RULES.state_from_view(view, f"uniform {k}")
        nexts[_undrawn(w, "buildings")[0]] += 1
    table = Counter([t for r in ("bottom", "top") for t in truth.rows[r] if t] + list(truth.building_discard)
                    + [b for p in truth.players for b in p.buildings])
    left = Counter(decks.year1_tiles(truth)) - table
    assert set(nexts) == {t for t, k in left.items() if k > 0}
    assert len(nexts) > 1


@pytest.mark.rules("noggin:secrets/determinise-unseen-only")
def test_a_search_draws_from_the_dealt_piles():
    """A Change of Season played in a world with any chance draws the new building row from
    the world's dealt pile (7.1), so a search never deals a tile that is not there."""
    view, truth = _views(3, {}, "det-draw", every=5, wanted=1)[0]
    world = RULES.state_from_view(view, "draw")
    pile = _undrawn(world, "buildings")
    while not RULES.pending_phase(world):
        seat = RULES.to_move(world)[0]
        legal = RULES.legal_moves(world, seat)
        apply(RULES, world, seat, next((m for m in legal if m["type"] == "end_turn"), legal[0]),
              chance_from("any"), checked=True)
    drawn = world.buildings_drawn
    season = world.season
    apply_phase(RULES, world, chance_from("any other"))
    if season + 1 in (2, 3):
        assert world.rows["top"] == pile[:world.buildings_drawn - drawn]


@pytest.mark.rules("noggin:secrets/determinise-own-secret")
def test_the_seats_own_card_is_kept_and_the_others_dealt(worlds):
    fof = [(v, w) for v, _, w in worlds if v.get("my_loyalty")]
    assert fof
    assert all(w.secret["loyalty"][v["seat"]] == v["my_loyalty"] for v, w in fof)
    assert len({tuple(w.secret["loyalty"]) for _, w in fof}) > 1


@pytest.mark.rules("noggin:agent matches/strike-default-move")
def test_a_state_rebuilt_from_a_view_with_a_match_record():
    """After a strike the view carries the match record (``{"strikes": {"1": 1}, "forfeited":
    []}`` once it has been through JSON); the rebuilt state holds a
    :class:`services.rules.core.match.MatchRecord` again, and after a forfeit nobody moves."""
    view, truth = _views(2, {}, "det-match", every=3, wanted=1)[0]
    struck = RULES.copy(truth)
    RULES.evolve(struck, Event(core_match.STRIKE, {"seat": 1, "reason": "timeout", "strikes": 1}))
    state = RULES.state_from_view(RULES.view(struck, 0), "m")
    assert state.match == core_match.MatchRecord(strikes={1: 1}, forfeited=[])
    assert RULES.to_move(state) == RULES.to_move(struck)
    import json
    plain = json.loads(json.dumps(RULES.view(struck, 0), default=str))
    assert RULES.state_from_view(plain, "m").match.strikes == {1: 1}
    RULES.evolve(struck, Event(core_match.FORFEIT, {"seat": 1, "reason": "strikes", "strikes": 2}))
    gone = RULES.state_from_view(RULES.view(struck, 0), "m")
    assert RULES.to_move(gone) == [] and RULES.outcome(gone)["forfeited"] == [1]
