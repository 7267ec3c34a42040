"""Every built-in bot kind in every game: a legal move, a decision fixed by seed, version and
view (so a redelivered decision is the same), never a read of the true hidden state, and the
same choice on the bus (``decide``), from a view (``decide_from_view``) and as a player object
(``make_bot``), which is how a bot plays over HTTP.

Positions come from seeded random play on the forward model; the search kinds get small budgets.
"""

from __future__ import annotations

import pytest

from services.bots.decide import BOT_KINDS, SEARCH_KINDS, decide, decide_for, decide_from_view
from services.bots.players import make_bot
from services.rules.core import canonical_json
from tests.support.positions import after, hidden, other_truth, position

GAMES = ("noggin", "gnomes", "resource_hog")
BUDGET = 6
"""Search iterations a decision in these tests."""


def _budget(kind: str) -> int | None:
    return BUDGET if kind in SEARCH_KINDS else None


@pytest.mark.parametrize("kind", BOT_KINDS)
@pytest.mark.parametrize("game", GAMES)
def test_every_kind_plays_a_legal_move_fixed_by_seed_version_and_view(game, kind):
    rules, state, seat = position(game, f"kinds-{game}", after(25))
    legal = rules.legal_moves(state, seat)
    moves = [decide(kind, "bot", rules, state, seat, v, legal, _budget(kind)) for v in (4, 4, 5)]
    assert all(m in legal for m in moves)
    assert moves[0] == moves[1]
    # the bus (stored seat), a view (what a client sees) and a player object agree
    assert decide_for({"kind": kind, "seed": "bot", **({"iterations": BUDGET} if _budget(kind) else {})},
                      rules, state, seat, 4) == moves[0]
    if kind != "random":
        assert decide_from_view(kind, "bot", rules, rules.view(state, seat), 4, legal, _budget(kind)) == moves[0]
    bot = make_bot(kind, "bot", iterations=_budget(kind))
    assert bot.kind == kind
    if kind == "random":  # the random player draws from its own sequence, not by version
        assert bot.choose(legal) in legal
    else:
        assert bot.choose(legal, rules.view(state, seat), game, 4) == moves[0]


@pytest.mark.parametrize("kind", [k for k in BOT_KINDS if k != "random"])
@pytest.mark.parametrize("game", GAMES)
def test_no_kind_reads_the_true_hidden_state(game, kind):
    """Two true states that differ only in what the seat cannot see give the same move."""
    rules, state, seat = position(game, f"kinds-truth-{game}", hidden(game))
    alt = other_truth(rules, state, seat)
    assert canonical_json(rules.view(alt, seat)) == canonical_json(rules.view(state, seat))
    moves = [decide(kind, "bot", rules, truth, seat, 9, iterations=_budget(kind)) for truth in (state, alt)]
    assert moves[0] == moves[1]


def test_iterations_are_for_the_search_kinds_only():
    assert set(SEARCH_KINDS) == {"ismcts", "expert"}
    with pytest.raises(ValueError, match="iterations are for a search bot"):
        make_bot("greedy", "s", iterations=5)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle", "s")


def test_a_game_that_cannot_rebuild_a_view_is_still_played_by_every_kind():
    """The tests' tiny games have no evaluation and no state from a view: search kinds fall back
    to the greedy bot, which plays them at random, instead of failing the seat."""
    import tests.core_games.lap_race  # noqa: F401  (registers the test game)
    from services.rules.core import GameConfig, get_rules
    from services.rules.core.forward import chance_from, start

    rules = get_rules("lap_race")
    state, _ = start(rules, GameConfig(game="lap_race", players=2), chance_from("lap"))
    seat = rules.to_move(state)[0]
    legal = rules.legal_moves(state, seat)
    for kind in BOT_KINDS:
        assert decide(kind, "bot", rules, state, seat, 3, legal) in legal
