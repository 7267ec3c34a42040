"""``GET /metrics`` of the gateway app in process (gateway.metrics): the moves it commits and refuses
by game and reason, request latency by Flask route (never the raw path), open event streams and
the games in play, in Prometheus's text format; never rate-limited."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from services.common.metrics import FAMILIES
from services.coordinator.redis_store import RedisStore

MOVE_CAP = 100
"""More moves than a step race of two seats can take (each move advances at least one space)."""


def samples(text: str) -> list[tuple[str, dict[str, str], float]]:
    """Every sample of a Prometheus text exposition: ``(name, labels, value)``."""
    return [(s.name, dict(s.labels), s.value) for family in text_string_to_metric_families(text)
            for s in family.samples]


def total(text: str, name: str, **labels: str) -> float:
    """The sum of the samples named ``name`` whose labels include ``labels`` (0 if none)."""
    return sum(value for n, got, value in samples(text) if n == name and all(got.get(k) == v for k, v in labels.items()))


def families_in(text: str) -> set[str]:
    """The family names of an exposition (a counter's without ``_total``, as the parser gives them)."""
    return {family.name for family in text_string_to_metric_families(text)}


def scrape(client) -> str:
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer.mimetype == "text/plain"
    return answer.get_data(as_text=True)


def play_step_race(api, client) -> tuple[str, int]:
    """A two-seat step race played to its end through the app, plus one illegal move of seat 0
    at the start; returns ``(game id, moves the gateway answered 200)``."""
    gid = api.create("step_race", 2)
    tokens = [api.seat(gid, s) for s in range(2)]
    refused = api.move(gid, tokens[0], {"type": "advance", "steps": 5})
    assert refused.status_code == 422 and refused.json["error"] == "illegal_move"
    played = 0
    for _ in range(MOVE_CAP):
        game = client.get(f"/games/{gid}").json
        if game["status"] == "over":
            break
        seat = game["to_move"][0]
        answer = api.move(gid, tokens[seat], {"type": "advance", "steps": 3}, version=game["version"])
        assert answer.status_code == 200, answer.json
        played += 1
    assert client.get(f"/games/{gid}").json["status"] == "over"
    return gid, played


def test_moves_accepted_equal_the_log_and_a_refusal_counts_with_its_reason(api, client, redis_client):
    before = scrape(client)
    gid, played = play_step_race(api, client)
    after = scrape(client)
    in_log = sum(1 for entry in RedisStore(redis_client).read(gid) if entry.kind == "move")
    accepted = (total(after, "longhouse_moves_total", game="step_race", outcome="accepted")
                - total(before, "longhouse_moves_total", game="step_race", outcome="accepted"))
    assert accepted == in_log == played > 0
    refused = (total(after, "longhouse_moves_total", game="step_race", outcome="refused", reason="illegal_move")
               - total(before, "longhouse_moves_total", game="step_race", outcome="refused", reason="illegal_move"))
    assert refused == 1


def test_a_repeated_move_id_is_not_counted_twice(api, client):
    gid = api.create("step_race", 2)
    tokens = [api.seat(gid, s) for s in range(2)]
    before = total(scrape(client), "longhouse_moves_total", game="step_race", outcome="accepted")
    first = api.move(gid, tokens[0], {"type": "advance", "steps": 1}, version=2, move_id="once")
    again = api.move(gid, tokens[0], {"type": "advance", "steps": 1}, version=2, move_id="once")
    assert first.status_code == again.status_code == 200 and first.json == again.json
    assert total(scrape(client), "longhouse_moves_total", game="step_race", outcome="accepted") == before + 1


def test_request_latency_is_labelled_by_route_not_by_path(api, client):
    gid = api.create("step_race", 2)
    assert client.get(f"/games/{gid}").status_code == 200
    assert client.get("/no/such/route").status_code == 404
    text = scrape(client)
    routes = {labels["route"] for name, labels, _ in samples(text)
              if name == "longhouse_http_request_duration_seconds_count"}
    assert "/games/<game_id>" in routes and "/games" in routes and "<unmatched>" in routes
    assert not any(gid in route for route in routes)
    assert total(text, "longhouse_http_request_duration_seconds_count", route="/games/<game_id>", method="GET",
                 status="200") >= 1


def test_open_event_streams_are_counted_until_they_close(api, client):
    gid = api.create("step_race", 2)
    base = total(scrape(client), "longhouse_event_streams_open")
    stream = client.get(f"/games/{gid}/stream", query_string={"idle_timeout": "5"}, buffered=False)
    chunks = iter(stream.response)
    assert next(chunks).startswith(b"retry:")  # the generator runs: the stream is open
    assert total(scrape(client), "longhouse_event_streams_open") == base + 1
    stream.close()  # the client goes away: the generator is closed
    assert total(scrape(client), "longhouse_event_streams_open") == base


def test_games_in_play_by_game(api, client):
    api.create("step_race", 2)
    api.create("step_race", 3)
    text = scrape(client)
    assert total(text, "longhouse_games_in_play", game="step_race") == 2  # a flushed store: these two


def test_metrics_are_never_rate_limited(redis_server):
    from tests.gateway.conftest import make_app

    app = make_app(redis_server.url, RATE_LIMIT_READS_ADDRESS="2/minute", RATE_LIMIT_EXEMPT="")
    client = app.test_client()
    assert all(client.get("/metrics").status_code == 200 for _ in range(5))


def test_the_gateways_families_are_known_families(api, client):
    play_step_race(api, client)
    names = families_in(scrape(client))
    ours = {n for n in names if n.startswith("longhouse_")}
    known = {f.removesuffix("_total") for f in FAMILIES}
    assert ours <= known
    assert {"longhouse_moves", "longhouse_http_request_duration_seconds", "longhouse_event_streams_open",
            "longhouse_games_in_play"} <= ours
