"""The users' fixture (services/containers/pytest_plugin.py) through pytest itself: the example
test of examples/ plays a whole game against the stack in containers, a failing test of a
user's is reported as failed, and no container is left afterwards."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from .conftest import ROOT

FAILING_TEST = '''
def test_fails_on_purpose(longhouse_client):
    assert longhouse_client.health()
    assert False, "a user's test that fails"
'''


@pytest.mark.containers
@pytest.mark.timeout(900)
def test_users_fixture_plays_a_whole_game_and_leaves_no_container(docker_engine, test_image, tmp_path):
    assert docker_engine.containers() == [], "the engine is not empty before the test"
    (tmp_path / "test_user_fails.py").write_text(FAILING_TEST)
    env = {**os.environ, "DOCKER_HOST": docker_engine.host, "LONGHOUSE_IMAGE": test_image,
           "LONGHOUSE_REDIS_IMAGE": "same", "TESTCONTAINERS_RYUK_DISABLED": "true"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT),
                           str(ROOT / "examples" / "test_in_containers.py"), str(tmp_path / "test_user_fails.py")],
                          cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    out = proc.stdout
    assert re.search(r"\b1 failed, 1 passed\b", out), out[-4000:]
    assert "a user's test that fails" in out
    assert docker_engine.containers() == [], "containers left after the session"
