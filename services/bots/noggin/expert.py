"""Noggin's ``expert`` bot: the Sagas first, then the points the Sagas leave on the table.

Every seat loses when Nogbad takes the crown, and "Leader in Exile" is no win
(noggin-the-nog-rulebook.txt 9.0), so the expert first does what the ``scripted`` bot does
(:mod:`.scripted`: meet a Saga's conditions, gather what the Reserve cards ask for, evict
Nogbad, call characters home). Where that policy has nothing to do, or wastes points, the
expert takes what the rulebook pays for cheaply:

* a Counting House card: with :data:`EAGER_NOGS` Nogs at home (3 seats or more), or when the Sagas ask for
  nothing it can gather, it starts the auction on Market Day while no other seat has shown
  that it bids (owns a card), bids up to :data:`BID_LIMITS` Steps (6.3), and turns the card
  face down for 8 points at once (6.3 B) — Sagas end the game within a few seasons, so 2
  points a season rarely beat it. At 2 seats it is the other way round (what ISMCTS taught
  it): in the first :data:`EARLY_AUCTION` seasons, owning no card, it starts the auction
  before gathering, and keeps a card won before ``scripted.LATE_SEASON`` face up
  (:data:`FACE_UP_PLAYERS`; 2 points at every Change of Season, the artefact, and the C bonus);
* the end: it does not finish the Saga that brings the Dragon to the crown (9.0) while that
  would leave another seat ahead, unless the Crow is within :data:`LAST_CALL` spaces;
* the Counting House bonus of a C Reserve card (2 points a card it owns, 6.4), so it draws
  the next Reserve card from C and claims the bonus when it may;
* an Invention of its own at 2 seats (:data:`INVENTION_PLAYERS`): the most Inventions score
  40 at the end and the next 30 (9.0), more than a seat earns from all the Sagas, and the card
  goes to the most Nogs on it (6.5). So it picks a card no other seat has a Nog on and whose
  Olaf it can recruit (:func:`invention_target`), gathers its cubes with the Sagas'
  (:func:`missing`), and its policy meets all the card's open conditions in one Market Day once it
  holds their cubes and Nogs, before feeding a Saga (the playouts below may still prefer another
  kind of move there); neither the policy nor the playouts play any other Invention. At 3 and 4 seats it meets an Invention's conditions only when the Sagas have
  what they ask for and no other seat has more Nogs on that card. Its count of where each seat
  stands (:func:`standing`) includes the Inventions' points.

At 2 seats (:data:`SEARCH_PLAYERS`), at the choice of an action (no action under way, several
kinds of move: :func:`_searched`) it then weighs the policy's move against the policy's best
move of each of a few other kinds (:data:`CANDIDATES`) by playouts (:data:`DEFAULT_ITERATIONS`
a decision): each candidate is played from the same worlds sampled from its view
(``rules.state_from_view``, then ``rules.determinise``; every candidate sees the same worlds
and chance) for :data:`PLAYOUT_MOVES` moves with the policy on every seat, on copy-on-write
clones (``rules.clone``), and valued by its lead in
:func:`services.bots.noggin.evaluation.value` plus Noggin's progress toward the crown
(:func:`_lead`); successive halving keeps the best. A Saga contribution the policy picks is
never searched: the Sagas come first.

Decisions depend only on the seed, the version and the view: no clock, no hidden state.

With the Invention (2026-12-04, ``make bench-bots ARGS="--game noggin --games 120 --workers 2
--write"``, docs/benchmarks.md, with the candidates' filter and the Olaf check): expert 32.6±1.7
> ismcts 27.5±1.6 > greedy 24.5±1.6 > random 13.7±1.7; the expert beat ISMCTS 93-23, scripted
88.5-31.5, greedy 98.5-17.5 and random 72-1 (Noggin crowned in 73 of those 120), and Noggin was
crowned 120/120 in every expert cell at 2, 3 and 4 seats (before the filter and the Olaf check:
32.9±1.7, ISMCTS beaten 75.5-28.5). ISMCTS and greedy overlapped by 0.2 at one sigma, although
ISMCTS beat greedy 70.5-38.5: those ratings came from the games rated one after another cell by
cell, and shuffling their order moved the ismcts-greedy gap between 1.8 and 5 points. Rated free
of the order (without drift, the mean over 32 orders; ``services.bench.ladder.ratings``) the same
games give expert 32.1±1.4 > ismcts 26.5±1.2 > greedy 22.9±1.3 > random 17.2±1.4, a strict
ladder (docs/benchmarks.md, "Bot ladder").

Measured with the playouts (2026-12-03), against ISMCTS at 2 seats, 80 seeded games
(``services.bots.arena.play_game`` with seeds ``h2h-0`` to ``h2h-79``, seats alternated): wins
from 32-47 (the policy alone) to 42-36, mean score lead from -4.8 to +1.8±3.0 points (paired
change +6.6±4.5, 95 %), Noggin crowned 78/80 (79/80 before); 78 ms CPU a decision with a choice
(0.7 ms for the policy alone). 48 playouts a decision did no better in the first 9 of those
games (score lead -4.7±17.5 against 24, 147 ms a decision). Valued by the lead alone (no
progress term, 48 playouts a decision), Nogbad was crowned in 2 of the first 5 games. The
ladder with them (``python -m services.bench.ladder --game noggin --games 30 --workers 1``,
1764 s): expert 30.7±2.4 > ismcts 28.5±2.3 > scripted 25.2±2.2 > greedy 20.0±2.5 > random
15.3±2.5, not yet strict (expert and ismcts overlap; ismcts-expert 15-13); Noggin crowned 30/30
with the expert on every seat at 2, 3 and 4 seats and with two scripted bots, the expert among
the winners there 17/30; 25 ms CPU a decision (32 ms with a choice).

What else was tried at 2 seats (2026-12-03, same harness, seeds ``h2h-0`` to ``h2h-79`` against
ISMCTS unless named), none kept: 96 playouts a decision (104 ms CPU a decision): 41-33 wins
over 77 of the 80 games against ISMCTS (42-36 with 24), 53-27 against scripted (50-30 with 24);
an endgame search, with the Dragon within one (or two) spaces of the crown also weighing the
Saga contributions by 60-move playouts: 16-27 in the first 48 games (10.5-18.5 in 33); starting
the early auction only once the other seat has a Nog on the Sagas: with the policy alone it
cut Nogbad's crowns beside a random seat from 68 to 47 in 200 games, but with the playouts it
did not (35 against 26 in 100), and it changed nothing against ISMCTS (42.5-33.5).

Before the playouts, measured (``python -m services.bench.ladder --game noggin --games 30
--workers 1``, 2026-12-03, with the 2-seat Counting House play and the greedy bot's own
weights): Noggin crowned 30/30 with the expert on every seat at 2, 3 and 4 seats; with two
scripted bots 30/30 and the expert among the winners 22/30; 0.5 ms CPU a decision. Ratings:
expert 31.6±2.4 > ismcts 26.7±2.3 > scripted 25.9±2.2 > greedy 19.7±2.5 > random 15.3±2.5
(before: ismcts 27.8, expert 26.3). Head to head ISMCTS still edges it at 2 seats, 16.5-13.5
(20.5-9.5 before); the expert's lead is made against scripted (20.5-9.5), greedy (21.5-8.5) and
random (21-0). Higher bids, more auctions (up to season 4 or two cards) and ISMCTS for
uncertain decisions did no better.

Against ISMCTS at 2 seats (80 seeded games, seeds ``h2h-0`` to ``h2h-79``, seats alternated,
2026-12-03) counting the cart (:data:`CART_PLAYERS`) took the expert from 40-37 wins to 44-34,
its mean score lead from -1.4±3.4 to +1.0±3.2 points (paired change +2.4±3.2, 95 %: within
noise), with Noggin crowned 78/80 (77/80 before); in 240 games each against scripted it won
159.5-80.5 (157-83 before) and against greedy 169-71 (161-79), Noggin crowned in all. The
points it still gives away are the Inventions (6.5, 9.0): ISMCTS took 5.0 points a game from
them, the expert none. What did not help (first 8 to 40 of the same seeds): working for an
Invention whenever the Sagas lack nothing (13-24 in 40, crowned 37/40: the Sagas almost always
lack something, and the Nogs and Market Days spent on the card went to waste); ISMCTS for every
move but Saga contributions (Nogbad crowned in 3 of 8); ISMCTS for the moves inside an action (1
of 18, 7.5-9.5 wins) or for bids and Reserve draws (2 of 20, 11-7); drawing Reserve cards from B
as ISMCTS prefers (16-10 in 28, score lead +1.1±8.2 over the same seeds: nothing). Working for an
Invention first only while ISMCTS holds more of them (80 games) changed nothing: the same 44-34,
score lead -1.1±1.3.
"""

from __future__ import annotations

import random
from typing import Any

from services.bots.cancel import checkpoint
from services.rules.noggin.content import CHARACTERS
from services.rules.noggin.scoring import invention_points

from . import scripted
from .scripted import _kind, _pay_cost

BID_LIMITS = {2: 6, 3: 4, 4: 3}
"""The most Steps the expert bids for a Counting House card (8 points face down, 6.3, and
2 a card on every C Reserve card it helps with, 6.4), by players: with one rival a card it
does not take goes to that rival, so it is worth more."""
BID_LIMIT = 3
"""The most Steps bid at a player count :data:`BID_LIMITS` does not name."""
LAST_CALL = 2
"""Spaces the Crow may still have to go (7.1: one a Change of Season) below which the expert
ends the game with a Saga even while it trails: Nogbad must not get there first."""
AUCTION_NOGS = 4
"""Nogs on its Mountains space it needs to start an auction: the Market Day's, the card's (6.0,
6.3) and two for the Market Days that feed the Sagas afterwards (every action needs a Nog, 5.0)."""
EAGER_NOGS = 7
"""With this many Nogs on its Mountains space, and two rivals or more, it starts an auction
before gathering for the Sagas (with one rival, only when there is nothing to gather)."""
BID_NOGS = 3
"""Nogs on its Mountains space it needs to bid (the card takes one, 6.3)."""
SPARE_NOGS = 2
"""Below this many Nogs on its Mountains space it meets a Saga condition for the point instead
of with a Nog (6.4 B), keeping Nogs for the next actions."""
FACE_UP_PLAYERS: tuple[int, ...] = (2,)
"""Player counts at which it keeps a Counting House card won before season
:data:`scripted.LATE_SEASON` face up (6.3 A: 2 points at every Change of Season, and the
artefact) instead of down. What ISMCTS does at 2 seats; with :data:`EARLY_AUCTION` the expert
beat ISMCTS 6-4 in 10 seeded games (4-6 without; scores 37.4 / 38.0 against 26.6 / 34.2)."""
CONTEST_PLAYERS: tuple[int, ...] = ()
"""Player counts at which it starts auctions even when another seat has shown that it bids."""
JUMP_BID_PLAYERS: tuple[int, ...] = (3, 4)
"""Player counts at which, bidding before the auctioneer, it bids its whole limit
(:data:`BID_LIMITS`) at once instead of the smallest raise: each seat bids once, round to the
auctioneer last (6.3), so a smallest raise only set the price the auctioneer paid to outbid
it. With the house rule that no auction starts before every first turn is over
(``noggin:house rules/no-auction-before-first-turns``), three experts' win shares by place in
the turn order went from 86/10/5 % to 38/29/33 % (600 seeded games at 3 seats, 2026-12-03,
Noggin crowned in all; the house rule alone: 42/34/24 % in 200); at 4 seats from 68/13/15/5 %
to 30/24/21/25 % (200 games). Starting auctions against seats that bid
(:data:`CONTEST_PLAYERS`) as well changed nothing measurable (37/28/35 % in 400 games)."""
EARLY_AUCTION: dict[int, int] = {2: 2}
"""By players: the last season in which it starts an auction (6.3) before gathering for the
Sagas while it owns no Counting House card, so that ISMCTS does not take the first cards
cheaply. Against random at 2 seats it crowned Noggin 13/20 (15/20 without: within noise);
expert x2 crowned 10/10."""
EARLY_CARDS = 1
"""Counting House cards below which :data:`EARLY_AUCTION` applies."""
DEFAULT_ITERATIONS = 24
"""Playouts a decision by default (:func:`_halving`), spent only where :func:`_searched` says:
about 78 ms CPU a decision with a choice at 2 seats against ISMCTS (2026-12-03)."""
PLAYOUT_MOVES = 20
"""Moves and phases a playout runs before its end is valued by :func:`_lead` (a 2-seat game
runs 50 to 100 moves; a move's player view costs about 0.5 ms, the playouts' main cost)."""
PROGRESS_FACTOR = 1.0
"""How much Noggin's progress toward the crown (:func:`.evaluation.progress`, in Dragon spaces
at :data:`.evaluation.WEIGHTS` ``["dragon"]`` points a space) weighs in :func:`_lead`: without
it, playouts too short to see the Crow reach the crown let the search starve the Sagas
(Nogbad crowned in 2 of 5 games)."""
CANDIDATES = 4
"""Moves compared by the playouts at a decision (the policy's and the best of other kinds). Six
(with 36 playouts) did worse against ISMCTS over the same 80 seeded games (36 wins against 42,
score lead -4.7±4.7 points against four); so did 40-move playouts (:data:`PLAYOUT_MOVES`; 14
wins against 19 in the first 40, -6.0±7.6)."""
SEARCHED_DECISIONS: tuple[str, ...] = ()
"""Pending decisions (move ``type``: ``"bid"``, ``"keep_card"``) the playouts weigh besides the
choice of an action. None: weighing bids (pass, the least raise, two Steps above the policy's)
and the card's face too changed nothing measurable at 2 seats (23 seeded games against ISMCTS,
score lead -2.9±7.8 points against the playouts at the choice of an action alone)."""
SEARCH_PLAYERS: tuple[int, ...] = (2,)
"""Player counts at which the playouts run. At 3 seats, one expert against two ISMCTS bots did
no better with them (20 seeded games, 5 wins against 8 with the policy alone, score lead
-4.0±12.3 points against it), so there the policy plays alone, as measured by the ladder."""
INVENTION_PLAYERS: tuple[int, ...] = (2,)
"""Player counts at which it works for an Invention of its own (:func:`invention_target`): the
most Inventions at the end score 40, the next 30 (9.0), so at 2 seats the first Invention is
worth 40 points against a rival without one, more than all the Sagas pay a seat. Measured at 2
seats (2026-12-04, 60 seeded games a pair, seats alternated, against the expert without it in the
same run): against ISMCTS wins 44-12 (26.5-32.5 without), mean score lead +15.4±6.0 points
(-3.7±5.0), Noggin crowned 56/60 (59/60); against scripted 52.5-6.5 (42.5-17.5); against greedy
46.5-11.5 (33.5-25.5); against random 34-0 with Noggin crowned 34/60 (35-0, 35/60)."""
INVENTIONS_WANTED = 1
"""Inventions it works for at most (:data:`INVENTION_PLAYERS`): with one it holds at least the
30 points of the second place; a second one (to 40 against 30) cost Sagas and Nogs."""
INVENTION_CROW = 4
"""Below this many spaces left to the Crow (7.1) it starts no work for an Invention: the Sagas
come first when Nogbad is near the crown."""
CART_PLAYERS: tuple[int, ...] = (2,)
"""Player counts at which, during its own action, it counts the cubes already in its cart
(mine cart, wood cart, boat: 5.1-5.3, they reach the Farm when the action ends) as gathered,
so it does not spend a Step on a cube the Sagas no longer lack. Measured at 2 seats against
ISMCTS (80 seeded games): see the module docstring; with it two experts still crowned Noggin
119/120 at 2 seats. Not measured at 3 or 4 seats, so left as it was there."""


def _mine(view: dict[str, Any]) -> dict[str, Any]:
    return view["players"][view["seat"]]


def _invention_lead(view: dict[str, Any], slot: int) -> bool:
    """Whether the seat would hold the most Nogs on Invention ``slot`` after one more (6.5)."""
    inv = view["inventions"][slot]
    if inv is None:
        return False
    seat = view["seat"]
    counts: dict[int, int] = {}
    for m in inv["met"]:
        if m is not None:
            counts[m["seat"]] = counts.get(m["seat"], 0) + 1
    mine = counts.get(seat, 0) + 1
    return all(c < mine for s, c in counts.items() if s != seat)


def standing(view: dict[str, Any], seat: int) -> int:
    """A rough count of what ``seat`` would end with (9.0): points scored so far, the Inventions'
    40/30/20/10 by how many each seat holds, and a point a Nog on its Mountains space or on a Saga
    (they come home, or count, at the end)."""
    p = view["players"][seat]
    on_sagas = 0
    for saga in view.get("sagas") or []:
        if saga:
            on_sagas += sum(c["nogs"][seat] for c in saga["done"])
            on_sagas += saga["current"]["nogs"][seat] if saga.get("current") else 0
    inventions = invention_points([len(q["inventions"]) for q in view["players"]])[seat]
    return int(p["score"]) + inventions + int(p["mountains"]) + on_sagas


def payout(view: dict[str, Any], slot: int, move: dict[str, Any] | None = None) -> list[int]:
    """Points each seat scores when Saga ``slot`` is finished (6.4 step 2: 2 a Nog on the last
    card, 1 more for each card further down), counting the Nog ``move`` would add."""
    saga = view["sagas"][slot]
    cards = [list(c["nogs"]) for c in saga["done"]]
    if saga.get("current"):
        cur = list(saga["current"]["nogs"])
        if move is not None and move.get("nog", True):
            cur[view["seat"]] += 1
        cards.append(cur)
    out = [0] * len(view["players"])
    for depth, nogs in enumerate(reversed(cards)):
        for seat, k in enumerate(nogs):
            out[seat] += k * (2 + depth)
    return out


def wins_if_ended(view: dict[str, Any], move: dict[str, Any]) -> bool:
    """Whether the view's seat would stand first (ties count) if ``move`` ended the game now."""
    gain = payout(view, move["saga"], move)
    totals = [standing(view, s) + gain[s] for s in range(len(view["players"]))]
    return totals[view["seat"]] >= max(totals)


def trailing(view: dict[str, Any]) -> bool:
    """Whether another seat stands ahead of the view's seat by :func:`standing`."""
    seat = view["seat"]
    me = standing(view, seat)
    return any(standing(view, s) > me for s in range(len(view["players"])) if s != seat)


def bidders_about(view: dict[str, Any]) -> bool:
    """Whether another seat has shown it bids: it owns a Counting House card (6.3)."""
    return any(p["counting_house"] for s, p in enumerate(view["players"]) if s != view["seat"])


def ends_game(view: dict[str, Any], move: dict[str, Any]) -> bool:
    """Whether Saga contribution ``move`` meets its card's last condition, that card is the
    Saga's last, and the Dragon it moves (Nogs on the Saga / 6, rounded up: 6.4 step 1)
    reaches the crown, which ends the game at once (9.0)."""
    saga = view["sagas"][move["saga"]]
    cur = saga and saga.get("current")
    if not cur or sum(1 for m in cur["met"] if m is None) != 1 or len(saga["done"]) + 1 < saga["needed"]:
        return False
    nogs = sum(sum(c["nogs"]) for c in saga["done"]) + sum(cur["nogs"]) + (1 if move.get("nog", True) else 0)
    return -(-nogs // 6) >= view.get("dragon", 99)


def invention_target(view: dict[str, Any]) -> tuple[int, dict[str, int]] | None:
    """The Invention the seat works for (6.5, 9.0), as ``(slot, need)`` with ``need`` its open
    conditions in cubes (``{"stone"|"wood"|"fish"|"harvest"|"food": count}``, Olaf asking for a
    Food), or ``None``: only at :data:`INVENTION_PLAYERS` players, while the seat holds fewer than
    :data:`INVENTIONS_WANTED` Inventions and no more than the seat that holds most of the others.
    A card on which no other seat has a Nog qualifies if Olaf can be recruited for its open Olaf
    condition (in Noggin's Castle, or the seat has the Inventor's Workshop: 6.1, 6.5); a card
    the seat has already put Nogs on comes first and stays its target whatever the Crow, a new
    one is taken only while the Crow is at least :data:`INVENTION_CROW` spaces away; then the
    card with the fewest open conditions (then the lower slot)."""
    players = view["players"]
    seat = view["seat"]
    held = len(players[seat]["inventions"])
    if len(players) not in INVENTION_PLAYERS or held >= INVENTIONS_WANTED:
        return None
    if held > max(len(p["inventions"]) for s, p in enumerate(players) if s != seat):
        return None
    olaf = (view.get("characters") or {}).get("olaf") == "castle" or "inventors_workshop" in players[seat]["buildings"]
    late = view.get("crow", 99) < INVENTION_CROW
    cards: list[tuple[bool, int, int, dict[str, int]]] = []
    for slot, inv in enumerate(view.get("inventions") or []):
        if inv is None or any(m is not None and m["seat"] != seat for m in inv["met"]):
            continue
        started = any(m is not None for m in inv["met"])
        open_conds = [cond for cond, met in zip(inv["needs"], inv["met"]) if met is None]
        if (late and not started) or ("olaf" in open_conds and not olaf):
            continue
        need: dict[str, int] = {}
        for cond in open_conds:
            cube = "food" if cond in CHARACTERS else cond
            need[cube] = need.get(cube, 0) + 1
        cards.append((not started, len(open_conds), slot, need))
    if not cards:
        return None
    _, _, slot, need = min(cards, key=lambda card: card[:3])
    return slot, need


def _off_target(view: dict[str, Any], move: dict[str, Any], target: tuple[int, dict[str, int]] | None) -> bool:
    """Whether ``move`` is an Invention condition the seat does not play: at :data:`INVENTION_PLAYERS`
    players, any Invention but the target (:func:`invention_target`)."""
    return (_kind(move) == "invention" and len(view["players"]) in INVENTION_PLAYERS
            and (target is None or move["invention"] != target[0]))


def missing(view: dict[str, Any], target: tuple[int, dict[str, int]] | None) -> dict[str, int]:
    """What the seat lacks (:func:`scripted.missing`) for the Sagas' open conditions and those of
    the Invention it works for (``target``, :func:`invention_target`)."""
    need = scripted.saga_needs(view)
    for cube, k in (target[1] if target else {}).items():
        need[cube] = need.get(cube, 0) + k
    return scripted.missing(view, view["seat"], need)


def _invention(view: dict[str, Any], legal: list[dict[str, Any]],
               target: tuple[int, dict[str, int]]) -> dict[str, Any] | None:
    """A condition of the target Invention (6.5), paid with cubes: when its action is under way,
    or when the seat holds every cube and Nog that its open conditions ask for, so that it meets
    them all in one Market Day and no other seat can put more Nogs on the card."""
    slot, need = target
    moves = [m for m in legal if _kind(m) == "invention" and m["invention"] == slot and _pay_cost(m) == 0]
    if not moves:
        return None
    act = view.get("action")
    acting = act is not None and act.get("seat") == view["seat"]
    if acting and act.get("invention") == slot:
        return moves[0]
    # a Nog a condition, and one for the Market Day itself when it starts the action (6.0, 6.5)
    nogs = sum(need.values()) + (0 if acting else 1)
    whole = not scripted.missing(view, view["seat"], need) and _mine(view)["mountains"] >= nogs
    return moves[0] if whole else None


def _decision(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Answers to pending decisions where the expert differs from :mod:`.scripted` (6.3, 6.4)."""
    t = legal[0]["type"]
    if t == "bid":
        limit = BID_LIMITS.get(len(view["players"]), BID_LIMIT)
        raises = sorted((m for m in legal if 0 < m["steps"] <= limit), key=lambda m: m["steps"])
        if raises and _mine(view)["mountains"] >= BID_NOGS:
            order = (view.get("auction") or {}).get("order") or [view["seat"]]
            jump = len(view["players"]) in JUMP_BID_PLAYERS and order[-1] != view["seat"]
            return raises[-1] if jump else raises[0]
        return next(m for m in legal if m["steps"] == 0)
    if t == "keep_card":
        up = len(view["players"]) in FACE_UP_PLAYERS and view.get("season", 1) < scripted.LATE_SEASON
        face = "up" if up else "down"
        return next((m for m in legal if m["face"] == face), legal[0])
    return None


def with_cart(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` with the cubes in the cart of the seat's own action (``view["action"]["cart"]``,
    ``{cube: count}``) added to its stock, as they will be when the action ends (5.1-5.3); the
    view itself when the seat has no action under way or an empty cart. ``view`` is not changed."""
    act = view.get("action")
    if not act or act.get("seat") != view["seat"] or not act.get("cart"):
        return view
    seat = view["seat"]
    stock = dict(_mine(view)["stock"])
    for cube, k in act["cart"].items():
        stock[cube] = stock.get(cube, 0) + k
    players = list(view["players"])
    players[seat] = {**players[seat], "stock": stock}
    return {**view, "players": players}


def policy(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The expert's move without playouts (see the module docstring): one of ``legal``.

    Raises:
        ValueError: ``legal`` is empty.
    """
    if not legal:
        raise ValueError("no legal move to choose from")
    if len(legal) == 1:
        return legal[0]
    if len(view["players"]) in CART_PLAYERS:
        view = with_cart(view)
    answer = _decision(view, legal)
    if answer is not None:
        return answer
    if legal[0]["type"] in ("keep_card", "draw_reserve", "seers_tower", "fireworks", "knut", "fishing_tokens"):
        return scripted.choose(None, view, legal, rng)
    target = invention_target(view)
    if target is not None:
        answer = _invention(view, legal, target)
        if answer is not None:
            return answer
    legal = [m for m in legal if not _off_target(view, m, target)] or legal  # no Invention but the target
    sagas = [m for m in legal if _kind(m) == "saga"]
    if sagas and view.get("crow", 0) > LAST_CALL:
        sagas = [m for m in sagas if not ends_game(view, m) or wins_if_ended(view, m)]
    if sagas:
        owns = len(_mine(view)["counting_house"]) > 0
        short = _mine(view)["mountains"] < SPARE_NOGS
        return min(sagas, key=lambda m: (not (owns and m.get("bonus")), short == bool(m.get("nog", True)))
                   + scripted._saga_rank(view, m))
    helper = scripted._unblock(view, legal)
    if helper is not None:
        return helper
    inventions = [m for m in legal if _kind(m) == "invention" and _pay_cost(m) == 0
                  and _invention_lead(view, m["invention"])]
    if inventions and len(view["players"]) not in INVENTION_PLAYERS and not scripted.missing(view, view["seat"]):
        return inventions[0]
    action = view.get("action")
    contest = len(view["players"]) in CONTEST_PLAYERS
    auctions = [m for m in legal if _kind(m) == "auction" and action is None and (contest or not bidders_about(view))]
    if auctions and _mine(view)["mountains"] >= EAGER_NOGS and len(view["players"]) > 2:
        return auctions[0]
    early = EARLY_AUCTION.get(len(view["players"]), 0)
    if auctions and view.get("season", 1) <= early and len(_mine(view)["counting_house"]) < EARLY_CARDS \
            and _mine(view)["mountains"] >= AUCTION_NOGS:
        return auctions[0]
    pick = scripted._gather(view, view["seat"], legal, missing(view, target))
    if pick is not None and (action is None or pick["type"] == action["kind"]):
        return pick
    if auctions and _mine(view)["mountains"] >= AUCTION_NOGS:
        return auctions[0]
    return scripted.choose(None, view, legal, rng)


def choose(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]], seed: str, version: int,
           iterations: int | None = None) -> dict[str, Any]:
    """The expert's move for the seat of ``view`` (a Noggin player view): one of ``legal``
    (the very same dict).

    Args:
        seed, version: fix the decision (its generator and sampled worlds).
        iterations: playouts a decision where they run (:data:`SEARCH_PLAYERS`,
            :func:`_searched`; default :data:`DEFAULT_ITERATIONS`); 0 plays the policy alone.
    Raises:
        ValueError: ``legal`` is empty.
    """
    rng = random.Random(f"{seed}:{version}:expert")
    best = policy(view, legal, rng)
    budget = DEFAULT_ITERATIONS if iterations is None else max(0, int(iterations))
    if budget <= 0 or len(legal) == 1 or len(view["players"]) not in SEARCH_PLAYERS or _kind(best) == "saga" \
            or not _searched(view, legal):
        return best
    return _halving(rules, view, legal, best, seed, version, budget)


SEARCHED: tuple[str, ...] = ("saga", "invention", "auction", "fisherman", "farmer", "woodcutter", "miner", "trade",
                              "character", "builder", "evict", "restock", "end_turn", "finish")
"""Kinds of move (:func:`scripted._kind`) a playout search compares, one candidate a kind."""


def _searched(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """Whether the decision is one the playouts weigh: the choice of an action (no action under
    way, several kinds of move)."""
    t = legal[0]["type"]
    if t in ("bid", "keep_card"):
        return t in SEARCHED_DECISIONS
    return view.get("action") is None and len({_kind(m) for m in legal if _kind(m) in SEARCHED}) > 1


def _candidates(view: dict[str, Any], legal: list[dict[str, Any]], best: dict[str, Any], seed: str,
                version: int) -> list[dict[str, Any]]:
    """The policy's move first, then for every other kind of move in :data:`SEARCHED` the move the
    policy would pick among that kind's moves alone (at most :data:`CANDIDATES` in all); for a
    card's face both faces, for a bid passing, the least raise and two Steps above the policy's."""
    t = legal[0]["type"]
    if t == "keep_card":
        return [best] + [m for m in legal if m is not best]
    if t == "bid":
        steps = sorted(m["steps"] for m in legal)
        raises = [x for x in steps if x > 0]
        want = {0, raises[0] if raises else 0, min(raises[-1], best["steps"] + 2) if raises else 0}
        return [best] + [m for m in legal if m["steps"] in want and m is not best]
    by: dict[str, list[dict[str, Any]]] = {}
    target = invention_target(view)
    for m in legal:
        k = _kind(m)
        if k in SEARCHED and _pay_cost(m) == 0 and not _off_target(view, m, target):
            by.setdefault(k, []).append(m)
    out = [best]
    for k in SEARCHED:
        if len(out) >= CANDIDATES:
            break
        if k == _kind(best) or k not in by:
            continue
        out.append(policy(view, by[k], random.Random(f"{seed}:{version}:{k}")))
    return out


def _lead(state: Any, seat: int) -> float:
    """What a playout's end is worth to ``seat``, in points: its :func:`.evaluation.value` over the
    best other seat's, plus :data:`PROGRESS_FACTOR` times Noggin's progress toward the crown
    (:func:`.evaluation.progress` of the Dragon's spaces, ``WEIGHTS["dragon"]`` points a space);
    a game Nogbad won is worth :data:`.evaluation.NOGBAD_ENDING` (9.0)."""
    from .evaluation import NOGBAD_ENDING, WEIGHTS, progress, value

    if state.ended is not None and state.ended.get("crown") == "nogbad":
        return NOGBAD_ENDING
    vals = [value(state, s) for s in range(len(state.players))]
    shared = WEIGHTS["dragon"] * len(state.players) * progress(state)
    return vals[seat] - max(v for s, v in enumerate(vals) if s != seat) + PROGRESS_FACTOR * shared


def _halving(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]], best: dict[str, Any], seed: str,
             version: int, budget: int) -> dict[str, Any]:
    """Successive halving over paired playouts among :func:`_candidates` (Karnin, Koren and
    Somekh, "Almost optimal exploration in multi-armed bandits", ICML 2013)."""
    from services.rules.core import IllegalMove
    from services.rules.core.forward import apply, chance_from, play_out

    seat = view["seat"]
    cands = _candidates(view, legal, best, seed, version)
    if len(cands) == 1:
        return best
    totals = [0.0] * len(cands)
    alive = list(range(len(cands)))
    worlds = 0
    rounds = max(1, (len(cands) - 1).bit_length())
    per_round = max(1, budget // (rounds * len(cands)))
    base = rules.state_from_view(view, f"{seed}:{version}:0")
    while len(alive) > 1 and worlds < budget:
        for w in range(per_round):
            checkpoint()  # a caller that is stopping gives the decision up
            sample = f"{seed}:{version}:{worlds + w}"
            world = base if worlds + w == 0 else rules.determinise(base, seat, sample)
            for i in alive:
                state = rules.clone(world)
                chance = chance_from(f"{sample}:chance")
                prng = random.Random(sample)
                try:
                    apply(rules, state, seat, cands[i], chance, checked=True)
                except IllegalMove:
                    totals[i] -= 1e9
                    continue
                play_out(rules, state, chance,
                         lambda mover, moves: policy(rules.view(state, mover), moves, prng), PLAYOUT_MOVES)
                totals[i] += _lead(state, seat)
        worlds += per_round
        alive.sort(key=lambda i: (-totals[i], i))
        alive = alive[:max(1, len(alive) // 2)]
    return cands[alive[0]]
