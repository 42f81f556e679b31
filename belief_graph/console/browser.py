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

On login Browser runs ``browser.post_connect_cmd`` (see :func:`post_connect_cmd`): it sets the
``$space`` parameter, loads the style and opens the guide. The guide has one slide per curated
question (the ``explore.*`` queries of the registry), each a runnable block made of the query's
``:param`` lines and the query itself, exactly as in ``cypher/explore/``.

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
import logging
import shutil
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..db.registry import Query, QueryRegistry
from .curated import questions, script

__all__ = [
    "ARTIFACT",
    "BrowserFiles",
    "MOUNT",
    "GROUNDED_LABELS",
    "STATUS_LABELS",
    "guide_html",
    "guide_markdown",
    "overlay_files",
    "palette",
    "runnable",
    "post_connect_cmd",
    "style_grass",
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


def runnable(query: Query, space: str) -> str:
    """What one guide block runs in Browser: the ``:param`` lines (``space`` set to ``space``),
    each ended by ``;`` (Browser's multi-statement editor runs them in order), then the query."""
    return script(query, {"space": space}, separator=";")


def guide_html(registry: QueryRegistry, space: str) -> str:
    """The Browser guide (``:play``): an introduction, one slide per curated question, the style."""
    slides: list[str] = []
    intro = (
        "<h3>belief_graph: a tour of the memory</h3>"
        f"<p>Space <code>{html.escape(space)}</code> (the <code>$space</code> parameter, set on login). "
        "Each slide asks one question; click a block to put it into the editor, edit the "
        "<code>:param</code> values, and run it (Ctrl+Enter). The same files run in "
        "<code>belief-graph shell</code> and <code>belief-graph query run</code>.</p>"
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
        slides.append(
            f"<h3>{html.escape(title)}</h3>"
            f"<p>{html.escape(note)}</p>"
            f"<p><small><code>cypher/{html.escape(query.name.replace('.', '/'))}.cypher</code> &middot; "
            f"<code>belief-graph query run {html.escape(q.short_name)}</code></small></p>"
            f'<pre mode="cypher" class="pre-scrollable code runnable standalone-example ng-binding" '
            f'data-query="{html.escape(query.name)}">{html.escape(runnable(query, space))}</pre>'
        )
    slides.append(
        "<h3>Style and this guide</h3><p>Both were loaded on login (<code>browser.post_connect_cmd</code> "
        "in the generated <code>neo4j.conf</code>). <code>:style</code> shows the style; "
        f"<code>:style http://127.0.0.1:&lt;http port&gt;/browser/{MOUNT}/style.grass</code> loads it again "
        f"after <code>:style reset</code>; <code>:play http://127.0.0.1:&lt;http port&gt;/browser/{MOUNT}/guide.html</code> "
        "reopens this guide.</p>"
    )
    body = "\n".join(f'<slide class="row-fluid"><div class="col-sm-12">{s}</div></slide>' for s in slides)
    return (
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
        out += [f"## {title}", "", note, "", "```cypher", runnable(query, space), "```", ""]
    return "\n".join(out)


def style_grass() -> str:
    """The Browser style (GraSS): claims coloured by status label, arguments and proposals by
    grounded mark, justifications small."""
    rules = [
        "node {\n  diameter: 50px;\n  color: #A5ABB6;\n  border-color: #9AA1AC;\n  border-width: 2px;\n"
        "  text-color-internal: #FFFFFF;\n  font-size: 10px;\n}",
        "relationship {\n  color: #A5ABB6;\n  shaft-width: 1px;\n  font-size: 8px;\n  padding: 3px;\n"
        "  text-color-external: #000000;\n  text-color-internal: #FFFFFF;\n  caption: '<type>';\n}",
    ]

    def node(label: str, caption: str, diameter: int, text: str = "#FFFFFF") -> str:
        color = _PALETTE[label]
        return (
            f"node.{label} {{\n  color: {color};\n  border-color: {_darker(color)};\n"
            f"  text-color-internal: {text};\n  diameter: {diameter}px;\n  caption: '{caption}';\n}}"
        )

    # Order matters: Browser merges every rule whose labels a node has, later rules win, so the
    # grounded marks come after Argument / Proposal, and the status labels after Claim /
    # Interpretation and after the marks (a claim enlisted as an argument keeps its status colour).
    rules += [
        node("Fact", "{key}", 55),
        node("Episode", "{text}", 50),
        node("Claim", "{text}", 60),
        node("Interpretation", "{text}", 55),
        node("Justification", "{rule}", 18, "#37474F"),
        node("Revision", "{status}", 25, "#37474F"),
        node("Audit", "{op}", 45),
        node("Dispute", "{status}", 45),
        node("Deliberation", "{query}", 60),
        node("Proposal", "{label}", 55),
        node("Perspective", "{name}", 55),
        node("Concept", "{name}", 40, "#37474F"),
        node("Argument", "{label}", 35),
        node("Framework", "{name}", 55),
        node("Agent", "{id}", 35),
        node("Rule", "{name}", 45),
        node("RuleInstance", "{id}", 20, "#37474F"),
        node("KeySchema", "{version}", 35),
    ]
    for mark in GROUNDED_LABELS.values():
        color = _PALETTE[mark]
        text = "#37474F" if mark == "Undec" else "#FFFFFF"
        rules.append(
            f"node.{mark} {{\n  color: {color};\n  border-color: {_darker(color)};\n  text-color-internal: {text};\n}}"
        )
    for status_label in STATUS_LABELS.values():
        color = _PALETTE[status_label]
        text = "#37474F" if status_label in ("Withdrawn", "Superseded") else "#FFFFFF"
        rules.append(
            f"node.{status_label} {{\n  color: {color};\n  border-color: {_darker(color)};\n"
            f"  text-color-internal: {text};\n}}"
        )
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
        rules.append(f"relationship.{rel} {{\n  color: {color};\n  shaft-width: {width}px;\n}}")
    return "\n".join(rules) + "\n"


def _darker(color: str) -> str:
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02X}{:02X}{:02X}".format(*(int(v * 0.8) for v in (r, g, b)))


def _cypher_string(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def post_connect_cmd(space: str, http_url: str) -> str:
    """``browser.post_connect_cmd``: set ``$space``, load the style, open the guide.

    Browser fetches ``:style`` and ``:play`` content only from absolute URLs whose host is on
    ``browser.remote_content_hostname_whitelist``; ``http_url`` is the server's own
    ``http://127.0.0.1:<port>``.
    """
    base = f"{http_url.rstrip('/')}/browser/{MOUNT}"
    return "; ".join(
        [
            f"param space => {_cypher_string(space)}",
            f"style {base}/style.grass",
            f"play {base}/guide.html",
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
