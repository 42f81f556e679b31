"""The real-model tests (tests/real_llm, run by .ci/run with -m real_llm) must cover every job:
checked here, in the fast suite, so a new job cannot be added without a real-model input."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from belief_graph.llm import JOBS


def test_the_real_model_tests_have_an_input_for_every_job() -> None:
    path = Path(__file__).resolve().parents[1] / "real_llm" / "test_real_llm.py"
    spec = importlib.util.spec_from_file_location("real_llm_inputs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert set(module.INPUTS) == set(JOBS)
    for job, inputs in module.INPUTS.items():  # and each is valid for its job
        JOBS[job].input_model.model_validate(inputs)
