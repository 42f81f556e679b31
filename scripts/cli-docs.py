#!/usr/bin/env python3
"""Write docs/cli.md, the reference of every ``belief-graph`` command, from the Typer app.

    python scripts/cli-docs.py           # regenerate docs/cli.md
    python scripts/cli-docs.py --check   # exit 1 when the committed docs/cli.md differs

The text is Typer's own (``typer belief_graph.cli utils docs``: each command's help, usage and
options), with two changes so that it reads as plain Markdown: HTML entities are unescaped, and
the usage lines are ``text`` blocks (synopses such as ``[OPTIONS]``, not commands to run; the docs
test runs ``console`` blocks). tests/unit/test_cli_reference.py fails when the committed copy differs.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "docs" / "cli.md"

COMMENT = """\
<!-- Generated from the Typer app by scripts/cli-docs.py: edit the commands' help, then run
     `python scripts/cli-docs.py`. tests/unit/test_cli_reference.py fails when this file differs. -->

"""

INTRO = """\
Every command prints one line `error: ...` and exits non-zero on failure (2 for bad input, 1 for
operational errors). Read commands take `--json`. Global options: `--space NAME`, `--verbose`.

`belief-graph bench ...`, `belief-graph demo` and `belief-graph llm record-demo` come from the
checkout's `lab/` (a plugin through the `belief_graph.cli` entry points, installed by
`scripts/bootstrap.sh`): an installed wheel has every other command, not these.

"""

_USAGE = re.compile(r"```console\n\$ ([^\n]*)\n```")


def generate() -> str:
    """The reference as Markdown, from the app as the code defines it now."""
    import typer
    from typer.cli import MARKUP_MODE_KEY, get_docs_for_click

    from belief_graph.cli import app

    command = typer.main.get_command(app)
    ctx = typer.Context(command, obj={MARKUP_MODE_KEY: app.rich_markup_mode})
    text = get_docs_for_click(obj=command, ctx=ctx, name="belief-graph", title="CLI reference: `belief-graph`")
    title, _, rest = html.unescape(text.strip()).partition("\n")
    body = _USAGE.sub(lambda m: "```text\n" + m[1] + "\n```", rest.lstrip())
    return f"{COMMENT}{title}\n\n{INTRO}{body}\n"


def main(argv: list[str]) -> int:
    text = generate()
    if "--check" in argv:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(ROOT)} differs from the CLI: run `python scripts/cli-docs.py`", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
