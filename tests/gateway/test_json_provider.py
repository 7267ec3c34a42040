"""The gateway's JSON encoder (gateway/json_provider.py): keys sorted, so the same answer is the
same bytes whatever order its dicts were built in; the standard library's fallback (an integer
beyond 64 bits) still encodes a dict with int and str keys."""

from __future__ import annotations

import json

from tests.gateway.conftest import make_app


def test_answers_have_sorted_keys_and_the_fallback_takes_mixed_keys():
    app = make_app("redis://127.0.0.1:1/0")  # never connected: nothing here reads the store
    with app.app_context():
        built_two_ways = [{"b": 1, "a": {"z": 1, "y": [{"d": 1, "c": 2}]}}, {"a": {"y": [{"c": 2, "d": 1}], "z": 1}, "b": 1}]
        first, second = (app.json.dumps(d) for d in built_two_ways)
        assert first == second == '{"a":{"y":[{"c":2,"d":1}],"z":1},"b":1}'
        assert app.json.response(built_two_ways[0]).get_data() == app.json.response(built_two_ways[1]).get_data()
        big = {"b": 1, 3: "three", "c": 2**70, 1: "one"}  # orjson refuses the int: the fallback writes it
        assert json.loads(app.json.dumps(big)) == {"b": 1, "3": "three", "c": 2**70, "1": "one"}
        assert json.loads(app.json.response(big).get_data()) == {"b": 1, "3": "three", "c": 2**70, "1": "one"}
