"""Issue: reliability, fault 3. In a simultaneous decision (the sealed-bid test game: every seat
bids at once) three bids posted with the same ``expected_version`` got one 200 and two 409s. Moves
of different seats deciding at once are independent: each is now checked against the current
state and accepted; a 409 stays for a real conflict."""

import tests.core_games.sealed_bid  # noqa: F401 - registers the game


def test_three_bids_with_the_same_version_are_all_accepted(client, api):
    gid = api.create("sealed_bid", 3, seed="simul")
    tokens = [api.seat(gid, s) for s in range(3)]
    version = api.version(gid)
    answers = [api.move(gid, tokens[s], {"type": "bid", "amount": s}, version=version) for s in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200], [a.json for a in answers]
    assert sorted(a.json["version"] for a in answers) == [version + 1, version + 2, version + 3]
    assert api.version(gid) == version + 3
    reveal = [e for a in answers for e in a.json["events"] if e["type"] == "BidsRevealed"]
    assert len(reveal) == 1  # the third bid closed the round, as if they had come in order


def test_a_real_conflict_is_still_a_409(client, api):
    gid = api.create("sealed_bid", 2, seed="conflict")
    tokens = [api.seat(gid, s) for s in range(2)]
    version = api.version(gid)
    assert api.move(gid, tokens[0], {"type": "bid", "amount": 1}, version=version).status_code == 200
    # seat 0 again against the old version: its own move came since, so this is a conflict
    resp = api.move(gid, tokens[0], {"type": "bid", "amount": 2}, version=version)
    assert resp.status_code == 409 and resp.json["error"] in ("stale_version", "not_your_turn")
    # a version the game has not reached is a conflict too
    resp = api.move(gid, tokens[1], {"type": "bid", "amount": 1}, version=version + 5)
    assert resp.status_code == 409 and resp.json["error"] == "stale_version"


def test_a_stale_move_in_a_turn_by_turn_game_is_a_409(client, api):
    gid = api.create("noggin", 2, seed="turns")
    tokens = [api.seat(gid, s) for s in range(2)]
    summary = client.get(f"/games/{gid}").json
    mover = summary["to_move"][0]
    legal = client.get(f"/games/{gid}/legal-moves", headers={"Authorization": f"Bearer {tokens[mover]}"}).json
    assert api.move(gid, tokens[mover], legal["moves"][0], version=legal["version"]).status_code == 200
    now = client.get(f"/games/{gid}").json
    other = now["to_move"][0]
    legal2 = client.get(f"/games/{gid}/legal-moves", headers={"Authorization": f"Bearer {tokens[other]}"}).json
    resp = api.move(gid, tokens[other], legal2["moves"][0], version=legal["version"])
    assert resp.status_code == 409 and resp.json["error"] == "stale_version"
