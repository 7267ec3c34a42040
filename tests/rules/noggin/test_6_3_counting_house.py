"""Auctioning the Counting House card (rulebook 6.3) and its artefact, face up or down."""

import pytest

from services.rules.core import IllegalMove, NotYourTurn
from services.rules.noggin import sagas

from .helpers import RULES, give, legal, normal_turn, own_card, points, put_reserve, run, run_phase, scenario, seated, types

AUCTION = {"type": "market_day", "op": "auction"}


def _turn():
    """Season 2 (Runestone 10): seat 0 to act on 10, seat 1 on 13, seat 2 on 15, the dummy on
    17; the Counting House card is the War Banner."""
    s = scenario(3, season=2, positions=[10, 13, 15, 17])
    s.counting_house = "war_banner"
    return s


def _bid(steps):
    return {"type": "bid", "steps": steps}


def _won(winner, steps=1, face="up"):
    """Seat 0 auctions the card; ``winner`` bids ``steps``, everyone else passes; it keeps the
    card ``face`` up or down. Returns (state, events of the keep)."""
    s = _turn()
    run(s, 0, AUCTION)
    for seat in (1, 2, 0):
        run(s, seat, _bid(steps if seat == winner else 0))
    return s, run(s, winner, {"type": "keep_card", "face": face})


def _season_end(s):
    """Every marker past the Nog Moon of season 2: the Change of Season is pending."""
    normal_turn(s, 0, [20, 22, 23, 24])
    s.season, s.active = 2, None
    return s


@pytest.mark.rules("noggin:6.3/left-first", "noggin:6.3/active-last", "noggin:6.3/one-round")
def test_bidding_goes_once_round_from_the_left_to_the_active_player():
    """6.3: with seat 2 active at 4 players, seats 3, 0, 1 bid in turn and seat 2 last; after
    the active player's bid the auction is settled: nobody bids twice."""
    s = scenario(4, season=2, seat=2, positions=[13, 15, 10, 17])
    s.counting_house = "war_banner"
    events = run(s, 2, AUCTION)
    assert events[-1].data["order"] == [3, 0, 1, 2]
    asked = []
    for steps in (1, 0, 2, 0):
        seat = RULES.to_move(s)[0]
        asked.append(seat)
        events = run(s, seat, _bid(steps))
    assert asked == [3, 0, 1, 2]
    assert types(events) == ["BidMade", "AuctionWon"] and events[-1].data["seat"] == 1
    assert s.auction is None and RULES.to_move(s) == [1]  # only the winner's choice is left
    with pytest.raises(NotYourTurn):
        RULES.check(s, 3, _bid(3))  # outbid, seat 3 gets no second chance
    run(s, 1, {"type": "keep_card", "face": "up"})
    with pytest.raises(IllegalMove, match="no bid decision"):
        RULES.check(s, 2, _bid(3))


@pytest.mark.rules("noggin:6.3/max-bid", "noggin:6.3/bids-in-steps")
def test_a_bid_stays_short_of_the_runestone():
    """6.3 with 4.2: a bid is in Steps and the bidder's marker may not reach the Runestone
    (20 here): from 13 at most 6, from 15 at most 4, the active player from 11 (after the
    Market Day Step) at most 8. A bid equal to the gap is refused (house rule for ambiguity 4)."""
    s = _turn()
    run(s, 0, AUCTION)
    assert [m["steps"] for m in legal(s, 1)] == [0, 1, 2, 3, 4, 5, 6]
    with pytest.raises(IllegalMove, match="at most 6 Step"):
        RULES.check(s, 1, _bid(7))
    run(s, 1, _bid(0))
    assert [m["steps"] for m in legal(s, 2)] == [0, 1, 2, 3, 4]
    with pytest.raises(IllegalMove, match="at most 4 Step"):
        RULES.check(s, 2, _bid(5))
    run(s, 2, _bid(4))
    assert [m["steps"] for m in legal(s, 0)] == [0, 5, 6, 7, 8]
    with pytest.raises(IllegalMove, match="at most 8 Step"):
        RULES.check(s, 0, _bid(9))


@pytest.mark.rules("noggin:6.3/raise-or-pass")
def test_each_bidder_raises_or_passes():
    """6.3: after a bid of 2 the next player must bid more than 2 or pass (0)."""
    s = _turn()
    run(s, 0, AUCTION)
    run(s, 1, _bid(2))
    for same in (1, 2):
        with pytest.raises(IllegalMove, match=r"more than the highest, 2 Step"):
            RULES.check(s, 2, _bid(same))
    assert [m["steps"] for m in legal(s, 2)] == [0, 3, 4]
    run(s, 2, _bid(0))
    assert s.auction["bid"] == 2 and s.auction["leader"] == 1


@pytest.mark.rules("noggin:6.3/highest-wins", "noggin:6.3/winner-pays-steps", "noggin:6.3/bids-in-steps")
def test_the_highest_bid_wins_and_its_steps_are_paid():
    """6.3: bids of 1 and 3, then a pass: the 3 wins, its bidder's marker moves 3 Steps (15 to
    18) and only it chooses how to keep the card; the others' markers stay."""
    s = _turn()
    run(s, 0, AUCTION)
    run(s, 1, _bid(1))
    run(s, 2, _bid(3))
    events = run(s, 0, _bid(0))
    won = events[-1]
    assert won.type == "AuctionWon" and won.data == {"seat": 2, "card": "war_banner", "steps": 3, "paid": 3,
                                                     "marker": 2, "to": 18}
    assert [m.pos for m in s.markers] == [11, 13, 18, 17]
    assert s.counting_house is None and s.decision == {"kind": "keep_card", "seat": 2, "card": "war_banner"}
    assert RULES.to_move(s) == [2] and legal(s, 2) == [{"type": "keep_card", "face": "up"},
                                                        {"type": "keep_card", "face": "down"}]


@pytest.mark.rules("noggin:6.3/no-nogs-no-bid")
def test_no_nog_on_the_mountains_no_bid():
    """6.3: a player with no Nog on the Mountains space can only pass."""
    s = _turn()
    s.players[1].mountains = 0
    run(s, 0, AUCTION)
    assert legal(s, 1) == [_bid(0)]
    with pytest.raises(IllegalMove, match="at most 0 Step"):
        RULES.check(s, 1, _bid(1))
    s.players[2].mountains = 1
    run(s, 1, _bid(0))
    assert [m["steps"] for m in legal(s, 2)] == [0, 1, 2, 3, 4]


@pytest.mark.rules("noggin:6.3/no-recall-for-bid")
def test_no_nog_comes_back_from_a_reserve_card_to_bid():
    """6.3 (and 5.0 B): seat 1, without Nogs on its Mountains space but with one on a Reserve
    card, could take it back for an action on its own turn, but not to bid: it can only pass."""
    s = _turn()
    put_reserve(s, 0, ["wood", "food"], deck="C")
    card = s.sagas[0].current
    card.met = [{"seat": 1, "paid": "wood", "nog": 1}, None]
    card.nogs = [0, 1, 0]
    s.players[1].mountains = 0
    assert sagas.recall_sources(s, 1) == [(0, 0)]
    run(s, 0, AUCTION)
    assert legal(s, 1) == [_bid(0)]
    with pytest.raises(IllegalMove, match="waits for your bid decision"):
        RULES.check(s, 1, {"type": "recall", "saga": 0, "card": 0})
    with pytest.raises(IllegalMove, match="at most 0 Step"):
        RULES.check(s, 1, _bid(1))


@pytest.mark.rules("noggin:6.3/face-up")
def test_face_up_the_artefact_works_and_scores_two_each_season():
    """6.3 A: kept face up, no points now; the War Banner can be used on the owner's turn and
    the card scores 2 at the Change of Season."""
    s, events = _won(1, face="up")
    assert types(events) == ["CountingHouseCardKept"] and s.players[1].score == 0
    assert s.players[1].counting_house == [{"card": "war_banner", "up": True}]
    run(s, 0, {"type": "finish"})
    normal_turn(s, 1, [16, 10, 18, 17])
    q = give(s, 1, fish=1).players[1]
    q.placed["miner"], q.uses["miner"] = 1, 1
    q.mountains -= 1
    run(s, 1, {"type": "use", "card": "war_banner", "action": "miner", "pay": ["fish"]})
    assert q.placed["miner"] == 0 and q.uses["miner"] == 1 and q.mountains == 9
    events = run_phase(_season_end(s))
    assert points(events, 1, "counting house") == 2


@pytest.mark.rules("noggin:6.3/face-down")
def test_face_down_scores_eight_at_once_and_never_acts():
    """6.3 B: turned face down, 8 points at once; the artefact can never be used and the card
    scores nothing at the Change of Season."""
    s, events = _won(1, face="down")
    assert types(events) == ["CountingHouseCardKept", "PointsScored"]
    assert points(events, 1, "counting house") == 8 and s.players[1].score == 8
    run(s, 0, {"type": "finish"})
    normal_turn(s, 1, [16, 10, 18, 17])
    give(s, 1, fish=1)
    s.players[1].placed["miner"] = 1
    with pytest.raises(IllegalMove, match="you do not own the war_banner Counting House card"):
        RULES.check(s, 1, {"type": "use", "card": "war_banner", "action": "miner", "pay": ["fish"]})
    events = run_phase(_season_end(s))
    assert points(events, 1, "counting house") == 0 and s.players[1].score == 8


@pytest.mark.rules("noggin:6.3/nog-on-card")
def test_the_card_takes_a_nog_from_the_mountains_for_the_rest_of_the_game():
    """6.3: whichever side is kept, a Nog of the winner goes from its Mountains space onto the
    card and does not come back at the Change of Season."""
    for face in ("up", "down"):
        s, _ = _won(2, steps=2, face=face)
        assert s.players[2].mountains == 9
        run(s, 0, {"type": "finish"})
        run_phase(_season_end(s))
        assert s.players[2].mountains == 9 and len(s.players[2].counting_house) == 1


@pytest.mark.rules("noggin:6.3/laid-down-per-season", "noggin:7.1/nogs-stood-up")
def test_a_used_artefact_is_laid_down_until_the_change_of_season():
    """6.3 and 7.1: the War Banner (once a season) lays its Nog down when used; a second use
    the same season is refused; the Change of Season stands the Nog up and it works again."""
    s = give(scenario(3, season=2, positions=[10, 13, 15, 17]), 0, fish=3)
    own_card(s, 0, "war_banner")
    p = s.players[0]
    p.placed.update(miner=1, farmer=1)
    p.mountains = 8
    run(s, 0, {"type": "use", "card": "war_banner", "action": "miner", "pay": ["fish"]})
    assert p.used == ["war_banner"] and p.mountains == 9
    with pytest.raises(IllegalMove, match="already used this season"):
        RULES.check(s, 0, {"type": "use", "card": "war_banner", "action": "farmer", "pay": ["fish"]})
    run_phase(_season_end(s))
    assert p.used == [] and RULES.to_move(s) == [0]
    p.placed["farmer"] = 1
    RULES.check(s, 0, {"type": "use", "card": "war_banner", "action": "farmer", "pay": ["fish"]})


@pytest.mark.rules("noggin:house rules/no-auction-before-first-turns", "noggin:4.1/single-action")
def test_no_auction_until_every_marker_has_had_its_first_turn():
    """House rule (4.1 with 6.3): while any marker, the active one's or a dummy's included, is
    still on its first turn, the Counting House card cannot be auctioned (a seat before its
    first action could only pass, so the first player would take the card for 1 Step); once
    every marker has had its first turn the card is auctioned and every seat may bid."""
    s = seated(3)  # every marker still on the starting space, seat 0 takes its first turn
    assert s.counting_house is not None
    assert AUCTION not in legal(s, 0)
    with pytest.raises(IllegalMove, match="first turn"):
        RULES.check(s, 0, AUCTION)
    for m in s.markers[1:3]:  # seats 1 and 2 have played (say), the dummy has not
        m.turns, m.pos = 1, 3 + m.seat
    s.markers[0].turns = 1
    assert AUCTION not in legal(s, 0)
    normal_turn(s, 0, [10, 13, 15, 17])  # every first turn done
    assert AUCTION in legal(s, 0)
    run(s, 0, AUCTION)
    assert RULES.to_move(s) == [1] and {"type": "bid", "steps": 1} in legal(s, 1)
    run(s, 1, _bid(0))
    assert RULES.to_move(s) == [2] and {"type": "bid", "steps": 1} in legal(s, 2)