"""Every statement that writes the grounded ``label`` of an argument also writes its mark (``:In``,
``:Out``, ``:Undec``, the other two removed), in the same form everywhere, so Browser and Bloom
(which style by label) never show a label the property no longer has."""

from __future__ import annotations

import re

from belief_graph.console.browser import GROUNDED_LABELS
from belief_graph.db.registry import get_registry

_SETS_LABEL = re.compile(r"SET\s+(\w+)\.label\s*=\s*([\w\[\]]+)")


def _mark_lines(var: str, value: str) -> list[str]:
    out = []
    for label, mark in GROUNDED_LABELS.items():
        others = ":".join(m for m in GROUNDED_LABELS.values() if m != mark)
        out.append(
            f"FOREACH (_ IN CASE WHEN {value} = '{label}' THEN [1] ELSE [] END | SET {var}:{mark} REMOVE {var}:{others})"
        )
    return out


def test_every_label_writer_writes_the_mark_too() -> None:
    writers = {q.name: q for q in get_registry() if q.mode == "write" and _SETS_LABEL.search(q.text)}
    assert set(writers) == {
        "argumentation.ground_small",
        "argumentation.start_grounded",
        "argumentation.propagate_waves",
        "argumentation.write_labels",
    }
    for name, q in writers.items():
        for m in _SETS_LABEL.finditer(q.text):
            var, value = m.group(1), m.group(2)
            lines = [line.strip() for line in q.text[m.end() :].splitlines()[1:5]]
            expected = _mark_lines(var, value)
            # the mark lines follow the SET (finish steps: after the line that drops an UNDEC wave)
            assert all(e in lines for e in expected), (name, lines)


def test_start_grounded_finishes_exactly_like_propagate_waves() -> None:
    reg = get_registry()

    def finish_lines(text: str) -> list[str]:
        lines = [line.strip() for line in text.splitlines()]
        i = next(k for k, line in enumerate(lines) if line.startswith("SET a.label = label"))
        return lines[i : i + 5]

    assert finish_lines(reg["argumentation.start_grounded"].text) == finish_lines(
        reg["argumentation.propagate_waves"].text
    )
