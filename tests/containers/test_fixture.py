"""The users' fixture (``longhouse_client.testing``, the client's ``containers`` extra) through
pytest itself: the example test of examples/ plays a whole game against the stack in containers,
a failing test of a user's is reported as failed, no container is left afterwards, and neither
the plugin nor the stack it starts imports a server package."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import SDK_SOURCES

from .conftest import ROOT

FAILING_TEST = '''
import sys

def test_fails_on_purpose(longhouse_client):
    assert longhouse_client.ready().status == "ready"
    assert longhouse_client.health().status == "ok"
    server = sorted(name for name in sys.modules if name.split(".")[0] in ("services", "gateway"))
    assert server == [], server
    assert False, "a user's test that fails"
'''


@pytest.mark.containers
@pytest.mark.timeout(900)
def test_users_fixture_plays_a_whole_game_and_leaves_no_container(docker_engine, test_image, tmp_path):
    assert docker_engine.containers() == [], "the engine is not empty before the test"
    (tmp_path / "test_user_fails.py").write_text(FAILING_TEST)
    # only the client's sources on the path (never the checkout root, which holds the server's packages);
    # -p loads the plugin whether or not its entry point is installed
    env = {**os.environ, "DOCKER_HOST": docker_engine.host, "LONGHOUSE_IMAGE": test_image,
           "LONGHOUSE_REDIS_IMAGE": "same", "TESTCONTAINERS_RYUK_DISABLED": "true",
           "PYTHONPATH": os.pathsep.join(str(source) for source in SDK_SOURCES)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "longhouse_client.testing",
                           "--rootdir", str(tmp_path), "-c", os.devnull,
                           str(ROOT / "examples" / "test_in_containers.py"), str(tmp_path / "test_user_fails.py")],
                          cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    out = proc.stdout
    assert re.search(r"\b1 failed, 1 passed\b", out), out[-4000:]
    assert "a user's test that fails" in out
    assert docker_engine.containers() == [], "containers left after the session"
