"""Fixtures of the hidden-information tests: the gateway tests' app (embedded ports, inline
phases, the private Redis) and its test client."""

from tests.gateway.conftest import app, client  # noqa: F401  (fixtures)
