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


def _resolve(chain: list[str]) -> tuple[object | None, str | None]:
    """What ``bg.<chain>`` names on the facade: (the attribute, or None; the problem, or None).
    A namespace (cached_property) is followed to the class its annotation returns."""
    import inspect
    import typing
    from functools import cached_property

    from belief_graph import BeliefGraph

    owner: type = BeliefGraph
    found: object = None
    for depth, name in enumerate(chain[:2]):
        try:
            found = inspect.getattr_static(owner, name)
        except AttributeError:
            init = inspect.getsource(owner.__init__) if "__init__" in vars(owner) else ""
            if f"self.{name} " in init or f"self.{name}:" in init:
                return None, None  # an instance attribute: it exists, its type is not followed
            return None, f"bg.{'.'.join(chain[: depth + 1])} does not exist"
        if isinstance(found, cached_property | property):
            getter = found.func if isinstance(found, cached_property) else found.fget
            returned = typing.get_type_hints(getter).get("return")
            if not isinstance(returned, type):
                return None, None
            owner = returned
    return found, None


def test_the_examples_that_do_not_run_name_what_exists() -> None:
    """A Python block marked no-run still parses, every ``bg.<name>`` / ``bg.<namespace>.<method>`` it
    uses exists, and each keyword it passes is a parameter of what it calls (what the docs test
    cannot check by running it)."""
    import ast
    import inspect

    problems = []
    for block in examples():
        if block.kind != "python" or block.no_run is None:
            continue
        if block.no_run.startswith("a signature"):
            continue  # test_a_signature_in_the_docs_is_the_code_s
        try:
            tree = ast.parse(block.code)
        except SyntaxError as exc:
            problems.append(f"{block.where}: {exc}")
            continue
        for node in ast.walk(tree):
            target = node.func if isinstance(node, ast.Call) else node
            chain: list[str] = []
            while isinstance(target, ast.Attribute):
                chain.insert(0, target.attr)
                target = target.value
            if not (isinstance(target, ast.Name) and target.id == "bg" and chain):
                continue
            found, problem = _resolve(chain)
            if problem:
                problems.append(f"{block.where}: {problem}")
            elif isinstance(node, ast.Call) and callable(found) and len(chain) <= 2:
                params = inspect.signature(found).parameters
                if not any(p.kind is p.VAR_KEYWORD for p in params.values()):
                    bad = [k.arg for k in node.keywords if k.arg and k.arg not in params]
                    if bad:
                        problems.append(f"{block.where}: bg.{'.'.join(chain)} takes no {bad}")
    assert not problems, "examples that do not run name what does not exist:\n" + "\n".join(dict.fromkeys(problems))


def test_a_signature_in_the_docs_is_the_code_s() -> None:
    """A block marked ``<!-- no-run: a signature ... -->`` (``bg.recall(query, k=5, ..., *, ...)``)
    lists the parameters of what it names, in order, with their kinds and defaults."""
    import ast
    import inspect
    import re

    signatures = [b for b in examples() if b.kind == "python" and (b.no_run or "").startswith("a signature")]
    assert signatures, "no signature block found (retrieval.md shows bg.recall's)"
    for block in signatures:
        code = re.sub(r"#.*", "", block.code)
        m = re.fullmatch(r"\s*bg\.([\w.]+)\((.*)\)\s*", code, re.S)
        assert m, f"{block.where}: a signature block is `bg.<name>(<parameters>)`"
        found, problem = _resolve(m[1].split("."))
        assert problem is None and callable(found), f"{block.where}: {problem or 'not a callable'}"
        doc = ast.parse(f"def f({m[2]}): pass").body[0].args  # type: ignore[attr-defined]
        documented = [(a.arg, "positional", None) for a in doc.args]
        for a, d in zip(doc.args[len(doc.args) - len(doc.defaults) :], doc.defaults, strict=True):
            documented[[x[0] for x in documented].index(a.arg)] = (a.arg, "positional", ast.unparse(d))
        documented += [
            (a.arg, "keyword", None if d is None else ast.unparse(d))
            for a, d in zip(doc.kwonlyargs, doc.kw_defaults, strict=True)
        ]
        actual = [
            (
                p.name,
                "keyword" if p.kind is p.KEYWORD_ONLY else "positional",
                None if p.default is p.empty else repr(p.default),
            )
            for p in inspect.signature(found).parameters.values()
            if p.name != "self"
        ]
        assert documented == actual, f"{block.where}: the docs show {documented}, the code has {actual}"
