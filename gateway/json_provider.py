"""The gateway's JSON encoder: orjson behind Flask's JSON provider interface.

Every answer a view returns as a dict (and ``jsonify``) is encoded by :class:`OrjsonProvider`,
installed by :func:`gateway.app.create_app` as ``app.json``. orjson writes the same JSON values as
the standard library, several times faster (its benchmarks: https://github.com/ijl/orjson#performance),
which a move's answer with its legal moves repays. Differences that a JSON parser cannot see: text
is written as UTF-8, not ``\\u`` escapes (the answer is ``application/json; charset=utf-8``
either way). orjson writes keys in sorted order (``OPT_SORT_KEYS``), so the same read gives the
same bytes from every worker: a player view holds dicts the rules copied from events,
whose keys come in the order the rules built them in the process that played the move and in
sorted order in one that replayed the stored log (a trial saw a view's ``config`` and Noggin's
``decision`` differ between two workers). Anything orjson does not take (an integer beyond 64
bits, a type of its own) is encoded by Flask's default provider instead (its keys unsorted), so no
answer changes meaning.

Reading request bodies stays with :func:`gateway.bodies.parse_body` (the standard library, which
can refuse duplicate keys and non-numbers); ``request.get_json`` reads with orjson.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_SORT_KEYS
"""``{1: ...}`` keys are written as strings, as the standard library does; dates go to Flask's
``default`` (an HTTP date), as with the default provider; keys sorted (module docstring)."""


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON provider with orjson doing the encoding (falls back to the default provider)."""

    sort_keys = False
    """For the standard library's fallback (an integer beyond 64 bits) and debug-mode answers only:
    they keep the view's order (sorting there fails on a dict with both int and str keys, which
    orjson sorts as text)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """``obj`` as JSON text (``kwargs`` such as ``indent`` take the default provider's path)."""
        if not kwargs:
            try:
                return orjson.dumps(obj, default=self.default, option=_OPTIONS).decode()
            except TypeError:  # orjson.JSONEncodeError: a value orjson does not encode
                pass
        return super().dumps(obj, **kwargs)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        """JSON text as Python values (``kwargs``: the standard library's path)."""
        if kwargs:
            return super().loads(s, **kwargs)
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """A JSON answer of ``args``/``kwargs`` (as :meth:`DefaultJSONProvider.response`), encoded
        straight to bytes; indented in debug mode or when ``compact`` is false."""
        obj = self._prepare_response_obj(args, kwargs)
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(*args, **kwargs)
        try:
            body = orjson.dumps(obj, default=self.default, option=_OPTIONS | orjson.OPT_APPEND_NEWLINE)
        except TypeError:
            return super().response(*args, **kwargs)
        return self._app.response_class(body, mimetype=self.mimetype)
