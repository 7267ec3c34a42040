"""The market service: the market domain of every game over gRPC (MarketService).

It owns the shared economy: supply, prices and exchange rates, shops, the trading board. Start it with ``python -m services.market``; address from
``LONGHOUSE_MARKET_PORT`` (and ``LONGHOUSE_HOST``), Redis from ``LONGHOUSE_REDIS_PORT``.
"""
