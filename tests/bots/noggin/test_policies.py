"""Noggin's own bots: ``scripted`` (feed the Sagas, pass every bid), ``expert`` (the Sagas, then
cheap points) and the evaluation they and the search share (services/bots/noggin/).

Every choice is one of the legal moves (the very dict), fixed by the seed, the version and the
view, and the same whatever the true hidden state; the policies do what their docstrings say
where it shows (a Saga fed when one can be, a bid passed, a Counting House card turned face
down); and the evaluation follows the rulebook's end (noggin-the-nog-rulebook.txt 9.0):
Nogbad's crown is every seat's loss, below any ending where Noggin keeps it.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest

from services.bots.arena import play_game
from services.bots.noggin import evaluation, expert, scripted
from services.rules.core import GameConfig, canonical_json, get_rules
from services.rules.core.forward import apply, apply_phase, chance_from, start
from tests.support.positions import other_truth

RULES = get_rules("noggin")


def _positions(seed: str, want: Callable[[Any, int, list[dict]], bool], count: int = 1, players: int = 3,
               cap: int = 3000, games: int = 200) -> list[tuple[Any, int, list[dict]]]:
    """``(state, seat, legal)`` at the first ``count`` decisions with a choice where
    ``want(state, seat, legal)`` holds, in seeded games of random play (restarted with the
    next seed when one ends); the test fails if ``games`` games do not hold them."""
    out: list[tuple[Any, int, list[dict]]] = []
    game = 0
    while len(out) < count:
        assert game < games, f"only {len(out)} of {count} positions in {games} games of random play"
        chance = chance_from(f"{seed}:{game}")
        state, _ = start(RULES, GameConfig(game="noggin", players=players), chance)
        rng = random.Random(f"{seed}:{game}")
        for _ in range(cap):
            if RULES.outcome(state) is not None or len(out) >= count:
                break
            if RULES.pending_phase(state):
                apply_phase(RULES, state, chance)
                continue
            seat = RULES.to_move(state)[0]
            legal = RULES.legal_moves(state, seat)
            if len(legal) > 1 and want(state, seat, legal):
                out.append((RULES.copy(state), seat, legal))
            apply(RULES, state, seat, legal[rng.randrange(len(legal))], chance, checked=True)
        game += 1
    return out


def _kind(move: dict) -> str:
    return move.get("op", "trade") if move["type"] == "market_day" else move["type"]


def _scripted(state, seat, legal, version=3):
    return scripted.choose(RULES, RULES.view(state, seat), legal, random.Random(f"bot:{version}:scripted"))


def _expert(state, seat, legal, version=3, iterations=0):
    """The expert's move; by default its policy alone (``iterations=0``), ``None`` for its default playouts."""
    return expert.choose(RULES, RULES.view(state, seat), legal, "bot", version, iterations)


POLICIES = {"scripted": _scripted, "expert": _expert}


@pytest.mark.parametrize("name", POLICIES)
def test_a_legal_move_fixed_by_seed_version_and_view(name):
    choose = POLICIES[name]
    for state, seat, legal in _positions(f"legal-{name}", lambda s, k, l: True, count=40):
        move = choose(state, seat, legal)
        assert any(move is m for m in legal)
        assert choose(RULES.copy(state), seat, [dict(m) for m in legal]) == move


@pytest.mark.parametrize("name", POLICIES)
def test_the_true_hidden_state_changes_nothing(name):
    """Two true states that differ only in what the seat cannot see (the backs of the Reserve
    cards on the Sagas, the piles' order) give the same view and the same move."""
    choose = POLICIES[name]
    found = _positions(f"hidden-{name}", lambda s, k, l: any(
        x is not None and x.current is not None for x in s.sagas), count=15)
    for state, seat, legal in found:
        alt = other_truth(RULES, state, seat)
        assert canonical_json(RULES.view(alt, seat)) == canonical_json(RULES.view(state, seat))
        assert choose(alt, seat, RULES.legal_moves(alt, seat)) == choose(state, seat, legal)


@pytest.mark.parametrize("name", POLICIES)
def test_a_saga_is_fed_whenever_it_can_be(name):
    """6.4: with a Saga condition it may meet, the bot meets one (with a Nog when it may)."""
    choose = POLICIES[name]
    found = _positions(f"feed-{name}", lambda s, k, l: any(_kind(m) == "saga" for m in l), count=10)
    for state, seat, legal in found:
        move = choose(state, seat, legal)
        assert _kind(move) == "saga"
        if any(_kind(m) == "saga" and m.get("nog") for m in legal):
            assert move.get("nog")


def test_scripted_passes_every_bid():
    """6.3: the scripted bot bids nothing, whatever it could bid."""
    found = _positions("bids", lambda s, k, l: l[0]["type"] == "bid" and len(l) > 1, count=5)
    assert all(_scripted(state, seat, legal)["steps"] == 0 for state, seat, legal in found)


def test_expert_bids_its_limit_before_the_auctioneer_and_turns_its_card_face_down():
    """6.3: the expert never bids beyond BID_LIMITS Steps nor with fewer than BID_NOGS Nogs at
    home; at 3 seats (JUMP_BID_PLAYERS) it bids its whole limit when it bids before the
    auctioneer (each seat bids once, the auctioneer last) and the least raise as the
    auctioneer; it keeps a Counting House card it wins face down for the 8 points (6.3 B)."""
    found = _positions("expert-bids", lambda s, k, l: l[0]["type"] == "bid" and len(l) > 1, count=12)
    roles = set()
    for state, seat, legal in found:
        move = _expert(state, seat, legal)
        limit = expert.BID_LIMITS.get(len(state.players), expert.BID_LIMIT)
        bids = [m["steps"] for m in legal if 0 < m["steps"] <= limit]
        last = state.auction["order"][-1] == seat
        if not bids or state.players[seat].mountains < expert.BID_NOGS:
            assert move["steps"] == 0
            continue
        roles.add("auctioneer" if last else "before")
        assert move["steps"] == (min(bids) if last else max(bids)), (last, bids, move)
    assert roles == {"auctioneer", "before"}  # both ways of bidding were tried
    kept = _positions("expert-keeps", lambda s, k, l: l[0]["type"] == "keep_card", count=2)
    assert all(_expert(state, seat, legal)["face"] == "down" for state, seat, legal in kept)


def test_expert_keeps_an_early_card_face_up_at_two_seats():
    """6.3 A: at 2 seats (FACE_UP_PLAYERS) the expert keeps a card won before season
    scripted.LATE_SEASON face up, for 2 points a season and the artefact, as ISMCTS does."""
    kept = _positions("expert-keeps-2", lambda s, k, l: l[0]["type"] == "keep_card", count=3, players=2)
    for state, seat, legal in kept:
        want = "up" if state.season < scripted.LATE_SEASON else "down"
        assert _expert(state, seat, legal)["face"] == want


def test_expert_starts_an_early_auction_at_two_seats():
    """6.3: at 2 seats, in the seasons EARLY_AUCTION names, the expert with no Counting House
    card and AUCTION_NOGS Nogs at home starts an auction when no Saga can be fed."""
    def want(s, k, l):
        p = s.players[k]
        return (len(s.players) == 2 and s.season <= expert.EARLY_AUCTION[2] and not p.counting_house
                and p.mountains >= expert.AUCTION_NOGS and s.action is None
                and any(_kind(m) == "auction" for m in l) and not any(_kind(m) == "saga" for m in l))
    found = _positions("expert-early", want, count=3, players=2)
    for state, seat, legal in found:
        move = _expert(state, seat, legal)
        assert _kind(move) in ("auction", "invention"), move


def test_expert_counts_its_cart_and_digs_no_stone_the_sagas_have(monkeypatch):
    """5.1: Stone in the mine cart reaches the Farm when the Miner action ends, so at 2 seats the
    expert counts it: with the cart holding the Stone the Sagas lack, it finishes the action
    instead of spending a Step on one more dig (without counting the cart it digs)."""

    def want(state, seat, legal):
        act = state.action
        if act is None or act.seat != seat or act.kind != "miner" or not act.cart.get("stone"):
            return False
        view = RULES.view(state, seat)
        return "stone" in scripted.missing(view, seat) and "stone" not in scripted.missing(expert.with_cart(view), seat)

    found = _positions("cart", want, count=3, players=2)
    assert all(_expert(state, seat, legal)["type"] == "finish" for state, seat, legal in found)
    monkeypatch.setattr(expert, "CART_PLAYERS", ())
    assert any(_expert(state, seat, legal).get("op") == "dig" for state, seat, legal in found)


def _invention_view(players: int = 2, crow: int = 8, held: int = 0, other_on_second: bool = False,
                    olaf: str = "castle") -> dict:
    """A player view cut down to what the Invention rules of the expert read (6.5, 9.0): the
    first card wants Olaf, Stone, Wood and Harvest; the second Olaf (met, by seat 0 unless
    ``other_on_second``) and two Wood."""
    card = lambda needs, met: {"card": "card", "needs": needs, "met": met, "first": None}
    seats = [{"inventions": ["made"] * held, "buildings": {}}] + \
        [{"inventions": [], "buildings": {}} for _ in range(players - 1)]
    return {"seat": 0, "crow": crow, "players": seats, "characters": {"olaf": olaf},
            "inventions": [card(["olaf", "stone", "wood", "harvest"], [None] * 4),
                           card(["olaf", "wood", "wood"], [{"seat": 1 if other_on_second else 0}, None, None])]}


def test_expert_picks_the_invention_no_rival_has_touched():
    """6.5: the card goes to the seat with the most Nogs on it, and 9.0 pays 40 for the most
    Inventions, so at 2 seats the expert's target is a card on which no other seat has a Nog: the
    one it has started, else the one with the fewest open conditions (Olaf asking for a Food), and
    a card whose open Olaf condition it cannot meet (Olaf away from the Castle, 6.1) is none; only
    while it holds no more Inventions than its rival and fewer than INVENTIONS_WANTED; with the
    Crow near the crown it starts no card but keeps the one it started."""
    assert expert.invention_target(_invention_view()) == (1, {"wood": 2})
    assert expert.invention_target(_invention_view(other_on_second=True)) == \
        (0, {"food": 1, "stone": 1, "wood": 1, "harvest": 1})
    assert expert.invention_target(_invention_view(other_on_second=True, olaf="saga:0")) is None
    assert expert.invention_target(_invention_view(olaf="saga:0")) == (1, {"wood": 2})
    assert expert.invention_target(_invention_view(held=expert.INVENTIONS_WANTED)) is None
    assert expert.invention_target(_invention_view(crow=expert.INVENTION_CROW - 1)) == (1, {"wood": 2})
    assert expert.invention_target(_invention_view(other_on_second=True, crow=expert.INVENTION_CROW - 1)) is None
    assert expert.invention_target(_invention_view(players=3)) is None


@pytest.mark.parametrize("targets", [True, False])
def test_expert_searches_no_invention_but_its_target(monkeypatch, targets):
    """6.5: at 2 seats neither the expert's policy nor its playouts' candidates hold an Invention
    condition other than its target's (a card it would not win, or a second Invention it does
    not want), and none at all when it has no target."""
    if not targets:
        monkeypatch.setattr(expert, "invention_target", lambda view: None)

    def want(s, k, l):
        view = RULES.view(s, k)
        target = expert.invention_target(view)
        return s.action is None and any(_kind(m) == "invention" and (target is None or m["invention"] != target[0])
                                        for m in l) and len({_kind(m) for m in l}) > 2

    for state, seat, legal in _positions("expert-off-target", want, count=4, players=2):
        view = RULES.view(state, seat)
        target = expert.invention_target(view)
        best = expert.policy(view, legal, random.Random(0))
        for move in [best] + expert._candidates(view, legal, best, "bot", 3):
            assert not expert._off_target(view, move, target), move
        assert any(expert._off_target(view, m, target) for m in legal)


def test_standing_counts_the_inventions_final_points():
    """9.0: the most Inventions score 40 at the end (30 the next), so a seat holding the only one
    stands ahead of a rival with 20 more points scored so far."""
    view = {"seat": 1, "sagas": [], "players": [{"score": 10, "mountains": 2, "inventions": ["made"]},
                                                 {"score": 30, "mountains": 2, "inventions": []}]}
    assert expert.standing(view, 0) == 10 + 40 + 2
    assert expert.standing(view, 1) == 30 + 2
    assert expert.trailing(view)


def test_expert_meets_a_whole_invention_before_a_saga_at_two_seats(monkeypatch):
    """6.5, 9.0: at 2 seats (INVENTION_PLAYERS), holding every cube and Nog that its target
    Invention still asks for, the expert meets its conditions in one Market Day even while a Saga
    could be fed (no rival can then outnumber its Nogs on the card); without the rule it feeds the
    Saga, as the Sagas otherwise come first. (This is the policy; at 2 seats its playouts weigh
    the choice of an action, test_expert_weighs_the_choice_of_an_action_by_playouts_by_default.)"""
    def want(s, k, l):
        view = RULES.view(s, k)
        target = expert.invention_target(view)
        return (s.action is None and target is not None and expert._invention(view, l, target) is not None
                and any(_kind(m) == "saga" for m in l))

    found = _positions("expert-invents", want, count=3, players=2)
    for state, seat, legal in found:
        move = _expert(state, seat, legal)
        assert _kind(move) == "invention" and move["invention"] == expert.invention_target(RULES.view(state, seat))[0]
    monkeypatch.setattr(expert, "INVENTION_PLAYERS", ())
    assert all(_kind(_expert(state, seat, legal)) == "saga" for state, seat, legal in found)


def test_greedy_weights_value_saga_cubes_and_progress():
    """The greedy bot's GREEDY_WEIGHTS: a cube an open Saga condition asks for (6.4) is worth
    saga_stock more than one it does not, and a Dragon space closer to the crown is worth
    more to every seat (progress does not fall when a card is completed)."""
    state, seat, _ = _positions("greedy-w", lambda s, k, l: any(
        sg is not None and sg.current is not None and any(
            m is None and n in ("stone", "wood") for n, m in zip(sg.current.needs, sg.current.met))
        for sg in s.sagas), count=1, players=2)[0]
    wanted = next(n for sg in state.sagas if sg is not None and sg.current is not None
                  for n, m in zip(sg.current.needs, sg.current.met) if m is None and n in ("stone", "wood"))
    before = evaluation.saga_stock(state, seat)
    richer = RULES.copy(state)
    richer.players[seat].stock[wanted] += 10
    assert evaluation.saga_stock(richer, seat) > before
    w = evaluation.GREEDY_WEIGHTS
    closer = RULES.copy(state)
    closer.dragon -= 1
    for s in range(2):
        assert evaluation.value(closer, s, w) - evaluation.value(state, s, w) > w["progress"] / len(state.players) / 2


def test_expert_with_a_budget_plays_legal_and_fixed_moves():
    """An operator's ``iterations`` run the paired playouts; the choice stays legal and fixed."""
    for state, seat, legal in _positions("budget", lambda s, k, l: len(l) > 3, count=3):
        move = _expert(state, seat, legal, iterations=4)
        assert any(move is m for m in legal)
        assert _expert(state, seat, legal, iterations=4) == move


def test_expert_weighs_the_choice_of_an_action_by_playouts_by_default():
    """With its default budget (DEFAULT_ITERATIONS) the expert at 2 seats (SEARCH_PLAYERS) plays
    out its candidates for the choice of an action from worlds sampled from its view: the move is legal, fixed, the same
    whatever the true hidden state, not always the policy's, and the policy's whenever that feeds
    a Saga (the Sagas come first, 9.0)."""
    assert expert.DEFAULT_ITERATIONS > 0

    def want(s, k, l):
        return s.action is None and len({_kind(m) for m in l if _kind(m) in expert.SEARCHED}) > 2

    differ = 0
    for state, seat, legal in _positions("search", want, count=6, players=2):
        move = _expert(state, seat, legal, iterations=None)
        assert any(move is m for m in legal)
        assert _expert(RULES.copy(state), seat, [dict(m) for m in legal], iterations=None) == move
        alt = other_truth(RULES, state, seat)
        assert _expert(alt, seat, RULES.legal_moves(alt, seat), iterations=None) == move
        alone = _expert(state, seat, legal)
        if _kind(alone) == "saga":
            assert move is alone
        differ += move != alone
    assert differ > 0
    assert 3 not in expert.SEARCH_PLAYERS  # at 3 seats the policy plays alone
    for state, seat, legal in _positions("search-3", want, count=4, players=3):
        assert _expert(state, seat, legal, iterations=None) is _expert(state, seat, legal)


def _ended(seed: str, kinds: list[str]) -> Any:
    """The final state of a seeded game of ``kinds`` on the forward model."""
    from services.bots.decide import decide

    chance = chance_from(seed)
    state, _ = start(RULES, GameConfig(game="noggin", players=len(kinds)), chance)
    version = 0
    while RULES.outcome(state) is None:
        if RULES.pending_phase(state):
            apply_phase(RULES, state, chance)
        else:
            seat = RULES.to_move(state)[0]
            apply(RULES, state, seat, decide(kinds[seat], f"s{seat}", RULES, state, seat, version), chance,
                  checked=True)
        version += 1
    return state


def test_a_nogbad_ending_is_below_every_noggin_ending_for_every_seat():
    """9.0: if Nogbad takes the crown every player has lost, the Leader in Exile too: whatever
    the scores, each seat values every Nogbad ending below every ending where Noggin kept it."""
    ends = [_ended(f"end-{k}", ["random"] * 3) for k in range(4)] + [_ended(f"end-s{k}", ["scripted"] * 3)
                                                                      for k in range(3)]
    nogbad = [s for s in ends if s.ended["crown"] == "nogbad"]
    noggin = [s for s in ends if s.ended["crown"] == "noggin"]
    assert nogbad and noggin
    assert max(max(s.final["scores"]) for s in nogbad) > 0  # the exiled leader did score
    for seat in range(3):
        assert max(evaluation.value(s, seat) for s in nogbad) < min(evaluation.value(s, seat) for s in noggin)


def test_the_dragons_progress_is_every_seats_reward():
    """6.4: a Saga that moves the Dragon toward the crown raises every seat's search reward, the
    seat that fed it and the others alike (progress is shared, not cancelled out)."""
    state, seat, _ = _positions("progress", lambda s, k, l: s.dragon >= 2, count=1)[0]
    closer = RULES.copy(state)
    closer.dragon -= 1
    before, after = evaluation.rewards(state), evaluation.rewards(closer)
    assert all(a > b for a, b in zip(after, before))
    assert evaluation.progress(closer) > evaluation.progress(state)


def test_scripted_keeps_noggin_on_his_throne():
    """The sparring partner does what it is for: with it on every seat Noggin keeps the crown
    (in these seeded 3-seat games every time; greedy bots manage about half)."""
    records = [play_game("noggin", ["scripted"] * 3, f"throne-{k}") for k in range(4)]
    assert [r.error for r in records] == [None] * 4
    assert all(r.crown == "noggin" for r in records)
