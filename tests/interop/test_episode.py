"""The episode under every adapter (services/interop/episode.py): the same games as the forward
model, bounded decisions and draws taken in steps, and no leak (issue 24, acceptance 2)."""

from __future__ import annotations

import pickle
import random

import numpy as np
import orjson
import pytest

from services.interop import encode
from services.interop.episode import BOUNDS, CHANCE, Entry, Episode, draw_outcomes, facts, pack, span
from services.rules.core import Chance, GameConfig, get_rules
from services.rules.core.events import private, public, sealed
from services.rules.core.canonical import state_hash
from services.rules.core.forward import apply, apply_phase, start
from tests.interop.conftest import GAMES, advance


def test_span_splits_a_long_list_into_blocks_of_the_bound():
    assert span(10, 4, ()) == (0, 10, 4)
    assert span(10, 4, (2,)) == (8, 10, 1)
    assert span(70, 4, (0, 2)) == (32, 48, 4)
    assert span(70, 4, (1, 0)) == (64, 70, 4)
    with pytest.raises(ValueError):
        span(10, 4, (3,))


@pytest.mark.parametrize("n", [5, 17, 100])
def test_a_draw_taken_in_steps_stays_uniform(n):
    bound = 4
    ends: dict[int, float] = {}

    def walk(prefix: tuple[int, ...], p: float) -> None:
        for digit, q in draw_outcomes(n, bound, prefix):
            lo, hi, _ = span(n, bound, prefix + (digit,))
            if hi - lo == 1:
                ends[lo] = ends.get(lo, 0.0) + p * q
            else:
                walk(prefix + (digit,), p * q)

    walk((), 1.0)
    assert sorted(ends) == list(range(n))
    assert all(abs(v - 1 / n) < 1e-12 for v in ends.values())
    assert len(draw_outcomes(n, bound, ())) <= bound


@pytest.mark.parametrize("game", GAMES)
def test_an_episode_plays_the_forward_models_game(game):
    """Random play through the episode (copies and pickles on the way) ends in the state the
    forward model reaches with the same moves and outcomes."""
    rng = random.Random(game)
    ep = Episode(game, 3, max_moves=60)
    outcomes, moves = [], []
    step = 0
    while not ep.is_over():
        step += 1
        if step % 23 == 0:
            ep = ep.copy() if step % 2 else pickle.loads(pickle.dumps(ep))
        if ep.current() == CHANCE:
            k = rng.randrange(ep.draw)
            outcomes.append(k)
            ep.chance(k)
        else:
            seat = ep.current()
            move = ep.step(rng.choice(ep.actions()))
            moves.append((seat, move))
    it = iter(outcomes)
    rules = get_rules(game)
    streams: dict[str, list[tuple[int, int]]] = {}

    def chance(label):
        """The engine's meaning of a label: asked again, it draws the same outcomes (the chance
        outcomes of the episode come in only where a label draws something new)."""
        drawn = streams.setdefault(label, [])
        k = 0

        def source(n):
            nonlocal k
            if k < len(drawn) and drawn[k][0] == n:
                v = drawn[k][1]
            else:
                v = next(it) if n > 1 else 0
                del drawn[k:]
                drawn.append((n, v))
            k += 1
            return v
        return Chance("", label, source)

    state, _ = start(rules, GameConfig(game=game, players=3), chance)
    for seat, move in moves:
        while rules.pending_phase(state):
            apply_phase(rules, state, chance)
        apply(rules, state, seat, move, chance)
    assert state_hash(state) == ep.hash()
    assert ep.moves == len(moves) == 60 or rules.outcome(state) is not None


def test_a_pile_shuffled_again_under_its_label_keeps_its_order():
    """Noggin shuffles a pile again under its label at every draw from it (the engine's chance
    gives a label the same stream): through the episode too, so no Year 1 building kind comes out
    more often than its 3 copies (a fresh order at each draw did in 12 of 20 games)."""
    for seed in range(4):
        ep = advance(Episode("noggin", 3, max_moves=100_000), random.Random(seed), 100_000)
        drawn: dict[str, int] = {}
        for entry in ep.log.chain():
            for kind, _to, data in entry.events:
                d = orjson.loads(data)
                tiles = d.get("tiles") if kind == "BuildingRowDrawn" else d.get("drawn") if (
                    kind == "BuildingRowsChanged") else None
                if tiles is not None and d.get("year") is None:
                    for t in tiles:
                        drawn[t] = drawn.get(t, 0) + 1
        assert ep.rules.outcome(ep.state) is not None
        assert sum(drawn.values()) >= 12 and max(drawn.values()) <= 3, drawn


def test_a_step_keeps_its_facts_packed_and_reads_them_as_facts():
    """The log serialises an operation's visible events once (``pack``); a step reads back the
    same facts as ``facts`` gives (canonical JSON, sealed events left out), in order."""
    first = [public("Drawn", cards=[3, 1], who={"b": 1, "a": 0}), sealed("Hidden", order=[2, 0, 1]),
             private(1, "Dealt", card=7)]
    second = [sealed("OnlySealed", x=1)]
    third = [public("Ended", seat=0)]
    assert pack(second) is None
    assert Entry(None, packed=pack(first)).events == facts(first)
    ep = advance(Episode("gnomes", 2, max_moves=5), random.Random(2), 5)
    step = Entry(ep.log, seat=0, move='{"type":"scout"}',
                 packed=b"[" + pack(first)[1:-1] + b"," + pack(third)[1:-1] + b"]")
    assert step.events == facts(first + second + third)
    assert step.text(1, False) == ('Drawn {"cards":[3,1],"who":{"a":0,"b":1}}\nDealt {"card":7} (to you)\n'
                                   'Ended {"seat":0}')
    assert step.text(0, False) == '0 moved {"type":"scout"}\nDrawn {"cards":[3,1],"who":{"a":0,"b":1}}\nEnded {"seat":0}'


def test_a_small_bound_splits_decisions_into_steps_of_the_same_seat():
    rng = random.Random(3)
    ep = Episode("noggin", 2, max_moves=40, bound=4)
    widest, split = 0, 0
    while not ep.is_over():
        if ep.current() == CHANCE:
            ep.chance(rng.randrange(ep.draw))
            continue
        seat, actions = ep.current(), ep.actions()
        widest = max(widest, len(actions))
        if len(ep.legal_moves()) > 4:
            split += 1
        if ep.step(rng.choice(actions)) is None:
            assert ep.current() == seat and ep.prefix
            assert f"choosing among moves {ep.choosing()}" in ep.information(seat)
    assert widest <= 4 and split > 10


@pytest.mark.parametrize("game", GAMES)
def test_random_decisions_stay_within_the_bound(game):
    rng = random.Random(11)
    ep = Episode(game, 4, max_moves=200)
    widest = 0
    while not ep.is_over():
        if ep.current() == CHANCE:
            ep.chance(rng.randrange(len(ep.chance_outcomes())))
        else:
            widest = max(widest, len(ep.actions()))
            ep.step(rng.choice(ep.actions()))
    assert 1 < widest <= BOUNDS[game]


def test_utilities_at_the_end():
    ep = advance(Episode("resource_hog", 3), random.Random(2), 10_000)
    out = ep.rules.outcome(ep.state)
    assert out is not None and not ep.truncated()
    win, rank, score = ep.returns("win"), ep.returns("rank"), ep.returns("score")
    assert sum(win) == pytest.approx(1.0) and all(win[w] > 0 for w in out["winners"])
    assert sum(rank) == pytest.approx(1.5)  # n / 2: each pair shares one
    assert max(range(3), key=rank.__getitem__) in out["winners"]
    assert all(-1 <= s <= 1 for s in score)
    cut = advance(Episode("noggin", 2, max_moves=5), random.Random(2), 10_000)
    assert cut.truncated() and cut.returns("win") == [0.0, 0.0] and sum(cut.returns("rank")) == 1.0
    with pytest.raises(ValueError, match="utility"):
        cut.returns("money")


# -- no leak ---------------------------------------------------------------------------------

def _sights(ep: Episode, seat: int) -> tuple[str, str, bytes]:
    tensor = encode.encode(ep.rules.name, ep.view(seat), seat, ep.current() == seat, len(ep.prefix))
    return ep.information(seat), ep.observation(seat), tensor.tobytes()


def _secret_moments(game: str, players: int):
    """Decision points of a random game where some seat holds a secret (its view differs from a
    spectator's in what another seat's resample changes)."""
    rng = random.Random(f"{game}:{players}:leak")
    ep = Episode(game, players, max_moves=80)
    while not ep.is_over():
        if ep.current() == CHANCE:
            ep.chance(rng.randrange(ep.draw))
            continue
        yield ep
        ep.step(rng.choice(ep.actions()))


@pytest.mark.parametrize("game", GAMES)
def test_no_seat_sees_another_seats_secrets(game):
    """Changing only what a seat may not see (its opponents' secrets and the hidden piles, by the
    game's own determinisation for that seat) changes none of its information state, observation
    string or observation tensor; and the change is real: the state changes, and (where other
    seats hold secrets they see: Gnomes' hands, Resource Hog's orders) another seat's view."""
    players = 3
    changed = views = 0
    for i, ep in enumerate(_secret_moments(game, players)):
        if i % 4:
            continue
        for seat in range(players):
            mine = _sights(ep, seat)
            for k in range(2):
                other = ep.resample(seat, f"leak:{i}:{seat}:{k}")
                assert _sights(other, seat) == mine
                changed += other.hash() != ep.hash()
                views += any(other.view(o) != ep.view(o) for o in range(players) if o != seat)
    assert changed > 0
    if game != "noggin":  # Noggin's secrets are face-down piles and card backs no seat sees
        assert views > 0


@pytest.mark.parametrize("game", GAMES)
def test_information_states_ignore_other_seats_private_and_sealed_events(game):
    """Rewriting every event private to seat 1 in the history changes seat 0's and seat 2's
    information state strings not at all; seat 1's does (sealed events, which no seat sees,
    are not even kept)."""
    # Noggin's private events are the Friend or Foe cards (a 4-seat variant)
    players, variants = (4, {"friend_or_foe": True}) if game == "noggin" else (3, None)
    ep = advance(Episode(game, players, variants, max_moves=60), random.Random(5), 60)
    changed = ep.copy()
    entries = changed.log.chain()
    touched = 0
    log = None
    for e in entries:
        events = []
        for kind, to, data in e.events:
            if to == 1:
                data = data[:-1] + ',"secret":"changed"}'
                touched += 1
            events.append((kind, to, data))
        log = Entry(log, seat=e.seat, move=e.move, events=tuple(events), note=e.note)
    changed.log = log
    assert touched > 0
    assert changed.information(0) == ep.information(0)
    assert changed.information(2) == ep.information(2)
    if any(to == 1 for e in entries for _, to, _ in e.events):
        assert changed.information(1) != ep.information(1)


def test_the_observation_tensor_has_a_fixed_size_per_game():
    for game in GAMES:
        ep = advance(Episode(game, 2, max_moves=20), random.Random(1), 20)
        t = encode.encode(game, ep.view(0), 0, False, 0)
        assert t.shape == (encode.size(game),) and t.dtype == np.float32
        assert set(np.unique(t)) <= {0.0, 1.0} and t.sum() > 10
