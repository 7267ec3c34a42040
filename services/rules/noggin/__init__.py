"""Tales of the Northlands: The Sagas of Noggin the Nog — every rule of the rulebook as pure rules.

Registered as ``"noggin"``; :class:`.rules.NogginRules` is the entry point, one module per
domain of the rulebook (turns, board, market, sagas, characters, inventions, phases,
scoring), data in ``content/``.
"""

from services.rules.core import register

from .rules import NogginRules

GAME = register(NogginRules())

__all__ = ["GAME", "NogginRules"]
