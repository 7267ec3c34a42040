"""The decks service: the deck domain of every game over gRPC (DeckService).

It owns every ordered or hidden pile: card decks, tile stacks, bags, dice, shuffles. It alone reads each game's secret seed. Start it with ``python -m services.decks``; address from
``LONGHOUSE_DECKS_PORT`` (and ``LONGHOUSE_HOST``), Redis from ``LONGHOUSE_REDIS_PORT``.
"""
