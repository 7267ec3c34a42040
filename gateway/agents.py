"""Blueprint ``agents``: register external AI agents that the engine calls for their seats' moves.

* ``POST /agents`` ``{"name", "protocol": "grpc"|"http", "address", "secret"}`` -> 201
  ``{"agent_id", "name", "protocol", "address"}`` (the secret is never shown again)
* ``GET /agents`` -> ``{"agents": [...]}`` (no secrets)
* ``GET /agents/<id>`` -> the agent (no secret); 404 ``unknown_agent``
* ``POST /agents/<id>/secret`` ``{"current", "secret", "overlap_s"}`` -> 200 the agent: the
  secret is replaced (the old one still signs beside it for ``overlap_s`` seconds); 403
  ``wrong_secret`` unless ``current`` is the secret it has

Every route needs an operator key (:func:`gateway.operators.require_operator`: 401
``missing_operator_key``, 403 ``wrong_operator_key``): agents' addresses are the operator's
business. Registration and rotation write audit lines (``agent.register``, ``agent.rotate``).

A game seat or a tournament participant names an agent by its id; see
:mod:`services.agents.registry` and ``protos/agent.proto``.
"""

from __future__ import annotations

from flask import Blueprint
from pydantic import BaseModel, ConfigDict, Field

from services.agents.registry import MAX_OVERLAP_S, AgentSpec, UnknownAgent, WrongSecret, registry_for

from .bodies import parse_body
from .clients import get_table
from . import operators, responses
from .errors import ApiError
from .openapi import documented

bp = Blueprint("agents", __name__)


class SecretBody(BaseModel):
    """``POST /agents/<id>/secret``: ``{"current", "secret", "overlap_s"}`` (the secret it has, the
    new one, and the seconds the current one keeps signing beside it: 0, the default, stops it
    at once)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    current: str = Field(min_length=1, max_length=256, repr=False)
    secret: str = Field(min_length=16, max_length=256, repr=False)
    overlap_s: int = Field(default=0, ge=0, le=MAX_OVERLAP_S,
                           description="seconds the current secret keeps signing beside the new one "
                                       "(a rotation window; at most a week)")


def _agent(agent_id: str):
    try:
        return registry_for(get_table()).get(agent_id)
    except UnknownAgent as exc:
        raise ApiError(404, "unknown_agent", str(exc)) from None


@bp.post("/agents")
@documented(body=AgentSpec, responses={201: responses.AgentRecord}, operator=True,
            errors={400: "bad_json, bad_request, bad_address", 403: "address_not_allowed"})
def register_agent():
    """Register an agent (operator key required). 201 its public record; 400 a bad body or a host
    that does not resolve; 403 an address the allow-list refuses (nothing registered)."""
    operators.require_operator()
    spec = parse_body(AgentSpec)
    record = registry_for(get_table()).register(spec)
    operators.audit("agent.register", agent_id=record.agent_id, name=record.name, protocol=record.protocol)
    return record.public(), 201


@bp.get("/agents")
@documented(responses={200: responses.AgentList}, operator=True)
def list_agents():
    """Every registered agent, without secrets (operator key required)."""
    operators.require_operator()
    return {"agents": [a.public() for a in registry_for(get_table()).all()]}


@bp.get("/agents/<agent_id>")
@documented(responses={200: responses.AgentRecord}, errors={404: "unknown_agent"}, operator=True)
def get_agent(agent_id: str):
    """One agent, without its secret (operator key required); 404 if unknown."""
    operators.require_operator()
    return _agent(agent_id).public()


@bp.delete("/agents/<agent_id>")
@documented(responses={200: responses.AgentRecord}, errors={404: "unknown_agent"}, operator=True)
def remove_agent(agent_id: str):
    """Remove an agent (operator key required): 200 with the public record it had, 404 if unknown.
    Its seats in games still in play strike each turn from then on (docs/API.md, agents)."""
    operators.require_operator()
    try:
        record = registry_for(get_table()).remove(agent_id)
    except UnknownAgent as exc:
        raise ApiError(404, "unknown_agent", str(exc)) from None
    operators.audit("agent.remove", agent_id=agent_id, name=record.name)
    return record.public()


@bp.post("/agents/<agent_id>/secret")
@documented(body=SecretBody, responses={200: responses.AgentRecord}, operator=True,
            errors={400: "bad_json, bad_request", 403: "wrong_secret", 404: "unknown_agent"})
def rotate_secret(agent_id: str):
    """Replace an agent's secret (operator key and the current secret required); the next
    request the engine sends is signed with the new one, and with the old one too until
    ``overlap_s`` seconds have passed (a rotation window)."""
    operators.require_operator()
    _agent(agent_id)
    body = parse_body(SecretBody)
    try:
        record = registry_for(get_table()).rotate_secret(agent_id, body.secret, body.current, body.overlap_s)
    except WrongSecret as exc:
        operators.audit("agent.rotate", agent_id=agent_id, refused="wrong_secret")
        raise ApiError(403, "wrong_secret", str(exc)) from None
    except ValueError as exc:
        raise ApiError(400, "bad_request", str(exc).splitlines()[-1] if str(exc) else "bad secret") from None
    operators.audit("agent.rotate", agent_id=agent_id, overlap_s=body.overlap_s)
    return record.public()
