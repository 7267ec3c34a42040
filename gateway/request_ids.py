"""Request ids: every request the gateway serves has one, in its answer, its error body and its log lines.

The id is the client's ``X-Request-ID`` when that is sane (1 to 128 characters of letters,
digits and ``. _ : + / = -``: a UUID, a ULID, a proxy's id), otherwise a fresh one (32 hex
digits, a random UUID). It is

* sent back in the answer's ``X-Request-ID`` header, errors included;
* the ``request_id`` of every error body (:func:`gateway.errors.error_response`);
* the :data:`services.common.logs.request_id` while the request is served, so every log line
  written meanwhile carries it, and passed on to the domain services (gRPC metadata) and to the
  Celery tasks the request queues (a message header), whose lines carry it too;
* an attribute (``longhouse.request_id``) of the request's span when tracing is on.
"""

from __future__ import annotations

import re
import uuid

from flask import Flask, g, has_request_context, request

from services.common import logs, tracing

HEADER = "X-Request-ID"
"""The request and answer header of the id."""

SANE = re.compile(r"[A-Za-z0-9._:+/=-]{1,128}")
"""What a client's id must match whole to be kept (no spaces, quotes or control characters,
so it is safe in a log line and a header)."""


def current() -> str | None:
    """The id of the request being served (made now if the request has none yet, as for an
    error raised before the first hook ran); ``None`` outside a request."""
    if not has_request_context():
        return None
    rid = g.get("request_id")
    if rid is None:
        rid = g.request_id = _choose(request.headers.get(HEADER))
    return rid


def _choose(given: str | None) -> str:
    """``given`` if it is sane (:data:`SANE`), else a fresh id."""
    if given is not None and SANE.fullmatch(given):
        return given
    return uuid.uuid4().hex


def init_request_ids(app: Flask) -> None:
    """Install the hooks on ``app``; call it before any other ``before_request`` hook (the rate
    limits' included) so that every line and answer of the request has the id."""

    @app.before_request
    def _bind() -> None:
        rid = current()
        g.request_id_token = logs.request_id.set(rid)

    @app.after_request
    def _answer(response):
        rid = current()
        response.headers[HEADER] = rid
        tracing.annotate(longhouse__request_id=rid)
        return response

    @app.teardown_request
    def _unbind(_exc: BaseException | None) -> None:
        token = g.pop("request_id_token", None)
        if token is not None:
            try:
                logs.request_id.reset(token)
            except ValueError:  # torn down in another context than it began (a stream's end)
                logs.request_id.set(None)
