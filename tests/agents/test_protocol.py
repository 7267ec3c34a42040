"""The agent protocol without a network: payloads, signing, verification, replay guard,
and the protobuf form."""

from __future__ import annotations

import base64
import hashlib
import hmac

import pytest
from pydantic import ValidationError

from services.agents.protocol import (
    HEADER_DELIVERY,
    HEADER_SIGNATURE,
    HEADER_TIMESTAMP,
    BadPayload,
    BadSignature,
    IllegalChoice,
    MatchEnd,
    MatchStart,
    MoveChoice,
    MoveRequest,
    Replayed,
    ReplayGuard,
    SignatureError,
    Stale,
    choice_to_move,
    encode,
    parse_choice,
    parse_payload,
    sign,
    signed_headers,
    signed_metadata,
    verify,
)

SECRET = "unit-secret-0123456789"
NOW = 1_800_000_000
BODY = b'{"type":"move","x":1}'


def move_request(n: int = 3) -> MoveRequest:
    return MoveRequest(match_id="m1", game="gnomes", seat=1, version=4, view_json='{"hand":[1,2]}',
                       legal_moves_json=[f'{{"op":"take","n":{i}}}' for i in range(n)],
                       time_left_ms=2500, bank_ms=500)


# -- signing and verification ---------------------------------------------------------------
def test_sign_is_v1_base64_hmac_sha256_of_id_timestamp_and_body():
    expected = base64.b64encode(hmac.new(SECRET.encode(), b"d-1.1800000000." + BODY, hashlib.sha256).digest())
    assert sign(SECRET, NOW, "d-1", BODY) == "v1," + expected.decode()
    assert sign(SECRET.encode(), str(NOW), "d-1", BODY) == "v1," + expected.decode()


def test_a_whsec_secret_signs_with_the_bytes_its_base64_holds():
    key = bytes(range(24))
    whsec = "whsec_" + base64.b64encode(key).decode()
    assert sign(whsec, NOW, "d-1", BODY) == sign(key, NOW, "d-1", BODY)
    assert sign(whsec, NOW, "d-1", BODY) != sign(whsec.encode(), NOW, "d-1", BODY)


def test_a_good_request_verifies():
    headers = signed_headers(SECRET, BODY, now=NOW)
    assert set(headers) == {"webhook-id", "webhook-timestamp", "webhook-signature"}
    assert headers[HEADER_TIMESTAMP] == str(NOW) and headers[HEADER_DELIVERY].startswith("msg_")
    assert headers[HEADER_SIGNATURE].startswith("v1,") and " " not in headers[HEADER_SIGNATURE]
    verify(SECRET, headers, BODY, NOW + 5, ReplayGuard())


def test_header_names_are_case_insensitive_and_grpc_metadata_verifies():
    headers = {k.lower(): v for k, v in signed_headers(SECRET, BODY, now=NOW).items()}
    verify(SECRET, headers, BODY, NOW, ReplayGuard())
    metadata = signed_metadata(SECRET, BODY, now=NOW)
    assert [k for k, _ in metadata] == ["webhook-id", "webhook-timestamp", "webhook-signature"]
    verify(SECRET, tuple(metadata) + (("user-agent", "grpc-python"),), BODY, NOW, ReplayGuard())


def test_wrong_secret_is_a_bad_signature():
    headers = signed_headers("another-secret-0123456789", BODY, now=NOW)
    with pytest.raises(BadSignature, match="no signature matches"):
        verify(SECRET, headers, BODY, NOW, ReplayGuard())


def test_tampered_body_is_a_bad_signature():
    headers = signed_headers(SECRET, BODY, now=NOW)
    with pytest.raises(BadSignature):
        verify(SECRET, headers, BODY.replace(b"1", b"2"), NOW, ReplayGuard())


def test_tampered_timestamp_or_delivery_is_a_bad_signature():
    headers = signed_headers(SECRET, BODY, now=NOW)
    with pytest.raises(BadSignature):
        verify(SECRET, {**headers, HEADER_TIMESTAMP: str(NOW + 1)}, BODY, NOW, ReplayGuard())
    with pytest.raises(BadSignature):
        verify(SECRET, {**headers, HEADER_DELIVERY: "another"}, BODY, NOW, ReplayGuard())


@pytest.mark.parametrize("missing", [HEADER_TIMESTAMP, HEADER_DELIVERY, HEADER_SIGNATURE])
def test_a_missing_header_is_a_bad_signature(missing):
    headers = signed_headers(SECRET, BODY, now=NOW)
    del headers[missing]
    with pytest.raises(BadSignature, match=f"missing header {missing}"):
        verify(SECRET, headers, BODY, NOW, ReplayGuard())


@pytest.mark.parametrize("field,value", [
    (HEADER_TIMESTAMP, "soon"), (HEADER_TIMESTAMP, "-5"), (HEADER_DELIVERY, "a b"),
    (HEADER_DELIVERY, "x" * 129), (HEADER_SIGNATURE, "md5=abc"), (HEADER_SIGNATURE, "v1,é"), (HEADER_SIGNATURE, "v2,abc"),
    (HEADER_SIGNATURE, "sha256=" + "0" * 64),
])
def test_malformed_headers_are_bad_signatures(field, value):
    headers = {**signed_headers(SECRET, BODY, now=NOW), field: value}
    with pytest.raises(BadSignature):
        verify(SECRET, headers, BODY, NOW, ReplayGuard())


def test_a_header_given_twice_with_two_values_is_refused():
    headers = signed_headers(SECRET, BODY, now=NOW)
    pairs = list(headers.items()) + [(HEADER_SIGNATURE.lower(), "v1," + "A" * 44)]
    with pytest.raises(BadSignature, match="twice"):
        verify(SECRET, pairs, BODY, NOW, ReplayGuard())


def test_stale_and_future_timestamps_are_refused():
    guard = ReplayGuard()  # tolerance 300 s
    with pytest.raises(Stale, match="old"):
        verify(SECRET, signed_headers(SECRET, BODY, now=NOW), BODY, NOW + 301, guard)
    with pytest.raises(Stale, match="future"):
        verify(SECRET, signed_headers(SECRET, BODY, now=NOW + 301), BODY, NOW, guard)
    verify(SECRET, signed_headers(SECRET, BODY, now=NOW), BODY, NOW + 300, guard)


def test_a_replayed_delivery_is_refused():
    guard = ReplayGuard()
    headers = signed_headers(SECRET, BODY, now=NOW)
    verify(SECRET, headers, BODY, NOW, guard)
    with pytest.raises(Replayed, match=headers[HEADER_DELIVERY]):
        verify(SECRET, headers, BODY, NOW + 10, guard)
    # Once past the tolerance the request is stale, so forgetting its id is safe.
    with pytest.raises(Stale):
        verify(SECRET, headers, BODY, NOW + 301, guard)


def test_a_bad_signature_is_not_remembered_as_seen():
    guard = ReplayGuard()
    headers = signed_headers(SECRET, BODY, now=NOW)
    with pytest.raises(BadSignature):
        verify(SECRET, headers, BODY + b" ", NOW, guard)
    verify(SECRET, headers, BODY, NOW, guard)
    assert len(guard) == 1


def test_errors_never_quote_the_secret():
    cases = [
        (signed_headers("wrong-secret-0123456789", BODY, now=NOW), NOW),
        (signed_headers(SECRET, BODY, now=NOW), NOW + 1000),
        ({}, NOW),
    ]
    for headers, now in cases:
        with pytest.raises(SignatureError) as info:
            verify(SECRET, headers, BODY, now, ReplayGuard())
        assert SECRET not in str(info.value)


def test_replay_guard_forgets_expired_deliveries():
    guard = ReplayGuard(tolerance_s=10)
    for i in range(5):
        guard.check(f"d{i}", NOW, NOW)
    assert len(guard) == 5
    guard.check("later", NOW + 20, NOW + 20)
    assert len(guard) == 1


def test_replay_guard_memory_is_bounded_and_never_lets_a_replay_through():
    guard = ReplayGuard(tolerance_s=300, max_entries=4)
    for i in range(20):
        guard.check(f"d{i}", NOW + i, NOW + i)
        assert len(guard) <= 4
    for i in range(20):  # forgotten early or not, none is accepted twice
        with pytest.raises(Replayed):
            guard.check(f"d{i}", NOW + i, NOW + 20)
    guard.check("fresh", NOW + 30, NOW + 30)  # newer than anything forgotten: accepted


def test_replay_guard_rejects_bad_settings():
    with pytest.raises(ValueError):
        ReplayGuard(tolerance_s=0)
    with pytest.raises(ValueError):
        ReplayGuard(max_entries=0)


# -- payloads -----------------------------------------------------------------------------
def test_payload_bodies_carry_their_type_and_parse_back():
    start = MatchStart(match_id="m1", game="noggin", seat=0, players=3, options_json='{"sos":true}',
                       time_control={"move_ms": 2000, "bank_ms": 10000, "max_strikes": 3})
    end = MatchEnd(match_id="m1", seat=0, result_json='{"scores":[3,1,2],"winners":[0]}')
    for payload, kind in ((start, "start"), (move_request(), "move"), (end, "end")):
        body = encode(payload)
        assert f'"type":"{kind}"'.encode() in body
        assert parse_payload(body) == payload
    assert start.options == {"sos": True}
    assert move_request().legal_moves[2] == {"op": "take", "n": 2}
    assert move_request().view == {"hand": [1, 2]}
    assert end.result["winners"] == [0]


def test_bodies_are_canonical_json():
    body = encode(move_request(1))
    assert body.startswith(b'{"bank_ms":500,"game":"gnomes","legal_moves_json":')
    assert b" " not in body


@pytest.mark.parametrize("body", [
    b"not json", b"[1, 2]", b'{"type": "resign", "match_id": "m"}', b'{"type": "end", "match_id": "m"}',
    b'{"type": "end", "match_id": "m", "seat": "0", "result_json": "{}"}',
    b'{"type": "end", "match_id": "m", "seat": 0, "result_json": "[]"}',
    b'{"type": "end", "type": "end", "match_id": "m", "seat": 0, "result_json": "{}"}',
])
def test_bad_payloads_are_refused(body):
    with pytest.raises(BadPayload):
        parse_payload(body)


def test_unknown_fields_are_ignored_so_fields_can_be_added():
    body = b'{"type": "end", "match_id": "m", "seat": 0, "result_json": "{}", "new_field": 1}'
    assert parse_payload(body) == MatchEnd(match_id="m", seat=0, result_json="{}")


@pytest.mark.parametrize("field,value", [("view_json", "[]"), ("view_json", "{"), ("legal_moves_json", ["1"])])
def test_json_text_fields_must_hold_objects(field, value):
    data = move_request().model_dump()
    data[field] = value
    with pytest.raises(ValidationError, match=field):
        MoveRequest.model_validate(data)


def test_a_choice_is_an_integer_index():
    assert parse_choice(b'{"index": 2}') == MoveChoice(index=2)
    assert parse_choice(b'{"index": 0, "comment": "fine"}').index == 0
    for bad in (b'{"index": "2"}', b'{"index": 2.0}', b'{"index": true}', b'{"choice": 2}', b"2",
                b'{"index": 1, "index": 2}', b"", b'{"index": NaN}'):
        with pytest.raises(BadPayload):
            parse_choice(bad)


def test_choice_to_move_takes_only_a_legal_move():
    request = move_request(3)
    assert choice_to_move(MoveChoice(index=1), request.legal_moves) == {"op": "take", "n": 1}
    assert choice_to_move(MoveChoice(index=2), request.legal_moves_json) == {"op": "take", "n": 2}
    with pytest.raises(IllegalChoice, match=r"index 3, but 3 legal moves were offered \(indexes 0 to 2\)"):
        choice_to_move(MoveChoice(index=3), request.legal_moves)
    with pytest.raises(IllegalChoice):  # never counted from the end
        choice_to_move(MoveChoice(index=-1), request.legal_moves)
    with pytest.raises(IllegalChoice, match="no legal move"):
        choice_to_move(MoveChoice(index=0), [])
    with pytest.raises(IllegalChoice):
        choice_to_move(True, request.legal_moves)  # type: ignore[arg-type]


# -- the protobuf form ----------------------------------------------------------------------
def test_payloads_round_trip_through_protobuf():
    from services.agents.grpc_wire import from_pb, parse_choice_bytes, to_pb
    from services.api import agent_pb2

    start = MatchStart(match_id="m1", game="noggin", seat=2, players=4,
                       time_control={"move_ms": 1500, "bank_ms": 0, "max_strikes": 1})
    end = MatchEnd(match_id="m1", seat=2, result_json='{"forfeited":[2]}')
    for payload in (start, move_request(), end, MoveChoice(index=0), MoveChoice(index=7)):
        msg = to_pb(payload)
        again = type(msg).FromString(msg.SerializeToString())
        assert from_pb(again) == payload
    assert parse_choice_bytes(agent_pb2.MoveChoice(index=0).SerializeToString()) == MoveChoice(index=0)
    with pytest.raises(BadPayload, match="no index"):
        parse_choice_bytes(b"")
    with pytest.raises(BadPayload):
        parse_choice_bytes(b"this is not a MoveChoice")
    with pytest.raises(BadPayload):
        from_pb(agent_pb2.MoveRequest(match_id="m", game="g", view_json="[]"))
