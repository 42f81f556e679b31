"""Models of the argumentation area: attack graphs, stored frameworks, grounded results, explanations.

:class:`AttackGraph` is a plain frozen dataclass (a parsed ICCMA file can hold 10^5 arguments;
pydantic validation per item would cost more than the parse). Everything that crosses the
repository boundary from the database is a pydantic model.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import ValidationError, shown
from ..limits import check_argument_names

__all__ = [
    "Attack",
    "AttackGraph",
    "AttackerInfo",
    "Framework",
    "GroundedResult",
    "Label",
    "LabelExplanation",
]

Label = Literal["IN", "OUT", "UNDEC"]


@dataclass(frozen=True, slots=True)
class AttackGraph:
    """A Dung framework in memory: argument names (file order) and distinct attack pairs.

    Build with :meth:`from_lists` (validates) or get one from :mod:`belief_graph.argumentation.iccma`.
    ``format``/``source`` say where it came from (``apx``/``tgf``/``af``, a path) when it was read.
    """

    arguments: tuple[str, ...]
    attacks: tuple[tuple[str, str], ...]
    format: str | None = None
    source: str | None = None
    duplicate_attacks: int = field(default=0, compare=False)

    @classmethod
    def from_lists(
        cls,
        arguments: Iterable[str],
        attacks: Iterable[Sequence[str]],
        *,
        format: str | None = None,
        source: str | None = None,
        allow_empty: bool = False,
    ) -> AttackGraph:
        """Validate and build: names are non-empty strings, unique; attacks name known arguments.

        Duplicate attack pairs are merged (an attack relation is a set).

        Raises:
            ValidationError: a blank or duplicate argument, an attack naming an unknown argument,
                a malformed pair, or no argument at all (unless ``allow_empty``).
        """
        args = tuple(arguments)
        seen: set[str] = set()
        for a in args:
            if not isinstance(a, str) or not a.strip():
                raise ValidationError(f"argument names must be non-empty strings, got {shown(a)}")
            if a in seen:
                raise ValidationError(f"duplicate argument {shown(a)}")
            seen.add(a)
        check_argument_names(args)
        if not args and not allow_empty:
            raise ValidationError("empty framework: no arguments")
        pairs: dict[tuple[str, str], None] = {}
        dupes = 0
        for p in attacks:
            if isinstance(p, str) or len(p) != 2:
                raise ValidationError(f"an attack is an (attacker, target) pair, got {shown(p)}")
            x, y = str(p[0]), str(p[1])
            for end in (x, y):
                if end not in seen:
                    raise ValidationError(f"attack ({shown(x)}, {shown(y)}) names unknown argument {shown(end)}")
            if (x, y) in pairs:
                dupes += 1
            pairs[(x, y)] = None
        return cls(args, tuple(pairs), format=format, source=source, duplicate_attacks=dupes)

    def renamed(self, mapping: dict[str, str]) -> AttackGraph:
        """The same graph with every name replaced through ``mapping`` (a bijection)."""
        return AttackGraph(
            tuple(mapping[a] for a in self.arguments),
            tuple((mapping[x], mapping[y]) for x, y in self.attacks),
            format=self.format,
            source=self.source,
        )


class Attack(BaseModel):
    """One attack between two arguments of a namespace (services: deliberations, disputes)."""

    model_config = ConfigDict(frozen=True)

    attacker: str
    target: str
    reason: str | None = None
    by: str | None = None


class Framework(BaseModel):
    """A stored, imported framework: ``(:Framework {space, name, ...})`` over namespace ``ns``."""

    name: str
    ns: str
    source: str | None = None
    format: str | None = None
    arguments: int
    attacks: int
    status: str
    created_at: str | None = None


class GroundedResult(BaseModel):
    """The grounded labelling of one namespace (names sorted by code point, like ICCMA ``.GR``).

    ``waves`` counts the rounds that labelled something (0 when no argument is unattacked);
    ``round_trips`` the propagation statements sent; ``seconds`` the wall time of the solve
    (labels written back and read) when it was computed, else 0.
    """

    model_config = ConfigDict(populate_by_name=True)

    ns: str
    in_: list[str] = Field(alias="in")
    out: list[str]
    undec: list[str]
    waves: int
    arguments: int
    round_trips: int = 0
    wave_iterations: int = 0
    seconds: float = 0.0

    def label_of(self, name: str) -> Label | None:
        """The label of one argument, or None when it is not in this result."""
        if name in self.in_:
            return "IN"
        if name in self.out:
            return "OUT"
        if name in self.undec:
            return "UNDEC"
        return None

    def labelling(self) -> dict[str, Label]:
        """Every argument's label."""
        lab: dict[str, Label] = {}
        lab.update(dict.fromkeys(self.in_, "IN"))
        lab.update(dict.fromkeys(self.out, "OUT"))
        lab.update(dict.fromkeys(self.undec, "UNDEC"))
        return lab

    def extension(self) -> dict[str, list[str]]:
        """``{"in": [...], "out": [...], "undec": [...]}`` (the ``--json`` shape)."""
        return {"in": list(self.in_), "out": list(self.out), "undec": list(self.undec)}

    def stats(self) -> dict[str, Any]:
        return {
            "ns": self.ns,
            "arguments": self.arguments,
            "in": len(self.in_),
            "out": len(self.out),
            "undec": len(self.undec),
            "waves": self.waves,
            "round_trips": self.round_trips,
            "wave_iterations": self.wave_iterations,
            "seconds": self.seconds,
        }


class AttackerInfo(BaseModel):
    name: str
    label: Label | None = None
    wave: int | None = None


class LabelExplanation(BaseModel):
    """Why an argument has its grounded label.

    - ``IN``: every attacker is OUT (``decisive`` lists them; empty when unattacked);
    - ``OUT``: an IN attacker (``decisive`` holds the earliest one, the one that defeated it);
    - ``UNDEC``: no attacker is IN and some are UNDEC (``decisive`` lists the UNDEC attackers).
    """

    ns: str
    name: str
    label: Label
    wave: int | None = None
    reason: str
    decisive: list[AttackerInfo]
    attackers: list[AttackerInfo]
    targets: list[AttackerInfo]
