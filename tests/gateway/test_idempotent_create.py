"""Issue: reliability, fault 4, and operability, atomic creation. A domain service killed during
``POST /games`` left a game committed at version 1 with nobody to move, and every retry made
another. Now a game is created and set up in one commit, so the failed attempt stores no game at
all; a retry with the same ``Idempotency-Key`` makes it (once), and the same key with another
body is refused."""

from services.coordinator.wire import DomainCallFailed
from gateway.clients import get_table


def failing_once(app, domain):
    """Make the embedded ``domain`` port fail its next call, as a killed service would."""
    with app.app_context():
        port = get_table().ports[domain]
    real = port.apply
    calls = {"n": 0}

    def apply(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            import grpc

            raise DomainCallFailed(grpc.StatusCode.UNAVAILABLE, "unavailable", "the service is down")
        return real(*args, **kwargs)

    port.apply = apply
    return lambda: setattr(port, "apply", real)


def test_a_retry_with_the_same_key_finishes_the_same_game(app, client):
    body = {"game": "noggin", "players": 2, "seed": "idem"}
    restore = failing_once(app, "deck")
    try:
        first = client.post("/games", json=body, headers={"Idempotency-Key": "k-1"})
    finally:
        restore()
    assert first.status_code == 503
    again = client.post("/games", json=body, headers={"Idempotency-Key": "k-1"})
    assert again.status_code == 201 and again.json["version"] >= 2 and again.json["status"] == "active"
    gid = again.json["game_id"]
    assert client.post("/games", json=body, headers={"Idempotency-Key": "k-1"}).json["game_id"] == gid
    summary = client.get(f"/games/{gid}").json
    assert summary["to_move"] != []
    other = client.post("/games", json={**body, "players": 3}, headers={"Idempotency-Key": "k-1"})
    assert other.status_code == 422 and other.json["error"] == "idempotency_key_reused"
    assert client.post("/games", json=body, headers={"Idempotency-Key": ""}).status_code == 400


def _stored_games(app) -> set[bytes]:
    """Every key of every game in the store but the seeds (which the deck stores first, to expire
    unless a creation commits), and every id in the listing."""
    from gateway.clients import get_redis
    from services.coordinator.redis_store import GAMES_INDEX

    with app.app_context():
        redis = get_redis()
        return ({k for k in redis.scan_iter(match="game:*") if not k.endswith(b":seed")}
                | set(redis.zrange(GAMES_INDEX, 0, -1)))


def test_a_set_up_that_fails_stores_no_game_and_a_retry_stores_a_whole_one(app, client):
    body = {"game": "noggin", "players": 2, "seed": "no-half"}
    for domain in ("deck", "board"):  # noggin's set-up calls the deck, then the board
        before = _stored_games(app)
        restore = failing_once(app, domain)
        try:
            failed = client.post("/games", json=body, headers={"Idempotency-Key": f"k-{domain}"})
        finally:
            restore()
        assert failed.status_code == 503
        assert _stored_games(app) == before  # no game, not even half of one
        made = client.post("/games", json=body, headers={"Idempotency-Key": f"k-{domain}"})
        assert made.status_code == 201 and made.json["version"] == 2 and made.json["status"] == "active"
        gid = made.json["game_id"]
        with app.app_context():
            assert [(e.version, e.kind) for e in get_table().store.read(gid)] == [(1, "create"), (2, "setup")]
        assert gid.encode() in _stored_games(app) - before  # listed by the same commit
