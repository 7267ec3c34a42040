"""The Redis client factory (services.common.redis_client) and the settings that name a Redis
elsewhere: which URL makes which client, what is refused, and that no password is ever shown."""

from __future__ import annotations

import pytest
import redis
from pydantic import ValidationError
from redis.cluster import RedisCluster

from services.common.config import Settings
from services.common.redis_client import check_url, cluster_nodes, connect, is_cluster, redact


def test_a_plain_url_gives_a_redis_client_with_the_options():
    client = connect("redis://127.0.0.1:6999/3", socket_timeout=2.5)
    assert type(client) is redis.Redis
    kwargs = client.connection_pool.connection_kwargs
    assert (kwargs["host"], kwargs["port"], kwargs["db"], kwargs["socket_timeout"]) == ("127.0.0.1", 6999, 3, 2.5)


def test_cluster_urls_list_their_start_up_nodes():
    assert is_cluster("redis+cluster://127.0.0.1:7000,127.0.0.1:7001/0")
    assert not is_cluster("redis://127.0.0.1:7000/0")
    assert cluster_nodes("redis+cluster://u:p@10.0.0.1:7000, 10.0.0.2:7001,[::1]:7002") == [
        ("10.0.0.1", 7000), ("10.0.0.2", 7001), ("::1", 7002)]


@pytest.mark.parametrize("url", ["redis+cluster://127.0.0.1:7000/1", "redis+cluster://127.0.0.1",
                                 "redis+cluster://127.0.0.1:7000,:7001", "redis+cluster://h:99999",
                                 "http://127.0.0.1:7000", "127.0.0.1:6379"])
def test_malformed_urls_are_refused(url):
    with pytest.raises(ValueError):
        check_url(url)


def test_a_password_is_never_shown():
    assert redact("redis://:s3cret@db.example:6379/0") == "redis://:***@db.example:6379/0"
    assert redact("redis+cluster://app:s3cret@a:7000,b:7001") == "redis+cluster://app:***@a:7000,b:7001"
    assert redact("redis://db.example:6379/0") == "redis://db.example:6379/0"
    with pytest.raises(ValueError) as refused:
        check_url("ftp://app:s3cret@db.example/0")
    assert "s3cret" not in str(refused.value)


def test_the_settings_default_to_the_stacks_own_redis(monkeypatch):
    s = Settings(redis_port=6500)
    assert (s.redis_url, s.celery_broker_url, s.own_redis) == (
        "redis://127.0.0.1:6500/0", "redis://127.0.0.1:6500/1", True)


def test_a_store_on_a_cluster_keeps_the_broker_on_the_stacks_own_redis():
    s = Settings(redis_port=6500, store_url="redis+cluster://127.0.0.1:7000,127.0.0.1:7001")
    assert s.redis_url == "redis+cluster://127.0.0.1:7000,127.0.0.1:7001"
    assert s.celery_broker_url == "redis://127.0.0.1:6500/1" and s.own_redis
    both = s.model_copy(update={"broker_url": "redis://queues.example:6379/0"})
    assert both.celery_broker_url == "redis://queues.example:6379/0" and not both.own_redis


def test_the_broker_cannot_be_a_cluster_nor_the_store_a_bad_url():
    with pytest.raises(ValidationError, match="Celery broker must be a single Redis server"):
        Settings(broker_url="redis+cluster://127.0.0.1:7000")
    with pytest.raises(ValidationError, match="redis://"):
        Settings(store_url="memcached://127.0.0.1:11211")


def test_celery_refuses_a_cluster_broker():
    from services.phases.schedulers import make_celery

    with pytest.raises(ValueError, match="single Redis server"):
        make_celery("redis+cluster://:pw@127.0.0.1:7000")


def test_a_cluster_url_gives_a_cluster_client_with_its_credentials(redis_cluster):
    client = connect(redis_cluster.url.replace("://", "://default:nopass@", 1), socket_timeout=3,
                     health_check_interval=30)
    assert isinstance(client, RedisCluster)
    node = client.get_default_node()
    kwargs = node.redis_connection.connection_pool.connection_kwargs
    assert (kwargs["username"], kwargs["password"], kwargs["socket_timeout"]) == ("default", "nopass", 3)
    assert sorted(n.port for n in client.get_primaries()) == sorted(redis_cluster.ports)
