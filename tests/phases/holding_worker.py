"""A phase worker that can be told to hold its first task (test-only).

``celery -A tests.phases.holding_worker worker`` serves the real phase app. When
``LONGHOUSE_TEST_HOLD_DIR`` is set, every task first writes ``held-<pid>`` (its
arguments as JSON) there and then waits (at most two minutes) instead of running, so
a test can kill the worker while it holds an unacknowledged phase task.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from celery.signals import task_prerun

from services.phases.worker import app, run_phase  # noqa: F401  (the worker serves these)

_HOLD_DIR = os.environ.get("LONGHOUSE_TEST_HOLD_DIR")


@task_prerun.connect
def _hold(task_id=None, task=None, args=None, **_kw):
    if not _HOLD_DIR:
        return
    marker = Path(_HOLD_DIR) / f"held-{os.getpid()}"
    marker.write_text(json.dumps(list(args or ())))
    threading.Event().wait(120)  # the test SIGKILLs this worker while it waits here
