"""gunicorn's configuration of the gateway (``gunicorn -c python:gateway.gunicorn_conf ...``, as the
launcher and the containers run it): the worker processes count their Prometheus metrics in
prometheus-client's multiprocess mode, so ``GET /metrics`` of any worker answers for all.

* At import, in gunicorn's arbiter, before any worker is forked and before prometheus-client is
  imported anywhere in the process: ``PROMETHEUS_MULTIPROC_DIR`` is set, to a fresh private
  directory unless the environment names one already (the operator's choice).
* ``on_starting``: the directory's sample files of an earlier run are removed (the library asks
  for a directory wiped between runs; counters would otherwise carry on from the last run).
* ``child_exit``: a worker that exits (or is killed) gives up its live gauges
  (``mark_process_dead``: an open stream it held no longer counts); its counters stay counted.
* ``on_exit``: the private directory is removed.

Only hooks live here; every other gunicorn option stays on the command line.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
"""prometheus-client's variable (the same as :data:`services.common.metrics.MULTIPROC_ENV`)."""

_own_dir: str | None = None
if not os.environ.get(MULTIPROC_ENV):
    _own_dir = tempfile.mkdtemp(prefix="longhouse-gateway-metrics-")
    os.environ[MULTIPROC_ENV] = _own_dir


def on_starting(server: Any) -> None:
    """gunicorn hook (arbiter, once): remove sample files an earlier run left in the directory."""
    path = Path(os.environ[MULTIPROC_ENV])
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink(missing_ok=True)


def child_exit(server: Any, worker: Any) -> None:
    """gunicorn hook (arbiter): a worker exited; drop its live gauges."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server: Any) -> None:
    """gunicorn hook (arbiter, at shutdown): remove the private directory made at import."""
    if _own_dir is not None:
        shutil.rmtree(_own_dir, ignore_errors=True)
