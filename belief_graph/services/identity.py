"""Fact identity: which fact a proposed ``(key, value, statement)`` is about, without resting on the
model naming keys the same way twice (DESIGN.md §2, "Fact identity from conversation").

A model that extracts ``user.location.city`` one day and ``user.city`` the next, or ``user.company``
for what memory holds as ``user.employer``, would otherwise leave two current beliefs for one fact,
and an update or a contradiction would never meet the belief it changes. So every proposed key the
space does not hold yet is matched against the facts it might be:

1. **Candidates**: the space's facts under the same subject root (``user``, with ``me``/``my``/``i``/
   ``self`` read as ``user``) that hold a current belief or are in the key registry, plus the keys of
   the closest active claims. One read per call (``fact.identity_candidates``), capped.
2. **Compatibility** (all required): the same root; the same *parties* (a fact of the user's sister is
   not a fact of the user: ``user.sister.city`` never aligns with ``user.city``; kinship, social roles
   and pets as in ``services/turns/clauses.py``); a value of the type the candidate holds.
3. **Evidence**, from the key and from the statement with its value masked out ("The user lives in
   Porto" -> "The user lives in something": the *attribute* the statement is about, whatever the
   value), compared by embedding:

   * *same attribute*: the keys' words are the same once segments, separators, plurals and
     container words (``profile``, ``info``, ``details``, ``data``...; not ``personal`` or ``main``, which tell
     one fact from another) are set aside
     (``user.pets`` = ``user.pet``, ``user.sister_age`` = ``user.sister.age``, ``user.relationship_status`` = ``user.relationship``,
     ``user.profile.city`` = ``user.city``): **sure**;
   * *same statement*: the masked statements are at least ``key_align_threshold`` alike: **sure**,
     unless the keys are *siblings* (the same head word with different modifiers: ``home_city`` /
     ``work_city``, ``work_laptop`` / ``personal_laptop``), which are only ever asked about;
   * *restated*: the same value, with masked statements at least ``key_ask_threshold`` alike and
     not siblings: **sure** (one fact said again under another name);
   * *related*: masked statements at least ``key_ask_threshold`` alike, or the same head word:
     the model **chooses** among the candidates it is shown (``disambiguate``, one batched call);
   * otherwise the proposed key is a **new** fact.

:func:`duplicate_pairs` applies the same rules to the current beliefs of one space (``doctor`` and
``db check`` report likely duplicate keys; ``bg.keys.merge`` repairs them).
"""

from __future__ import annotations

import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from ..models import Value
from ..policies import same_value
from ..settings import PolicySettings
from .turns.clauses import PARTY_GROUPS, tokens

__all__ = [
    "CONTAINER_WORDS",
    "Candidate",
    "FactIdentity",
    "KeyShape",
    "Proposal",
    "Resolution",
    "duplicate_pairs",
    "FIXED_ATTRIBUTES",
    "fit_value",
    "fixed_attribute",
    "identify_key",
    "type_of",
    "mask_value",
    "shape",
]

ROOTS: Mapping[str, str] = {"user": "user", "me": "user", "my": "user", "i": "user", "self": "user", "users": "user"}
"""First segments that name the speaker (read as ``user``)."""

CONTAINER_WORDS = frozenset(
    """profile info information details detail data attributes attribute fact facts properties property record
    records settings misc status""".split()
)
"""Words of a key that group attributes without naming one (``user.profile.city`` is ``user.city``), or
that qualify one without naming another (``user.relationship_status`` is ``user.relationship``,
``user.employment_status`` is ``user.employment``)."""

CANDIDATE_LIMIT = 2000
"""At most this many facts per subject root are scored (the rest are not candidates)."""


def _singular(word: str) -> str:
    if len(word) <= 3 or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


_PARTY_INDEX = {w: i for i, g in enumerate(PARTY_GROUPS) for w in g}
_HYPERNYMS = {
    _PARTY_INDEX[general]: frozenset(_PARTY_INDEX[w] for w in specific.split())
    for general, specific in (
        ("kid", "son daughter baby twins"),
        ("partner", "wife husband boyfriend girlfriend fiance"),
        ("parent", "mom dad"),
        ("sibling", "sister brother"),
        ("pet", "dog cat"),
    )
}
"""A party named in general terms may be one named precisely (``user.kid.name`` / ``user.daughter.name``):
candidates for each other, never sure (the model is asked)."""


def _parties_fit(a: frozenset[int], b: frozenset[int]) -> bool:
    if a == b:
        return True
    if len(a) != 1 or len(b) != 1:
        return False
    (x,), (y,) = a, b
    return y in _HYPERNYMS.get(x, ()) or x in _HYPERNYMS.get(y, ())


@dataclass(frozen=True)
class KeyShape:
    """A key read for identity: its subject root, its words (singular), its head word, its parties."""

    key: str
    root: str
    words: tuple[str, ...]
    core: frozenset[str]
    head: str
    parties: frozenset[int]


def shape(key: str) -> KeyShape:
    segs = key.split(".")
    root = ROOTS.get(segs[0].lower(), segs[0].lower())
    parts = [w for seg in segs[1:] for w in re.split(r"[_\-]+|(?<=[a-z])(?=[A-Z])", seg) if w]
    words = tuple(_singular(w.lower()) for w in parts)
    if not words:
        words = (root,)
    core = frozenset(w for w in words if w not in CONTAINER_WORDS) or frozenset(words)
    parties = frozenset(_PARTY_INDEX[w] for w in words if w in _PARTY_INDEX)
    return KeyShape(key, root, words, core, words[-1], parties)


def mask_value(text: str, value: Any) -> str:
    """The statement with its value taken out: what it says *about*, whatever the value."""
    out = text
    if value is not None and not isinstance(value, bool):
        v = str(value).strip()
        if v:
            out = re.sub(re.escape(v), " something ", out, flags=re.IGNORECASE)
            for w in sorted(set(tokens(v)), key=len, reverse=True):
                if len(w) >= 3 or any(c.isdigit() for c in w):
                    # with its plural: "Tuesdays" says the value "Tuesday and Saturday"
                    out = re.sub(rf"(?<![\w]){re.escape(w)}(?:e?s)?(?![\w])", " something ", out, flags=re.IGNORECASE)
    if isinstance(value, int | float) and not isinstance(value, bool):
        out = re.sub(r"\d[\d,.]*", " something ", out)
    out = re.sub(r"(?:\s*something\s*)+", " something ", out)
    return " ".join(out.split())


def _cos(a: Sequence[float], b: Sequence[float]) -> float:
    num = sum(x * y for x, y in zip(a, b, strict=True))
    den = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return num / den if den else 0.0


def type_of(value: Any) -> str | None:
    """``string``, ``number`` or ``boolean`` (the fact value types); None for no value."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "boolean"
    return "number" if isinstance(value, int | float) else "string"


_AMOUNT = re.compile(
    r"^\s*[€$£]?\s*(\d[\d,]*(?:\.\d+)?)\s*([kKmM])?\s*(?:€|eur|euros?|usd|dollars?|gbp|pounds?)?\s*$", re.I
)


def fit_value(value: Any, held: str) -> Any:
    """``value`` as the type a key holds, when it says exactly that ("1,350", "€8,000", "12k" ->
    numbers, "six" -> 6, "yes" -> True, 7 -> "7"); None when it does not ("about 1400 euros")."""
    from .turns.value_forms import NUMBER_WORDS

    if held == "string":
        return str(value).lower() if isinstance(value, bool) else str(value)
    if held == "number" and isinstance(value, str):
        text = value.strip().lower()
        if text in NUMBER_WORDS:
            return NUMBER_WORDS[text]
        m = _AMOUNT.match(text)
        if m is None:
            return None
        n = float(m.group(1).replace(",", "")) * {"k": 1e3, "m": 1e6}.get((m.group(2) or "").lower(), 1)
        return int(n) if n.is_integer() else n
    if held == "boolean" and isinstance(value, str):
        return {"true": True, "yes": True, "false": False, "no": False}.get(value.strip().lower())
    return None


@dataclass
class Proposal:
    """One extracted fact whose key identity decides."""

    key: str | None
    value: Value
    text: str


@dataclass
class Candidate:
    """An existing fact a proposal might be, with the evidence for it."""

    key: str
    text: str
    value: Any = None
    value_type: str | None = None
    similarity: float = 0.0
    """Of the masked statements (or the statement and the registry's description)."""
    relation: str = "unrelated"
    """``same_attribute``, ``same_statement``, ``restated`` (sure), ``related`` (asked), ``unrelated``."""

    @property
    def sure(self) -> bool:
        return self.relation in ("same_attribute", "same_statement", "restated")


@dataclass
class Resolution:
    """Where a proposed fact goes: ``key`` and how it was decided (``how``)."""

    proposed: str | None
    key: str | None
    how: str
    """``known`` (the space holds the key), ``aligned`` (sure, no call), ``asked`` (the model chose a
    shown candidate), ``new``, ``kept`` (the model kept its own key), ``none`` (no key proposed)."""
    score: float | None = None
    relation: str | None = None
    candidates: list[str] = field(default_factory=list)


def _siblings(a: KeyShape, b: KeyShape) -> bool:
    """The same head word with different modifiers on both sides (``home_city`` / ``work_city``)."""
    return a.head == b.head and bool(a.core - b.core) and bool(b.core - a.core)


def relate(p: KeyShape, c: KeyShape, similarity: float, same: bool, policy: PolicySettings) -> str:
    """The relation between a proposed key and a compatible candidate (module docstring, 3.)."""
    if p.parties != c.parties:  # a kid and a daughter may be one party: only the model can tell
        return "related" if similarity >= policy.key_ask_threshold or p.head == c.head else "unrelated"
    if p.core == c.core:
        return "same_attribute"
    sib = _siblings(p, c)
    if similarity >= policy.key_align_threshold and not sib:
        return "same_statement"
    if same and similarity >= policy.key_ask_threshold and not sib:
        return "restated"
    if similarity >= policy.key_ask_threshold or (p.head == c.head and p.core & c.core):
        return "related"
    return "unrelated"


def compatible(p: KeyShape, c: KeyShape, value: Any, held: str | None) -> bool:
    """Same root, the same parties (or one in general terms), and a value of the candidate's type
    or text that says a value of it ("€8,000" for a number key; not 30 for a text key) — unless
    the two keys name the same attribute in the same words (``car_budget`` / ``car_budgets``): a
    budget said as "€8,000" once and 12000 the next time is still the one budget."""
    if p.root != c.root or not _parties_fit(p.parties, c.parties):
        return False
    if p.core == c.core and p.parties == c.parties:
        return True
    vt = type_of(value)
    return held is None or vt is None or held == vt or (vt == "string" and fit_value(value, held) is not None)


class FactIdentity:
    """Resolves proposed keys for one space (see the module docstring).

    ``read_candidates(prefixes)`` returns the candidate rows (``fact.identity_candidates``);
    ``embed(texts)`` embeds statements; ``near(text)`` gives the keys of the closest active claims.
    """

    def __init__(
        self,
        read_candidates: Callable[[Sequence[str]], list[dict[str, Any]]],
        embed: Callable[[list[str]], list[list[float]]],
        policy: PolicySettings,
        near: Callable[[Proposal], set[str]] | None = None,
        embedder: str | None = None,
    ) -> None:
        self.read_candidates = read_candidates
        self.embed = _cached(embed, embedder) if embedder else embed
        self.policy = policy
        self.near = near
        """The keys of the active claims closest to a proposal's statement (vector index): with key
        words in common or the same value, the only candidates whose statements are embedded."""

    def _rows(self, roots: set[str]) -> dict[str, dict[str, Any]]:
        prefixes = sorted({f"{alias}." for alias, r in ROOTS.items() if r in roots} | {f"{r}." for r in roots})
        return {r["key"]: r for r in self.read_candidates(prefixes)}

    def score(self, proposals: Sequence[Proposal], rows: Mapping[str, Mapping[str, Any]]) -> list[list[Candidate]]:
        """The compatible candidates of each proposal, best first, with their relation."""
        shapes = [shape(p.key) if p.key else None for p in proposals]
        pairs: list[tuple[int, str, str, Any, str | None]] = []
        for i, (p, ps) in enumerate(zip(proposals, shapes, strict=True)):
            if ps is None:
                continue
            near = self.near(p) if self.near is not None else None
            for key, row in rows.items():
                if key == p.key:
                    continue
                cur = row.get("current") or {}
                cs = shape(key)
                if not compatible(ps, cs, p.value, row.get("value_type")):
                    continue
                if near is not None and key not in near and not (ps.core & cs.core):
                    same = cur.get("value") is not None and same_value(cur.get("value"), p.value)
                    if not same and not row.get("description"):
                        continue  # far from the statement, no word in common: not worth embedding
                text = cur.get("text") or row.get("description") or ""
                if not text:
                    continue
                pairs.append((i, key, text, cur.get("value"), row.get("value_type")))
        if not pairs:
            return [[] for _ in proposals]
        texts = [mask_value(p.text, p.value) for p in proposals]
        ctexts = [mask_value(t, v) for _, _, t, v, _ in pairs]
        vecs = self.embed(texts + ctexts)
        pv, cv = vecs[: len(texts)], vecs[len(texts) :]
        out: list[list[Candidate]] = [[] for _ in proposals]
        for (i, key, text, value, vt), vec in zip(pairs, cv, strict=True):
            sim = _cos(pv[i], vec)
            ps = shapes[i]
            assert ps is not None
            same = value is not None and same_value(value, proposals[i].value)
            rel = relate(ps, shape(key), sim, same, self.policy)
            if rel != "unrelated":
                out[i].append(Candidate(key, text, value, vt, sim, rel))
        for cands in out:
            cands.sort(key=lambda c: (c.sure, c.relation == "same_attribute", c.similarity), reverse=True)
        return out

    def resolve(
        self,
        proposals: Sequence[Proposal],
        known: set[str],
        choose: Callable[[list[tuple[Proposal, list[Candidate]]]], dict[int, str | None]] | None = None,
    ) -> list[Resolution]:
        """Where each proposal goes. ``known``: the proposed keys the space already holds (kept as
        they are). ``choose``: asks the model among the shown candidates (item index -> a chosen
        key, or None to keep its own); without it, unsure proposals keep their key."""
        todo = [i for i, p in enumerate(proposals) if p.key is not None and p.key not in known]
        results: list[Resolution | None] = [None] * len(proposals)
        for i, p in enumerate(proposals):
            if p.key is None:
                results[i] = Resolution(None, None, "none")
            elif p.key in known:
                results[i] = Resolution(p.key, p.key, "known")
        if todo:
            roots = {shape(proposals[i].key).root for i in todo}  # type: ignore[arg-type]
            rows = self._rows(roots)
            scored = self.score([proposals[i] for i in todo], rows)
            # a fact the same turn states under its own key with another value is not this one
            # ("we moved to York ... my job's still in Leeds": user.work_city is not user.city)
            said = {q.key: q.value for q in proposals if q.key in known}
            unsure: list[tuple[int, list[Candidate]]] = []
            for i, cands in zip(todo, scored, strict=True):
                p = proposals[i]
                cands = [c for c in cands if c.key not in said or same_value(said[c.key], p.value)]
                shown = [c.key for c in cands[: self.policy.key_candidates]]
                if cands and cands[0].sure:
                    c = cands[0]
                    results[i] = Resolution(p.key, c.key, "aligned", round(c.similarity, 4), c.relation, shown)
                elif cands:
                    unsure.append((i, cands[: self.policy.key_candidates]))
                else:
                    results[i] = Resolution(p.key, p.key, "new")
            if unsure:
                picks = choose([(proposals[i], cs) for i, cs in unsure]) if choose is not None else {}
                for n, (i, cs) in enumerate(unsure):
                    pick = picks.get(n)
                    p = proposals[i]
                    by_key = {c.key: c for c in cs}
                    if pick is not None and pick in by_key:
                        c = by_key[pick]
                        results[i] = Resolution(p.key, pick, "asked", round(c.similarity, 4), c.relation, list(by_key))
                    else:
                        best = cs[0]
                        results[i] = Resolution(
                            p.key, p.key, "kept", round(best.similarity, 4), best.relation, list(by_key)
                        )
        return [r for r in results if r is not None]


_VECTORS: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
_VECTORS_LOCK = threading.Lock()
_VECTORS_SIZE = 4096


def _cached(embed: Callable[[list[str]], list[list[float]]], ident: str) -> Callable[[list[str]], list[list[float]]]:
    """``embed`` with a process-wide LRU of masked statements (a conversation's candidates repeat
    from turn to turn), keyed by the embedder's name too."""

    def run(texts: list[str]) -> list[list[float]]:
        with _VECTORS_LOCK:
            have = {t: _VECTORS[(ident, t)] for t in texts if (ident, t) in _VECTORS}
            for t in have:
                _VECTORS.move_to_end((ident, t))
        missing = list(dict.fromkeys(t for t in texts if t not in have))
        if missing:
            got = embed(missing)
            with _VECTORS_LOCK:
                for t, v in zip(missing, got, strict=True):
                    have[t] = v
                    _VECTORS[(ident, t)] = v
                while len(_VECTORS) > _VECTORS_SIZE:
                    _VECTORS.popitem(last=False)
        return [have[t] for t in texts]

    return run


def identify_key(key: str, rows: Sequence[Mapping[str, Any]]) -> str | None:
    """The fact a bare key names among ``rows`` (``fact.identity_candidates``), by its words alone
    (no statement to compare): the key itself; else the one compatible fact with the same
    attribute words (``user.pets`` for ``user.pet``); else the one whose words contain the key's,
    or are contained in them, with the same head word (``project.atlas.about.deadline`` for
    ``project.atlas.deadline``). Two such facts, or none: None."""
    keys = {r["key"] for r in rows}
    if key in keys:
        return key
    p = shape(key)
    fits = [shape(k) for k in sorted(keys) if compatible(p, shape(k), None, None) and shape(k).parties == p.parties]
    same = [c.key for c in fits if c.core == p.core]
    if len(same) == 1:
        return same[0]
    if same:
        return None
    nested = [c.key for c in fits if c.head == p.head and (c.core <= p.core or p.core <= c.core)]
    return nested[0] if len(nested) == 1 else None


FIXED_ATTRIBUTES = frozenset("birthday birthdate birthplace born birth blood native anniversary".split())
"""Words of a key naming a fact that does not change over time (when and where someone was born,
a blood type, a native language, the date an anniversary marks): two values for it contradict.
A planned date (a wedding, a graduation) can move, so it is not here."""


def fixed_attribute(key: str) -> bool:
    """Whether ``key`` names a fact that cannot change (:data:`FIXED_ATTRIBUTES`), so that a new
    value is a contradiction, not an update, whatever a model calls it."""
    words = set(shape(key).words)
    joined = "_".join(shape(key).words)
    return bool(words & FIXED_ATTRIBUTES) or any(w in joined for w in ("blood_type", "mother_tongue", "first_language"))


_EVENT_WORDS = ("grad", "start", "join", "hire", "found", "marri", "wed", "enrol", "began", "begin", "born", "qualif")
_WHEN_WORDS = frozenset("year date when since".split())


def past_event_redated(key: str, old: Any, new: Any, said_at: datetime) -> bool:
    """Whether ``new`` contradicts ``old`` because both date an event that had already happened
    when it was said ("graduated in 2012", later "finished in 2016" under ``user.graduation_year``):
    a past event's year cannot change, so the two cannot both hold — unlike a planned date (a
    wedding moved to June), which is why both values must lie before ``said_at``."""
    words = shape(key).words
    if not (set(words) & _WHEN_WORDS or any(w.endswith(("ed", "ion")) for w in words)):
        return False
    if not any(w.startswith(_EVENT_WORDS) for w in words):
        return False
    a, b = _year_of(old), _year_of(new)
    return a is not None and b is not None and a != b and max(a, b) <= said_at.year


def age_went_back(key: str, old: Any, new: Any, old_at: datetime | None, said_at: datetime) -> bool:
    """Whether ``new`` contradicts ``old`` as an age in years (``user.father.age`` 70, weeks later
    65): an age only grows, by at most the years between the two statements and a birthday, so a
    smaller one, or one grown more than that, cannot both hold with it — whatever a model calls it."""
    if not shape(key).words or shape(key).words[-1] != "age":
        return False
    a, b = _years_old(old), _years_old(new)
    if a is None or b is None or a == b:
        return False
    if b < a:
        return True
    return old_at is not None and b - a > math.floor((said_at - old_at).days / 365.25) + 1


_AGE = re.compile(r"^\s*(\d{1,3})(?:\s*(?:years?|yrs?|y/?o)(?:\s+old)?)?\s*$", re.IGNORECASE)


def _years_old(value: Any) -> int | None:
    """An age in years: a number 0..130, or "70", "70 years old" ("10 weeks" is not)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float) and 0 <= value <= 130 and float(value).is_integer():
        return int(value)
    m = _AGE.match(value) if isinstance(value, str) else None
    return int(m.group(1)) if m and int(m.group(1)) <= 130 else None


def _year_of(value: Any) -> int | None:
    """The year a value names: a number 1900..2100, or the year of a date string ("2016-09-01")."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float) and 1900 <= value <= 2100 and float(value).is_integer():
        return int(value)
    if isinstance(value, str):
        found = re.findall(r"(?<!\d)(19\d\d|20\d\d)(?!\d)", value)
        return int(found[0]) if len(found) == 1 else None
    return None


def duplicate_pairs(
    rows: Sequence[Mapping[str, Any]], embed: Callable[[list[str]], list[list[float]]], policy: PolicySettings
) -> list[tuple[str, str, str, float]]:
    """Pairs of current beliefs of one space that the identity rules call the same fact (``sure``):
    ``(key_a, key_b, relation, similarity)``, ``key_a < key_b``. ``rows`` as ``fact.identity_candidates``
    returns them (only rows with a current belief count). Facts are compared within their subject
    root and parties; statements by one matrix product per group."""
    facts = [(r["key"], r["current"]) for r in rows if r.get("current") and r["current"].get("text")]
    if len(facts) < 2:
        return []
    vecs = np.asarray(embed([mask_value(c["text"], c.get("value")) for _, c in facts]), dtype=float)
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    vecs = vecs / np.where(norms == 0, 1.0, norms)
    shapes = [shape(k) for k, _ in facts]
    groups: dict[tuple[str, frozenset[int]], list[int]] = {}
    for i, s in enumerate(shapes):
        groups.setdefault((s.root, s.parties), []).append(i)
    out: set[tuple[str, str, str, float]] = set()
    for idxs in groups.values():
        if len(idxs) < 2:
            continue
        sims = vecs[idxs] @ vecs[idxs].T
        pairs = {
            (a, b) for a in range(len(idxs)) for b in range(a + 1, len(idxs)) if sims[a, b] >= policy.key_ask_threshold
        }
        by_core: dict[frozenset[str], list[int]] = {}
        for n, i in enumerate(idxs):
            by_core.setdefault(shapes[i].core, []).append(n)
        pairs |= {(a, b) for ns in by_core.values() for x, a in enumerate(ns) for b in ns[x + 1 :]}
        for a, b in pairs:
            (ka, ca), (kb, cb) = facts[idxs[a]], facts[idxs[b]]
            if not compatible(shapes[idxs[a]], shapes[idxs[b]], cb.get("value"), type_of(ca.get("value"))):
                continue
            sim = float(sims[a, b])
            same = ca.get("value") is not None and same_value(ca.get("value"), cb.get("value"))
            rel = relate(shapes[idxs[a]], shapes[idxs[b]], sim, same, policy)
            if rel in ("same_attribute", "same_statement", "restated"):
                lo, hi = sorted((ka, kb))
                out.add((lo, hi, rel, round(sim, 4)))
    return sorted(out)
