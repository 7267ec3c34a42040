"""Game rules as pure code: :mod:`.core` (the game interface, events, errors, chance) and
one package per game (:mod:`.noggin`).

The rules' modules may also be compiled in place with Cython (``make compile``,
:mod:`.compile`: extension modules beside their ``.py`` sources, built from the same sources
with no change of behaviour). :class:`RulesFinder`, installed here before any rules module is
imported, decides per module which is loaded:

* the compiled module where one is built and is not older than its source;
* the source where the compiled module is older (built before the source last changed: it
  might not do what the source says, so it is ignored until ``make compile`` runs again);
* the source always where the environment variable ``LONGHOUSE_PURE_PYTHON`` is set (to
  anything but ``""`` or ``"0"``) when this package is first imported.

:data:`PURE_PYTHON` says whether the environment asked for pure Python, and
:func:`compiled_modules` which modules were loaded compiled.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import (EXTENSION_SUFFIXES, SOURCE_SUFFIXES, ExtensionFileLoader, FileFinder, ModuleSpec,
                                 SourceFileLoader)
from typing import Sequence

PURE_ENV = "LONGHOUSE_PURE_PYTHON"
"""The environment variable that keeps the rules in pure Python where compiled modules exist."""


class RulesFinder:
    """A meta-path finder for the modules of one package that chooses between a module's
    ``.py`` source and its compiled extension module (see the package's docstring).

    Args:
        package: the dotted name of the package whose submodules (at any depth) it finds.
        pure: load every module from its source, never compiled.
    """

    def __init__(self, package: str, pure: bool) -> None:
        self.prefix = package + "."
        self.pure = pure
        self.stale: list[str] = []
        """The modules loaded from their source because their compiled module was older."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: object = None) -> ModuleSpec | None:
        """The spec of ``fullname`` (its source or its compiled module) from the first of the
        parent package's ``path`` entries that has it, or ``None`` (the usual finders then look)
        for a name outside the package or a module with no source."""
        if not fullname.startswith(self.prefix) or not path:
            return None
        for entry in path:
            source = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(fullname)
            if source is None or source.origin is None or source.loader is None:
                continue
            if self.pure or source.submodule_search_locations is not None:
                return source
            compiled = FileFinder(entry, (ExtensionFileLoader, EXTENSION_SUFFIXES)).find_spec(fullname)
            if compiled is None or compiled.origin is None or compiled.loader is None:
                return source
            if os.stat(str(compiled.origin)).st_mtime < os.stat(str(source.origin)).st_mtime:
                self.stale.append(fullname)
                return source
            return compiled
        return None


PURE_PYTHON = os.environ.get(PURE_ENV, "") not in ("", "0")
"""Whether this process keeps the rules in pure Python (``LONGHOUSE_PURE_PYTHON`` set)."""

FINDER = next((f for f in sys.meta_path if isinstance(f, RulesFinder)), None) or RulesFinder(__name__, PURE_PYTHON)
"""The finder this process uses for ``services.rules``' modules."""
if FINDER not in sys.meta_path:
    sys.meta_path.insert(0, FINDER)


def compiled_modules() -> list[str]:
    """The names of the modules under ``services.rules`` imported so far from compiled extension
    modules (none in pure Python), sorted."""
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith(__name__ + ".") and isinstance(getattr(module, "__loader__", None),
                                                                     ExtensionFileLoader))
