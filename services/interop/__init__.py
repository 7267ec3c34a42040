"""The research adapters: every Longhouse game as an OpenSpiel game, a PettingZoo AEC
environment and a Gymnasium environment (issue 24; docs/interop.md).

* :mod:`.episode`: one game on the forward model stepped one decision or one chance outcome
  at a time (explicit chance through :class:`services.rules.core.chance.Chance`'s outcome
  source, bounded decisions, the seats' information records, utilities);
* :mod:`.encode`: the fixed-size observation tensor of a player view;
* :mod:`.openspiel`: ``import services.interop.openspiel`` registers ``longhouse_noggin``,
  ``longhouse_gnomes`` and ``longhouse_resource_hog`` with ``pyspiel``;
* :mod:`.pettingzoo`: ``env(game=..., players=..., max_moves=...)``, a native AEC environment;
* :mod:`.gymnasium`: ``import services.interop.gymnasium`` registers ``longhouse/Noggin-v0``,
  ``longhouse/Gnomes-v0`` and ``longhouse/ResourceHog-v0``: one seat against built-in bots.

The package sits on top of the rules and the bots and is never imported by the services;
``open_spiel``, ``pettingzoo`` and ``gymnasium`` come with the ``interop`` extra.
"""
