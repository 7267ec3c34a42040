"""Resource Hog (``resource-hog-actions-and-events.txt`` and the house rules of
``docs/house-rules.md``, Resource Hog).

Registered as ``"resource_hog"``; :class:`.rules.ResourceHogRules` is the entry point. One
module per domain: :mod:`.state` (the table and ``evolve``), :mod:`.turns` (orders and the
peasants' action), :mod:`.nobles` (moves and fights), :mod:`.trade` (the trading board),
:mod:`.events` (the round's events); data in ``content/``.
"""

from services.rules.core import register

from .rules import ResourceHogRules

GAME = register(ResourceHogRules())

__all__ = ["GAME", "ResourceHogRules"]
