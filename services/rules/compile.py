"""``make compile``: the rules' modules compiled in place with Cython, an optional speed-up.

Cython compiles the very ``.py`` sources (pure-Python mode, no ``.pyx`` and no change to
them) into extension modules written beside them (``services/rules/<package>/<module>.*.so``,
ignored by git; the generated C under ``build/cython``). Python imports an extension module
before the source of the same name, so the engine, the services and the tests then run the
compiled rules; :mod:`services.rules` falls back to the source of a module whose extension
is older than it, and ``LONGHOUSE_PURE_PYTHON=1`` keeps every module in pure Python.
Both give byte-identical event logs (``tests/rules/test_compiled.py``); ``make bench`` prints
both beside OpenSpiel.

What is compiled: :data:`PACKAGES`' modules on the playout path, less :data:`EXCLUDED` (the
pydantic models: pydantic reads their classes' namespaces, which compiled functions do not
fit). The directives (:data:`DIRECTIVES`) keep Python's semantics: annotations are not taken
as C types, so a value is never converted or refused where the source would take it.
No hint for Cython is written in the sources: they stay plain Python.

Each extension module is dated with its source's time as the build read it
(:func:`date_as_sources`), so a source edited during a build stays newer than its module.

Safe to run again: only modules whose source changed since their last build are
regenerated and recompiled (all of them when Cython's version, the directives or the flags
changed); it says how many it rebuilt. ``python -m services.rules.compile [--jobs N] [--stamp
FILE]``; exits 0 without building (saying why) where ``LONGHOUSE_PURE_PYTHON`` is set, or
Cython, a C compiler or Python's headers are missing. ``make compile-clean`` removes the modules
and the generated C (with ``rm``: it works without the virtual environment).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from services.rules import PURE_ENV, PURE_PYTHON

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("core", "noggin", "gnomes", "resource_hog")
"""The packages under ``services/rules`` whose modules are compiled."""
EXCLUDED = frozenset({"__init__.py", "content.py", "moves.py"})
"""Module files never compiled: packages' ``__init__`` and the pydantic models (each game's
content and move shapes, ``core.content``)."""
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": False}
"""Cython's compiler directives: Python 3 semantics; type annotations are not C types; functions
are Cython's plain built-in functions rather than function objects with Python's introspection
(``binding``: quicker calls, a fifth more playouts in Noggin; nothing in the rules introspects a
function's signature or code)."""
BUILD_DIR = ROOT / "build" / "cython"
"""Where the generated C and the object files go (the extension modules go beside the sources)."""
CFLAGS = ["-O2", "-g0"]
"""Added to Python's own flags: no debug information (a quicker build, smaller modules)."""


def sources(root: Path = ROOT) -> list[Path]:
    """The ``.py`` files compiled, relative to ``root``, sorted."""
    return sorted(p.relative_to(root) for package in PACKAGES
                  for p in (root / "services" / "rules" / package).glob("*.py") if p.name not in EXCLUDED)


def built(root: Path = ROOT) -> list[Path]:
    """The extension modules present under ``services/rules`` (any Python version), sorted."""
    return sorted((root / "services" / "rules").glob("*/*.so")) + sorted((root / "services" / "rules").glob("*/*.pyd"))


def missing_tools() -> str | None:
    """Why nothing can be compiled here (Cython, the C compiler or ``Python.h`` missing), or ``None``."""
    try:
        import Cython  # noqa: F401
    except ImportError:
        return "Cython is not installed (the dev extra of pyproject.toml)"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return f"Python's headers are missing ({sysconfig.get_paths()['include']}/Python.h)"
    return None


def modules_of(source: Path) -> list[Path]:
    """The extension modules built from ``source`` that are present (one per suffix this Python
    imports, e.g. ``market.cpython-311-x86_64-linux-gnu.so``)."""
    from importlib.machinery import EXTENSION_SUFFIXES

    return [m for m in (source.with_name(source.stem + s) for s in EXTENSION_SUFFIXES) if m.exists()]


def stale(files: list[Path], root: Path = ROOT) -> list[Path]:
    """The sources of ``files`` (relative to ``root``) without an extension module as new as
    they are (:func:`date_as_sources` dates a module with its source's time): those a build
    compiles again, unless the recipe changed (then all)."""
    out = []
    for f in files:
        source = root / f
        if not any(m.stat().st_mtime_ns >= source.stat().st_mtime_ns for m in modules_of(source)):
            out.append(f)
    return out


def compile_rules(jobs: int, root: Path = ROOT) -> tuple[list[Path], list[Path]]:
    """Cythonize and build :func:`sources` in place with ``jobs`` compilers at once; return the
    sources and those rebuilt (:func:`stale` ones, or all when the recipe changed). Raises
    ``SystemExit`` (setuptools') if a module fails to compile."""
    import Cython
    from Cython.Build import cythonize
    from setuptools import Extension, setup

    files = sources(root)
    read_at = {root / f: (root / f).stat().st_mtime_ns for f in files}  # the sources' times as this build reads them
    # how the modules are built: a change (Cython's version, the directives, the flags) rebuilds them all
    recipe = repr((Cython.__version__, sorted(DIRECTIVES.items()), CFLAGS, sys.version))
    recorded = BUILD_DIR / "recipe.txt"
    force = not recorded.exists() or recorded.read_text() != recipe
    rebuilt = list(files) if force else stale(files, root)
    modules = [Extension(".".join(f.with_suffix("").parts), [str(f)], extra_compile_args=CFLAGS) for f in files]
    cwd = os.getcwd()
    os.chdir(root)  # the extensions' names and the in-place build are relative to the root
    try:
        setup(name="longhouse-rules-compiled", ext_modules=cythonize(
                  modules, compiler_directives=dict(DIRECTIVES), build_dir=str(BUILD_DIR.relative_to(root)),
                  nthreads=jobs, quiet=True, force=force),
              script_args=["-q", "build_ext", "--inplace", "--parallel", str(jobs),
                           "--build-temp", str(BUILD_DIR / "temp"), "--build-lib", str(BUILD_DIR / "lib")])
    finally:
        os.chdir(cwd)
    recorded.write_text(recipe)
    date_as_sources(read_at)
    return files, rebuilt


def date_as_sources(read_at: dict[Path, int]) -> list[Path]:
    """Give each source's extension module the modification time its source had when the build
    read it (``read_at``: ``{source: st_mtime_ns}``), so that a source changed while it was being
    compiled stays newer than its module, which :mod:`services.rules` then ignores (a module
    stamped with the time it was written would pass for built from the changed source). Returns
    the extension modules dated."""
    dated = []
    for source, ns in read_at.items():
        for module in modules_of(source):
            os.utime(module, ns=(ns, ns))
            dated.append(module)
    return dated


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module's docstring). Returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m services.rules.compile", description=__doc__.splitlines()[0])
    parser.add_argument("--stamp", type=Path, help="a file to touch once the modules are built (make's record)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="compilers at once (default: the cores)")
    args = parser.parse_args(argv)
    if PURE_PYTHON:
        print(f"compile: {PURE_ENV} is set; the rules stay pure Python")
        return 0
    why = missing_tools()
    if why:
        print(f"compile: {why}; the rules stay pure Python")
        return 0
    files, rebuilt = compile_rules(max(1, args.jobs))
    if args.stamp:
        args.stamp.touch()
    print(f"compile: the {len(files)} rules modules are compiled with Cython ({len(rebuilt)} rebuilt now: each "
          "when its source changed; LONGHOUSE_PURE_PYTHON=1 runs the sources)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
