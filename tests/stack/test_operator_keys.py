"""Operator keys through the real gateway (gunicorn, its own process): the stack's key works, and a key
added to or withdrawn from the file of digests counts from the next request, with no restart
(README, "Operator keys")."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests

from gateway.operators import HEADER, digest, new_key

pytestmark = pytest.mark.stack


def create(stack, key: str) -> requests.Response:
    return requests.post(f"{stack.gateway_url}/games", json={"game": "step_race", "players": 2},
                         headers={HEADER: key}, timeout=30)


def test_keys_are_added_and_withdrawn_through_the_key_file_without_a_restart(stack):
    digests = Path(stack.settings.operator_keys_file)
    original = digests.read_text()
    assert digest(stack.operator_key) in original and stack.operator_key not in original
    gateway = stack.pids()["gateway"]
    new = new_key()
    try:
        refused = create(stack, new)
        assert refused.status_code == 403 and refused.json()["error"] == "wrong_operator_key"
        digests.write_text(original + f"{digest(new)}  # the new key\n")
        assert create(stack, new).status_code == 201
        assert create(stack, stack.operator_key).status_code == 201  # both, while clients switch
        digests.write_text(f"{digest(new)}\n")  # the old key withdrawn
        assert create(stack, new).status_code == 201
        withdrawn = create(stack, stack.operator_key)
        assert withdrawn.status_code == 403 and withdrawn.json()["error"] == "wrong_operator_key"
    finally:
        digests.write_text(original)
    assert create(stack, stack.operator_key).status_code == 201
    assert create(stack, new).status_code == 403
    assert stack.pids()["gateway"] == gateway  # the same gateway process throughout
    log = (stack.data_dir / "logs" / "gateway.log").read_text()
    assert new not in log and stack.operator_key not in log
