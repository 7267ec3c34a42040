"""Two tiny test-only games that prove the turn model of the rules core.

* :mod:`.sealed_bid`: every seat decides at the same time with a secret commitment,
  revealed together (the shape of Resource Hog's orders and Noggin's auctions).
* :mod:`.step_race`: the turn order is recomputed after every move (the shape of
  Noggin's Step track and the gnome timer stack).

They are registered only when imported (the stack tests list them in
``LONGHOUSE_EXTRA_GAMES``); the product never offers them.
"""
