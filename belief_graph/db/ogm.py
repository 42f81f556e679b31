"""neomodel node classes mirroring the graph model (DESIGN.md section 1), for exploring from Python.

    with BeliefGraph.connect(space="default") as bg:
        ogm = bg.admin.ogm()                       # binds neomodel to *this* BeliefGraph's driver
        ogm.Claim.nodes.filter(space="default", status="active")

Our ``id`` property is exposed as ``uid`` (neomodel reserves ``id``): ``Claim.nodes.get(space=s, uid=...)``.
The engine never writes through these classes: its set-oriented work lives in ``cypher/``. They are
read-mostly views. neomodel keeps one process-wide ``db`` object; :func:`bind` points it at our
injected driver (``db.set_connection(driver=...)``), so neomodel never opens a connection of its own
from a URL or environment variable. Nothing happens at import.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import neo4j
from neomodel import (
    ArrayProperty,
    DateTimeNeo4jFormatProperty,
    FloatProperty,
    IntegerProperty,
    RelationshipFrom,
    RelationshipTo,
    StringProperty,
    StructuredNode,
    StructuredRel,
    ZeroOrOne,
    db,
)
from neomodel.properties import Property

__all__ = [
    "Agent",
    "Audit",
    "AuthorityRule",
    "Claim",
    "Concept",
    "Deliberation",
    "Dispute",
    "Episode",
    "Fact",
    "Interpretation",
    "Justification",
    "Perspective",
    "PolicyRule",
    "Proposal",
    "Revision",
    "bind",
]


class ScalarProperty(Property[Any]):
    """A claim ``value``: any Neo4j scalar (string, number, boolean), stored as is."""

    form_field_class = "CharField"

    def inflate(self, value: Any, rethrow: bool = False) -> Any:
        return value

    def deflate(self, value: Any, rethrow: bool = False) -> Any:
        return value


class AttackRel(StructuredRel):
    reason = StringProperty()
    by = StringProperty()


class Agent(StructuredNode):
    space = StringProperty(required=True)
    uid = StringProperty(required=True, db_property="id")
    kind = StringProperty(choices={"user": "user", "agent": "agent", "system": "system"})
    episodes = RelationshipTo("Episode", "WROTE")
    claims = RelationshipTo("Claim", "ASSERTED")


class Episode(StructuredNode):
    space = StringProperty(required=True)
    uid = StringProperty(required=True, db_property="id")
    text = StringProperty()
    agent = StringProperty()
    conversation = StringProperty()
    at = DateTimeNeo4jFormatProperty()
    rejections = ArrayProperty(StringProperty())
    supports = RelationshipTo("Justification", "PREMISE_OF")
    __optional_labels__ = ["Retracted"]


class Fact(StructuredNode):
    space = StringProperty(required=True)
    key = StringProperty(required=True)
    writes = IntegerProperty()
    current = RelationshipTo("Claim", "CURRENT", cardinality=ZeroOrOne)
    versions = RelationshipFrom("Claim", "VERSION_OF")


class Claim(StructuredNode):
    # status labels; a claim enlisted as an argument: Argument and the mark of its grounded label
    __optional_labels__ = [
        "Active",
        "Superseded",
        "Disputed",
        "Withdrawn",
        "Retracted",
        "Stale",
        "Argument",
        "In",
        "Out",
        "Undec",
    ]
    space = StringProperty(required=True)
    uid = StringProperty(required=True, db_property="id")
    key = StringProperty()
    value = ScalarProperty()
    text = StringProperty()
    kind = StringProperty()
    agent = StringProperty()
    status = StringProperty()
    confidence = FloatProperty()
    created_at = DateTimeNeo4jFormatProperty()
    valid_from = DateTimeNeo4jFormatProperty()
    valid_to = DateTimeNeo4jFormatProperty()
    embedding = ArrayProperty(FloatProperty())
    fact = RelationshipTo("Fact", "VERSION_OF", cardinality=ZeroOrOne)
    supersedes = RelationshipTo("Claim", "SUPERSEDES")
    revisions = RelationshipTo("Revision", "HAS_REVISION")
    justifications = RelationshipFrom("Justification", "JUSTIFIES")
    supports = RelationshipTo("Justification", "PREMISE_OF")
    attacks = RelationshipTo("Claim", "ATTACKS", model=AttackRel)


class Interpretation(Claim):
    """A perspective's reading of an episode: a Claim with the extra label ``Interpretation``."""

    concepts = RelationshipTo("Concept", "INSTANCE_OF")


class Justification(StructuredNode):
    space = StringProperty(required=True)
    uid = StringProperty(required=True, db_property="id")
    rule = StringProperty()
    created_at = DateTimeNeo4jFormatProperty()
    justifies = RelationshipTo("Claim", "JUSTIFIES")
    premise_claims = RelationshipFrom("Claim", "PREMISE_OF")
    premise_episodes = RelationshipFrom("Episode", "PREMISE_OF")


class Revision(StructuredNode):
    space = StringProperty()
    uid = StringProperty(required=True, db_property="id")
    claim = StringProperty()
    status = StringProperty()
    at = DateTimeNeo4jFormatProperty()
    audit = StringProperty()
    reason = StringProperty()


class Audit(StructuredNode):
    space = StringProperty(required=True)
    uid = StringProperty(required=True, db_property="id")
    reason = StringProperty()
    mode = StringProperty()
    at = DateTimeNeo4jFormatProperty()
    roots = RelationshipTo("Claim", "ROOT")
    withdrew = RelationshipTo("Claim", "WITHDREW")
    retained = RelationshipTo("Claim", "RETAINED")
    reinstated = RelationshipTo("Claim", "REINSTATED")


class Perspective(StructuredNode):
    space = StringProperty(required=True)
    uid = StringProperty(required=True, db_property="id")
    name = StringProperty()
    goal = StringProperty()
    concepts = RelationshipTo("Concept", "HAS_CONCEPT")
    proposals = RelationshipTo("Proposal", "PROPOSED")


class Concept(StructuredNode):
    space = StringProperty(required=True)
    perspective = StringProperty(required=True)
    name = StringProperty(required=True)
    description = StringProperty()
    embedding = ArrayProperty(FloatProperty())


class Deliberation(StructuredNode):
    space = StringProperty(required=True)
    uid = StringProperty(required=True, db_property="id")
    query = StringProperty()
    at = DateTimeNeo4jFormatProperty()
    mode = StringProperty()
    proposals = RelationshipFrom("Proposal", "ANSWERS")


class Proposal(StructuredNode):
    __optional_labels__ = ["Argument", "In", "Out", "Undec"]  # enlisted in its deliberation; the mark of `label`
    space = StringProperty()
    uid = StringProperty(required=True, db_property="id")
    perspective = StringProperty()
    text = StringProperty()
    label = StringProperty()
    cites = RelationshipTo("Claim", "CITES")
    attacks = RelationshipTo("Proposal", "ATTACKS", model=AttackRel)


class Dispute(StructuredNode):
    space = StringProperty(required=True)
    uid = StringProperty(required=True, db_property="id")
    key = StringProperty()
    status = StringProperty()
    resolution = StringProperty()
    incumbent = RelationshipTo("Claim", "INCUMBENT")
    challenger = RelationshipTo("Claim", "CHALLENGER")


class AuthorityRule(StructuredNode):
    space = StringProperty(required=True)
    agent = StringProperty()
    pattern = StringProperty(required=True)
    weight = FloatProperty()


class PolicyRule(StructuredNode):
    space = StringProperty(required=True)
    pattern = StringProperty(required=True)
    strategy = StringProperty()


_CLASSES = (
    Agent,
    Episode,
    Fact,
    Claim,
    Interpretation,
    Justification,
    Revision,
    Audit,
    Perspective,
    Concept,
    Deliberation,
    Proposal,
    Dispute,
    AuthorityRule,
    PolicyRule,
)


def bind(driver: neo4j.Driver, database: str) -> SimpleNamespace:
    """Point neomodel at our injected driver and return the node classes as a namespace."""
    from neomodel import get_config

    get_config().database_name = database
    db.set_connection(driver=driver)
    return SimpleNamespace(**{c.__name__: c for c in _CLASSES}, db=db)
