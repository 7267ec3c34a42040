"""Hidden information in tournament reports: ``GET /tournaments/<id>`` and its
``standings.csv`` name no bot's seed (private to the server: a seat's bot seed would let a
client predict its moves) and, while a tournament runs, no game seed (every match's seed
derives from the tournament's; ``tests/gateway/test_tournaments.py`` checks that part)."""

from __future__ import annotations

import json

from services.coordinator.redis_store import key
from services.coordinator.table import unseal_bot
from services.tournament import jobs


def test_a_finished_tournaments_report_names_no_bots_seed(client, redis_client):
    """Each match's seat seeds (:func:`services.tournament.jobs.seat_seed`) are stored with its
    game (encrypted at rest), so the check can fail, and are in no report, standings row or CSV line; the game seeds,
    shown once the tournament is done, are its matches' own."""
    body = {"games": ["resource_hog"], "format": "round_robin", "players": 2, "seed": "report-hidden-seed-5b",
            "participants": [{"name": "r", "kind": "random"}, {"name": "g", "kind": "greedy"}]}
    resp = client.post("/tournaments", json=body)
    assert resp.status_code == 201, resp.json
    tid = resp.json["tournament_id"]
    doc = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    csv = client.get(f"/tournaments/{tid}/standings.csv").get_data(as_text=True)
    listing = client.get("/tournaments").get_data(as_text=True)
    store = jobs.TournamentStore(redis_client)
    spec, plan = store.spec(tid), store.plan(tid)
    results = {r.index: r for r in store.results(tid)}
    assert len(plan) == 2 and json.loads(doc)["status"] == "done"
    for match in plan:
        stored = json.loads(redis_client.hget(key(results[match.index].game_id, "meta"), "meta"))["bots"]
        for seat in range(spec.players):
            seat_seed = jobs.seat_seed(spec, match, seat)
            assert unseal_bot(stored[str(seat)])["seed"] == seat_seed  # the server holds it (encrypted)
            assert seat_seed not in doc and seat_seed not in csv and seat_seed not in listing
        assert match.seed in doc  # done: the game seeds may be shown

