"""A stand-in Redis client for unit tests of a mover's round (``Mover.round`` in
services/phases/mover.py) that need no Redis."""


class RoundClient:
    """What a mover's round asks of Redis, doing nothing: its heartbeat's ``SET``, and its
    scripts (each answers nil: a search bot's deciding note is taken)."""

    def register_script(self, _source):
        return lambda **_: None

    def set(self, *_args, **_kwargs):
        pass


class BotsOnlyTable:
    """Base of a stand-in Table for a mover's round whose games have no person's seat
    (``Table.people``: the round puts people's games first)."""

    def people(self, _game_id):
        return False
