"""Prompt files: one per job, versioned, declared inputs = the job's input fields, strict render."""

from __future__ import annotations

from pathlib import Path

import pytest

from belief_graph.db.registry import resource_dir
from belief_graph.errors import ConfigurationError, FormatError, ValidationError
from belief_graph.llm import JOBS, LLMClient, ScriptedModel, get_prompts, load_prompts
from belief_graph.llm.prompts import REPAIR_PROMPT, parse_prompt
from belief_graph.llm.protocol import output_json_schema

REPO = Path(__file__).resolve().parents[2]

GOOD = """<!--
name: demo
version: 2.1
description: a demo prompt
inputs: items, question
-->
## system
Schema: {{output_schema}}
## user
Q: {{question}}
Items: {{ items }}
"""


def test_every_job_has_a_prompt_whose_inputs_are_the_input_fields() -> None:
    prompts = get_prompts()
    assert set(prompts) == set(JOBS) | {REPAIR_PROMPT}
    for name, spec in JOBS.items():
        p = prompts[name]
        assert set(p.inputs) == set(spec.input_model.model_fields), name
        assert "output_schema" in p.placeholders(), f"{name} must show the output schema"
        assert p.version and p.description
    assert prompts[REPAIR_PROMPT].inputs == ("errors",)


def test_prompts_come_from_the_top_level_folder_in_a_checkout() -> None:
    assert Path(str(resource_dir("prompts"))) == REPO / "prompts"
    assert set(load_prompts(REPO / "prompts")) == set(get_prompts())


def test_parse_and_render() -> None:
    p = parse_prompt(GOOD, "/x/demo.md")
    assert (p.name, p.version, p.ref, p.inputs) == ("demo", "2.1", "demo@2.1", ("items", "question"))
    msgs = p.render({"items": [{"id": "t1"}], "question": "why?", "output_schema": "{}"})
    assert [m.role for m in msgs] == ["system", "user"]
    assert msgs[0].content == "Schema: {}"
    assert msgs[1].content == 'Q: why?\nItems: [\n  {\n    "id": "t1"\n  }\n]'
    with pytest.raises(ValidationError, match="missing values"):
        p.render({"items": []})
    with pytest.raises(ValidationError, match="unexpected values"):
        p.render({"items": [], "question": "q", "output_schema": "{}", "extra": 1})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no header", "starts with a '<!--' header"),
        ("<!--\nname: demo\n", "not closed"),
        (GOOD.replace("name: demo", "name: other"), "differs from the file name"),
        (GOOD.replace("version: 2.1\n", ""), "'version' is missing"),
        (GOOD.replace("version: 2.1", "version: two words"), "bad version"),
        (GOOD.replace("inputs: items, question", "inputs: items"), "not declared"),
        (GOOD.replace("inputs: items, question", "inputs: items, question, extra"), "never used"),
        (GOOD.replace("## user", "## usr"), "no '## user' section"),
        (GOOD.replace("description: a demo prompt", "description: a\nfoo bar"), "bad header line"),
        (GOOD.replace("<!--\n", "<!--\nauthor: me\n"), "unknown header keys"),
        (GOOD.replace("## system", "stray\n## system"), "text before the first section"),
    ],
)
def test_malformed_prompt_files_fail_fast_with_path(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message) as info:
        parse_prompt(text, "/x/demo.md")
    assert info.value.path == "/x/demo.md"


def test_client_refuses_prompt_sets_that_do_not_fit_the_jobs(tmp_path: Path) -> None:
    prompts = dict(get_prompts())
    del prompts["judge"]
    with pytest.raises(ConfigurationError, match="judge"):
        LLMClient(ScriptedModel(), prompts=prompts)
    prompts = dict(get_prompts())
    prompts["judge"] = parse_prompt(GOOD.replace("name: demo", "name: judge"), "/x/judge.md")
    with pytest.raises(ConfigurationError, match="differ from the job's input fields"):
        LLMClient(ScriptedModel(), prompts=prompts)


def test_output_schemas_are_strict_compatible() -> None:
    """Every object lists all properties as required and forbids others (OpenAI strict mode)."""

    def objects(node: object) -> list[dict[str, object]]:
        found: list[dict[str, object]] = []
        if isinstance(node, dict):
            if "properties" in node:
                found.append(node)
            for v in node.values():
                found += objects(v)
        elif isinstance(node, list):
            for v in node:
                found += objects(v)
        return found

    for spec in JOBS.values():
        schema = output_json_schema(spec.output_model)
        objs = objects(schema)
        assert objs, spec.name
        for o in objs:
            assert o["additionalProperties"] is False
            assert set(o["required"]) == set(o["properties"])  # type: ignore[arg-type]
        text = str(schema)
        assert "'default'" not in text and "'title'" not in text
        # and the pydantic model agrees: every field is required
        for name, field in spec.output_model.model_fields.items():
            assert field.is_required(), f"{spec.name}.{name} has a default"
