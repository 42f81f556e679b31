"""Support worlds: small belief graphs by name, built through the public API, and their reference labelling.

A :class:`World` names episodes (evidence) and claims with their justifications; :func:`build_world`
creates it in a memory space with ``add_episode`` and ``derive`` (fixed timestamps, so two builds
are identical); :func:`least_model` is the definition of DESIGN.md "Support" recomputed from
scratch in Python (not the engine's Cypher), the labelling a repair must reach.

Generated families: :func:`paired_worlds` (AND/OR pairs that differ only in the grouping of the
premises), :func:`scimap_workspace` (research workspaces with shared and independent branches) and
:func:`chain_world` (one chain, ``depth`` waves to restore). The reconsolidation studies
(``belief_graph_lab.benchmarks.revision``) and the support tests use them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from belief_graph.embeddings import DelegatingEmbedder, Embedder
from belief_graph.facade import BeliefGraph

__all__ = [
    "EPOCH",
    "CachedEmbedder",
    "World",
    "build_world",
    "chain_world",
    "least_model",
    "paired_worlds",
    "scimap_workspace",
]

EPOCH = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


# ---------------------------------------------------------------------------------------------
# Worlds and the reference labelling
# ---------------------------------------------------------------------------------------------


@dataclass
class World:
    """A support graph by name: episodes (evidence) and claims with their justifications.

    ``claims`` is in creation order: the first family of each claim only uses names created
    before it; further families (alternatives, cycles) are added after all claims exist.
    """

    name: str
    episodes: dict[str, str] = field(default_factory=dict)  # name -> text
    claims: dict[str, str] = field(default_factory=dict)  # name -> text
    families: dict[str, list[list[str]]] = field(default_factory=dict)  # claim -> [[premise, ...], ...]
    kinds: dict[str, str] = field(default_factory=dict)
    roots: list[str] = field(default_factory=list)  # what the reviewer invalidates

    def episode(self, name: str, text: str) -> str:
        self.episodes[name] = text
        return name

    def claim(self, name: str, text: str, *families: Sequence[str], kind: str = "derived") -> str:
        self.claims[name] = text
        self.families[name] = [list(f) for f in families]
        self.kinds[name] = kind
        return name

    def also(self, name: str, *premises: str) -> None:
        """Add an alternative justification (OR) to an existing claim."""
        self.families[name].append(list(premises))

    def copy(self, tag: str) -> World:
        """The same world with ``tag`` appended to every text (derive() treats equal texts as
        the same statement, so copies living in one space need distinct texts)."""
        return World(
            f"{self.name}{tag}",
            {k: f"{v} {tag}" for k, v in self.episodes.items()},
            {k: f"{v} {tag}" for k, v in self.claims.items()},
            {k: [list(f) for f in v] for k, v in self.families.items()},
            dict(self.kinds),
            list(self.roots),
        )

    def downstream(self, roots: Sequence[str]) -> set[str]:
        out: set[str] = set()
        todo = list(roots)
        while todo:
            x = todo.pop()
            for c, fams in self.families.items():
                if c not in out and any(x in f for f in fams):
                    out.add(c)
                    todo.append(c)
        return out


def least_model(world: World, retracted: set[str]) -> set[str]:
    """The IN set by definition: the least set closed under the rules (naive fixpoint).

    An episode is IN unless retracted; a claim is IN iff not retracted and some family has every
    premise IN (a claim without families is a base claim). Iterated from the empty set, so a
    support cycle is IN only if something outside it grounds it.
    """
    inn: set[str] = set()
    changed = True
    while changed:
        changed = False
        for e in world.episodes:
            if e not in retracted and e not in inn:
                inn.add(e)
                changed = True
        for c, fams in world.families.items():
            if c in inn or c in retracted:
                continue
            if not fams or any(all(p in inn for p in f) for f in fams):
                inn.add(c)
                changed = True
    return inn


class CachedEmbedder(DelegatingEmbedder):
    """Identical texts get identical vectors, and each text is embedded once per run."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self.cache: dict[str, list[float]] = {}

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        todo = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if todo:
            self.cache.update(zip(todo, self.inner.embed_documents(todo), strict=True))
        return [self.cache[t] for t in texts]


def build_world(bg: BeliefGraph, world: World, *, at: datetime = EPOCH) -> dict[str, str]:
    """Create the world through the public API; returns name -> id. Timestamps are fixed
    (``at`` + one second per node in creation order), so two builds of a world are identical."""
    ids: dict[str, str] = {}
    tick = 0

    def when() -> datetime:
        nonlocal tick
        tick += 1
        return at + timedelta(seconds=tick)

    for name, text in world.episodes.items():
        ids[name] = bg.add_episode(text, agent="user:lab", at=when()).id
    for name, text in world.claims.items():
        first = world.families[name][0]
        ids[name] = bg.derive(
            text,
            [ids[p] for p in first],
            agent="agent:analyst",
            rule="analysis",
            kind=world.kinds.get(name, "derived"),
            at=when(),
        ).id
    for name in world.claims:
        for fam in world.families[name][1:]:
            got = bg.derive(
                world.claims[name],
                [ids[p] for p in fam],
                agent="agent:analyst",
                rule="analysis",
                kind=world.kinds.get(name, "derived"),
                at=when(),
            )
            assert got.id == ids[name]
    return ids


def paired_worlds(pairs: int, seed: int = 7) -> list[tuple[World, World]]:
    """``pairs`` (AND, OR) pairs. Same nodes, texts and influence edges in both worlds of a pair;
    only the grouping of the finding's premises differs. The reviewer invalidates one assay."""
    out = []
    for i in range(pairs):
        rng = random.Random(seed * 1000 + i)
        k = rng.choice([2, 2, 3])
        chain = rng.randint(1, 3)
        loop = i % 2 == 1
        worlds = []
        for grouping in ("and", "or"):
            w = World(f"pair{i:02d}-{grouping}")
            assays = [
                w.episode(
                    f"e{j}",
                    f"Assay {i}.{j}: sample {i * 10 + j} "
                    f"showed {['elevated', 'reduced', 'unchanged'][j % 3]} marker M{i}",
                )
                for j in range(k)
            ]
            finding = f"Finding {i}: marker M{i} responds to treatment T{i}"
            if grouping == "and":
                w.claim("c", finding, assays)
            else:
                w.claim("c", finding, [assays[0]])
                for a in assays[1:]:
                    w.also("c", a)
            prev = "c"
            for d in range(chain):
                prev = w.claim(
                    f"d{d}", f"Consequence {i}.{d}: step {d} of the treatment plan for T{i} relies on it", [prev]
                )
            side = w.claim("s", f"Side note {i}: assay {i}.1 also fixes the dose range", [assays[1]])
            w.claim("m", f"Protocol {i}: dose T{i} as in the side note, guided by the finding", ["c", side])
            if loop:
                w.also("c", "d0")  # a mutual-support loop c <-> d0, grounded only through the assays
            w.roots = [assays[0]]
            worlds.append(w)
        out.append((worlds[0], worlds[1]))
    return out


_TOPICS = [
    "kinase KRX",
    "transporter SLC",
    "receptor GPR",
    "protease MMP",
    "channel KCN",
    "ligase UBE",
    "factor TNF",
    "enzyme CYP",
    "regulator SOX",
    "chaperone HSP",
]


def scimap_workspace(index: int, seed: int = 11) -> World:
    """One research workspace: executed results -> observations -> interpretations -> mechanisms ->
    planned experiments. Shared branches (one observation feeding several interpretations) and
    independent branches (a mechanism with a second, independent justification) are drawn at
    random; the reviewer invalidates the result with the most consequences. Regenerated until the
    invalidation both propagates and spares something downstream (deterministic per index)."""
    attempt = 0
    while True:
        rng = random.Random(seed * 10_000 + index * 100 + attempt)
        attempt += 1
        topic = f"{_TOPICS[index % len(_TOPICS)]}{index}"
        w = World(f"workspace{index:02d}")
        n_obs = rng.randint(3, 5)
        obs = []
        for j in range(n_obs):
            r = w.episode(
                f"r{j}",
                f"Run {index}-{j}: the {['knock-down', 'dose-response', 'imaging', 'proteomics', 'rescue'][j % 5]} "
                f"assay on {topic} was executed; readout {rng.randint(5, 95)}%",
            )
            obs.append(
                w.claim(
                    f"o{j}",
                    f"Observation {index}.{j}: {topic} readout changes under condition {j}",
                    [r],
                    kind="observation",
                )
            )
        interp = []
        for j in range(rng.randint(3, 5)):
            prem = rng.sample(obs, rng.choice([1, 1, 2]))
            interp.append(
                w.claim(
                    f"i{j}",
                    f"Interpretation {index}.{j}: {topic} activity depends on pathway P{j}",
                    prem,
                    kind="interpretation",
                )
            )
        mech = []
        for j in range(rng.randint(2, 4)):
            prem = rng.sample(interp, rng.choice([1, 2]))
            mech.append(w.claim(f"m{j}", f"Mechanism {index}.{j}: {topic} acts through P{j} feedback", prem))
        for m in mech:
            if rng.random() < 0.5:
                alt = rng.sample([x for x in interp if x not in w.families[m][0]] or interp, 1)
                w.also(m, *alt)
        for j in range(rng.randint(2, 4)):
            prem = rng.sample(mech, rng.choice([1, 1, 2]))
            w.claim(f"p{j}", f"Planned experiment {index}.{j}: test {topic} with inhibitor X{j}", prem)
        # invalidate the executed result with the most consequences
        root = max(sorted(w.episodes), key=lambda r: len(w.downstream([r])))
        w.roots = [root]
        before = least_model(w, set())
        after = least_model(w, {root})
        lost = (before - after) - {root}
        spared_downstream = w.downstream([root]) & after
        if lost and spared_downstream:
            return w


def chain_world(depth: int) -> World:
    """``e -> c0 -> c1 -> ... -> c(depth-1)``: restoring ``e`` needs ``depth`` waves."""
    w = World(f"chain{depth}")
    prev = w.episode("e", f"Chain {depth}: the base measurement")
    for i in range(depth):
        prev = w.claim(f"c{i}", f"Chain {depth}: consequence {i}", [prev])
    w.roots = ["e"]
    return w
