"""The forward model for Resource Hog: a copy is equal to its state and independent of it
(DESIGN "the forward model"), at every step of whole games."""

from services.rules.core import GameConfig
from services.rules.resource_hog import GAME as RULES
from tests.support.copies import play_checking_copies


def test_a_copy_is_equal_and_playing_on_it_leaves_the_original_alone():
    for players in (2, 4):
        assert play_checking_copies(RULES, GameConfig(game="resource_hog", players=players), f"copies-{players}") > 50
