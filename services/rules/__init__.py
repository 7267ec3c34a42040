"""Game rules as pure code: :mod:`.core` (the game interface, events, errors, chance) and
one package per game (:mod:`.noggin`).
"""
