"""Neo4j Browser on the local server, in headless Chromium, used as a user uses it: log in, the
guide opens in the sidebar beside a clean stream, each question's blocks are clicked and run
(Ctrl+Enter) and the graph is drawn with the style; nothing the page asks for leaves the machine.
Screenshots are kept in .ci/work/artifacts/browser/ (the first screen, the guide, styled graphs)."""

from __future__ import annotations

import re
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from explore_world import CHROMIUM_FLAGS, World, artifacts_dir, chromium

from belief_graph import BeliefGraph
from belief_graph.console.browser import login_params, params_command, runnable
from belief_graph.console.curated import questions
from belief_graph.db.registry import get_registry
from belief_graph.embeddings import HashingEmbedder
from belief_graph.localserver import LocalServer

GUIDE_TITLE = "a tour of the memory"
LOOPBACK = {"127.0.0.1", "localhost"}


@pytest.fixture(scope="module")
def browser_url(base_settings) -> str:  # type: ignore[no-untyped-def]
    st = LocalServer(base_settings.server, base_settings.neo4j, space=base_settings.space).status()
    if not (st.running and st.browser_url):
        pytest.fail(
            "Neo4j Browser tests need the local server with Browser on (belief-graph server start)", pytrace=False
        )
    return st.browser_url


@pytest.fixture(scope="module")
def requests_seen() -> dict[str, dict[str, Any]]:
    """Every request the page made (CDP's Network domain): url, and why it failed if it did."""
    return {}


@pytest.fixture(scope="module")
def page(browser_url: str, base_settings, requests_seen) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    host_port = base_settings.neo4j.uri.split("://", 1)[1]
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        ctx = p.chromium.launch_persistent_context(
            profile,
            executable_path=chromium(),
            args=CHROMIUM_FLAGS,
            headless=True,
            viewport={"width": 1400, "height": 1000},
            permissions=["clipboard-read", "clipboard-write"],
        )
        pg = ctx.new_page()
        cdp = ctx.new_cdp_session(pg)
        cdp.send("Network.enable")
        cdp.on(
            "Network.requestWillBeSent",
            lambda e: requests_seen.setdefault(e["requestId"], {}).update(url=e["request"]["url"]),
        )
        cdp.on(
            "Network.loadingFailed",
            lambda e: requests_seen.setdefault(e["requestId"], {}).update(
                blocked=e.get("blockedReason"), error=e.get("errorText")
            ),
        )
        pg.set_default_timeout(60000)
        pg.goto(browser_url, wait_until="domcontentloaded", timeout=120000)
        pg.select_option("select", "bolt://")
        pg.fill("[data-testid=boltaddress]", host_port)
        pg.fill("[data-testid=username]", base_settings.neo4j.user)
        pg.fill("[data-testid=password]", base_settings.neo4j.password.get_secret_value())
        pg.click("[data-testid=connect]")
        pg.wait_for_selector(f"text={GUIDE_TITLE}", timeout=60000)
        pg.wait_for_selector("text=Successfully set your parameters", timeout=60000)
        pg.wait_for_timeout(1500)  # let a late frame show, if one would
        yield pg
        ctx.close()


def _frames(page: Any) -> list[str]:
    cmds = page.locator("[data-testid=frameCommand]")
    return [str(cmds.nth(i).inner_text()) for i in range(cmds.count())]


def _goto(page: Any, title: str) -> None:
    """Open the guide's slide titled ``title`` with the guide's own Previous / Next buttons."""
    previous, following = page.locator("[data-testid=guidePreviousSlide]"), page.locator("[data-testid=guideNextSlide]")
    while previous.is_enabled():
        previous.click()
    for _ in range(15):
        if page.locator("h3", has_text=title).count():
            return
        following.click()
    raise AssertionError(f"no guide slide {title!r}")


def _click_and_run(page: Any, kind: str, edit: str | None = None) -> str:
    """Click the slide's ``params`` or ``query`` block (it goes into the editor), optionally edit
    the editor's text to ``edit`` as a user would (select all, paste), press Ctrl+Enter, and return
    the text of the frame the run made."""
    _run(page, ":clear")  # Browser keeps 15 frames at most: start from an empty stream
    block = page.locator(f"pre[data-block={kind}]")
    assert block.count() == 1, kind
    block.click()
    page.click("[data-testid=activeEditor]")
    if edit is not None:
        page.keyboard.press("Control+A")
        _paste(page, edit)
    return _submit(page, block.inner_text()[:60])


def _run(page: Any, command: str) -> str:
    """Type one command into the editor, run it, return the text of the frame it made (polled from
    Python: Browser's content security policy forbids the string evaluation of wait_for_function)."""
    page.click("[data-testid=activeEditor]")
    page.keyboard.press("Control+A")
    _paste(page, command)
    if command == ":clear":
        page.keyboard.press("Control+Enter")
        deadline = time.monotonic() + 30
        while page.locator("[data-testid=frame]").count() and time.monotonic() < deadline:
            time.sleep(0.1)
        return ""
    return _submit(page, command[:60])


def _submit(page: Any, what: str) -> str:
    frames = page.locator("[data-testid=frame]")
    before = frames.count()
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
        f"no result for {what!r} within 60 s: frames {before} -> {frames.count()}, "
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


def test_the_first_screen_is_the_guide_beside_one_parameter_frame(page: Any, base_settings) -> None:  # type: ignore[no-untyped-def]
    """No style listing, no Neo4j welcome panel, no login form left in the stream: the login's
    parameters (their frame says which space) and the guide in the sidebar, whatever order the
    login's commands finish in."""
    page.screenshot(path=str(artifacts_dir("browser") / "logged-in-guide-open.png"))
    frames = _frames(page)
    assert len(frames) == 1 and frames[0].startswith(":param [{space, key, limit}]"), frames
    stream = page.inner_text("[data-testid=stream]")
    assert f'"space": "{base_settings.space}"' in stream and "node.Justification" not in stream
    assert GUIDE_TITLE in page.locator("h3", has_text=GUIDE_TITLE).first.inner_text()
    assert set(login_params(get_registry(), base_settings.space)) == {"space", "key", "limit"}


def test_guide_slides_hold_a_parameter_block_and_a_query_block(page: Any, base_settings) -> None:  # type: ignore[no-untyped-def]
    for q in questions(get_registry()):
        _goto(page, q.title)
        assert page.locator("pre[data-block=params]").inner_text().strip() == params_command(
            q.query, base_settings.space
        )
        assert page.locator("pre[data-block=query]").inner_text().strip() == runnable(q.query).strip()
    _goto(page, "Style and this guide")
    assert "style.grass" in page.locator("h3", has_text="Style and this guide").locator("..").inner_text()


def test_every_curated_question_runs_from_its_blocks(page: Any, explore_world: World) -> None:
    """As a user: click the parameter block, edit its values to name the world's things, run it;
    click the query block, run it; the frame has the rows the driver returns."""
    with BeliefGraph.connect(
        space=explore_world.space, settings=explore_world.settings, embedder=HashingEmbedder()
    ) as bg:
        for q in questions(get_registry()):
            params = explore_world.params()[q.query.name]
            expected = len(bg.explore.run(q.query.name, params).rows)
            _goto(page, q.title)
            edited = _edited(q.query, explore_world.space, params)
            assert "Successfully set your parameters" in _click_and_run(page, "params", edit=edited), q.title
            out = _click_and_run(page, "query")
            assert "ERROR" not in out and "Neo.ClientError" not in out, (q.query.name, out[:1500])
            out = _table(page) if "Displaying" in out else out
            if expected:
                assert f"Started streaming {expected} record" in out, (q.query.name, expected, out[-400:])
            else:
                assert "no records" in out, (q.query.name, out[-400:])


def _edited(query: Any, space: str, values: dict[str, Any]) -> str:
    """The parameter block as a user leaves it after typing the values in."""
    from belief_graph.console.curated import cypher_literal

    text = params_command(query, space)
    for name, value in values.items():
        example = dict(query.examples)[name]
        text = text.replace(f"{example} AS {name}", f"{cypher_literal(value)} AS {name}")
    return text


def test_one_click_on_the_query_block_and_run_draws_the_styled_graph(page: Any, explore_world: World) -> None:
    """The parameters of the question are set (here: by its own block); then the query block, one
    click and Ctrl+Enter, draws the graph with the style (justifications small and grey)."""
    q = get_registry()["explore.why_believed"]
    _goto(page, "Why is X believed?")
    _click_and_run(page, "params", edit=_edited(q, explore_world.space, {"key": "user.timezone"}))
    out = _click_and_run(page, "query")
    assert "Displaying 6 nodes" in out or "Displaying" in out, out[:500]
    circles = [(f, r) for f, r in _circles(page)]
    page.locator("[data-testid=frame]").first.screenshot(path=str(artifacts_dir("browser") / "styled-graph.png"))
    fills = sorted(str(f).upper() for f, _ in circles)
    assert len(circles) == explore_world.expected["support"], circles
    assert fills.count("#CFD8DC") == 2  # the two justifications, small and grey
    assert sorted(float(r) for f, r in circles if str(f).upper() == "#CFD8DC") == [9.0, 9.0]
    assert "#00897B" in fills and "#1565C0" in fills  # the episode, the fact


def _circles(page: Any) -> list[tuple[str, str]]:
    frame = page.locator("[data-testid=frame]").first
    page.wait_for_timeout(2500)  # the force layout settles
    circles = frame.locator("svg g.node circle.b-outline")
    return [
        (str(circles.nth(i).get_attribute("fill")), str(circles.nth(i).get_attribute("r")))
        for i in range(circles.count())
    ]


def test_nothing_the_page_asks_for_leaves_the_machine(page: Any, requests_seen: dict[str, dict[str, Any]]) -> None:
    """Browser on Community loads analytics (segment), a feedback widget (canny), an error reporter
    (sentry) and Google Fonts whatever its settings say; the server's content security policy
    stops each such request in the page, before it is sent. Any request to another host that was
    not stopped so fails this test."""
    seen = [r for r in requests_seen.values() if "url" in r]
    assert any(urllib.parse.urlsplit(r["url"]).hostname in LOOPBACK for r in seen)  # the capture works
    left = [
        r
        for r in seen
        if urllib.parse.urlsplit(r["url"]).scheme in ("http", "https", "ws", "wss")
        and urllib.parse.urlsplit(r["url"]).hostname not in LOOPBACK
        and r.get("blocked") != "csp"
    ]
    assert left == [], left


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
        _goto(page, next(x.title for x in questions(get_registry()) if x.query.name == name))
        _click_and_run(page, "params", edit=_edited(q, explore_world.space, params[name]))
        _click_and_run(page, "query")
        drawn = _drawn(page)
        page.locator("[data-testid=frame]").first.screenshot(path=str(artifacts_dir("browser") / shot))
        labelled = sorted((c, f) for f, c in drawn if c in colour)
        assert labelled == sorted((lab, colour[lab]) for lab in expected.values()), (name, drawn)
