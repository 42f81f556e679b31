"""The Neo4j Bloom / Explore perspective of belief_graph (``bloom/belief-graph.perspective.json``).

Bloom's server plugin is an Enterprise feature; the free routes are Neo4j Desktop (Bloom) and Aura
(Explore), both of which import a perspective file. The perspective is generated from the code so it
cannot drift from the graph model and the curated questions:

* one category per node label the statements of ``cypher/`` create, plus the status labels of
  claims (:data:`belief_graph.console.browser.STATUS_LABELS`) and the grounded marks of arguments and
  proposals (:data:`belief_graph.console.browser.GROUNDED_LABELS`: ``:In`` green, ``:Out`` red, ``:Undec``
  amber), placed first (status labels, then marks) so that they win;
* rule-based colours on the properties the labels mirror, for a store not yet migrated:
  ``Claim.status`` (active, superseded, disputed, withdrawn, retracted, stale) and the grounded
  ``label`` of ``Argument`` and ``Proposal`` nodes (IN / OUT / UNDEC);
* one search phrase per curated question (``cypher/explore/``), its Cypher the file's statement and
  its parameters the file's parameters (``$space`` too: Bloom phrases have no hidden parameters).

``belief-graph bloom perspective -o FILE`` writes it; the shipped file is checked to be current.
"""

from __future__ import annotations

import json
from typing import Any

from ..db.registry import QueryRegistry
from .browser import GROUNDED_LABELS, STATUS_LABELS, palette
from .curated import questions

__all__ = ["LABELS", "PERSPECTIVE_FILE", "perspective", "perspective_json"]

PERSPECTIVE_FILE = "bloom/belief-graph.perspective.json"
"""Where the repository keeps the generated perspective."""

_STAMP = 1767225600000  # 2026-01-01T00:00:00Z: fixed, so the generated file is reproducible

_MARK_PROPERTIES = ("label", "name", "perspective", "text", "wave", "ns", "id", "space")
"""What a grounded mark's category shows: it is on arguments, proposals and enlisted claims."""

# Label -> (caption property, properties shown), in category order after the status labels and
# the grounded marks.
LABELS: dict[str, tuple[str, tuple[str, ...]]] = {
    "Fact": ("key", ("key", "value_type", "space")),
    "Interpretation": ("text", ("text", "perspective", "status", "confidence", "agent", "space", "id")),
    "Claim": ("text", ("text", "key", "value", "status", "kind", "agent", "confidence", "created_at", "space", "id")),
    "Episode": ("text", ("text", "agent", "conversation", "at", "status", "space", "id")),
    "Justification": ("rule", ("rule", "agent", "created_at", "space", "id")),
    "Revision": ("status", ("status", "at", "reason", "by", "audit", "id")),
    "Audit": ("op", ("op", "mode", "reason", "agent", "at", "region", "withdrew", "retained", "reinstated", "id")),
    "Dispute": ("status", ("key", "status", "strategy", "reason", "winner", "resolution", "at", "id")),
    "Agent": ("id", ("id", "kind", "description", "space")),
    "Perspective": ("name", ("name", "goal", "relevance", "space", "id")),
    "Concept": ("name", ("name", "perspective", "description", "space")),
    "Deliberation": ("query", ("query", "mode", "answer", "at", "space", "id")),
    "Proposal": ("perspective", ("perspective", "label", "text", "deliberation", "id")),
    "Argument": ("name", ("name", "label", "wave", "ns", "space")),
    "Framework": ("name", ("name", "ns", "status", "arguments", "attacks", "format", "space")),
    "Rule": ("name", ("name", "version", "spec", "space")),
    "RuleInstance": ("id", ("id", "rule", "space")),
    "KeySchema": ("version", ("version", "status", "unknown", "size", "agent", "created_at", "space")),
    "AuthorityRule": ("pattern", ("agent", "pattern", "weight", "space")),
    "PolicyRule": ("pattern", ("pattern", "strategy", "space")),
    "FactLock": ("key", ("key", "space")),
    "SchemaMigration": ("version", ("version", "name", "applied_at")),
    "Import": ("name", ("name", "source", "status", "done", "batches", "runs", "updated_at", "space")),
    "BenchProbe": ("id", ("id", "space")),
}
"""Every label the statements of ``cypher/`` create (tested), plus Rule / RuleInstance (derivation
rules); KeySchema is a version of a space's key schema (``bg.keys``); Import is a bulk import's progress, BenchProbe the benches' commit-floor node.
``RcFrontier`` is a transient label of the reconsolidation worklist, never left on a node."""

_RELATIONSHIPS = (
    "CURRENT",
    "VERSION_OF",
    "SUPERSEDES",
    "PREMISE_OF",
    "JUSTIFIES",
    "HAS_REVISION",
    "ROOT",
    "WITHDREW",
    "RETAINED",
    "REINSTATED",
    "STALED",
    "REDERIVED",
    "HAS_CONCEPT",
    "INSTANCE_OF",
    "PROPOSED",
    "ANSWERS",
    "CITES",
    "ATTACKS",
    "INCUMBENT",
    "CHALLENGER",
    "ASSERTED",
    "MERGED_INTO",
)

_LABEL_COLOURS = {"IN": "#2E7D32", "OUT": "#C62828", "UNDEC": "#F9A825"}


def _rule(i: int, prop: str, value: str, color: str) -> dict[str, Any]:
    return {
        "id": f"rule-{prop}-{value}-{i}",
        "type": "single",
        "basedOn": prop,
        "dataType": "string",
        "condition": "equals",
        "conditionValue": value,
        "minValue": None,
        "maxValue": None,
        "applyColor": True,
        "applySize": False,
        "applyCaption": False,
        "captions": [],
        "color": color,
        "size": 1,
        "existingField": False,
        "disabled": False,
    }


def _category(
    cid: int, label: str, caption: str, props: tuple[str, ...], color: str, rules: list[dict[str, Any]], size: float = 1
) -> dict[str, Any]:
    return {
        "id": cid,
        "name": label,
        "labels": [label],
        "createdAt": _STAMP,
        "lastEditedAt": _STAMP,
        "properties": [{"name": p, "exclude": False, "isSkipped": False, "dataType": "string"} for p in props],
        "color": color,
        "icon": "no-icon",
        "size": size,
        "textSize": 1,
        "textAlign": "top",
        "captionKeys": [caption],
        "captions": [{"key": caption, "type": "property", "isCaption": True, "inTooltip": True, "styles": []}],
        "styleRules": rules,
    }


_PHRASES = {
    "explore.why_believed": "Why is $key believed in $space",
    "explore.find_dependents": "What depends on $id in $space",
    "explore.show_audit": "What changed in audit $id in $space",
    "explore.show_history": "History of $key in $space",
    "explore.list_open_disputes": "Open disputes in $space",
    "explore.show_attack_graph": "Attack graph of deliberation $id in $space",
    "explore.show_perspective": "Knowledge graph of perspective $name in $space",
    "explore.find_stale": "Stale conclusions in $space",
    "explore.show_framework": "Framework $name in $space first $limit arguments",
}
"""The search phrase of each curated question: it names every parameter of the query."""


def perspective(registry: QueryRegistry) -> dict[str, Any]:
    """The perspective as a JSON-ready dict (deterministic: same input, same file)."""
    colours = palette()
    categories: list[dict[str, Any]] = []
    cid = 0
    for label in STATUS_LABELS.values():
        cid += 1
        categories.append(_category(cid, label, "text", LABELS["Claim"][1], colours[label], []))
    for mark in GROUNDED_LABELS.values():
        cid += 1
        categories.append(_category(cid, mark, "label", _MARK_PROPERTIES, colours[mark], []))
    for label, (caption, props) in LABELS.items():
        cid += 1
        rules: list[dict[str, Any]] = []
        if label in ("Claim", "Interpretation"):
            rules = [_rule(i, "status", s, colours[lab]) for i, (s, lab) in enumerate(STATUS_LABELS.items())]
        elif label in ("Argument", "Proposal"):
            rules = [_rule(i, "label", v, c) for i, (v, c) in enumerate(_LABEL_COLOURS.items())]
        size = 0.5 if label in ("Justification", "Revision", "RuleInstance") else 1
        categories.append(_category(cid, label, caption, props, colours.get(label, "#A5ABB6"), rules, size))
    templates = []
    for i, q in enumerate(questions(registry)):
        params = list(q.query.params)
        examples = dict(q.query.examples)
        templates.append(
            {
                "id": f"tmpl:{q.query.name}",
                "name": q.title,
                "createdAt": _STAMP + i,
                "text": _PHRASES[q.query.name],
                "cypher": q.query.text,
                "description": q.note,
                "isUpdateQuery": None,
                "hasCypherErrors": False,
                "params": [
                    {
                        "name": f"${p}",
                        "dataType": "Integer" if examples[p].strip().isdigit() else "String",
                        "collapsed": False,
                        "suggestionLabel": None,
                        "suggestionProp": None,
                        "suggestionBoolean": False,
                        "cypher": None,
                    }
                    for p in params
                ],
            }
        )
    return {
        "name": "belief_graph",
        "id": "belief-graph-perspective",
        "version": "2.3.0",
        "type": "STANDARD_PERSPECTIVE",
        "createdAt": _STAMP,
        "lastEditedAt": _STAMP,
        "categories": categories,
        "labels": {
            c["labels"][0]: [
                {"propertyKey": p["name"], "type": c["labels"][0], "dataType": "string"} for p in c["properties"]
            ]
            for c in categories
        },
        "relationshipTypes": [
            {
                "id": t,
                "name": t,
                "color": "#A5ABB6" if t != "ATTACKS" else "#C62828",
                "size": 1,
                "textSize": 1,
                "textAlign": "top",
                "properties": [],
                "captionKeys": [],
                "captions": [{"key": t, "type": "relationship", "isCaption": True, "inTooltip": True, "styles": []}],
                "styleRules": [],
            }
            for t in _RELATIONSHIPS
        ],
        "palette": {"colors": sorted(set(colours.values())), "currentIndex": 0},
        "templates": templates,
        "sceneActions": [],
        "hiddenRelationshipTypes": [],
        "hiddenCategories": [],
        "hideUncategorisedData": False,
        "isAuto": False,
        "history": [],
        "parentPerspectiveId": None,
        "metadata": {"pathSegments": [], "indexes": [], "stats": {"labels": {}, "relationshipTypes": {}}},
    }


def perspective_json(registry: QueryRegistry) -> str:
    return json.dumps(perspective(registry), indent=1, ensure_ascii=False) + "\n"
