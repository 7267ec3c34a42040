"""The stack's own operator key (README, "Operator keys"): made once in the data directory, readable by
its owner only, and accepted by the gateway through the file of digests, which never holds the key."""

from __future__ import annotations

import stat

import pytest

from gateway.operators import OperatorKeys, digest, new_key
from services.common.config import Settings
from services.launcher.stack import Stack
from services.launcher.supervisor import LaunchError


def stack_in(data_dir, **settings) -> Stack:
    """A stack (not started) with explicit operator settings, whatever the environment says."""
    return Stack(Settings(**{"operator_keys": "", "operator_keys_file": "", **settings}), data_dir)


def test_the_stack_makes_its_key_once_and_its_gateway_accepts_it(tmp_path):
    stack = stack_in(tmp_path / "run")
    path = stack.ensure_operator_key()
    assert path == tmp_path / "run" / "operator.key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    key = stack.operator_key
    assert key.startswith("lhop_") and len(key) == 48
    digests = tmp_path / "run" / "operator_keys"
    assert stack.settings.operator_keys_file == str(digests)
    assert stack.env["LONGHOUSE_OPERATOR_KEYS_FILE"] == str(digests)  # what the gateway child reads
    assert not any(key in value for value in stack.env.values())  # the key itself goes to no child
    text = digests.read_text()
    assert key not in text and text.count(digest(key)) == 1
    assert OperatorKeys(path=digests).match(key) == digest(key)
    # the same data directory again (make run --data-dir): the same key, its digest not added twice
    again = stack_in(tmp_path / "run")
    again.ensure_operator_key()
    assert again.operator_key == key and digests.read_text() == text


def test_an_operators_own_file_of_digests_keeps_its_lines_and_gains_the_stacks(tmp_path):
    theirs = tmp_path / "keys"
    other = digest(new_key())
    theirs.write_text(f"# ours\n{other}")  # no newline at the end
    stack = stack_in(tmp_path / "run", operator_keys_file=str(theirs))
    stack.ensure_operator_key()
    lines = theirs.read_text().splitlines()
    assert lines[:2] == ["# ours", other] and lines[2].startswith(digest(stack.operator_key))
    assert not (tmp_path / "run" / "operator_keys").exists()


def test_a_key_listed_in_the_settings_leaves_the_file_alone_and_a_broken_file_stops_the_start(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    key = new_key()
    (run / "operator.key").write_text(key + "\n")
    stack = stack_in(run, operator_keys=digest(key))
    stack.ensure_operator_key()
    assert stack.operator_key == key and not (run / "operator_keys").exists()
    (run / "operator_keys").write_text(key + "\n")  # the key pasted where its digest belongs
    with pytest.raises(LaunchError, match="not a sha256 hex digest") as refused:
        stack_in(run).ensure_operator_key()
    assert key not in str(refused.value)
