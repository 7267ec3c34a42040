"""No import circle among the modules of ``services/`` and ``gateway/``.

The graph is read from the source with :mod:`ast`, so it sees every import statement a module
holds: at the top, inside functions and methods, and under ``if TYPE_CHECKING:``. A relative
import is resolved against the importing module's package, and ``from pkg import name`` where
``pkg.name`` is a module of the tree counts as importing that submodule (otherwise as importing
``pkg``). An import of a module outside the tree (the standard library, third-party packages)
is no edge. The strongly connected components of the graph (Tarjan 1972) are its circles; the
test names one concrete cycle of each.

Run as a script (``python -m tests.unit.test_import_graph``) it prints every circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository's top directory."""
PACKAGES = ("services", "gateway")
"""The top-level packages whose modules make the graph."""
TOLERATED: tuple[frozenset[str], ...] = ()
"""Circles left for a change under way elsewhere: a circle whose modules all lie in one of these
sets does not fail :func:`test_no_import_circle`; an entry no circle needs any more does (delete
it then)."""


def module_files(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of ``packages`` under ``root`` as ``{dotted name: source path}``; a
    package's ``__init__.py`` is named by the package itself."""
    modules: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute name of ``from <level dots><target> import ...`` written in ``module``.

    Raises:
        ValueError: the import climbs above the top-level package.
    """
    package = module.split(".") if is_package else module.split(".")[:-1]
    if level - 1 > len(package) - 1:
        raise ValueError(f"{module}: relative import beyond the top-level package")
    base = package[: len(package) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _internal(name: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of the dotted ``name`` that is a module of the tree, or None."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the tree that ``module`` (source at ``path``) imports anywhere in its body.

    Raises:
        SyntaxError: the source does not parse.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _internal(alias.name, modules)
                if target:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            base = (_resolve_relative(module, is_package, node.level, node.module)
                    if node.level else node.module or "")
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                target = sub if sub in modules else _internal(base, modules)
                if target:
                    found.add(target)
    found.discard(module)
    return found


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """``{module: modules of the tree it imports}`` for every module of ``packages``."""
    modules = module_files(root, packages)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one module, each sorted,
    the list sorted (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return sorted(components)


def a_cycle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One cycle through the first module of ``component`` (a strongly connected component of
    ``graph``), as ``[m0, m1, ..., m0]``: the shortest, by breadth-first search."""
    members = set(component)
    start = component[0]
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start] + path[::-1][1:] + [start] if len(path) > 1 else [start, start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    raise ValueError(f"{component} is not strongly connected")


def circles(graph: dict[str, set[str]], tolerated: tuple[frozenset[str], ...] = ()) -> list[str]:
    """Each circle of ``graph`` as one line: its modules, then one cycle through them; a circle
    whose modules all lie in one set of ``tolerated`` is left out."""
    return [f"{len(c)} modules {', '.join(c)}: {' -> '.join(a_cycle(graph, c))}"
            for c in strongly_connected(graph)
            if not any(set(c) <= allowed for allowed in tolerated)]


def test_the_graph_sees_the_tree():
    """The walk finds the packages' modules and their imports (a guard against an empty graph)."""
    graph = import_graph()
    assert "services.rules.core.game" in graph
    assert "gateway.app" in graph
    assert sum(len(edges) for edges in graph.values()) > len(graph)


def test_relative_and_submodule_imports_resolve():
    """``from . import x`` is an edge to the submodule ``x``, ``from .. import name`` one to the
    package, and a cycle through function-level imports is found."""
    modules = {name: Path(name) for name in ("p", "p.a", "p.b", "p.q", "p.q.c")}
    sources = {
        "p.a": "from . import b\n",
        "p.b": "def f():\n    from .q.c import thing\n",
        "p.q.c": "from .. import a\nfrom ..b import name\n",
    }
    graph = {name: _imports_from_source(name, name in ("p", "p.q"), sources.get(name, ""), modules)
             for name in modules}
    assert graph["p.a"] == {"p.b"}
    assert graph["p.b"] == {"p.q.c"}
    assert graph["p.q.c"] == {"p.a", "p.b"}
    assert strongly_connected(graph) == [["p.a", "p.b", "p.q.c"]]
    assert a_cycle(graph, ["p.a", "p.b", "p.q.c"]) == ["p.a", "p.b", "p.q.c", "p.a"]


def _imports_from_source(module: str, is_package: bool, source: str,
                         modules: dict[str, Path]) -> set[str]:
    """:func:`imports_of` over ``source`` held in memory (for the resolver's own test)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("__init__.py" if is_package else "m.py")
        path.write_text(source, encoding="utf-8")
        return imports_of(module, path, modules)


def test_no_import_circle():
    """No module of services/ or gateway/ reaches itself through imports."""
    graph = import_graph()
    found = circles(graph, TOLERATED)
    assert not found, "import circles:\n" + "\n".join(found)


UMBRELLAS = ("services", "services.rules", "gateway")
"""Packages that hold layers but belong to none (``pyproject.toml``, import-linter): Python runs
their ``__init__`` whenever any module below them is imported, so an import there would be an
edge from every layer at once, which neither the layers contract nor the circle walk sees."""


def test_umbrella_packages_import_nothing_of_the_tree():
    """:data:`UMBRELLAS`' ``__init__`` modules import no module of services/ or gateway/."""
    graph = import_graph()
    assert all(name in graph for name in UMBRELLAS)
    assert {name: sorted(graph[name]) for name in UMBRELLAS if graph[name]} == {}


def test_tolerated_circles_still_exist():
    """Every entry of :data:`TOLERATED` still matches a circle (a stale entry would hide a new
    circle among its modules)."""
    components = [set(c) for c in strongly_connected(import_graph())]
    stale = [sorted(allowed) for allowed in TOLERATED
             if not any(c <= allowed for c in components)]
    assert not stale, f"no circle left among {stale}: delete the entry from TOLERATED"


if __name__ == "__main__":
    for line in circles(import_graph()) or ["no import circle"]:
        print(line)
