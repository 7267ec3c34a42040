"""``longhouse tournament run`` against the stack: it creates the tournament, follows it to the
end and writes the three result files; the same tournament read back gives the same standings."""

from __future__ import annotations

import json

import pytest

from services.cli import main, parse_participant, unique_names

pytestmark = pytest.mark.stack


def test_the_cli_runs_a_tournament_and_writes_its_files(stack, tmp_path, capsys):
    code = main(["tournament", "run", "--url", stack.gateway_url, "--game", "resource_hog", "--format", "swiss",
                 "--participant", "random", "--participant", "greedy", "--participant", "random@other",
                 "--seed", "cli", "--rounds", "2", "--timeout", "300", "--out", str(tmp_path),
                 "--operator-key-file", str(stack.stack.operator_key_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    doc = json.loads((tmp_path / "standings.json").read_text())
    names = {r["name"] for r in doc["standings"]}
    assert names == {"random", "greedy", "other"}
    # two rounds of three: one match and one bye each round
    assert len(doc["matches"]) == 4 and sum(m["ended_by"] == "bye" for m in doc["matches"]) == 2
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    assert "Standings" in out and doc["tournament"]["tournament_id"] in out
    again = tmp_path / "again"
    assert main(["tournament", "results", "--url", stack.gateway_url, doc["tournament"]["tournament_id"],
                 "--out", str(again)]) == 0
    assert json.loads((again / "standings.json").read_text())["standings"] == doc["standings"]


def test_the_cli_needs_an_operator_key_and_takes_it_from_the_environment(stack, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("LONGHOUSE_OPERATOR_KEY", raising=False)
    monkeypatch.delenv("LONGHOUSE_OPERATOR_KEY_FILE", raising=False)
    listing = ["agent", "list", "--url", stack.gateway_url]
    assert main(listing) == 2
    assert "needs an operator key" in capsys.readouterr().out
    wrong = tmp_path / "wrong.key"
    wrong.write_text("lhop_not-a-key-this-stack-accepts\n")
    assert main([*listing, "--operator-key-file", str(wrong)]) == 2
    out = capsys.readouterr().out
    assert "403 wrong_operator_key" in out and "lhop_not-a-key" not in out
    monkeypatch.setenv("LONGHOUSE_OPERATOR_KEY_FILE", str(stack.stack.operator_key_path))
    assert main(listing) == 0
    assert '"agents"' in capsys.readouterr().out
    assert main(["agent", "remove", "--url", stack.gateway_url, "nosuchagent"]) == 2
    assert "DELETE" in (out := capsys.readouterr().out) and "404 unknown_agent" in out
    assert main(["tournament", "cancel", "--url", stack.gateway_url, "nosuchtournament"]) == 2
    assert "404 unknown_tournament" in capsys.readouterr().out


def test_participants_are_parsed_and_bad_ones_refused():
    assert parse_participant("ismcts:iterations=40@deep") == {"kind": "ismcts", "iterations": 40, "name": "deep"}
    assert parse_participant("agent:abc123") == {"kind": "agent", "agent": "abc123", "name": "abc123"}
    assert [p["name"] for p in unique_names([parse_participant("random"), parse_participant("random")])] == \
        ["random", "random-2"]
    for bad in ("oracle", "random:depth=3", "agent:", "ismcts:iterations=x"):
        with pytest.raises(ValueError):
            parse_participant(bad)
    assert main(["tournament", "run", "--url", "http://127.0.0.1:9", "--game", "noggin",
                 "--participant", "oracle"]) == 2


def test_explicit_names_must_differ_and_zero_is_sent_as_given():
    with pytest.raises(ValueError, match="must differ"):
        unique_names([parse_participant("random@x"), parse_participant("greedy@x")], named={0, 1})
    assert main(["tournament", "run", "--url", "http://127.0.0.1:9", "--game", "noggin",
                 "--participant", "random@x", "--participant", "greedy@x"]) == 2
