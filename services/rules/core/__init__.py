"""The rules core shared by every game: events, errors, chance, the game interface.

Pure and deterministic: no I/O, no clock, no global random state.
"""

from .canonical import canonical_json, state_hash, to_plain
from .chance import Chance, new_seed
from .errors import BadConfig, IllegalMove, MalformedMove, NotYourTurn, RulesError, UnknownGame
from .events import SEALED, Event, events_from_json, events_to_json, private, public, sealed, visible
from .game import DOMAINS, GameConfig, Op, Rules, game_names, get_rules, register

__all__ = [
    "BadConfig", "Chance", "DOMAINS", "Event", "GameConfig", "IllegalMove", "MalformedMove",
    "NotYourTurn", "Op", "Rules", "RulesError", "UnknownGame", "canonical_json",
    "events_from_json", "events_to_json", "game_names", "get_rules", "new_seed", "private",
    "public", "register", "SEALED", "sealed", "state_hash", "to_plain", "visible",
]
