"""The scoring service: the score domain of every game over gRPC (ScoringService).

It owns score tracks, in-game awards, final scoring, tie-breaks. Start it with ``python -m services.scoring``; address from
``LONGHOUSE_SCORING_PORT`` (and ``LONGHOUSE_HOST``), Redis from ``LONGHOUSE_REDIS_PORT``.
"""
