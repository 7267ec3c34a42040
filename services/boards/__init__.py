"""The boards service: the board domain of every game over gRPC (BoardService).

It owns positions and pieces: main board, player boards, tracks, worker placement. Start it with ``python -m services.boards``; address from
``LONGHOUSE_BOARDS_PORT`` (and ``LONGHOUSE_HOST``), Redis from ``LONGHOUSE_REDIS_PORT``.
"""
