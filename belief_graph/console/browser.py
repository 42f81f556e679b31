"""Neo4j Browser on the local server, with the belief_graph guide, style and parameters.

The Browser is ``org.neo4j.client:neo4j-browser`` from Maven Central (GPL-3.0, about 15 MB),
fetched once next to the server's jars. Neo4j serves it at ``/browser/`` from the ``browser/``
folder of the first jar on the classpath that has one, and serves nothing else statically, so the
guide and the style ride along in that jar: at each start the server runs a local copy of the
Browser jar with three more files under ``browser/belief-graph/``::

    <home>/dist/neo4j-browser-<version>/
      neo4j-browser-<version>.jar        as fetched (never changed)
      COMPLETE                            written last by the fetch
    <home>/browser/
      neo4j-browser-belief-graph.jar      the copy with browser/belief-graph/{guide.html,style.grass,guide.md}
      overlay.sha256                      what the copy was built from (rebuilt when it changes)

On login Browser runs ``browser.post_connect_cmd`` (see :func:`post_connect_cmd`): it loads the
style, clears the stream, sets ``$space`` (and the parameters every question agrees on) and opens
the guide in the sidebar. The guide has one slide per curated question (the ``explore.*`` queries
of the registry), each with two runnable blocks of one command each: the question's parameters
(:func:`params_command`) and its statement exactly as in ``cypher/explore/`` (:func:`runnable`).
Browser runs a block of several commands as a script that draws nothing, hence two blocks.

Status in Browser: Browser styles nodes by label only. Claims carry a status label next to
``status`` (``:Active``, ``:Superseded``, ``:Disputed``, ``:Withdrawn``, ``:Retracted``,
``:Stale``; ``:Retracted`` also on retracted episodes), maintained by the statements that set
the status; the style colours those labels. Arguments and proposals (and claims enlisted as
arguments) carry the mark of their grounded ``label`` the same way (``:In``, ``:Out``, ``:Undec``,
:data:`GROUNDED_LABELS`), written by the statements that write ``label``; the style colours them
like the HTML views (IN green, OUT red, UNDEC amber) and shows ``label`` as the caption.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import shutil
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..db.registry import Query, QueryRegistry
from .curated import questions

__all__ = [
    "ARTIFACT",
    "BrowserFiles",
    "MOUNT",
    "GROUNDED_LABELS",
    "STATUS_LABELS",
    "guide_html",
    "guide_markdown",
    "overlay_files",
    "login_params",
    "palette",
    "params_command",
    "runnable",
    "post_connect_cmd",
    "style_grass",
    "style_json",
    "style_rules",
]

log = logging.getLogger(__name__)

ARTIFACT = "org.neo4j.client:neo4j-browser"
MOUNT = "belief-graph"
"""The folder under ``/browser/`` that serves the guide and the style."""

STATUS_LABELS: Mapping[str, str] = {
    "active": "Active",
    "superseded": "Superseded",
    "disputed": "Disputed",
    "withdrawn": "Withdrawn",
    "retracted": "Retracted",
    "stale": "Stale",
}
"""Claim status -> the label that mirrors it (what Browser and Bloom colour)."""

GROUNDED_LABELS: Mapping[str, str] = {"IN": "In", "OUT": "Out", "UNDEC": "Undec"}
"""Grounded ``label`` of an argument or proposal -> the mark that mirrors it (what Browser and
Bloom colour; the same colours as the HTML views)."""

_PALETTE = {
    # claims by status label
    "Active": "#2E7D32",
    "Superseded": "#9E9E9E",
    "Disputed": "#F9A825",
    "Withdrawn": "#BDBDBD",
    "Retracted": "#C62828",
    "Stale": "#8D6E63",
    # arguments and proposals by grounded mark (as the HTML views: IN green, OUT red, UNDEC amber)
    "In": "#2E7D32",
    "Out": "#C62828",
    "Undec": "#F9A825",
    # other labels
    "Claim": "#4C8EDA",
    "Interpretation": "#7E57C2",
    "Episode": "#00897B",
    "Fact": "#1565C0",
    "Justification": "#CFD8DC",
    "Audit": "#6D4C41",
    "Revision": "#ECEFF1",
    "Dispute": "#EF6C00",
    "Deliberation": "#283593",
    "Proposal": "#5C6BC0",
    "Perspective": "#AD1457",
    "Concept": "#F48FB1",
    "Argument": "#546E7A",
    "Framework": "#37474F",
    "Agent": "#78909C",
    "Rule": "#00838F",
    "RuleInstance": "#80DEEA",
    "KeySchema": "#4DB6AC",
}


def params_command(query: Query, space: str) -> str:
    """The guide block that sets one question's parameters in one command: ``space`` and the
    header's example values, evaluated by the server as Cypher (so ``300`` stays an integer)::

        :param [{space, key}] => { RETURN 'demo' AS space, 'user.risk_tolerance' AS key }

    Browser's editor runs a block of several commands as a script whose frame reports "Completed"
    per statement and draws nothing, so parameters and query are two blocks, each one command.
    """
    values = {"space": _cypher_string(space)}
    values.update((name, example) for name, example in query.examples if name != "space")
    return _params_lambda(values)


def _params_lambda(values: Mapping[str, str]) -> str:
    """``:param [{a, b}] => { RETURN <a> AS a, <b> AS b }`` without its leading colon."""
    names = ", ".join(values)
    returns = ", ".join(f"{literal} AS {name}" for name, literal in values.items())
    return f":param [{{{names}}}] => {{ RETURN {returns} }}"


def runnable(query: Query) -> str:
    """The guide block that asks the question: the file's statement alone, one command, so one
    click and a run draw the graph with the parameters set."""
    return query.text


def login_params(registry: QueryRegistry, space: str) -> dict[str, str]:
    """The parameters set on login (name -> Cypher literal): ``space``, and each parameter whose
    header example is the same in every curated question that takes it (``key``, ``limit``), so
    the questions that take only those run at once. Parameters whose examples differ (``id`` is an
    episode in one question and an audit in another) are set by the question's own block."""
    seen: dict[str, set[str]] = {}
    for q in questions(registry):
        for name, example in q.query.examples:
            seen.setdefault(name, set()).add(example)
    out = {"space": _cypher_string(space)}
    out.update({name: next(iter(ex)) for name, ex in seen.items() if name != "space" and len(ex) == 1})
    return out


def _pre(text: str, query: str, kind: str) -> str:
    return (
        f'<pre mode="cypher" class="pre-scrollable code runnable standalone-example ng-binding" '
        f'data-query="{html.escape(query)}" data-block="{kind}">{html.escape(text)}</pre>'
    )


def guide_html(registry: QueryRegistry, space: str) -> str:
    """The Browser guide (``:guide`` in the sidebar, or ``:play``): an introduction, one slide per
    curated question, the style."""
    slides: list[str] = []
    at_login = ", ".join(f"<code>${html.escape(n)}</code>" for n in login_params(registry, space))
    intro = (
        "<h3>belief_graph: a tour of the memory</h3>"
        f"<p>Space <code>{html.escape(space)}</code>. On login Browser set {at_login} and loaded the "
        "belief_graph style.</p>"
        "<p>Each slide asks one question with two blocks. Click a block to put it into the editor, "
        "then run it (Ctrl+Enter or the run button): the first sets the question's parameters "
        "(edit the values before you run it), the second is the question and draws the graph. "
        "The same files run in <code>belief-graph shell</code> and <code>belief-graph query run</code>.</p>"
        "<p>Another space: click and run</p>"
        + _pre(":param space => 'demo'", "space", "space")
        + "<p>(<code>demo</code> is the space <code>belief-graph demo</code> fills).</p>"
        "<p>Colours: claims by status label (<b style='color:#2E7D32'>Active</b>, "
        "<b style='color:#9E9E9E'>Superseded</b>, <b style='color:#F9A825'>Disputed</b>, "
        "<b style='color:#BDBDBD'>Withdrawn</b>, <b style='color:#C62828'>Retracted</b>, "
        "<b style='color:#8D6E63'>Stale</b>); arguments and proposals by grounded label "
        "(<b style='color:#2E7D32'>IN</b>, <b style='color:#C62828'>OUT</b>, <b style='color:#F9A825'>UNDEC</b>); "
        "episodes teal, facts blue, justifications small and grey.</p>"
    )
    slides.append(intro)
    for q in questions(registry):
        query, title, note = q.query, q.title, q.note
        params, statement = params_command(query, space), runnable(query)
        slides.append(
            f"<h3>{html.escape(title)}</h3>"
            f"<p>{html.escape(note)}</p>"
            f"<p>1. Set the parameters (edit the values first):</p>{_pre(params, query.name, 'params')}"
            f"<p>2. Ask the question:</p>{_pre(statement, query.name, 'query')}"
            f"<p><small><code>cypher/{html.escape(query.name.replace('.', '/'))}.cypher</code> &middot; "
            f"<code>belief-graph query run {html.escape(q.short_name)}</code></small></p>"
        )
    slides.append(
        "<h3>Style and this guide</h3><p>Both were loaded on login (<code>browser.post_connect_cmd</code> "
        "in the generated <code>neo4j.conf</code>). <code>:style</code> shows the style; "
        f"<code>:style http://127.0.0.1:&lt;http port&gt;/browser/{MOUNT}/style.grass</code> loads it again "
        f"after <code>:style reset</code>; <code>:guide http://127.0.0.1:&lt;http port&gt;/browser/{MOUNT}/guide.html</code> "
        "reopens this guide.</p>"
    )
    body = "\n".join(f'<slide class="row-fluid"><div class="col-sm-12">{s}</div></slide>' for s in slides)
    return (
        "<title>belief_graph: a tour of the memory</title>\n"
        '<article class="guide" ng-controller="AppCtrl">\n'
        '<carousel class="deck container-fluid">\n'
        f"{body}\n"
        "</carousel>\n</article>\n"
    )


def guide_markdown(registry: QueryRegistry, space: str) -> str:
    """The same tour as Markdown (for reading outside Browser, e.g. docs)."""
    out = ["# belief_graph: a tour of the memory", ""]
    for q in questions(registry):
        query, title, note = q.query, q.title, q.note
        out += [f"## {title}", "", note, "", "```cypher", params_command(query, space), "", runnable(query), "```", ""]
    return "\n".join(out)


def style_rules() -> dict[str, dict[str, str]]:
    """The Browser style as selector -> properties, in order (Browser merges every rule whose
    labels a node has and later rules win): claims coloured by status label, arguments and
    proposals by grounded mark, justifications small."""
    rules: dict[str, dict[str, str]] = {
        "node": {
            "diameter": "50px",
            "color": "#A5ABB6",
            "border-color": "#9AA1AC",
            "border-width": "2px",
            "text-color-internal": "#FFFFFF",
            "font-size": "10px",
        },
        "relationship": {
            "color": "#A5ABB6",
            "shaft-width": "1px",
            "font-size": "8px",
            "padding": "3px",
            "text-color-external": "#000000",
            "text-color-internal": "#FFFFFF",
            "caption": "<type>",
        },
    }

    def node(label: str, caption: str, diameter: int, text: str = "#FFFFFF") -> None:
        color = _PALETTE[label]
        rules[f"node.{label}"] = {
            "color": color,
            "border-color": _darker(color),
            "text-color-internal": text,
            "diameter": f"{diameter}px",
            "caption": caption,
        }

    # Order matters: the grounded marks come after Argument / Proposal, and the status labels after
    # Claim / Interpretation and after the marks (a claim enlisted as an argument keeps its status colour).
    for label, caption, diameter, *text in (
        ("Fact", "{key}", 55),
        ("Episode", "{text}", 50),
        ("Claim", "{text}", 60),
        ("Interpretation", "{text}", 55),
        ("Justification", "{rule}", 18, "#37474F"),
        ("Revision", "{status}", 25, "#37474F"),
        ("Audit", "{op}", 45),
        ("Dispute", "{status}", 45),
        ("Deliberation", "{query}", 60),
        ("Proposal", "{label}", 55),
        ("Perspective", "{name}", 55),
        ("Concept", "{name}", 40, "#37474F"),
        ("Argument", "{label}", 35),
        ("Framework", "{name}", 55),
        ("Agent", "{id}", 35),
        ("Rule", "{name}", 45),
        ("RuleInstance", "{id}", 20, "#37474F"),
        ("KeySchema", "{version}", 35),
    ):
        node(str(label), str(caption), int(diameter), *(str(t) for t in text))
    for mark in GROUNDED_LABELS.values():
        color = _PALETTE[mark]
        rules[f"node.{mark}"] = {
            "color": color,
            "border-color": _darker(color),
            "text-color-internal": "#37474F" if mark == "Undec" else "#FFFFFF",
        }
    for status_label in STATUS_LABELS.values():
        color = _PALETTE[status_label]
        rules[f"node.{status_label}"] = {
            "color": color,
            "border-color": _darker(color),
            "text-color-internal": "#37474F" if status_label in ("Withdrawn", "Superseded") else "#FFFFFF",
        }
    for rel, color, width in (
        ("CURRENT", "#1565C0", 3),
        ("SUPERSEDES", "#9E9E9E", 2),
        ("PREMISE_OF", "#00897B", 1),
        ("JUSTIFIES", "#2E7D32", 1),
        ("ATTACKS", "#C62828", 2),
        ("WITHDREW", "#BDBDBD", 2),
        ("STALED", "#8D6E63", 2),
        ("REINSTATED", "#2E7D32", 2),
        ("ROOT", "#C62828", 2),
    ):
        rules[f"relationship.{rel}"] = {"color": color, "shaft-width": f"{width}px"}
    return rules


_QUOTED = ("caption",)


def style_grass() -> str:
    """The Browser style as a GraSS file (what ``:style URL`` loads; see :func:`style_rules`)."""
    out = []
    for selector, props in style_rules().items():
        body = "".join(f"  {k}: {chr(39) + v + chr(39) if k in _QUOTED else v};\n" for k, v in props.items())
        out.append(f"{selector} {{\n{body}}}")
    return "\n".join(out) + "\n"


def style_json() -> str:
    """The same style as the JSON Browser's ``:style`` also takes inline: one line, no ``;``
    outside strings, so it fits ``browser.post_connect_cmd`` and loads without a fetch."""
    return json.dumps(style_rules(), separators=(",", ":"))


def _darker(color: str) -> str:
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02X}{:02X}{:02X}".format(*(int(v * 0.8) for v in (r, g, b)))


def _cypher_string(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def post_connect_cmd(registry: QueryRegistry, space: str, http_url: str) -> str:
    """``browser.post_connect_cmd``: a clean first screen with the guide in front.

    In order: load the style inline (``:style {json}`` adds its frame at once, no fetch), ``:clear``
    the stream (that frame, the login form's and Browser's own welcome ``:play start``, which the
    connection runs before this command), set the login parameters (:func:`login_params`; parsed
    in Browser, so their frame comes after the clear and is the only one left) and open the guide
    in the sidebar (``:guide``), which stays beside the stream whatever the order frames arrive in.

    Browser fetches ``:guide`` content only from absolute URLs whose host is on
    ``browser.remote_content_hostname_whitelist``; ``http_url`` is the server's own
    ``http://127.0.0.1:<port>``.
    """
    base = f"{http_url.rstrip('/')}/browser/{MOUNT}"
    return "; ".join(
        [
            f"style {style_json()}",
            "clear",
            _params_lambda(login_params(registry, space))[1:],
            f"guide {base}/guide.html",
        ]
    )


# --------------------------------------------------------------------------------------------
# Files on disk: the fetched jar and the copy with the guide
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BrowserFiles:
    """Where the Browser lives under a server home."""

    home: Path
    version: str

    @property
    def dist_dir(self) -> Path:
        return self.home / "dist" / f"neo4j-browser-{self.version}"

    @property
    def jar(self) -> Path:
        return self.dist_dir / f"neo4j-browser-{self.version}.jar"

    @property
    def marker(self) -> Path:
        return self.dist_dir / "COMPLETE"

    @property
    def overlay_dir(self) -> Path:
        return self.home / "browser"

    @property
    def overlay_jar(self) -> Path:
        return self.overlay_dir / "neo4j-browser-belief-graph.jar"

    def is_installed(self) -> bool:
        return self.marker.is_file() and self.jar.is_file()

    def write_overlay(self, extra: Mapping[str, str]) -> Path:
        """The Browser jar plus ``browser/<MOUNT>/<name>`` for each of ``extra``; rebuilt only when
        the Browser jar or a file changed. Returns the jar to put on the classpath."""
        digest = hashlib.sha256()
        digest.update(f"{self.jar.name}:{self.jar.stat().st_size}:{self.jar.stat().st_mtime_ns}".encode())
        for name in sorted(extra):
            digest.update(name.encode() + b"\0" + extra[name].encode() + b"\0")
        stamp = self.overlay_dir / "overlay.sha256"
        want = digest.hexdigest()
        if self.overlay_jar.is_file() and stamp.is_file() and stamp.read_text().strip() == want:
            return self.overlay_jar
        self.overlay_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.overlay_jar.with_suffix(".tmp")
        shutil.copyfile(self.jar, tmp)
        with zipfile.ZipFile(tmp, "a", compression=zipfile.ZIP_DEFLATED) as z:
            for name in sorted(extra):
                z.writestr(f"browser/{MOUNT}/{name}", extra[name])
        tmp.replace(self.overlay_jar)
        stamp.write_text(want + "\n")
        return self.overlay_jar


def overlay_files(registry: QueryRegistry, space: str) -> dict[str, str]:
    """The files served under ``/browser/belief-graph/``."""
    return {
        "guide.html": guide_html(registry, space),
        "guide.md": guide_markdown(registry, space),
        "style.grass": style_grass(),
    }


def palette() -> dict[str, str]:
    """Label -> colour, shared by the Browser style, the Bloom perspective and the HTML views."""
    return dict(_PALETTE)
