"""The HTML views in headless Chromium (Debian's, driven by Playwright, no browser download): each
page loads offline without console errors and draws the expected number of nodes; screenshots are
kept in .ci/work/artifacts/views/."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from explore_world import CHROMIUM_FLAGS, World, artifacts_dir, chromium

from belief_graph import BeliefGraph
from belief_graph.embeddings import HashingEmbedder
from belief_graph.viz import GraphView, from_audit, from_deliberation, from_grounded, from_history, from_support

BIN = str(Path(sys.executable).with_name("belief-graph"))


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        ctx = p.chromium.launch_persistent_context(
            profile,
            executable_path=chromium(),
            args=CHROMIUM_FLAGS,
            headless=True,
            viewport={"width": 1200, "height": 760},
            offline=True,
        )
        yield ctx.new_page()
        ctx.close()


def _draw(page: Any, html_file: Path, shot: str) -> dict[str, Any]:
    messages: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: messages.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: messages.append(f"pageerror: {e}"))
    page.on("request", lambda r: requests.append(r.url) if not r.url.startswith(("file:", "data:", "about:")) else None)
    page.goto(html_file.as_uri())
    page.wait_for_function("window.bgView && window.bgView.ready", timeout=30000)
    info = page.evaluate("window.bgView")
    page.screenshot(path=str(artifacts_dir("views") / shot))
    assert messages == [], messages
    assert requests == [], requests  # nothing from the network: the libraries are inlined
    return dict(info)


def _cli(world: World, *args: str) -> subprocess.CompletedProcess[str]:
    s = world.settings
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    env.update(
        BELIEF_GRAPH_NEO4J__URI=s.neo4j.uri,
        BELIEF_GRAPH_NEO4J__USER=s.neo4j.user,
        BELIEF_GRAPH_NEO4J__PASSWORD=s.neo4j.password.get_secret_value(),
    )
    return subprocess.run(
        [BIN, "--space", world.space, "viz", *args], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.mark.parametrize(
    ("view", "arg"),
    [
        ("support", "user.timezone"),
        ("history", "user.risk_tolerance"),
        ("audit", "@audit"),
        ("deliberation", "@deliberation"),
        ("framework", "af1"),
    ],
)
def test_cli_view_draws_every_node_offline(
    page: Any, explore_world: World, tmp_path: Path, view: str, arg: str
) -> None:
    target = explore_world.ids[arg[1:]] if arg.startswith("@") else arg
    out = tmp_path / f"{view}.html"
    done = _cli(explore_world, view, target, "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size < 1_000_000
    info = _draw(page, out, f"{view}.png")
    assert info["expected"] == info["drawn"] == explore_world.expected[view], info


def test_views_colour_by_status_and_label(page: Any, explore_world: World, tmp_path: Path) -> None:
    with BeliefGraph.connect(
        space=explore_world.space, settings=explore_world.settings, embedder=HashingEmbedder()
    ) as bg:
        audit = bg.explore.audit(explore_world.ids["audit"]).save(tmp_path / "audit.html")
        deliberation = bg.explore.deliberation(explore_world.ids["deliberation"]).save(tmp_path / "d.html")
    _draw(page, audit, "audit-colours.png")
    withdrawn = page.evaluate(
        "JSON.parse(document.getElementById('bg-data').textContent).elements.nodes"
        ".filter(n => n.classes.split(' ').includes('greyed')).map(n => n.data.status)"
    )
    assert sorted(withdrawn) == ["retracted", "withdrawn"]  # the retracted episode and the claim it carried
    fills = page.evaluate("window.bgCy.nodes('.greyed').map(n => n.data('status') + '=' + n.style('background-color'))")
    assert sorted(fills) == ["retracted=rgb(198,40,40)", "withdrawn=rgb(189,189,189)"]  # faded, still told apart
    legend = page.inner_text("#legend")
    for item in ("Audit", "Episode", "Claim", "Justification", "retracted", "withdrawn", "does not hold now"):
        assert item in legend, (item, legend)
    assert page.evaluate("document.querySelector('#legend i.diamond') !== null")  # the justification's shape
    _draw(page, deliberation, "deliberation-colours.png")
    colours = page.evaluate(
        "window.bgCy.nodes('.proposal').map(n => n.data('props').label + '=' + n.style('background-color')).sort()"
    )
    assert colours == ["IN=rgb(46,125,50)", "OUT=rgb(198,40,40)", "OUT=rgb(198,40,40)"], colours


def test_repr_html_of_the_models_draws_them(page: Any, explore_world: World, tmp_path: Path) -> None:
    """``_repr_html_`` (notebooks) wraps the same page in an iframe; the models draw without a database."""
    with BeliefGraph.connect(
        space=explore_world.space, settings=explore_world.settings, embedder=HashingEmbedder()
    ) as bg:
        timezone = bg.belief("user.timezone")
        assert timezone is not None
        support = bg.support.supports(timezone.id)
        audit = bg.support.audit(explore_world.ids["audit"])
        d = bg.deliberations.get(explore_world.ids["deliberation"])
        history = bg.beliefs.history("user.risk_tolerance")
        grounded = bg.argumentation.ground_framework("af1")
    cases: list[tuple[str, Any, int]] = [
        ("support", support, 1 + 1 + 1),  # the claim, its justification, the city claim
        ("audit", audit, 1 + 2),
        ("deliberation", d, explore_world.expected["deliberation"] - 3),  # no Perspective nodes in the model
        ("grounded", grounded, 3),
    ]
    for name, model, nodes in cases:
        frame = model._repr_html_()
        assert frame.startswith("<iframe") and "srcdoc=" in frame
        host = tmp_path / f"repr-{name}.html"
        host.write_text(f"<!DOCTYPE html><html><body>{frame}</body></html>")
        page.goto(host.as_uri())
        inner = page.frames[-1]
        inner.wait_for_function("window.bgView && window.bgView.ready", timeout=30000)
        info = inner.evaluate("window.bgView")
        assert info["expected"] == info["drawn"] == nodes, (name, info)
        page.screenshot(path=str(artifacts_dir("views") / f"repr-{name}.png"))
    view = from_history("user.risk_tolerance", history)
    assert isinstance(view, GraphView) and view.node_count == 1 + len(history)
    for build in (from_support, from_audit, from_deliberation):
        assert build.__name__.startswith("from_")
    assert from_grounded(grounded, [("a", "b"), ("b", "c")]).edge_count == 2


def test_a_truncated_framework_view_says_what_it_left_out(page: Any, explore_world: World, tmp_path: Path) -> None:
    out = tmp_path / "fw.html"
    done = _cli(explore_world, "framework", "af1", "--limit", "2", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "2 of 3 arguments drawn (the first by name) and the attacks among them; --limit 3 draws all" in done.stdout
    info = _draw(page, out, "framework-truncated.png")
    assert info["drawn"] == 3  # the framework and two arguments
    assert "2 of 3 arguments drawn" in page.inner_text("#note")
    whole = tmp_path / "fw-all.html"
    assert "arguments drawn" not in _cli(explore_world, "framework", "af1", "-o", str(whole)).stdout
    assert 'id="note"' not in whole.read_text()
