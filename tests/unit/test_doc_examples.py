"""The docs' examples are found and marked: every Python and shell block of README.md and docs/
either runs in tests/integration/test_docs.py or carries a ``<!-- no-run: reason -->`` marker
with its reason, and no block that is code hides from both by having no tag."""

from __future__ import annotations

from pathlib import Path

from doc_examples import blocks, doc_files, examples, looks_like_code, with_expectations

SAMPLE = """# Page

```python
print(1)
```

<!-- no-run: starts a server -->

```bash
belief-graph server start
```

<!-- no-run: -->
```console
$ belief-graph db stats \\
    --json
{"claims": 0}
$ echo done
done
```

    ```python
    x = 1
    ```

```
$ belief-graph bench all
```

```text
belief-graph bench recall [--sizes N]
```
"""


def test_blocks_are_read_with_tags_markers_and_lines(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(SAMPLE)
    got = blocks(page)
    assert [(b.line, b.lang, b.kind, b.no_run) for b in got] == [
        (3, "python", "python", None),
        (9, "bash", "shell", "starts a server"),
        (14, "console", "shell", ""),
        (22, "python", "python", None),
        (26, "", None, None),
        (30, "text", None, None),
    ]
    assert got[2].commands() == "belief-graph db stats \\\n    --json\necho done\n"
    assert got[3].code == "x = 1\n"  # an indented fence loses its indentation
    assert [looks_like_code(b) for b in got] == [False, False, False, False, True, False]


def test_an_unclosed_fence_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```python\nprint(1)\n")
    try:
        blocks(page)
    except ValueError as exc:
        assert "never closed" in str(exc)
    else:
        raise AssertionError("an unclosed fence was read")


def test_the_docs_have_examples_and_every_marker_gives_its_reason() -> None:
    found = examples()
    assert len([b for b in found if b.no_run is None]) >= 10, "the docs test would run almost nothing"
    no_reason = [b.where for b in found if b.no_run == ""]
    assert not no_reason, f"a no-run marker without its reason: {no_reason}"


def test_no_untagged_block_is_code() -> None:
    hidden = [b.where for f in doc_files() for b in blocks(f) if looks_like_code(b)]
    assert not hidden, (
        f"untagged blocks that read as code (tag them python/bash/console so they run, "
        f"or `text` when they are output or a synopsis): {hidden}"
    )


def test_a_line_that_says_what_it_gives_becomes_a_check() -> None:
    code = (
        "print(r.op, r.value)   # -> UPDATE cautious\n"
        "    bg.belief(k).value  # -> 'macron'  # a plain comment after it\n"
        "x = 1  # -> 1\n"
        "print(a)  # a plain comment\n"
    )
    assert with_expectations(code).splitlines() == [
        "__expect_print__('UPDATE cautious', r.op, r.value)",
        "    __expect__(\"'macron'\", (bg.belief(k).value))",
        "x = 1  # -> 1",  # an assignment gives nothing to compare
        "print(a)  # a plain comment",
    ]
