"""Tales of the Northlands: The Sagas of Noggin the Nog — the core game as pure rules.

Registered as ``"noggin"``. Sagas, Reserve cards, characters, Nogbad's Wheel of Infamy,
the Counting House, Inventions, Year 2 buildings, variants and coins are not part of
this package yet; see ``rules.py`` for where they plug in.
"""

from services.rules.core import register

from .rules import NogginRules

GAME = register(NogginRules())

__all__ = ["GAME", "NogginRules"]
