"""Copy-on-write clones (``Rules.clone``, :mod:`services.rules.core.cow`) of every game: a clone
and its original never see each other's moves, a clone hashes as its original, and every event
handler changes in place only the parts its game's ``WRITES`` names for it (so a part another
state shares is always copied before it changes)."""

import dataclasses
import importlib
import random

import pytest

from services.rules.core import GameConfig, get_rules, state_hash, to_plain
from services.rules.core.forward import apply, apply_phase, chance_from, clone, start
from tests.support.copies import play_checking_copies

GAMES = {"gnomes": {"gem_variant": True}, "noggin": {"sos": True}, "resource_hog": {}}


def _games(game, players, seed):
    """States of a seeded random game, one per decision, with its rules and chance."""
    rules = get_rules(game)
    config = GameConfig(game=game, players=players, options=GAMES[game] if seed.endswith("v") else {})
    chance = chance_from(seed)
    state, _ = start(rules, config, chance)
    return rules, state, chance


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("players,seed", [(2, "a"), (3, "bv"), (4, "c")])
def test_a_clone_and_its_original_are_independent(game, players, seed):
    rules = get_rules(game)
    config = GameConfig(game=game, players=players, options=GAMES[game] if seed.endswith("v") else {})
    steps = play_checking_copies(rules, config, seed, copy=lambda state: clone(rules, state), max_decisions=400)
    assert steps > 50


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("players,seed", [(2, "d"), (3, "ev"), (4, "fv")])
def test_every_handler_changes_only_the_parts_it_names(game, players, seed):
    module = importlib.import_module(f"services.rules.{game}.state")
    rules, state, chance = _games(game, players, seed)
    parts = sorted(module.COPIERS)
    seen = set()

    class Watch:
        """Evolves like the game, checking each event against ``WRITES``."""

        def __getattr__(self, name):
            return getattr(rules, name)

        def evolve(self, s, event):
            named = module.WRITES.get(event.type)
            old = {p: (getattr(s, p), to_plain(getattr(s, p))) for p in parts}
            rules.evolve(s, event)
            if named is None:
                return
            seen.add(event.type)
            for p, (obj, plain) in old.items():
                if p not in named:
                    assert to_plain(obj) == plain, f"{event.type} changed {p} in place but WRITES does not name it"

    watch = Watch()
    rng = random.Random(seed)
    steps = 0
    while rules.outcome(state) is None and steps < 600:
        steps += 1
        if rules.pending_phase(state):
            apply_phase(watch, state, chance)
            continue
        seat = rules.to_move(state)[0]
        apply(watch, state, seat, rng.choice(rules.legal_moves(state, seat)), chance, checked=True)
    assert len(seen) >= 8


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_sharing_marker_is_not_state(game):
    rules, state, _ = _games(game, 3, "g")
    twin = clone(rules, state)
    assert state.shared and twin.shared  # both share every part now
    assert "shared" not in to_plain(twin) and twin == state and state_hash(twin) == state_hash(state)
    assert rules.copy(twin).shared == frozenset()  # a deep copy owns its parts


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_part_the_deep_copy_copies_is_copied_on_write(game):
    """A part the game's deep copy copies may change in place, so the clone must copy it before
    it changes; the parts a deep copy shares (the config, say) are never changed in place."""
    module = importlib.import_module(f"services.rules.{game}.state")
    rules, state, chance = _games(game, 3, "h")
    rng = random.Random(game)
    for _ in range(150):  # deep enough into a game for every part to hold something
        if rules.outcome(state) is not None:
            break
        if rules.pending_phase(state):
            apply_phase(rules, state, chance)
            continue
        seat = rules.to_move(state)[0]
        apply(rules, state, seat, rng.choice(rules.legal_moves(state, seat)), chance, checked=True)
    deep = module.copy_state(state)
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        if f.name == "shared" or f.name in module.COPIERS or value is None or isinstance(value, (bool, int, str)):
            continue
        assert getattr(deep, f.name) is value, f"copy_state copies {f.name}, but the clone would not"
