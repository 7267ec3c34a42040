"""The gateway on a Redis Cluster (issue 11): its health check pings the cluster, its rate limits
count in the cluster (the ``limits`` library's ``redis+cluster://`` storage, the same URL as the game
store), one counter per key, shared by every app on the cluster, and a cluster out of reach is
answered 503 as a single server's outage is."""

from __future__ import annotations

from gateway.app import create_app
from tests.support.redis_cluster import LoopbackCluster

ADDRESS = "203.0.113.7"
OTHER = "198.51.100.9"


def cluster_app(url: str):
    """A gateway app (embedded ports, inline phases) on the cluster at ``url``: 3 reads a minute
    per address, no other limit."""
    return create_app({"TESTING": True, "REDIS_URL": url, "PORTS_MODE": "embedded", "PHASE_MODE": "inline",
                       "RATE_LIMIT_READS_ADDRESS": "3/minute", "RATE_LIMIT_READS_TOKEN": "",
                       "RATE_LIMIT_MOVES_TOKEN": "", "RATE_LIMIT_MOVES_ADDRESS": "", "RATE_LIMIT_STREAMS_TOKEN": "",
                       "RATE_LIMIT_STREAMS_ADDRESS": "", "RATE_LIMIT_CREATE_ADDRESS": "", "QUOTA_GAMES_IN_PLAY": 0})


def test_health_and_rate_limits_use_the_cluster(redis_cluster):
    for port in redis_cluster.ports:
        redis_cluster.node(port).flushall()
    first, second = cluster_app(redis_cluster.url), cluster_app(redis_cluster.url)
    assert first.test_client().get("/healthz").status_code == 200

    def read(app, address):
        return app.test_client().get("/games/0123456789abcdef", environ_base={"REMOTE_ADDR": address})

    # two apps (two gateway processes) on one cluster share the address's count: 3 reads, then 429
    assert [read(app, ADDRESS).status_code for app in (first, second, first)] == [404, 404, 404]
    refused = read(second, ADDRESS)
    assert refused.status_code == 429 and refused.json["error"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 61
    assert read(first, OTHER).status_code == 404  # another address still reads
    counters = [k for keys in redis_cluster.keys_by_node("LIMITS:*").values() for k in keys]
    assert len(counters) == 2 and all(ADDRESS in k or OTHER in k for k in counters)


def test_a_cluster_out_of_reach_is_a_503_not_a_500(tmp_path):
    cluster = LoopbackCluster(tmp_path)
    try:
        app = cluster_app(cluster.url)
        assert app.test_client().get("/healthz").status_code == 200
        assert app.test_client().get("/games/0123456789abcdef",
                                     environ_base={"REMOTE_ADDR": ADDRESS}).status_code == 404
    finally:
        cluster.stop()
    health = app.test_client().get("/healthz")
    assert health.status_code == 503 and health.json["error"] == "unavailable"
    # the rate limits' own cluster client fails first here; the answer is the same
    read = app.test_client().get("/games/0123456789abcdef", environ_base={"REMOTE_ADDR": ADDRESS})
    assert read.status_code == 503 and read.json["error"] == "unavailable", read.json
