"""Neo4j Browser on the local server, in headless Chromium: log in, the guide and the style open by
themselves, every curated question runs with its :param lines, the graph is drawn with the style.
Screenshots are kept in .ci/work/artifacts/browser/ (logged in with the guide open, a styled graph)."""

from __future__ import annotations

import re
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from explore_world import CHROMIUM_FLAGS, World, artifacts_dir, chromium

from belief_graph import BeliefGraph
from belief_graph.console.browser import runnable
from belief_graph.console.curated import param_lines, questions
from belief_graph.db.registry import get_registry
from belief_graph.embeddings import HashingEmbedder
from belief_graph.localserver import LocalServer

GUIDE_TITLE = "a tour of the memory"


@pytest.fixture(scope="module")
def browser_url(base_settings) -> str:  # type: ignore[no-untyped-def]
    st = LocalServer(base_settings.server, base_settings.neo4j, space=base_settings.space).status()
    if not (st.running and st.browser_url):
        pytest.fail(
            "Neo4j Browser tests need the local server with Browser on (belief-graph server start)", pytrace=False
        )
    return st.browser_url


@pytest.fixture(scope="module")
def page(browser_url: str, base_settings) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    host_port = base_settings.neo4j.uri.split("://", 1)[1]
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        ctx = p.chromium.launch_persistent_context(
            profile,
            executable_path=chromium(),
            args=CHROMIUM_FLAGS,
            headless=True,
            viewport={"width": 1400, "height": 1000},
            bypass_csp=True,
            permissions=["clipboard-read", "clipboard-write"],
        )
        pg = ctx.new_page()
        pg.set_default_timeout(60000)
        pg.goto(browser_url, wait_until="domcontentloaded", timeout=120000)
        pg.select_option("select", "bolt://")
        pg.fill("[data-testid=boltaddress]", host_port)
        pg.fill("[data-testid=username]", base_settings.neo4j.user)
        pg.fill("[data-testid=password]", base_settings.neo4j.password.get_secret_value())
        pg.click("[data-testid=connect]")
        pg.wait_for_selector(f"text={GUIDE_TITLE}", timeout=60000)
        pg.wait_for_selector("text=Successfully set your parameters", timeout=60000)
        yield pg
        ctx.close()


def _run(page: Any, command: str) -> str:
    """Type one command into the editor, run it, return the text of the frame it made (polled from
    Python: Browser's content security policy forbids the string evaluation of wait_for_function)."""
    frames = page.locator("[data-testid=frame]")
    page.click("[data-testid=activeEditor]")
    page.keyboard.insert_text(":clear")  # Browser keeps 15 frames at most: start from an empty stream
    page.keyboard.press("Control+Enter")
    deadline = time.monotonic() + 30
    while frames.count() and time.monotonic() < deadline:
        time.sleep(0.1)
    before = frames.count()
    page.click("[data-testid=activeEditor]")
    _paste(page, command)
    page.keyboard.press("Control+Enter")
    deadline = time.monotonic() + 60
    text = ""
    while time.monotonic() < deadline:
        if frames.count() > before:
            text = str(frames.first.inner_text())
            if _DONE.search(text) and not _BUSY.search(text):
                return text
        time.sleep(0.2)
    editor = page.locator("[data-testid=activeEditor] .view-lines").inner_text()
    raise AssertionError(
        f"no result for {command[:80]!r} within 60 s: frames {before} -> {frames.count()}, "
        f"newest {text[:300]!r}, editor {editor[:200]!r}"
    )


def _paste(page: Any, text: str) -> None:
    """Paste ``text`` into the editor through the clipboard, as a user would (typed text would get
    the editor's auto-closed brackets)."""
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    page.keyboard.press("Control+V")


_DONE = re.compile(r"records|Completed|ERROR|Successfully|Error|Displaying \d+ nodes")
_BUSY = re.compile(r"Still connecting|Running")


def _table(page: Any) -> str:
    """Switch the newest frame from the graph to the table view (its status line counts records)."""
    frame = page.locator("[data-testid=frame]").first
    frame.get_by_text("Table", exact=True).first.click()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = str(frame.inner_text())
        if "records" in text:
            return text
        time.sleep(0.2)
    raise AssertionError("the table view shows no record count")


def test_browser_is_served_with_the_guide_and_style(browser_url: str) -> None:
    with urllib.request.urlopen(browser_url) as r:
        assert r.status == 200 and b"Neo4j Browser" in r.read()
    for name, needle in (("guide.html", GUIDE_TITLE.encode()), ("style.grass", b"node.Justification")):
        with urllib.request.urlopen(f"{browser_url}belief-graph/{name}") as r:
            assert r.status == 200 and needle in r.read()


def test_login_opens_the_guide_the_style_and_space(page: Any, base_settings) -> None:  # type: ignore[no-untyped-def]
    text = page.inner_text("[data-testid=stream]")
    assert "Successfully set your parameters" in text
    assert "InvalidGrassError" not in text and "node.Justification" in text
    guide = page.locator(
        "[data-testid=frame]", has=page.locator("[data-testid=frameCommand]", has_text="belief-graph/guide.html")
    )
    assert guide.count() == 1 and GUIDE_TITLE in guide.inner_text()
    page.screenshot(path=str(artifacts_dir("browser") / "logged-in-guide-open.png"))
    guide.screenshot(path=str(artifacts_dir("browser") / "guide.png"))
    # one slide per curated question after the introduction, each block = the file's :param lines + query
    blocks = []
    for q in questions(get_registry()):
        guide.locator("[data-testid=nextSlide]").click()
        block = guide.locator("pre.runnable")
        assert block.count() == 1, q.title
        assert q.title in guide.inner_text()
        blocks.append(block.inner_text().strip())
    for q, text in zip(questions(get_registry()), blocks, strict=True):
        assert text == runnable(q.query, base_settings.space).strip(), q.query.name
    guide.locator("[data-testid=nextSlide]").click()  # the last slide: how to reload style and guide
    assert "style.grass" in guide.inner_text()
    assert f'"{base_settings.space}"' in _run(page, "RETURN $space AS space")


def test_every_curated_question_runs_in_browser(page: Any, explore_world: World) -> None:
    with BeliefGraph.connect(
        space=explore_world.space, settings=explore_world.settings, embedder=HashingEmbedder()
    ) as bg:
        for q in questions(get_registry()):
            params = explore_world.params()[q.query.name]
            expected = len(bg.explore.run(q.query.name, params).rows)
            for line in param_lines(q.query, {"space": explore_world.space, **params}):
                assert "Successfully set your parameters" in _run(page, line), line
            out = _run(page, q.query.text)
            assert "ERROR" not in out and "Neo.ClientError" not in out, (q.query.name, out[:1500])
            out = _table(page) if "Displaying" in out else out
            if expected:
                assert f"Started streaming {expected} record" in out, (q.query.name, expected, out[-400:])
            else:
                assert "no records" in out, (q.query.name, out[-400:])


def test_a_styled_graph(page: Any, explore_world: World) -> None:
    q = get_registry()["explore.why_believed"]
    for line in param_lines(q, {"space": explore_world.space, "key": "user.timezone"}):
        _run(page, line)
    _run(page, q.text)
    frame = page.locator("[data-testid=frame]").first
    page.wait_for_timeout(2500)  # the force layout settles
    circles = page.evaluate(
        "f => Array.from(f.querySelectorAll('svg g.node circle.b-outline')).map(c => [c.getAttribute('fill'), c.getAttribute('r')])",
        frame.element_handle(),
    )
    frame.screenshot(path=str(artifacts_dir("browser") / "styled-graph.png"))
    fills = sorted(str(f).upper() for f, _ in circles)
    assert len(circles) == explore_world.expected["support"], circles
    assert fills.count("#CFD8DC") == 2  # the two justifications, small and grey
    assert sorted(float(r) for f, r in circles if str(f).upper() == "#CFD8DC") == [9.0, 9.0]
    assert "#00897B" in fills and "#1565C0" in fills  # the episode, the fact


def _drawn(page: Any) -> list[tuple[str, str]]:
    """(fill, caption) of every node drawn in the newest frame, after the layout settles."""
    frame = page.locator("[data-testid=frame]").first
    page.wait_for_timeout(2500)
    nodes = page.evaluate(
        "f => Array.from(f.querySelectorAll('svg g.node')).map(g => ["
        "(g.querySelector('circle.b-outline') || {getAttribute: () => ''}).getAttribute('fill'), "
        "Array.from(g.querySelectorAll('text')).map(t => t.textContent).join(' ').trim()])",
        frame.element_handle(),
    )
    return [(str(f).upper(), str(c)) for f, c in nodes]


def test_arguments_and_proposals_are_coloured_by_grounded_label(page: Any, explore_world: World) -> None:
    """The grounded marks (:In, :Out, :Undec) colour arguments and proposals as the HTML views do:
    IN green, OUT red (the caption is the `label` property)."""
    colour = {"IN": "#2E7D32", "OUT": "#C62828", "UNDEC": "#F9A825"}
    params = explore_world.params()
    for name, expected, shot in (
        ("explore.show_framework", {"a": "IN", "b": "OUT", "c": "IN"}, "styled-framework.png"),
        ("explore.show_attack_graph", explore_world.expected["labels"], "styled-attack-graph.png"),
    ):
        q = get_registry()[name]
        for line in param_lines(q, {"space": explore_world.space, **params[name]}):
            _run(page, line)
        _run(page, q.text)
        drawn = _drawn(page)
        page.locator("[data-testid=frame]").first.screenshot(path=str(artifacts_dir("browser") / shot))
        labelled = sorted((c, f) for f, c in drawn if c in colour)
        assert labelled == sorted((lab, colour[lab]) for lab in expected.values()), (name, drawn)
