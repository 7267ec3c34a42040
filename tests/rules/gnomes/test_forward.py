"""The forward model for A Game of Gnomes: a copy is equal to its state and independent of it,
so search can play moves on copies (DESIGN "the forward model")."""

from services.rules.core import GameConfig
from tests.support.copies import play_checking_copies

from .helpers import RULES


def test_a_copy_is_equal_and_playing_on_it_leaves_the_original_alone():
    config = GameConfig(game="gnomes", players=4, options={"random_layout": True})
    assert play_checking_copies(RULES, config, "copies") > 50
