"""docs/cli.md is the CLI as the code defines it: generated from the Typer app by
scripts/cli-docs.py, and this test fails when the committed copy differs."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cli_docs", ROOT / "scripts" / "cli-docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_cli_reference_is_what_the_app_generates() -> None:
    generated = _script().generate()
    committed = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert committed == generated, "docs/cli.md differs from the CLI: run `python scripts/cli-docs.py` and commit it"


def test_the_reference_names_every_command_with_its_options() -> None:
    import typer

    from belief_graph.cli import app

    text = _script().generate()
    root = typer.main.get_command(app)
    missing = []

    def walk(cmd, path: list[str]) -> None:  # type: ignore[no-untyped-def]
        if path and f"`belief-graph {' '.join(path)}`" not in text:
            missing.append(" ".join(path))
        for name, sub in getattr(cmd, "commands", {}).items():
            walk(sub, [*path, name])

    walk(root, [])
    assert not missing, f"commands missing from the generated reference: {missing}"
    assert "`--limit <int range>`: Offending items listed per invariant." in text  # an option with its help
    assert "```console" not in text and "&#x27;" not in text  # synopses are text, entities unescaped
