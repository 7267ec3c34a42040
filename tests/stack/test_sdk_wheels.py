"""The two SDK wheels in a fresh virtualenv: they install (with their dependencies from the package
index, at the versions of constraints.txt), bring only ``longhouse_client`` and ``longhouse_agent``
(no ``services``, ``gateway`` or ``tests``), and the SDK quickstart, run from that virtualenv
alone, plays a whole game against the live stack."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

pytestmark = [pytest.mark.stack, pytest.mark.timeout(900)]
ROOT = Path(__file__).resolve().parents[2]

TOP_LEVEL = r"""
import importlib.metadata as md, importlib.util, json
tops = set()
for dist in ("longhouse-client", "longhouse-agent"):
    for f in md.distribution(dist).files or ():
        if f.suffix == ".py" and ".dist-info" not in f.parts[0]:
            tops.add(f.parts[0])
print(json.dumps({"tops": sorted(tops),
                  "importable": [n for n in ("services", "gateway", "tests") if importlib.util.find_spec(n)]}))
"""


def test_the_sdk_wheels_install_alone_and_play_a_game(stack, tmp_path):
    dist = tmp_path / "dist"
    for name in ("longhouse_client", "longhouse_agent"):
        build = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist),
                                str(ROOT / "sdk" / name)], capture_output=True, text=True, timeout=300)
        assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
        shutil.rmtree(ROOT / "sdk" / name / "build", ignore_errors=True)
    wheels = sorted(dist.glob("*.whl"))
    assert [w.name.split("-")[0] for w in wheels] == ["longhouse_agent", "longhouse_client"]

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "-c", str(ROOT / "constraints.txt"),
                              *map(str, wheels)], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-2000:]
    probe = subprocess.run([str(python), "-c", TOP_LEVEL], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    assert found == {"tops": ["longhouse_agent", "longhouse_client"], "importable": []}

    script = tmp_path / "sdk_quickstart.py"  # away from the checkout: it can import the wheels only
    shutil.copy(ROOT / "examples" / "sdk_quickstart.py", script)
    play = subprocess.run([str(python), str(script), "--url", stack.gateway_url, "--operator-key-file",
                           str(stack.stack.operator_key_path), "--game", "resource_hog"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert play.returncode == 0, play.stderr[-3000:]
    assert play.stdout.strip().splitlines()[-1].startswith("game over: "), play.stdout[-2000:]
