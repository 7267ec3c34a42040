"""Which Redis the launcher starts: its own redis-server unless both the game store
(``LONGHOUSE_STORE_URL``) and the Celery broker (``LONGHOUSE_BROKER_URL``) are elsewhere; making
the children's specs connects to nothing (a cluster named may not be up yet)."""

from __future__ import annotations

from services.common.config import Settings
from services.launcher.stack import Stack

CLUSTER = "redis+cluster://127.0.0.1:1,127.0.0.1:2"  # nothing listens there: nothing may connect


def names(settings: Settings, tmp_path) -> list[str]:
    return [spec.name for spec in Stack(settings, tmp_path).specs()]


def test_the_stack_starts_its_own_redis_only_while_the_store_or_the_broker_is_on_it(tmp_path):
    base = Settings(redis_port=6500)
    assert names(base, tmp_path)[0] == "redis"
    on_cluster = base.model_copy(update={"store_url": CLUSTER})
    assert names(on_cluster, tmp_path)[0] == "redis"  # the Celery broker stays on it
    elsewhere = on_cluster.model_copy(update={"broker_url": "redis://127.0.0.1:3/0"})
    assert "redis" not in names(elsewhere, tmp_path)
    assert names(elsewhere, tmp_path)[:1] == ["decks"] and "mover-0" in names(elsewhere, tmp_path)
