"""When the game store is down the gateway answers 503 JSON, not a traceback."""

from __future__ import annotations

from tests.gateway.conftest import make_app
from tests.support.ports import free_port


def test_store_down_is_503_json_without_internals():
    app = make_app(f"redis://127.0.0.1:{free_port()}/0")
    client = app.test_client()  # the operator's: its creation gets as far as the store
    for response in (client.get("/games/abc"), client.get("/healthz"),
                     client.post("/games", json={"game": "noggin", "players": 3})):
        assert response.status_code == 503
        assert response.json["error"] == "unavailable"
        assert "Traceback" not in response.get_data(as_text=True)
        assert "/" not in response.json["reason"].replace("retry shortly", "")
