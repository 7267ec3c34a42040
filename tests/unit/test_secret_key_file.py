"""The stack's key of secrets at rest in its data directory (README, "Rotating the secret key"),
and the gateway's answer when a stored secret cannot be opened."""

from __future__ import annotations

import stat

import pytest
from flask import Flask

from gateway.errors import register_error_handlers
from services.common.config import Settings
from services.common.sealing import UnsealError, generate_key
from services.launcher.stack import SECRET_KEY_FILE, Stack
from services.launcher.supervisor import LaunchError


def test_a_rotation_leaves_the_data_directory_the_keys_that_open_its_data(tmp_path):
    own = Stack(Settings(), tmp_path).settings.secret_keys  # no keys configured: the stack makes one
    path = tmp_path / SECRET_KEY_FILE
    assert path.read_text().strip() == own and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert Stack(Settings(), tmp_path).settings.secret_keys == own  # kept, not made again
    new = generate_key()
    rotated = f"{new},{own}"
    assert Stack(Settings(secret_keys=rotated), tmp_path).settings.secret_keys == rotated
    assert path.read_text().strip() == rotated  # a later run without the variable uses them
    assert Stack(Settings(), tmp_path).settings.secret_keys == rotated
    Stack(Settings(secret_keys=new), tmp_path)  # the old key dropped
    assert Stack(Settings(), tmp_path).settings.secret_keys == new
    with pytest.raises(LaunchError, match="secret key"):
        Stack(Settings(secret_keys="not a key"), tmp_path)
    assert path.read_text().strip() == new  # a bad key is never written


def test_a_secret_the_keys_cannot_open_is_a_clear_503_not_a_crash():
    app = Flask(__name__)
    register_error_handlers(app)

    @app.get("/boom")
    def boom():
        raise UnsealError("no key opens it")

    answer = app.test_client().get("/boom")
    assert answer.status_code == 503
    assert answer.get_json()["error"] == "secret_keys_mismatch"
    assert "LONGHOUSE_SECRET_KEYS" in answer.get_json()["reason"]
