"""Exploration without a database: curated questions and their parameters, the Browser guide,
style and conf lines, the vendored view libraries, the HTML page, progress on a terminal."""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from belief_graph.cli.progress import activity
from belief_graph.console import browser
from belief_graph.console.curated import cypher_literal, param_lines, parse_param_pairs, question, questions, script
from belief_graph.db.registry import get_registry
from belief_graph.errors import ValidationError
from belief_graph.localserver import java_command, render_conf
from belief_graph.settings import ServerSettings
from belief_graph.viz import GraphView
from belief_graph.viz.graph import GraphData, ViewEdge, ViewNode

REGISTRY = get_registry()
ASSETS = Path(__file__).resolve().parents[2] / "belief_graph" / "viz" / "assets"


def test_every_explore_query_is_a_curated_question_once() -> None:
    names = [q.query.name for q in questions(REGISTRY)]
    assert sorted(names) == sorted(n for n in REGISTRY.names() if n.startswith("explore."))
    assert len(set(names)) == len(names)
    assert all(q.query.mode == "read" and "space" in q.query.params for q in questions(REGISTRY))
    assert question(REGISTRY, "why_believed").query.name == "explore.why_believed"
    with pytest.raises(ValidationError, match="no curated query"):
        question(REGISTRY, "claim.create_claim")


def test_params_take_the_type_of_the_header_example() -> None:
    fw = REGISTRY["explore.show_framework"]
    assert parse_param_pairs(fw, ["name=af 1", "limit=20"]) == {"name": "af 1", "limit": 20}
    assert parse_param_pairs(REGISTRY["explore.why_believed"], ["key=a=b"]) == {"key": "a=b"}
    for bad, why in (
        (["limit=x"], "integer"),
        (["nope=1"], "has no parameter"),
        (["name"], "expected -p"),
        (["name=a", "name=b"], "twice"),
    ):
        with pytest.raises(ValidationError, match=why):
            parse_param_pairs(fw, bad)


def test_script_is_the_header_param_lines_then_the_statement() -> None:
    q = REGISTRY["explore.why_believed"]
    text = script(q, {"space": "s1"})
    assert text.splitlines()[:2] == [":param space => 's1'", ":param key => 'user.risk_tolerance'"]
    assert text.endswith(q.text + ";\n")
    assert param_lines(q) == [f":param {n} => {v}" for n, v in q.examples]
    assert cypher_literal("it's \\ here") == "'it\\'s \\\\ here'"
    assert cypher_literal({"a b": [1, 2.5, True, None]}) == "{`a b`: [1, 2.5, true, null]}"


def test_guide_has_a_parameter_block_and_a_query_block_per_question() -> None:
    """Each block is one command: Browser runs a block of several as a script that draws nothing."""
    import html as h

    text = browser.guide_html(REGISTRY, "alice")
    blocks = [
        (name, kind, h.unescape(body))
        for name, kind, body in re.findall(r'data-query="([^"]+)" data-block="(\w+)">(.*?)</pre>', text, re.S)
    ]
    assert blocks[0] == ("space", "space", ":param space => 'demo'")  # the intro's switch to the demo's space
    per_question = blocks[1:]
    assert [(n, k) for n, k, _ in per_question] == [
        (q.query.name, kind) for q in questions(REGISTRY) for kind in ("params", "query")
    ]
    for q, (params, query) in zip(
        questions(REGISTRY), zip(per_question[::2], per_question[1::2], strict=True), strict=True
    ):
        assert query[2] == q.query.text and ";" not in q.query.text  # one statement
        names = ", ".join(n for n, _ in q.query.examples)
        returns = ", ".join(("'alice'" if n == "space" else ex) + f" AS {n}" for n, ex in q.query.examples)
        assert params[2] == f":param [{{{names}}}] => {{ RETURN {returns} }}"
    assert browser.params_command(REGISTRY["explore.show_framework"], "it's") == (
        ":param [{space, name, limit}] => { RETURN 'it\\'s' AS space, 'ex1' AS name, 300 AS limit }"
    )


def test_login_sets_the_parameters_every_question_agrees_on() -> None:
    assert browser.login_params(REGISTRY, "alice") == {
        "space": "'alice'",
        "key": "'user.risk_tolerance'",
        "limit": "300",
    }


def test_style_json_is_the_grass_file_as_one_line_without_semicolons() -> None:
    import json

    rules = json.loads(browser.style_json())
    assert list(rules) == [m.group(1) for m in re.finditer(r"^([\w.]+) \{", browser.style_grass(), re.M)]
    assert rules["node.Justification"]["diameter"] == "18px" and rules["node.Fact"]["caption"] == "{key}"
    assert ";" not in browser.style_json() and "\n" not in browser.style_json()


def test_style_colours_status_labels_and_grounded_marks_in_order_and_keeps_justifications_small() -> None:
    grass = browser.style_grass()
    order = [m.group(1) for m in re.finditer(r"^node\.(\w+) \{", grass, re.M)]
    for label in browser.STATUS_LABELS.values():
        assert order.index(label) > order.index("Claim") and order.index(label) > order.index("Interpretation")
    # the grounded marks win over Argument / Proposal, the status labels over the marks (an enlisted
    # claim keeps its status colour); the colours are the HTML views' IN green, OUT red, UNDEC amber
    for mark, colour in zip(browser.GROUNDED_LABELS.values(), ("#2E7D32", "#C62828", "#F9A825"), strict=True):
        assert order.index("Argument") < order.index(mark) and order.index("Proposal") < order.index(mark)
        assert order.index(mark) < min(order.index(s) for s in browser.STATUS_LABELS.values())
        rule = re.search(rf"node\.{mark} \{{(.*?)\}}", grass, re.S)
        assert rule is not None and f"color: {colour};" in rule.group(1)
    just = re.search(r"node\.Justification \{(.*?)\}", grass, re.S)
    assert just is not None and "diameter: 18px" in just.group(1)


def test_conf_serves_browser_only_when_on_and_http_is_enabled(tmp_path: Path) -> None:
    on = render_conf(ServerSettings(http_port=7474), home=tmp_path, data_dir=tmp_path / "d", space="alice")
    cmd = next(line for line in on.splitlines() if line.startswith("browser.post_connect_cmd="))
    assert cmd == (
        f"browser.post_connect_cmd=style {browser.style_json()}; clear; "
        "param [{space, key, limit}] => { RETURN 'alice' AS space, 'user.risk_tolerance' AS key, 300 AS limit }; "
        "guide http://127.0.0.1:7474/browser/belief-graph/guide.html"
    )
    assert "browser.remote_content_hostname_whitelist=localhost,127.0.0.1" in on
    csp = next(line for line in on.splitlines() if line.startswith("dbms.security.http_static_content_security"))
    assert "script-src 'self';" in csp and "connect-src 'self' http://127.0.0.1:7474 " in csp
    assert "ws://127.0.0.1:7687" in csp and "googleapis" not in csp and "segment" not in csp
    assert re.search(r"\s(https?|wss?):(\s|;|$)", csp) is None  # no scheme-wide source: hosts of this machine only
    off = render_conf(ServerSettings(browser=False), home=tmp_path, data_dir=tmp_path / "d")
    no_http = render_conf(ServerSettings(http_port=0), home=tmp_path, data_dir=tmp_path / "d")
    assert "browser." not in off and "browser." not in no_http
    argv = java_command(
        Path("/j/java"), tmp_path / "lib", ServerSettings(), home=tmp_path, extra_classpath=[tmp_path / "b.jar"]
    )
    assert argv[argv.index("-cp") + 1] == f"{tmp_path / 'lib' / '*'}:{tmp_path / 'b.jar'}"


def test_overlay_jar_adds_the_guide_and_is_rebuilt_only_on_change(tmp_path: Path) -> None:
    import zipfile

    files = browser.BrowserFiles(tmp_path, "1.2.3")
    files.dist_dir.mkdir(parents=True)
    with zipfile.ZipFile(files.jar, "w") as z:
        z.writestr("browser/index.html", "<html>browser</html>")
    jar = files.write_overlay({"guide.html": "<p>g</p>"})
    with zipfile.ZipFile(jar) as z:
        assert z.read("browser/index.html") == b"<html>browser</html>"
        assert z.read("browser/belief-graph/guide.html") == b"<p>g</p>"
    mtime = jar.stat().st_mtime_ns
    assert files.write_overlay({"guide.html": "<p>g</p>"}).stat().st_mtime_ns == mtime
    files.write_overlay({"guide.html": "<p>new</p>"})
    with zipfile.ZipFile(jar) as z:
        assert z.read("browser/belief-graph/guide.html") == b"<p>new</p>"


def test_vendored_files_match_their_provenance() -> None:
    table = (ASSETS / "PROVENANCE.md").read_text()
    rows = re.findall(r"^\| `([\w.-]+\.js)` \|.*\| `([0-9a-f]{64})` \|$", table, re.M)
    assert (
        {name for name, _ in rows}
        == {p.name for p in ASSETS.glob("*.js")}
        == {"cytoscape.min.js", "dagre.min.js", "cytoscape-dagre.js"}
    )
    for name, digest in rows:
        assert hashlib.sha256((ASSETS / name).read_bytes()).hexdigest() == digest, name
    for lic in ("cytoscape", "dagre", "graphlib", "lodash", "cytoscape-dagre"):
        assert (
            "MIT" in (ASSETS / f"LICENSE.{lic}.txt").read_text()
            or "Permission is hereby granted" in (ASSETS / f"LICENSE.{lic}.txt").read_text()
        )


def test_a_view_is_one_offline_page() -> None:
    g = GraphData()
    g.add_node(ViewNode(id="1", labels=["Claim"], properties={"text": "</script><b>x</b>", "status": "withdrawn"}))
    g.add_node(ViewNode(id="2", labels=["Argument"], properties={"name": "a", "label": "IN"}))
    g.add_node(ViewNode(id="1", labels=["Claim"]))  # the same node again is ignored
    g.add_edge(ViewEdge(id="e", type="ATTACKS", source="2", target="1"))
    g.add_edge(ViewEdge(id="dangling", type="X", source="2", target="nowhere"))
    view = GraphView("t <i>", g)
    page = view.to_html()
    assert page.count("</script>") == page.count("<script")  # the data cannot close its script
    assert not re.search(r"""(src|href)\s*=\s*["']?https?:""", page)  # nothing from the network
    assert "default-src 'none'" in page
    els = view.elements()
    assert len(els["nodes"]) == 2 and [e["data"]["id"] for e in els["edges"]] == ["e"]
    assert "greyed" in els["nodes"][0]["classes"] and "label-IN" in els["nodes"][1]["classes"]
    assert view._repr_html_().startswith("<iframe") and "t &lt;i&gt;" in view._repr_html_()


def test_progress_only_on_a_terminal_and_never_with_json() -> None:
    out = io.StringIO()
    with activity("importing 3 arguments", console=Console(file=out, force_terminal=True)) as act:
        act.say("solving")
    assert act.shown and "solving" in out.getvalue()
    quiet = io.StringIO()
    with activity("x", console=Console(file=quiet, force_terminal=True), quiet=True) as act:
        pass
    with activity("x", console=Console(file=quiet, force_terminal=False)) as act2:
        act2.say("y")
    assert not act.shown and not act2.shown and quiet.getvalue() == ""


def test_a_result_printed_under_the_spinner_starts_its_own_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """stdout and stderr on one terminal (one buffer here): the line a command prints while its
    spinner runs is not written at the end of the spinner's line."""
    from belief_graph.cli import progress

    terminal = io.StringIO()
    out = Console(file=terminal, force_terminal=True, width=100)
    monkeypatch.setattr(progress, "out_console", out)
    monkeypatch.setattr(progress, "err_console", Console(file=terminal, force_terminal=True, width=100))

    @progress.with_activity("importing the framework")
    def command() -> None:
        out.print("imported big: 3 arguments")

    command()
    before = terminal.getvalue().split("imported big")[0]
    assert "importing the framework" in before  # the spinner was drawn
    on_its_line = re.split(r"\r|\n|\x1b\[2K", before)[-1]
    assert re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", on_its_line) == "", repr(on_its_line)


def test_output_off_a_terminal_keeps_addresses_and_ids_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    from belief_graph.cli import common

    buf = io.StringIO()
    out = common.make_console(file=buf)
    url = "http://127.0.0.1:7474/browser/"
    out.print("Neo4j 5.26.30 running (pid 12345) at bolt://127.0.0.1:7687, Browser " + url + " " + "x" * 80)
    assert len(buf.getvalue().splitlines()) == 1 and url in buf.getvalue()  # not wrapped at 80 columns
    monkeypatch.setattr(common, "console", Console(file=(tab := io.StringIO()), width=60))
    ident = "0d970f35-6bb0-4dad-8ace-efe854b1edd4"
    common.table("audits", ["id", "op", "reason"], [[ident, "retract", "Alice was joking about the dog " * 3]])
    assert "\u2026" not in tab.getvalue()  # nothing cut with an ellipsis
    first_column = "".join(
        line.split("\u2502")[1].strip() for line in tab.getvalue().splitlines() if line.startswith("\u2502")
    )
    assert first_column == ident  # folded over lines, whole
