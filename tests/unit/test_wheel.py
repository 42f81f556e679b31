"""The wheel ships cypher/ and schemas/ and the registry loads from it, and none of the lab (tier: cypher).

Builds the wheel from this checkout with ``python -m build --wheel --no-isolation`` (no network:
hatchling must be installed in the environment), then checks the archive and imports the
registry from the unpacked wheel and from the zip itself, in a subprocess whose cwd is
elsewhere so the checkout cannot be picked up by accident.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from belief_graph.db.registry import QueryRegistry
from belief_graph.llm import load_prompts

pytestmark = [pytest.mark.cypher]

REPO = Path(__file__).resolve().parents[2]
RESOURCES = ("cypher", "schemas", "prompts")

_PROBE = """
import json, sys
from pathlib import Path
import belief_graph.db.registry as r
print(json.dumps({
    "module": r.__file__,
    "cypher": str(r.resource_dir("cypher")),
    "schemas": str(r.resource_dir("schemas")),
    "names": r.get_registry().names(),
    "prompts_dir": str(r.resource_dir("prompts")),
    "prompts": {n: p.version for n, p in __import__("belief_graph.llm", fromlist=["x"]).get_prompts().items()},
    "replay_model": __import__("belief_graph.llm", fromlist=["x"]).ReplayModel.load().name,
}))
"""


def _resource_files() -> set[str]:
    """Wheel paths every file under cypher/, schemas/ and prompts/ must have."""
    return {
        f"belief_graph/_resources/{path.relative_to(REPO).as_posix()}"
        for name in RESOURCES
        for path in (REPO / name).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and not path.name.startswith(".")
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the wheel once for this module."""
    if importlib.util.find_spec("hatchling") is None:
        pytest.fail("hatchling is not installed: `pip install hatchling` (needed offline)")
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out)] + [str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, f"wheel build failed:\n{result.stdout}\n{result.stderr}"
    wheels = list(out.glob("*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def _probe(pythonpath: Path, cwd: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(pythonpath)
    result = subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, f"import from the wheel failed:\n{result.stderr}"
    data: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return data


def test_wheel_contains_every_cypher_and_schema_file(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    expected = _resource_files()
    assert any(n.startswith("belief_graph/_resources/cypher/") for n in expected)
    missing = sorted(expected - names)
    assert not missing, f"not in the wheel: {missing}"
    shipped = {n for n in names if n.startswith("belief_graph/_resources/") and not n.endswith("/")}
    assert shipped == expected, f"unexpected resources: {sorted(shipped - expected)}"
    assert "belief_graph/db/registry.py" in names
    assert not any(n.startswith(("cypher/", "schemas/", "prompts/")) for n in names), "top-level resources"
    assert any(n.startswith("belief_graph/_resources/prompts/") for n in expected)
    assert "belief_graph/llm/demo_replay.json" in names, "the demo replay file ships in the wheel"


def test_registry_loads_from_the_unpacked_wheel(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    data = _probe(site, elsewhere)

    assert Path(str(data["module"])).is_relative_to(site), data["module"]
    assert Path(str(data["cypher"])) == site / "belief_graph" / "_resources" / "cypher"
    assert Path(str(data["schemas"])) == site / "belief_graph" / "_resources" / "schemas"
    assert data["names"] == QueryRegistry.load(REPO / "cypher").names()
    assert Path(str(data["prompts_dir"])) == site / "belief_graph" / "_resources" / "prompts"
    assert data["prompts"] == {n: p.version for n, p in load_prompts(REPO / "prompts").items()}
    assert data["replay_model"] == "stub-scripted"


def test_registry_loads_from_the_zipped_wheel(wheel: Path, tmp_path: Path) -> None:
    """zipimport: resources are read through importlib.resources, not the file system."""
    data = _probe(wheel, tmp_path)
    assert str(data["module"]).startswith(str(wheel)), data["module"]
    assert str(data["cypher"]).startswith(str(wheel)), data["cypher"]
    assert data["names"] == QueryRegistry.load(REPO / "cypher").names()
    assert str(data["prompts_dir"]).startswith(str(wheel)), data["prompts_dir"]
    assert data["prompts"] == {n: p.version for n, p in load_prompts(REPO / "prompts").items()}


LAB_PATHS = (
    "belief_graph_lab/",
    "belief_graph/benchmarks/",
    "belief_graph/scenarios/",
    "belief_graph/cli/bench/",
    "belief_graph/cli/demo",
    "belief_graph/llm/demo.py",
    "belief_graph/data/memory/",
    "belief_graph/data/llm_quality.yaml",
    "belief_graph/data/rashomon.yaml",
)


def test_the_wheel_holds_the_runtime_and_none_of_the_lab(wheel: Path) -> None:
    """Benchmarks, demos and scenarios are lab/belief_graph_lab, a package of their own."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        entry_points = next(zf.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert sorted(n for n in names if n.startswith(LAB_PATHS)) == []
    assert {n.split("/")[0] for n in names} == {"belief_graph", wheel.name.split("-py3")[0] + ".dist-info"}
    assert "belief_graph/cli/plugins.py" in names and "belief_graph/embeddings/minilm_files.py" in names
    assert "belief_graph/data/perspectives.yaml" in names  # the example set `perspectives load` reads
    assert "[belief_graph.cli]" not in entry_points  # the runtime registers no plugin of its own
    assert "belief-graph = belief_graph.cli:main" in entry_points
