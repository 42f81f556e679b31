"""The examples of README.md and docs/ run, against the real Neo4j of the suite.

One test per page; its examples run in the order of the page, so a later block may use what an
earlier one wrote (as a reader following the page would). Each page gets:

* a fresh working directory that reads like the checkout (its top-level entries are linked in, so
  ``cypher/claim/key_history.cypher`` resolves) while the files an example writes stay there;
* its own memory spaces: every space the page names (``space="crm"``, ``--space crm``, and the
  default space of a block that names none) is renamed to one of this test (``docs-<id>-crm``)
  before the block runs, and removed afterwards;
* Python blocks run in a fresh namespace, each line ending ``# -> TEXT`` checked
  (tests/doc_examples.py); a block that uses ``bg`` without making one gets
  ``bg = BeliefGraph.connect()`` on the page's default space (the README's fragments assume it);
* shell blocks run with ``bash -e -o pipefail``, an empty stdin and the environment of the test server
  (``BELIEF_GRAPH_NEO4J__*``, ``BELIEF_GRAPH_SPACE``), with this interpreter's ``belief-graph``
  first on ``PATH``.

Typer keeps its examples as files (``docs_src/``) with a hand-written test each; here they stay in
the Markdown a reader sees and this one test runs them all, so a new example is tested without a
new test, and says what it gives with ``# ->`` lines where it matters.

Blocks marked ``<!-- no-run: reason -->`` are not run (tests/unit/test_doc_examples.py checks each
marker has its reason). How the blocks are found: tests/doc_examples.py.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import traceback
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from doc_examples import PYTHON, ROOT, Block, blocks, doc_files, with_expectations

from belief_graph.db.driver import Graph
from belief_graph.settings import Settings

PAGES = [f for f in doc_files() if any(b.kind is not None and b.no_run is None for b in blocks(f))]

_PY_SPACE = re.compile(r"""\bspace=(?P<q>["'])(?P<name>[\w.:-]+)(?P=q)""")
_SH_SPACE = re.compile(r"--space[ =](?P<name>[\w.:-]+)")


class Spaces:
    """The page's space names, each renamed to one of this test."""

    def __init__(self) -> None:
        self.prefix = f"docs-{uuid.uuid4().hex[:8]}-"
        self.used: set[str] = set()

    def name(self, space: str) -> str:
        self.used.add(self.prefix + space)
        return self.prefix + space

    def python(self, code: str) -> str:
        return _PY_SPACE.sub(lambda m: f"space={m['q']}{self.name(m['name'])}{m['q']}", code)

    def shell(self, code: str) -> str:
        return _SH_SPACE.sub(lambda m: f"--space {self.name(m['name'])}", code)


@pytest.fixture()
def spaces(graph: Graph) -> Iterator[Spaces]:
    s = Spaces()
    yield s
    for name in sorted(s.used):
        graph.write("admin.delete_space", space=name)


def _env(settings: Settings, spaces: Spaces) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    env.update(
        BELIEF_GRAPH_NEO4J__URI=settings.neo4j.uri,
        BELIEF_GRAPH_NEO4J__USER=settings.neo4j.user,
        BELIEF_GRAPH_NEO4J__PASSWORD=settings.neo4j.password.get_secret_value(),
        BELIEF_GRAPH_SPACE=spaces.name("default"),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    if "BELIEF_GRAPH_LLM_SERVER__HOME" in os.environ:  # the empty home conftest gives the fast suite
        env["BELIEF_GRAPH_LLM_SERVER__HOME"] = os.environ["BELIEF_GRAPH_LLM_SERVER__HOME"]
    return env


def _binds_bg(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "bg" and isinstance(node.ctx, ast.Store):
            return True
    return False


def _uses_bg(tree: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and n.id == "bg" and isinstance(n.ctx, ast.Load) for n in ast.walk(tree))


def _expect_print(expected: str, *args: object) -> None:
    print(*args)
    got = " ".join(str(a) for a in args)
    assert got == expected, f"prints {got!r}, the doc says {expected!r}"


def _expect(expected: str, value: object) -> None:
    assert repr(value) == expected, f"gives {value!r}, the doc says {expected}"


def _run_python(block: Block, code: str) -> None:
    tree = ast.parse(with_expectations(code), filename=block.where)
    namespace: dict[str, object] = {"__name__": "__docs__", "__expect__": _expect, "__expect_print__": _expect_print}
    bg = None
    if _uses_bg(tree) and not _binds_bg(tree):
        from belief_graph import BeliefGraph

        bg = BeliefGraph.connect()
        namespace["bg"] = bg
    try:
        exec(compile(tree, block.where, "exec"), namespace)
    except Exception:
        pytest.fail(f"{block.where}: the Python example fails\n{code}\n{traceback.format_exc()}", pytrace=False)
    finally:
        if bg is not None:
            bg.close()


def _run_shell(block: Block, code: str, env: dict[str, str], cwd: Path) -> None:
    p = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", code],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
    )
    if p.returncode != 0:
        pytest.fail(
            f"{block.where}: the shell example exits {p.returncode}\n{code}\n"
            f"--- stdout\n{p.stdout[-3000:]}\n--- stderr\n{p.stderr[-3000:]}",
            pytrace=False,
        )


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_the_examples_of_a_page_run(
    page: Path, base_settings: Settings, spaces: Spaces, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = _env(base_settings, spaces)
    for k in [k for k in os.environ if k.startswith("BELIEF_GRAPH_")]:
        monkeypatch.delenv(k)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    for entry in ROOT.iterdir():
        if not entry.name.startswith("."):
            (tmp_path / entry.name).symlink_to(entry)
    monkeypatch.chdir(tmp_path)
    ran = 0
    for block in blocks(page):
        if block.kind is None or block.no_run is not None:
            continue
        if block.kind == PYTHON:
            _run_python(block, spaces.python(block.code))
        else:
            _run_shell(block, spaces.shell(block.commands()), env, tmp_path)
        ran += 1
    assert ran > 0
