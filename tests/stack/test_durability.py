"""Issue: reliability, fault 8. Redis synced its append-only file once a second, so up to a second
of acknowledged moves could be lost on power failure. The policy is now a setting,
``LONGHOUSE_REDIS_APPENDFSYNC``, whose default (``always``) loses no acknowledged move."""

from __future__ import annotations

import pytest
import redis

from services.common.config import Settings
from services.launcher.stack import Stack

pytestmark = pytest.mark.stack


def test_the_stack_redis_syncs_every_write_by_default(stack):
    client = redis.Redis.from_url(stack.redis_url)
    assert client.config_get("appendonly") == {"appendonly": "yes"}
    assert client.config_get("appendfsync") == {"appendfsync": "always"}


def test_the_policy_is_a_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("LONGHOUSE_REDIS_APPENDFSYNC", "everysec")
    spec = Stack(Settings(), tmp_path).redis_spec()
    assert spec.argv[spec.argv.index("--appendfsync") + 1] == "everysec"
    monkeypatch.setenv("LONGHOUSE_REDIS_APPENDFSYNC", "sometimes")
    with pytest.raises(ValueError, match="appendfsync"):
        Settings()


def test_the_redis_directory_is_private(stack):
    """It holds every game's secret seed and the agents' secrets (a newcomer's trial found 755)."""
    assert (stack.data_dir / "redis").stat().st_mode & 0o077 == 0
