"""The engine's requests to agents follow Standard Webhooks, checked with the ``standardwebhooks``
library itself; a secret rotated with an overlap window signs with both secrets during the window
and with the new one alone after it."""

from __future__ import annotations

import base64
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from services.agents.client import make_client
from services.agents.protocol import MoveRequest, ReplayGuard, encode, signed_headers, verify
from services.agents.registry import AgentRegistry

OLD = "old-secret-0123456789-abcdef"
NEW = "new-secret-9876543210-fedcba"
TIMEOUT_S = 10.0


def move_payload() -> MoveRequest:
    return MoveRequest(match_id="rotation", game="gnomes", seat=0, version=3, view_json="{}",
                       legal_moves_json=['{"type":"scout"}', '{"type":"end_turn"}'], time_left_ms=5000, bank_ms=0)


def test_the_library_verifies_a_signed_request_and_refuses_a_wrong_secret():
    body = encode(move_payload())
    headers = signed_headers(OLD, body)
    assert Webhook(OLD.encode()).verify(body, headers)["type"] == "move"
    with pytest.raises(WebhookVerificationError):
        Webhook(NEW.encode()).verify(body, headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(OLD.encode()).verify(body.replace(b"rotation", b"rotatiom"), headers)


def test_a_whsec_secret_verifies_with_the_library_as_it_is_written():
    whsec = "whsec_" + base64.b64encode(b"twenty-four random bytes").decode()
    body = encode(move_payload())
    headers = signed_headers(whsec, body)
    assert Webhook(whsec).verify(body, headers)["seat"] == 0
    verify(whsec, headers, body, None, ReplayGuard())


def test_a_request_signed_with_two_secrets_verifies_with_either():
    body = encode(move_payload())
    headers = signed_headers([NEW, OLD], body)
    assert len(headers["webhook-signature"].split(" ")) == 2
    for secret in (OLD, NEW):
        Webhook(secret.encode()).verify(body, headers)
        verify(secret, headers, body, None, ReplayGuard())
    with pytest.raises(WebhookVerificationError):
        Webhook(b"a-third-secret-nobody-holds").verify(body, headers)


class Recorder(BaseHTTPRequestHandler):
    """An agent that records each request's headers and body and answers ``{"index": 0}``."""

    seen: list[tuple[dict[str, str], bytes]]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.seen.append(({k.lower(): v for k, v in self.headers.items()}, body))
        answer = json.dumps({"index": 0}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def recorder() -> Iterator[tuple[str, list[tuple[dict[str, str], bytes]]]]:
    seen: list[tuple[dict[str, str], bytes]] = []
    handler = type("Handler", (Recorder,), {"seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook", seen
    server.shutdown()
    server.server_close()
    thread.join(TIMEOUT_S)


def deliver(record, seen) -> tuple[dict[str, str], bytes]:
    """One move request from the engine's client of ``record``; the request the agent received."""
    before = len(seen)
    with make_client(record.model_dump()) as client:
        assert client.choose(move_payload(), TIMEOUT_S).index == 0
    assert len(seen) == before + 1
    return seen[-1]


def verifies(secret: str, delivery: tuple[dict[str, str], bytes]) -> bool:
    headers, body = delivery
    try:
        Webhook(secret.encode()).verify(body, headers)
    except WebhookVerificationError:
        return False
    return True


def test_a_rotation_window_signs_with_both_secrets_and_after_it_with_the_new_one_only(recorder):
    url, seen = recorder
    registry = AgentRegistry(None)
    agent = registry.register({"name": "rotating", "protocol": "http", "address": url, "secret": OLD})
    assert verifies(OLD, deliver(agent, seen)) and not verifies(NEW, seen[-1])

    during = registry.rotate_secret(agent.agent_id, NEW, current=OLD, overlap_s=600)
    assert during.previous_until is not None and during.previous_until > time.time() + 500
    assert during.public()["previous_secret_until"] == during.previous_until
    in_window = deliver(during, seen)
    assert verifies(OLD, in_window) and verifies(NEW, in_window)
    assert len(in_window[0]["webhook-signature"].split(" ")) == 2

    # the same rotation seen once its window has passed: the new secret alone signs
    assert during.signing_secrets(now=during.previous_until) == [NEW]
    assert during.public(now=during.previous_until)["previous_secret_until"] is None
    after = registry.rotate_secret(agent.agent_id, OLD + "-2", current=NEW, overlap_s=600, now=time.time() - 601)
    after_window = deliver(after, seen)
    assert verifies(OLD + "-2", after_window) and not verifies(NEW, after_window)
    assert len(after_window[0]["webhook-signature"].split(" ")) == 1


def test_a_hard_cut_rotation_signs_with_the_new_secret_at_once(recorder):
    url, seen = recorder
    registry = AgentRegistry(None)
    agent = registry.register({"name": "cut", "protocol": "http", "address": url, "secret": OLD})
    cut = registry.rotate_secret(agent.agent_id, NEW, current=OLD)
    assert cut.previous_secret is None and cut.public()["previous_secret_until"] is None
    delivery = deliver(cut, seen)
    assert verifies(NEW, delivery) and not verifies(OLD, delivery)
    with pytest.raises(ValueError, match="overlap_s"):
        registry.rotate_secret(agent.agent_id, OLD, current=NEW, overlap_s=8 * 24 * 3600)
