"""Imports point one way: the engine loads no I/O library, the TUI never loads the engine, and
each package of server/ imports only the ones below it (wire < store < tables < net < runs <
commands; reports and replays read the store)."""

import ast
import subprocess
import sys

from tests.test_layout import ROOT, import_graph

FORBIDDEN_IN_ENGINE = ["textual", "websockets", "sqlite3", "aiosqlite", "openai", "anthropic",
                       "asyncio", "server", "bots", "tui"]


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return {m.split(".")[0] for m in out.stdout.split()}


def test_engine_is_pure():
    loaded = _loaded_after("import engine.registry as r; r.load_all()")
    assert not loaded & set(FORBIDDEN_IN_ENGINE), loaded & set(FORBIDDEN_IN_ENGINE)


def test_protocol_stands_alone():
    loaded = _loaded_after("import server.wire.protocol")
    assert not loaded & {"engine", "bots", "aiosqlite", "textual", "websockets"}


def test_tui_never_imports_engine():
    loaded = _loaded_after("import tui.app")
    assert "engine" not in loaded and "bots" not in loaded


# Static layering, read from the source (tests/test_layout.py's graph: imports inside functions
# count too): a package may import the ones below it, never the ones above.
def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


LAYERS = {  # package -> what it must not import
    "engine": ("server", "bots", "tui"),
    "bots": ("server", "tui"),
    "server.wire": ("engine", "bots", "tui", "server.net", "server.tables", "server.store",
                    "server.runs", "server.reports", "server.commands", "server.cli"),
    "server.store": ("tui", "server.net", "server.tables", "server.runs", "server.reports",
                     "server.commands", "server.cli"),
    "server.tables": ("tui", "server.net", "server.runs", "server.reports", "server.commands",
                      "server.cli"),
    "server.reports": ("tui", "server.net", "server.tables", "server.runs", "server.commands",
                       "server.cli"),
    "server.replays": ("tui", "server.net", "server.tables", "server.runs", "server.reports",
                       "server.commands", "server.cli"),
    "server.net": ("tui", "server.runs", "server.reports", "server.commands", "server.cli"),
    "server.runs": ("tui", "server.commands", "server.cli"),
}
# The TUI talks to a server only through server.wire; the one exception is local play, which
# starts a server in the process (loaded only then, inside tui/launch.py's function).
TUI_MAY_IMPORT = {"tui.launch": {"server.net.embedded"}}


def test_each_package_imports_only_the_layers_below_it():
    graph = import_graph()
    wrong = [f"{module} imports {target}" for module, targets in sorted(graph.items())
             for package, forbidden in LAYERS.items() if _within(module, package)
             for target in sorted(targets) if any(_within(target, f) for f in forbidden)]
    assert not wrong, wrong


def test_the_tui_imports_only_the_wire_protocol_of_the_server():
    graph = import_graph()
    wrong = [f"{module} imports {target}" for module, targets in sorted(graph.items())
             if _within(module, "tui") for target in sorted(targets)
             if _within(target, "engine") or _within(target, "bots")
             or (_within(target, "server") and not _within(target, "server.wire")
                 and target not in TUI_MAY_IMPORT.get(module, ()))]
    assert not wrong, wrong
    launch = ast.parse((ROOT / "tui" / "launch.py").read_text())
    top_level = [ast.unparse(n) for n in launch.body if isinstance(n, ast.Import | ast.ImportFrom)]
    assert not [line for line in top_level if "server.net" in line], top_level


def test_the_layering_check_sees_a_forbidden_import(tmp_path):
    for package in ("engine", "bots", "server", "server/net", "server/runs", "tui"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "server" / "runs" / "league.py").write_text("X = 1\n")
    (tmp_path / "server" / "net" / "app.py").write_text(
        "def f():\n    from server.runs.league import X\n")
    assert import_graph(tmp_path)["server.net.app"] == {"server.runs.league"}
