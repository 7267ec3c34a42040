"""A tournament's steps carry the request id that queued them (README, "Request ids")."""

from services.common import logs
from services.tournament.jobs import ADVANCE_TASK, QUEUE, send_step


class _Recorder:
    def __init__(self):
        self.sent = []

    def send_task(self, name, **kwargs):
        self.sent.append((name, kwargs))


def test_a_step_queued_while_serving_a_request_carries_its_id_and_none_otherwise():
    app = _Recorder()
    token = logs.request_id.set("req-tournament-1")
    try:
        send_step(app, "t1", "c1")
    finally:
        logs.request_id.reset(token)
    send_step(app, "t1", "c1", countdown=0.5)
    (name, first), (_, second) = app.sent
    assert name == ADVANCE_TASK and first["queue"] == QUEUE and first["args"] == ("t1", "c1")
    assert first["headers"] == {logs.REQUEST_ID_HEADER: "req-tournament-1"}
    assert second["headers"] is None and second["countdown"] == 0.5
