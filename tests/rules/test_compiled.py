"""The rules compiled with Cython (``make compile``, :mod:`services.rules.compile`) play exactly
as their pure-Python sources: the same seeded games of every game, played in one process with
the compiled modules and in another with ``LONGHOUSE_PURE_PYTHON=1``, give byte-identical event
logs and the same state hashes (:mod:`tests.support.compiled_logs`). Skipped, with the reason,
where no compiled module is built (``make test`` builds them through ``make setup`` wherever a C
compiler is found)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from services.rules import compile as rules_compile

ROOT = Path(__file__).resolve().parents[2]


def _logs(pure: bool) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LONGHOUSE_PURE_PYTHON": "1" if pure else "0"}
    out = subprocess.run([sys.executable, "-m", "tests.support.compiled_logs"], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=240)
    return json.loads(out.stdout)


def test_compiled_rules_give_the_pure_python_logs():
    if not rules_compile.built():
        pytest.skip("the rules' compiled modules are not built (make compile; "
                    f"{rules_compile.missing_tools() or 'the tools are here'})")
    compiled = _logs(pure=False)
    # a module compiled before its source last changed runs from its source (make compile rebuilds it)
    stale = set(compiled["stale"])
    expected = {".".join(p.with_suffix("").parts) for p in rules_compile.sources()}
    on_path = {"services.rules.core.forward", "services.rules.core.events", "services.rules.core.cow",
               *(f"services.rules.{g}.{m}" for g in ("gnomes", "noggin", "resource_hog") for m in ("rules", "state"))}
    assert on_path - stale <= set(compiled["compiled"]) <= expected - stale, \
        "the games did not run compiled (or ran what is not built)"
    pure = _logs(pure=True)
    assert pure["compiled"] == [] and pure["stale"] == []
    assert pure["games"] == compiled["games"]


def test_pure_python_is_chosen_by_the_environment_and_stale_modules_are_ignored(tmp_path):
    # a package of one source module and a "compiled" one built from it, found through the finder
    from services.rules import RulesFinder

    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mod.py").write_text("X = 1\n")
    finder = RulesFinder("pkg", pure=True)
    spec = finder.find_spec("pkg.mod", [str(package)])
    assert spec is not None and spec.origin == str(package / "mod.py")
    assert RulesFinder("pkg", pure=False).find_spec("other.mod", [str(package)]) is None
    extension = package / f"mod{__import__('importlib.machinery').machinery.EXTENSION_SUFFIXES[0]}"
    extension.write_bytes(b"")  # never loaded here: only its path and age are looked at
    os.utime(extension, (1, 1))  # older than the source
    finder = RulesFinder("pkg", pure=False)
    spec = finder.find_spec("pkg.mod", [str(package)])
    assert spec.origin == str(package / "mod.py") and finder.stale == ["pkg.mod"]
    os.utime(package / "mod.py", (0, 0))  # now the source is the older
    assert RulesFinder("pkg", pure=False).find_spec("pkg.mod", [str(package)]).origin == str(extension)


def test_a_source_edited_while_it_compiles_leaves_its_module_ignored(tmp_path):
    # the build dates each module with its source's time as read; a later edit makes the module stale
    from importlib.machinery import EXTENSION_SUFFIXES

    from services.rules import RulesFinder
    from services.rules.compile import date_as_sources

    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    source = package / "mod.py"
    source.write_text("X = 1\n")
    os.utime(source, ns=(10**18, 10**18))
    read_at = {source: source.stat().st_mtime_ns}  # what a build read
    extension = package / f"mod{EXTENSION_SUFFIXES[0]}"
    extension.write_bytes(b"")  # written after the read: newer than the source, as a build leaves it
    assert date_as_sources(read_at) == [extension]
    assert extension.stat().st_mtime_ns == read_at[source]
    assert RulesFinder("pkg", pure=False).find_spec("pkg.mod", [str(package)]).origin == str(extension)
    os.utime(source, ns=(10**18 + 10**9, 10**18 + 10**9))  # edited during the build, after the read
    finder = RulesFinder("pkg", pure=False)
    assert finder.find_spec("pkg.mod", [str(package)]).origin == str(source) and finder.stale == ["pkg.mod"]


def test_a_build_counts_as_rebuilt_only_the_modules_older_than_their_source(tmp_path):
    # what `make compile` reports: missing or older modules are rebuilt, one dated as its source is not
    from importlib.machinery import EXTENSION_SUFFIXES

    from services.rules.compile import stale

    package = tmp_path / "pkg"
    package.mkdir()
    names = ("fresh", "older", "missing")
    for name in names:
        (package / f"{name}.py").write_text("X = 1\n")
        os.utime(package / f"{name}.py", ns=(10**18, 10**18))
    for name, ns in (("fresh", 10**18), ("older", 10**18 - 10**9)):
        module = package / f"{name}{EXTENSION_SUFFIXES[0]}"
        module.write_bytes(b"")
        os.utime(module, ns=(ns, ns))
    files = [Path("pkg") / f"{name}.py" for name in names]
    assert stale(files, tmp_path) == [Path("pkg/older.py"), Path("pkg/missing.py")]
