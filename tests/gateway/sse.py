"""A small Server-Sent Events reader for tests (over a streaming ``requests`` response)."""

from __future__ import annotations

import json
from typing import Any

import requests


class SseReader:
    """Reads one SSE stream message by message.

    Args:
        url: the stream URL.
        headers: request headers (``Authorization``, ``Last-Event-ID``).
        read_timeout: seconds a single socket read may wait (bounds every call).
    """

    def __init__(self, url: str, headers: dict[str, str] | None = None, read_timeout: float = 10):
        self.resp = requests.get(url, headers=headers or {}, stream=True, timeout=(5, read_timeout))
        self._chunks = self.resp.iter_content(chunk_size=None) if self.resp.ok else iter(())
        self._buf = ""
        self.raw = ""

    def next_block(self) -> dict[str, Any] | None:
        """The next message as ``{"id", "event", "data", "comment"}``, or ``None`` at the end."""
        while "\n\n" not in self._buf:
            try:
                chunk = next(self._chunks)
            except StopIteration:
                return None
            text = chunk.decode("utf-8")
            self.raw += text
            self._buf += text
        block, self._buf = self._buf.split("\n\n", 1)
        msg: dict[str, Any] = {"id": None, "event": None, "data": None, "comment": None}
        for line in block.split("\n"):
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "":
                msg["comment"] = value
            elif name == "data":
                msg["data"] = json.loads(value)
            elif name in ("id", "event"):
                msg[name] = value
        return msg

    def next_commit(self) -> dict[str, Any] | None:
        """The next ``commit`` message (skipping comments and ``retry``), or ``None`` at the end."""
        while True:
            msg = self.next_block()
            if msg is None or msg["event"] == "commit":
                return msg

    def rest(self, limit: int = 1000) -> list[dict[str, Any]]:
        """Every further commit message until the server ends the stream (at most ``limit``)."""
        out = []
        for _ in range(limit):
            msg = self.next_commit()
            if msg is None:
                return out
            out.append(msg)
        raise AssertionError(f"the stream did not end within {limit} messages")

    def close(self) -> None:
        """Drop the connection."""
        self.resp.close()
