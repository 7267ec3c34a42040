"""Example agents (``examples/``) as subprocesses for tests: started on a free loopback port,
ready when they print their ``listening on`` line (waited for with a deadline, never a sleep),
killed at the end."""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]
SECRET = "test-secret-0123456789"
LISTENING = re.compile(r"listening on (127\.0\.0\.1:\d+)")


@contextlib.contextmanager
def example_agent(protocol: str, behaviour: str = "good", sleep_s: float = 30.0, seed: str = "1",
                  secret: str = SECRET, ready_s: float = 30.0) -> Iterator[str]:
    """Run ``examples/<protocol>_agent.py`` and yield its address: ``http://127.0.0.1:<port>/``
    for HTTP, ``127.0.0.1:<port>`` for gRPC. Raises RuntimeError if it is not ready in ``ready_s``."""
    script = ROOT / "examples" / f"{protocol}_agent.py"
    proc = subprocess.Popen([sys.executable, str(script), "--port", "0", "--secret", secret, "--behaviour", behaviour,
                             "--sleep-s", str(sleep_s), "--seed", seed], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        address = _wait_listening(proc, ready_s)
        # drain its log so that a chatty agent never blocks on a full pipe
        threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
        yield f"http://{address}/" if protocol == "http" else address
    finally:
        proc.kill()
        proc.wait(timeout=10)
        if proc.stdout is not None:
            proc.stdout.close()


def _wait_listening(proc: subprocess.Popen, ready_s: float) -> str:
    deadline = time.monotonic() + ready_s
    seen: list[str] = []
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if not sel.select(timeout=max(0.0, deadline - time.monotonic())):
                break
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            found = LISTENING.search(line)
            if found:
                return found.group(1)
    raise RuntimeError(f"the example agent did not start: {''.join(seen)[-2000:]}")
