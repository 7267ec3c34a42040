"""Issue: reliability, fault 4. A domain service killed during ``POST /games`` left a game
committed at version 1 with nobody to move, and every retry made another. Now a retry with the
same ``Idempotency-Key`` gets the same game, its set-up finished; a game whose set-up was cut
short is finished when it is first read; the same key with another body is refused."""

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


def test_a_game_whose_set_up_was_cut_short_is_finished_when_read(app, client):
    from services.rules.core import GameConfig

    restore = failing_once(app, "deck")
    try:
        with app.app_context():
            try:
                get_table().create(GameConfig(game="noggin", players=2), seed="half", game_id="00000000000000aa")
            except DomainCallFailed:
                pass
    finally:
        restore()
    with app.app_context():
        assert get_table().store.version("00000000000000aa") == 1  # the half-made game
    summary = client.get("/games/00000000000000aa").json
    assert summary["version"] >= 2 and summary["to_move"] != []
