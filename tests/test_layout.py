"""No module imports another in a circle: the import graph of engine/, bots/, server/ and tui/,
read from the source (every import statement, those inside functions too), has no strongly
connected component of more than one module. Imports under `if TYPE_CHECKING:` never run; with
them counted, the only circles left are a game's rules and the views built from its state, which
name the game's class in their type hints (a protocol of thirty attributes would say less)."""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "bots", "server", "tui")

Graph = Mapping[str, set[str]]


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted name -> file, for every module of the four packages (a package is its __init__)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imports(tree: ast.AST, type_hints: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth; those under `if TYPE_CHECKING:` only with
    `type_hints`."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif (isinstance(node, ast.If) and not type_hints
              and "TYPE_CHECKING" in ast.unparse(node.test)):
            for child in node.orelse:
                yield from _imports(ast.Module(body=[child], type_ignores=[]), type_hints)
        else:
            yield from _imports(node, type_hints)


def imported(tree: ast.AST, name: str, is_package: bool, known: Collection[str],
             type_hints: bool = False) -> Iterator[str]:
    """Every module of `known` an import statement of the module `name` names, relative ones
    resolved: `from pkg import x` names pkg.x when that is a module, else pkg; a name that is not
    a module is taken as its nearest enclosing one."""
    for node in _imports(tree, type_hints):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                parts = name.split(".") if is_package else name.split(".")[:-1]
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target:
                yield target


def import_graph(root: Path = ROOT, type_hints: bool = False) -> dict[str, set[str]]:
    """Module -> the modules of the four packages it imports."""
    known = modules(root)
    graph = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(), str(path))
        graph[name] = set(imported(tree, name, path.name == "__init__.py", known,
                                   type_hints)) - {name}
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative
    so a deep graph does not hit the recursion limit), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
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
                        found.append(sorted(component))
    return found


def test_no_module_imports_another_in_a_circle():
    found = cycles(import_graph())
    assert not found, "modules that import each other in a circle: " + "; ".join(
        " <-> ".join(component) for component in found)


# a game's rules <-> the views of its state, in type hints only
TYPE_HINT_CIRCLES = [["engine.amongagents.rules", "engine.amongagents.views"],
                     ["engine.secret_mafia.rules", "engine.secret_mafia.views"],
                     ["engine.socialgrid.observe", "engine.socialgrid.rules"]]


def test_type_hints_close_no_other_circle_in_the_engine_bots_or_server():
    graph = import_graph(type_hints=True)
    found = cycles({m: t for m, t in graph.items() if not m.startswith("tui")})
    assert found == TYPE_HINT_CIRCLES


def test_the_cycle_finder_finds_a_circle_through_several_modules():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e", "d"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_an_import_inside_a_function_and_a_relative_one_count(tmp_path):
    (tmp_path / "server" / "x").mkdir(parents=True)
    for package in PACKAGES:
        (tmp_path / package).mkdir(exist_ok=True)
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "server" / "x" / "__init__.py").write_text("")
    (tmp_path / "server" / "x" / "a.py").write_text("def f():\n    from server.x import b\n")
    (tmp_path / "server" / "x" / "b.py").write_text("from .a import f\n")
    (tmp_path / "server" / "x" / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from server.x.d import D\n"
        "else:\n    from server.x import a\n")
    (tmp_path / "server" / "x" / "d.py").write_text("from server.x.c import C\n")
    graph = import_graph(tmp_path)
    assert graph["server.x.a"] == {"server.x.b"} and graph["server.x.b"] == {"server.x.a"}
    assert graph["server.x.c"] == {"server.x.a"}
    assert cycles(graph) == [["server.x.a", "server.x.b"]]
    assert cycles(import_graph(tmp_path, type_hints=True)) == [["server.x.a", "server.x.b"],
                                                               ["server.x.c", "server.x.d"]]
