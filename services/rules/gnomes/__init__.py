"""A Game of Gnomes (``a-game-of-gnomes-rulebook.txt``): so far its components as checked data
(:mod:`.content`). The game itself is not registered yet, so no process offers it.
"""
