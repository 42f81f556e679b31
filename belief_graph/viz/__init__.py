"""HTML views of the memory: one self-contained offline file per view (cytoscape.js + dagre).

A :class:`GraphView` is a drawn :class:`~belief_graph.viz.graph.GraphData`: ``to_html()`` is a
complete page with cytoscape.js, dagre and cytoscape-dagre inlined (see ``assets/PROVENANCE.md``;
nothing is loaded from the network), ``save(path)`` writes it, and ``_repr_html_`` shows it in a
notebook (inside an ``iframe`` so that several views on one page never share scripts).

Views come from the curated queries (``BeliefGraph.views``: support, history, audit, deliberation,
framework) or straight from the models that hold their graph (:func:`from_support`,
:func:`from_audit`, :func:`from_deliberation`, :func:`from_history`, :func:`from_grounded`).

Drawing rules: claims are coloured by ``status`` and greyed (faded, dashed) when they do not hold
now (withdrawn, stale, superseded, retracted); arguments and proposals by their grounded ``label``
(IN green, OUT red, UNDEC amber); justifications are small diamonds. The page exposes
``window.bgView = {expected, drawn, ready}`` and ``data-drawn`` on ``<body>`` for tests.
"""

from __future__ import annotations

import html
import json
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .graph import GraphData, ViewEdge, ViewNode

if TYPE_CHECKING:
    from ..models import Version
    from ..models.argumentation import GroundedResult
    from ..models.perspectives import DeliberationRecord
    from ..models.support import AuditRecord, ClaimSupport

__all__ = [
    "GREYED_STATUSES",
    "GraphView",
    "from_audit",
    "from_deliberation",
    "from_grounded",
    "from_history",
    "from_support",
]

GREYED_STATUSES = frozenset({"withdrawn", "stale", "superseded", "retracted"})
"""Claims in these states are drawn faded: they do not hold now."""

_VENDORED = ("cytoscape.min.js", "dagre.min.js", "cytoscape-dagre.js")
_LICENSES = (
    "LICENSE.cytoscape.txt",
    "LICENSE.dagre.txt",
    "LICENSE.graphlib.txt",
    "LICENSE.lodash.txt",
    "LICENSE.cytoscape-dagre.txt",
)

# Caption property per label, first match wins (a node's labels are checked in this order).
_CAPTIONS: tuple[tuple[str, str], ...] = (
    ("Justification", "rule"),
    ("Interpretation", "text"),
    ("Claim", "text"),
    ("Fact", "key"),
    ("Episode", "text"),
    ("Audit", "op"),
    ("Revision", "status"),
    ("Dispute", "status"),
    ("Deliberation", "query"),
    ("Proposal", "perspective"),
    ("Perspective", "name"),
    ("Concept", "name"),
    ("Argument", "name"),
    ("Framework", "name"),
    ("Agent", "id"),
    ("Rule", "name"),
)
_KINDS = tuple(label for label, _ in _CAPTIONS)

KIND_COLOURS: dict[str, str] = {
    "fact": "#1565C0",
    "claim": "#4C8EDA",
    "interpretation": "#7E57C2",
    "episode": "#00897B",
    "justification": "#90A4AE",
    "audit": "#6D4C41",
    "revision": "#B0BEC5",
    "dispute": "#EF6C00",
    "deliberation": "#283593",
    "proposal": "#5C6BC0",
    "perspective": "#AD1457",
    "concept": "#F48FB1",
    "argument": "#546E7A",
    "framework": "#37474F",
    "agent": "#78909C",
    "rule": "#00838F",
}
"""Fill of a node by kind (its first label in caption order), before status or grounded label."""

STATUS_COLOURS: dict[str, str] = {
    "active": "#2E7D32",
    "disputed": "#F9A825",
    "open": "#EF6C00",
    "superseded": "#9E9E9E",
    "withdrawn": "#BDBDBD",
    "retracted": "#C62828",
    "stale": "#8D6E63",
}
"""Fill by ``status`` (the Browser style's colours); the greyed ones are also faded and dashed."""

LABEL_COLOURS: dict[str, str] = {"IN": "#2E7D32", "OUT": "#C62828", "UNDEC": "#F9A825"}
"""Fill of arguments and proposals by grounded label."""


_KIND_NAMES = {k.lower(): k for k in _KINDS}


def legend_html(nodes: Sequence[dict[str, Any]]) -> str:
    """The legend of what this view draws: each kind of node, each status and grounded label
    present, the justification's diamond, and the faded look of what does not hold now."""
    kinds = {n["data"]["kind"] for n in nodes}
    statuses = {n["data"]["status"] for n in nodes} - {""}
    labels = {
        str(n["data"]["props"].get("label") or "") for n in nodes if n["data"]["kind"] in ("Argument", "Proposal")
    }
    items: list[str] = []
    for kind in (k for k in (_KIND_NAMES[c] for c in KIND_COLOURS) if k in kinds):
        shape = "diamond" if kind == "Justification" else "dot"
        items.append(f'<span><i class="{shape}" style="background:{KIND_COLOURS[kind.lower()]}"></i>{kind}</span>')
    for status, colour in STATUS_COLOURS.items():
        if status in statuses:
            faded = " faded" if status in GREYED_STATUSES else ""
            items.append(f'<span><i class="dot{faded}" style="background:{colour}"></i>{status}</span>')
    for label, colour in LABEL_COLOURS.items():
        if label in labels:
            items.append(f'<span><i class="dot" style="background:{colour}"></i>{label}</span>')
    if statuses & GREYED_STATUSES:
        items.append("<span>faded, dashed: does not hold now</span>")
    return f'<span class="legend" id="legend">{"".join(items)}</span>'


@lru_cache(maxsize=1)
def _scripts() -> str:
    assets = files(__package__) / "assets"
    notice = "\n".join((assets / name).read_text(encoding="utf-8").strip().replace("*/", "* /") for name in _LICENSES)
    parts = [f"<script>/*\n{notice}\n*/</script>"]
    for name in _VENDORED:
        code = (assets / name).read_text(encoding="utf-8").replace("</script", "<\\/script")
        parts.append(f"<script>/* {name} */\n{code}\n</script>")
    return "\n".join(parts)


def _short(text: Any, n: int = 48) -> str:
    s = "" if text is None else str(text)
    return s if len(s) <= n else s[: n - 1] + "\u2026"


def _kind(labels: Sequence[str]) -> str:
    for k in _KINDS:
        if k in labels:
            return k
    return labels[0] if labels else "Node"


def _caption(node: ViewNode) -> str:
    kind = _kind(node.labels)
    prop = dict(_CAPTIONS).get(kind)
    value = node.properties.get(prop) if prop else None
    if kind in ("Argument", "Proposal") and node.properties.get("label"):
        return f"{_short(value, 30)} [{node.properties['label']}]"
    if kind == "Justification":
        return _short(value, 20) if value else ""
    return _short(value if value is not None else node.properties.get("id", ""))


@dataclass
class GraphView:
    """A titled graph, drawn with a dagre layout (``rank_dir`` ``LR`` or ``TB``)."""

    title: str
    graph: GraphData
    kind: str = "graph"
    rank_dir: str = "TB"
    note: str = ""
    """What the view leaves out and how to see more (shown under the title; empty: nothing left out)."""

    @property
    def node_count(self) -> int:
        return len(self.graph.nodes)

    @property
    def edge_count(self) -> int:
        return len(self.graph.edges)

    def elements(self) -> dict[str, list[dict[str, Any]]]:
        """cytoscape.js elements: every node and every edge whose ends are both drawn."""
        ids = {n.id for n in self.graph.nodes}
        nodes = []
        for n in self.graph.nodes:
            kind = _kind(n.labels)
            status = str(n.properties.get("status") or "")
            if not status and ("Retracted" in n.labels or "Stale" in n.labels):
                status = "retracted" if "Retracted" in n.labels else "stale"
            label = str(n.properties.get("label") or "") if kind in ("Argument", "Proposal") else ""
            classes = [kind.lower()]
            if status:
                classes.append(f"status-{status}")
            if status in GREYED_STATUSES or "Retracted" in n.labels or "Stale" in n.labels:
                classes.append("greyed")
            if label:
                classes.append(f"label-{label}")
            nodes.append(
                {
                    "data": {
                        "id": n.id,
                        "caption": _caption(n),
                        "kind": kind,
                        "labels": n.labels,
                        "status": status,
                        "props": n.properties,
                    },
                    "classes": " ".join(classes),
                }
            )
        edges = [
            {
                "data": {"id": e.id, "source": e.source, "target": e.target, "type": e.type, "props": e.properties},
                "classes": e.type.lower(),
            }
            for e in self.graph.edges
            if e.source in ids and e.target in ids
        ]
        return {"nodes": nodes, "edges": edges}

    def to_html(self) -> str:
        """The whole page: data, style, the three libraries; opens offline."""
        elements = self.elements()
        data = json.dumps(
            {"elements": elements, "rankDir": self.rank_dir, "title": self.title, "colours": KIND_COLOURS},
            default=str,
            ensure_ascii=False,
        )
        data = data.replace("</", "<\\/")
        title = html.escape(self.title)
        return _PAGE.format(
            title=title,
            kind=html.escape(self.kind),
            data=data,
            scripts=_scripts(),
            nodes=self.node_count,
            edges=self.edge_count,
            note=f'<div id="note">{html.escape(self.note)}</div>' if self.note else "",
            legend=legend_html(elements["nodes"]),
            app=_APP,
        )

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        p.write_text(self.to_html(), encoding="utf-8")
        return p

    def _repr_html_(self) -> str:
        frame = f"bg-view-{uuid.uuid4().hex[:8]}"
        return (
            f'<iframe id="{frame}" title="{html.escape(self.title)}" srcdoc="{html.escape(self.to_html(), quote=True)}" '
            'style="width:100%;height:560px;border:1px solid #ddd" sandbox="allow-scripts"></iframe>'
        )


_APP = r"""
(function () {
  var data = JSON.parse(document.getElementById('bg-data').textContent);
  var C = data.colours;
  var style = [
    {selector:'node', style:{'label':'data(caption)','font-size':9,'text-wrap':'wrap','text-max-width':120,
      'text-valign':'bottom','text-margin-y':3,'background-color':'#A5ABB6','width':34,'height':34,
      'border-width':2,'border-color':'#ffffff'}},
    {selector:'edge', style:{'width':1.5,'line-color':'#B0BEC5','target-arrow-color':'#B0BEC5',
      'target-arrow-shape':'triangle','curve-style':'bezier','label':'data(type)','font-size':7,
      'text-rotation':'autorotate','color':'#607D8B'}},
    {selector:'node.justification', style:{'shape':'diamond','width':14,'height':14,'font-size':7}},
    {selector:'node.revision', style:{'width':16,'height':16,'font-size':7}},
    {selector:'node.status-active', style:{'background-color':'#2E7D32'}},
    {selector:'node.status-disputed', style:{'background-color':'#F9A825'}},
    {selector:'node.status-open', style:{'background-color':'#EF6C00'}},
    {selector:'node.status-superseded', style:{'background-color':'#9E9E9E'}},
    {selector:'node.status-withdrawn', style:{'background-color':'#BDBDBD'}},
    {selector:'node.status-retracted', style:{'background-color':'#C62828'}},
    {selector:'node.status-stale', style:{'background-color':'#8D6E63'}},
    {selector:'node.label-IN', style:{'background-color':'#2E7D32'}},
    {selector:'node.label-OUT', style:{'background-color':'#C62828'}},
    {selector:'node.label-UNDEC', style:{'background-color':'#F9A825'}},
    {selector:'node.greyed', style:{'opacity':0.55,'border-style':'dashed',
      'border-color':'#757575','color':'#757575'}},
    {selector:'edge.attacks', style:{'line-color':'#C62828','target-arrow-color':'#C62828'}},
    {selector:'edge.current', style:{'line-color':'#1565C0','target-arrow-color':'#1565C0','width':3}},
    {selector:'edge.supersedes', style:{'line-style':'dashed'}},
    {selector:':selected', style:{'border-color':'#FFD600','border-width':4}}
  ];
  Object.keys(C).forEach(function (k) {
    style.splice(3, 0, {selector:'node.' + k, style:{'background-color':C[k]}});
  });
  var errors = [];
  var cy = cytoscape({container: document.getElementById('cy'), elements: data.elements, style: style,
    layout: {name: 'dagre', rankDir: data.rankDir, nodeSep: 70, rankSep: 70, animate: false}});
  var info = document.getElementById('info');
  cy.on('tap', 'node', function (e) {
    var d = e.target.data();
    info.textContent = d.labels.join(':') + '\n' + JSON.stringify(d.props, null, 1);
  });
  cy.on('tap', 'edge', function (e) {
    var d = e.target.data();
    info.textContent = d.type + '\n' + JSON.stringify(d.props, null, 1);
  });
  var drawn = cy.nodes().filter(function (n) { var b = n.renderedBoundingBox(); return b.w > 0 && b.h > 0; }).length;
  window.bgCy = cy;
  window.bgView = {expected: data.elements.nodes.length, drawn: drawn, edges: cy.edges().length, ready: true};
  document.body.setAttribute('data-drawn', String(drawn));
  document.getElementById('summary').textContent = drawn + ' nodes, ' + cy.edges().length + ' edges';
})();
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>{title}</title>
<style>
  html, body {{ margin: 0; height: 100%; font-family: system-ui, sans-serif; }}
  header {{ position: absolute; top: 0; left: 0; right: 0; height: 40px; padding: 8px 12px; box-sizing: border-box;
           border-bottom: 1px solid #e0e0e0; font-size: 14px; background: #fafafa; white-space: nowrap;
           overflow-x: auto; overflow-y: hidden; }}
  header small {{ color: #607D8B; margin-left: 8px; }}
  .legend span {{ display: inline-block; margin-left: 10px; font-size: 12px; }}
  .legend i {{ display: inline-block; width: 10px; height: 10px; border-radius: 5px; margin-right: 3px; }}
  .legend i.diamond {{ border-radius: 0; width: 8px; height: 8px; transform: rotate(45deg); }}
  .legend i.faded {{ opacity: 0.55; outline: 1px dashed #757575; }}
  #note {{ position: absolute; top: 40px; left: 0; right: 260px; padding: 4px 12px; font-size: 12px;
          background: #FFF8E1; border-bottom: 1px solid #FFE082; z-index: 1; }}
  #cy {{ position: absolute; top: 40px; left: 0; right: 260px; bottom: 0; }}
  #info {{ position: absolute; top: 40px; right: 0; width: 260px; bottom: 0; overflow: auto; margin: 0;
          padding: 8px; box-sizing: border-box; border-left: 1px solid #e0e0e0; font-size: 11px; white-space: pre-wrap; }}
</style>
</head>
<body data-kind="{kind}" data-expected="{nodes}">
<header><b>{title}</b><small id="summary">{nodes} nodes, {edges} edges</small>
{legend}
</header>
{note}
<div id="cy"></div>
<pre id="info">Click a node or an edge.</pre>
{scripts}
<script id="bg-data" type="application/json">{data}</script>
<script>{app}</script>
</body>
</html>
"""


# --------------------------------------------------------------------------------------------
# Views from models (no database needed)
# --------------------------------------------------------------------------------------------


def _claim_node(c: Any) -> ViewNode:
    labels = ["Claim"] + (["Interpretation"] if getattr(c, "kind", None) == "interpretation" else [])
    props = {k: v for k, v in c.model_dump(mode="json").items() if k != "embedding" and v is not None}
    return ViewNode(id=c.id, labels=labels, properties=props)


def from_support(support: ClaimSupport) -> GraphView:
    """A claim, its justifications and their premises (one level: what ``supports()`` returns)."""
    g = GraphData()
    g.add_node(_claim_node(support.claim))
    for fam in support.families:
        g.add_node(ViewNode(id=fam.id, labels=["Justification"], properties={"id": fam.id, "rule": fam.rule}))
        g.add_edge(
            ViewEdge(id=f"{fam.id}>{support.claim.id}", type="JUSTIFIES", source=fam.id, target=support.claim.id)
        )
        for p in fam.premises:
            label = "Episode" if p.kind == "episode" else "Claim"
            g.add_node(ViewNode(id=p.id, labels=[label], properties={"id": p.id, "text": p.text, "status": p.status}))
            g.add_edge(ViewEdge(id=f"{p.id}>{fam.id}", type="PREMISE_OF", source=p.id, target=fam.id))
    return GraphView(f"Support of {_short(support.claim.text, 60)}", g, "support", "LR")


def from_audit(audit: AuditRecord) -> GraphView:
    """One audit and what it did to each node (ROOT, WITHDREW, RETAINED, REINSTATED)."""
    g = GraphData()
    g.add_node(
        ViewNode(
            id=audit.id,
            labels=["Audit"],
            properties={"id": audit.id, "op": audit.op, "mode": audit.mode, "reason": audit.reason},
        )
    )
    for e in audit.entries:
        label = "Episode" if e.kind == "episode" else "Claim"
        g.add_node(
            ViewNode(id=e.id, labels=[label], properties={"id": e.id, "text": e.text, "key": e.key, "status": e.status})
        )
        g.add_edge(
            ViewEdge(
                id=f"{audit.id}>{e.action}>{e.id}",
                type=e.action,
                source=audit.id,
                target=e.id,
                properties={"via": e.via, "lost": e.lost},
            )
        )
    return GraphView(f"Audit {audit.id}: {audit.op} ({_short(audit.reason, 50)})", g, "audit", "TB")


def from_deliberation(record: DeliberationRecord) -> GraphView:
    """A deliberation's proposals (by grounded label), the attacks between them, the cited claims."""
    g = GraphData()
    g.add_node(
        ViewNode(
            id=record.id,
            labels=["Deliberation"],
            properties={"id": record.id, "query": record.query, "mode": record.mode},
        )
    )
    for p in record.proposals:
        g.add_node(
            ViewNode(
                id=p.id,
                labels=["Proposal"],
                properties={"id": p.id, "perspective": p.perspective, "text": p.text, "label": p.label},
            )
        )
        g.add_edge(ViewEdge(id=f"{p.id}>{record.id}", type="ANSWERS", source=p.id, target=record.id))
        for c in p.cited:
            cid = str(c.get("id"))
            g.add_node(ViewNode(id=cid, labels=["Claim", "Interpretation"], properties=dict(c)))
            g.add_edge(ViewEdge(id=f"{p.id}>cites>{cid}", type="CITES", source=p.id, target=cid))
    for a in record.attacks:
        g.add_edge(
            ViewEdge(
                id=f"{a.attacker}>attacks>{a.target}",
                type="ATTACKS",
                source=a.attacker,
                target=a.target,
                properties={"by": a.by, "reason": a.reason},
            )
        )
    return GraphView(f"Deliberation: {_short(record.query, 60)} (mode {record.mode})", g, "deliberation", "TB")


def from_history(key: str, versions: Sequence[Version]) -> GraphView:
    """A fact's versions, the SUPERSEDES chain and the CURRENT edge."""
    g = GraphData()
    fact_id = f"fact:{key}"
    g.add_node(ViewNode(id=fact_id, labels=["Fact"], properties={"key": key}))
    for v in versions:
        g.add_node(_claim_node(v.claim))
        g.add_edge(ViewEdge(id=f"{v.claim.id}>version", type="VERSION_OF", source=v.claim.id, target=fact_id))
        if v.current:
            g.add_edge(ViewEdge(id=f"{fact_id}>current", type="CURRENT", source=fact_id, target=v.claim.id))
        if v.supersedes:
            g.add_edge(
                ViewEdge(id=f"{v.claim.id}>supersedes", type="SUPERSEDES", source=v.claim.id, target=v.supersedes)
            )
    return GraphView(f"History of {key}", g, "history", "LR")


def from_grounded(result: GroundedResult, attacks: Iterable[Sequence[str]] = ()) -> GraphView:
    """Arguments coloured by grounded label; ``attacks`` (attacker, target) pairs when known."""
    g = GraphData()
    for name, label in sorted(result.labelling().items()):
        g.add_node(ViewNode(id=name, labels=["Argument"], properties={"name": name, "label": label}))
    for x, y in attacks:
        g.add_edge(ViewEdge(id=f"{x}>{y}", type="ATTACKS", source=str(x), target=str(y)))
    return GraphView(f"Grounded labelling of {result.ns}", g, "framework", "TB")
