"""The gateway's OpenAPI 3.1 document, generated from the code, served at ``GET /openapi.json``.

Each view states its contract next to its code with :func:`documented`: the pydantic
model of its request body (:mod:`gateway.bodies`, or the domain's own), the model of
each success answer (:mod:`gateway.responses`), its error statuses with their codes
(the JSON error of :mod:`gateway.errors`), its query and header parameters, and whether
it takes a seat token (:mod:`gateway.auth`) or an operator key (:mod:`gateway.operators`).
:func:`build_document` walks the app's
``url_map``, so every route the app serves is in the document (a route without a
contract is an error), path parameters come from the rules themselves, and every schema
comes from ``model_json_schema`` of the models the views validate with.

``GET /healthz`` is defined inside the app factory; its contract is :data:`EXTRA` here.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Mapping

from flask import Blueprint, Flask, current_app
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from . import limits, responses

bp = Blueprint("openapi", __name__)

OPENAPI_VERSION = "3.1.0"
SPEC_ATTR = "__openapi__"
Auth = Literal["none", "optional", "required", "stream"]

SECURITY_SCHEMES = {
    "seatToken": {
        "type": "http", "scheme": "bearer",
        "description": "The seat token that POST /games/{game_id}/seats/{seat} issued, as "
                       "'Authorization: Bearer <token>'. 401 missing_token / unknown_token / "
                       "bad_authorization, 403 wrong_game.",
    },
    "seatTokenQuery": {
        "type": "apiKey", "in": "query", "name": "token",
        "description": "The seat token as ?token=, for the SSE stream only (an EventSource cannot set "
                       "headers); any other route answers 400 to it.",
    },
    "operatorKey": {
        "type": "apiKey", "in": "header", "name": "X-Longhouse-Operator-Key",
        "description": "An operator key (lhop_...), needed to create games and tournaments and to register, "
                       "list and rotate agents. 401 missing_operator_key without it, 403 wrong_operator_key "
                       "for a key the gateway does not accept.",
    },
}
OPERATOR_ERRORS = {401: "missing_operator_key", 403: "wrong_operator_key"}
"""The answers every operator route may give (:func:`gateway.operators.require_operator`)."""
_SECURITY: dict[str, list[dict[str, list[str]]]] = {
    "none": [],
    "optional": [{}, {"seatToken": []}],
    "required": [{"seatToken": []}],
    "stream": [{}, {"seatToken": []}, {"seatTokenQuery": []}],
}

STATUS_TEXT = {
    400: "Bad request", 401: "Unauthorized", 403: "Forbidden", 404: "Not found",
    409: "Conflict", 413: "Body too large", 422: "Unprocessable", 429: "Too many requests",
    503: "Unavailable: retry shortly",
}


@dataclass(frozen=True)
class Param:
    """A query or header parameter of an operation.

    Args:
        name: as sent (``after``, ``Last-Event-ID``).
        where: ``query`` or ``header``.
        schema: its JSON Schema (of the value as parsed, e.g. ``{"type": "integer"}``).
        description: what it does.
        required: whether the route answers 400 without it.
    """

    name: str
    where: Literal["query", "header"]
    schema: Mapping[str, Any]
    description: str
    required: bool = False

    def to_openapi(self) -> dict[str, Any]:
        """The OpenAPI Parameter Object."""
        return {"name": self.name, "in": self.where, "required": self.required,
                "description": self.description, "schema": dict(self.schema)}


@dataclass(frozen=True)
class Media:
    """A non-JSON answer: its media type and the JSON Schema of its text, or a model of each
    message (Server-Sent Events: OpenAPI 3.1 lets ``schema`` describe one event)."""

    media_type: str
    schema: Mapping[str, Any] | None
    description: str
    model: type[BaseModel] | None = None
    also: tuple[str, ...] = ()
    """More media types the answer may have, with the same schema (a file route's kinds of file)."""


@dataclass(frozen=True)
class Contract:
    """What :func:`documented` records on a view (see there)."""

    responses: Mapping[int, type[BaseModel] | Media]
    body: type[BaseModel] | None = None
    errors: Mapping[int, str] = field(default_factory=dict)
    params: tuple[Param, ...] = ()
    auth: Auth = "none"
    path_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    operator: bool = False
    body_required: bool = True


def documented(*, responses: Mapping[int, type[BaseModel] | Media], body: type[BaseModel] | None = None,
               errors: Mapping[int, str] | None = None, params: tuple[Param, ...] = (), auth: Auth = "none",
               path_params: Mapping[str, Mapping[str, Any]] | None = None, operator: bool = False,
               body_required: bool = True) -> Callable[[Callable], Callable]:
    """Record a view's contract for the OpenAPI document; the view itself is unchanged.

    Args:
        responses: success status -> the response model (JSON) or a :class:`Media`.
        body: the pydantic model its JSON body is validated with (:func:`gateway.bodies.parse_body`).
        errors: error status -> the ``error`` codes it may carry (every route may also answer
            503 ``unavailable``, added here).
        params: its query and header parameters.
        auth: ``none``; ``optional`` (a spectator without a token); ``required``;
            ``stream`` (optional, as header or ``?token=``).
        path_params: JSON Schemas of path parameters that are not plain strings.
        operator: the route needs an operator key (the ``operatorKey`` scheme; its 401 and 403
            codes, :data:`OPERATOR_ERRORS`, are added to ``errors``).
        body_required: False for a body that may be left out (an empty request body).
    Returns:
        a decorator to place under the route decorator (``@bp.get(...)`` above it).
    """
    merged = dict(errors or {})
    if operator:
        for status, codes in OPERATOR_ERRORS.items():
            merged[status] = f"{merged[status]}, {codes}" if status in merged else codes
    contract = Contract(responses=dict(responses), body=body, errors=merged, params=params,
                        auth=auth, path_params=dict(path_params or {}), operator=operator,
                        body_required=body_required)

    def mark(view: Callable) -> Callable:
        setattr(view, SPEC_ATTR, contract)
        return view

    return mark


# -- parameters shared by several routes ---------------------------------------------------

INDEX_MAX = 10**18 - 1
"""Largest seat, version or ``after=`` a route reads: at most 18 plain digits (gateway.lookup.parse_index)."""

SEAT_QUERY = Param("seat", "query", {"type": "integer", "minimum": 0, "maximum": INDEX_MAX},
                   "the seat the caller means; 403 wrong_seat unless the token holds it (needs a token)")

_HEALTHZ = Contract(responses={200: responses.Health}, errors={503: "unavailable (Redis does not answer)"})
EXTRA: dict[str, Contract] = {"healthz": _HEALTHZ}
"""Contracts of routes defined outside a blueprint (endpoint -> contract)."""


def contract_of(app: Flask, endpoint: str) -> Contract | None:
    """The contract of ``endpoint`` in ``app`` (``None`` if it has none)."""
    view = app.view_functions.get(endpoint)
    return getattr(view, SPEC_ATTR, None) or EXTRA.get(endpoint)


_RULE_ARG = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def openapi_path(rule: str) -> str:
    """``/games/<game_id>/seats/<seat>`` -> ``/games/{game_id}/seats/{seat}``."""
    return _RULE_ARG.sub(r"{\1}", rule)


class MissingContract(LookupError):
    """A route of the app has no :func:`documented` contract."""


def build_document(app: Flask) -> dict[str, Any]:
    """The OpenAPI 3.1 document of every route in ``app.url_map`` (``static`` excluded).

    Raises:
        MissingContract: a route has no contract (so no route can go undocumented).
    """
    contracts: list[tuple[Any, Contract]] = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: (r.rule, sorted(r.methods or ()))):
        if rule.endpoint == "static":
            continue
        contract = contract_of(app, rule.endpoint)
        if contract is None:
            raise MissingContract(f"{rule.rule} ({rule.endpoint}) has no OpenAPI contract")
        contracts.append((rule, contract))

    models: dict[tuple[type[BaseModel], str], None] = {(responses.Error, "serialization"): None}
    for _, c in contracts:
        if c.body is not None:
            models[(c.body, "validation")] = None
        for answer in c.responses.values():
            if isinstance(answer, type):
                models[(answer, "serialization")] = None
            elif answer.model is not None:  # read by a client: its text as the model parses it
                models[(answer.model, "validation")] = None
    refs, defs = models_json_schema(list(models), ref_template="#/components/schemas/{model}")

    paths: dict[str, dict[str, Any]] = {}
    for rule, c in contracts:
        view = app.view_functions[rule.endpoint]
        doc = inspect.getdoc(view) or ""
        summary, _, rest = doc.partition("\n")
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            op: dict[str, Any] = {
                "operationId": rule.endpoint.replace(".", "_"),
                "tags": [rule.endpoint.split(".")[0] if "." in rule.endpoint else "gateway"],
                "summary": _markdown(summary.strip()),
                "parameters": [{"name": arg, "in": "path", "required": True,
                                "schema": dict(c.path_params.get(arg, {"type": "string", "minLength": 1}))}
                               for arg in _RULE_ARG.findall(rule.rule)] + [p.to_openapi() for p in c.params],
                "responses": {},
                "security": [{"operatorKey": []}] if c.operator else _SECURITY[c.auth],
            }
            if rest.strip():
                op["description"] = _markdown(rest.strip())
            if c.body is not None:
                op["requestBody"] = {"required": c.body_required, "content": {
                    "application/json": {"schema": refs[(c.body, "validation")]}}}
            for status, answer in sorted(c.responses.items()):
                if isinstance(answer, Media):
                    schema = refs[(answer.model, "validation")] if answer.model else dict(answer.schema or {})
                    op["responses"][str(status)] = {"description": answer.description,
                                                    "content": {t: {"schema": schema}
                                                                for t in (answer.media_type, *answer.also)}}
                else:
                    op["responses"][str(status)] = {
                        "description": _markdown((inspect.getdoc(answer) or answer.__name__).partition("\n")[0]),
                        "content": {"application/json": {"schema": refs[(answer, "serialization")]}}}
            errors = dict(c.errors)
            errors.setdefault(503, "unavailable (Redis or a game service does not answer)")
            if c.body is not None:
                errors.setdefault(413, "body_too_large")
            for status, codes in limits.documented_errors(rule.endpoint, method).items():
                errors.setdefault(status, codes)
            for status, codes in sorted(errors.items()):
                op["responses"][str(status)] = {
                    "description": f"{STATUS_TEXT.get(status, 'Error')}: {codes}",
                    "content": {"application/json": {"schema": refs[(responses.Error, "serialization")]}}}
                if status == 429:
                    op["responses"][str(status)]["headers"] = {"Retry-After": dict(limits.RETRY_AFTER_HEADER)}
            paths.setdefault(openapi_path(rule.rule), {})[method.lower()] = op

    return {
        "openapi": OPENAPI_VERSION,
        "info": {"title": "Longhouse gateway", "version": _version(),
                 "description": "Games, seats, moves, event streams, agents and tournaments over HTTP. "
                                "Every error is {\"error\": code, \"reason\": text, \"request_id\": id} "
                                "(docs/API.md)."},
        "paths": paths,
        "components": {"schemas": defs.get("$defs", {}), "securitySchemes": SECURITY_SCHEMES},
    }


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("longhouse")
    except PackageNotFoundError:
        return "0"


@bp.get("/openapi.json")
@documented(responses={200: Media("application/json", {"type": "object"}, "This OpenAPI 3.1 document")})
def openapi_json():
    """This document: every route of the gateway, generated from its request and response models."""
    ext = current_app.extensions.setdefault("openapi", {})
    if "document" not in ext:
        ext["document"] = build_document(current_app)
    return ext["document"]


def _markdown(text: str) -> str:
    """A docstring's reStructuredText literals (````x````) as CommonMark ones (```x```)."""
    return text.replace("``", "`")
