"""A Game of Gnomes (``a-game-of-gnomes-rulebook.txt``): every rule as pure rules.

Registered as ``"gnomes"``; :class:`.rules.GnomesRules` is the entry point. One module per
domain of the rulebook: :mod:`.geo` (the board's routes), :mod:`.state` (the table and
``evolve``), :mod:`.actions` (a turn's actions, C.1-C.7), :mod:`.rounds` (end of turn,
sleep, hand limit, calendar and winter, C end-G), :mod:`.decks` (every draw),
:mod:`.scoring` (H), :mod:`.turns` (legal moves), :mod:`.views`; data in ``content/``.
"""

from services.rules.core import register

from .rules import GnomesRules

GAME = register(GnomesRules())

__all__ = ["GAME", "GnomesRules"]
