"""The runtime package and the lab (lab/belief_graph_lab: benchmarks, demos, scenarios).

The runtime never imports the lab; the lab adds its commands through the ``belief_graph.cli``
entry point; without the lab, ``bench`` and ``demo`` say how to get them. The built wheel's file
list is checked in tests/unit/test_wheel.py and again by scripts/wheel-smoke.sh.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from belief_graph.cli.plugins import LAB_COMMANDS, add_plugin_commands
from belief_graph.errors import ConfigurationError

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]


def _imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_runtime_never_imports_the_lab() -> None:
    offenders = sorted(
        str(p.relative_to(REPO))
        for p in (REPO / "belief_graph").rglob("*.py")
        if any(m.split(".")[0] == "belief_graph_lab" for m in _imported_modules(p))
    )
    assert offenders == []


def test_the_lab_holds_what_left_the_runtime() -> None:
    pkg = REPO / "belief_graph"
    for gone in ("benchmarks", "scenarios", "cli/bench", "cli/demo.py", "llm/demo.py", "data/memory"):
        assert not (pkg / gone).exists(), gone
    lab = REPO / "lab" / "belief_graph_lab"
    for here in ("benchmarks", "scenarios", "cli/bench", "cli/demo.py", "llm_demo.py", "data/memory"):
        assert (lab / here).exists(), here


def _bare_app() -> typer.Typer:
    app = typer.Typer(no_args_is_help=True)

    @app.command("hello")
    def hello() -> None:
        """Say hello."""
        print("hello")

    return app


def test_without_the_lab_bench_and_demo_say_how_to_get_them() -> None:
    app = _bare_app()
    assert add_plugin_commands(app, found=[]) == []
    runner = CliRunner()
    shown = runner.invoke(app, ["--help"])
    assert shown.exit_code == 0
    assert "hello" in shown.output
    for name in LAB_COMMANDS:
        assert name not in shown.output  # hidden: not offered in --help
        r = runner.invoke(app, [name, "--stop", "extra"])
        assert isinstance(r.exception, ConfigurationError), r.output
        assert f"`belief-graph {name}` is part of belief_graph_lab" in str(r.exception)
        assert "pip install -e ./lab" in str(r.exception)


def test_the_installed_lab_registers_its_commands() -> None:
    """In a checkout (scripts/bootstrap.sh installs the lab editable) the real entry point adds them."""
    from belief_graph.cli import app

    groups = {g.name: g for g in app.registered_groups}
    assert {"bench", "demo", "llm"} <= groups.keys()
    assert groups["bench"].typer_instance is not None
    llm = groups["llm"].typer_instance
    assert llm is not None and "record-demo" in {c.name for c in llm.registered_commands}
    assert not [c.name for c in app.registered_commands if c.name in LAB_COMMANDS]  # no stand-ins


def test_a_plugin_that_fails_to_load_leaves_the_other_commands_working() -> None:
    """An editable install of the lab whose folder is gone: the entry point names a missing module."""
    from importlib.metadata import EntryPoint

    broken = EntryPoint(name="lab", value="belief_graph_lab_not_here.cli:register", group="belief_graph.cli")
    app = _bare_app()
    assert add_plugin_commands(app, found=[broken]) == ["lab"]
    runner = CliRunner()
    assert runner.invoke(app, ["hello"]).output == "hello\n"
    r = runner.invoke(app, ["demo"])
    assert isinstance(r.exception, ConfigurationError)
    assert "failed to load: lab = belief_graph_lab_not_here.cli:register: ModuleNotFoundError" in str(r.exception)
