"""The phase scheduler's log lines are structured (README, Logs): a fixed ``event`` and the
game, phase and version as fields of their own, so they can be grouped and filtered (a trial
found them as one text each, ``"phase queued game_id=... phase=... version=..."``)."""

from __future__ import annotations

from structlog.testing import capture_logs

from services.phases import schedulers


def test_queued_and_not_queued_phases_and_tasks_log_a_fixed_event_with_fields(monkeypatch):
    sent = []
    monkeypatch.setattr(schedulers, "send_task", lambda app, task, args, queue: sent.append((task, args, queue)))
    scheduler = schedulers.CeleryScheduler(celery_app=object())
    with capture_logs() as lines:
        scheduler.schedule("g1", "change_of_season", 35)
    assert sent and lines == [{"event": "phase_queued", "game_id": "g1", "phase": "change_of_season",
                               "version": 35, "log_level": "info"}]

    def down(app, task, args, queue):
        raise ConnectionError("the broker is gone")

    monkeypatch.setattr(schedulers, "send_task", down)
    with capture_logs() as lines:
        scheduler.schedule("g1", "change_of_season", 36)
        scheduler.schedule_end("g2")
    assert [(line["event"], line["log_level"]) for line in lines] == [("phase_not_queued", "error"),
                                                                        ("task_not_queued", "error")]
    assert lines[0]["version"] == 36 and lines[1]["args"] == ["g2"]
