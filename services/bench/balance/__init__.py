"""``make balance``: seeded simulations of every game between the strongest built-in bots, and what
they say about the game's balance (:mod:`.core` measures, :mod:`.specs` what each game shows,
:mod:`.probes` the single-strategy policies, :mod:`.report` the page and the targets)."""
