"""The grounded extension computed in Neo4j: the ICCMA corpus, import/export, explanations, bad input."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belief_graph.argumentation import iccma
from belief_graph.cli import app
from belief_graph.db.driver import Graph
from belief_graph.db.registry import get_registry
from belief_graph.errors import (
    FormatError,
    FrameworkNotFound,
    NotFoundError,
    ValidationError,
)
from belief_graph.models.argumentation import Attack, AttackGraph
from belief_graph.services import argumentation as argmod
from belief_graph.services.argumentation import ArgumentationService, framework_ns
from belief_graph.services.check import run_check
from belief_graph.settings import Settings
from belief_graph_lab.scenarios import chain_graph, double_chain_graph

# The subset vendored in tests/data/corpus; BELIEF_GRAPH_TEST_CORPUS=<folder holding argumentation/
# and tms/> runs the same tests on the full corpus.
CORPUS = Path(os.environ.get("BELIEF_GRAPH_TEST_CORPUS") or Path(__file__).resolve().parents[1] / "data" / "corpus")
CORPUS = CORPUS / "argumentation"
EXPECTED = {r["file"]: r for r in csv.DictReader((CORPUS / "EXPECTED.tsv").open(encoding="utf-8"), delimiter="\t")}
EMPTY_SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


@pytest.fixture()
def svc(graph: Graph, space: str) -> ArgumentationService:
    return ArgumentationService(graph, space)


def _count(graph: Graph, space: str) -> dict[str, int]:
    return {r["label"]: r["count"] for r in graph.read("admin.count_by_label_status", space=space)}


# -- the corpus: every instance gives exactly the expected extension --------------------------------------


@pytest.mark.parametrize("folder", sorted({f.split("/")[0] for f in EXPECTED}))
def test_corpus_folder_matches_expected_extensions(
    svc: ArgumentationService, graph: Graph, space: str, folder: str
) -> None:
    files = sorted(f for f in EXPECTED if f.startswith(folder + "/"))
    assert files
    wrong: list[str] = []
    for f in files:
        row = EXPECTED[f]
        res = svc.solve(CORPUS / f)
        expected_in = (CORPUS / (f + ".GR")).read_text(encoding="utf-8").split("\n")[:-1]
        got = (res.in_, len(res.out), len(res.undec), res.waves, res.arguments)
        want = (expected_in, int(row["n_out"]), int(row["n_undec"]), int(row["waves"]), int(row["n_args"]))
        sha = hashlib.sha256("\n".join(res.in_).encode()).hexdigest()
        if got != want or sha != row["sha256"]:
            wrong.append(f"{f}: got IN={res.in_[:5]}.. counts {got[1:]}, want {want[1:]}")
    assert not wrong, wrong
    assert _count(graph, space).get("Argument", 0) == 0  # scratch namespaces are deleted


def test_probo_published_answers(svc: ArgumentationService) -> None:
    """probo's published EE-GR files ([[a1]] etc.) for the .apx and the .tgf renderings."""
    for ex in ("ex1", "ex2", "ex3"):
        published = (CORPUS / "probo" / "solutions" / f"{ex}.apx.EE-GR").read_text().strip()
        for ext in ("apx", "tgf"):
            res = svc.solve(CORPUS / "probo" / f"{ex}.{ext}")
            assert f"[{iccma.format_extension(res.in_)}]" == published.replace(" ", "")


# -- stored frameworks ----------------------------------------------------------------------------


def test_import_show_ground_export_round_trip(svc: ArgumentationService, graph: Graph, space: str) -> None:
    fw = svc.import_framework(CORPUS / "aasgd" / "BA_60_60_2.tgf", "ba")
    assert (fw.name, fw.ns, fw.arguments, fw.attacks, fw.status, fw.format) == (
        "ba",
        "framework:ba",
        61,
        97,
        "ready",
        "tgf",
    )
    assert svc.framework("ba") == fw and [f.name for f in svc.frameworks()] == ["ba"]
    with pytest.raises(ValidationError, match="labelled"):
        svc.labels(fw.ns)  # not solved yet
    res = svc.ground_framework("ba")
    assert (len(res.in_), len(res.out), len(res.undec), res.waves) == (25, 11, 25, 2)
    assert svc.labels(fw.ns).extension() == res.extension()  # labels are stored in the graph
    assert svc.ground(fw.ns).extension() == res.extension()  # re-solving is idempotent
    back = iccma.parse(svc.export_text("ba", "tgf"), "tgf")
    orig = iccma.read_framework(CORPUS / "aasgd" / "BA_60_60_2.tgf")
    assert set(back.arguments) == set(orig.arguments) and set(back.attacks) == set(orig.attacks)
    assert svc.delete_framework("ba") is True and svc.delete_framework("ba") is False
    assert _count(graph, space).get("Argument", 0) == 0 and _count(graph, space).get("Framework", 0) == 0
    with pytest.raises(FrameworkNotFound):
        svc.framework("ba")


def test_af_format_import_and_export(svc: ArgumentationService, tmp_path: Path) -> None:
    p = tmp_path / "three.af"
    p.write_text("p af 3\n1 2\n2 3\n")
    svc.import_framework(p, "three")
    assert svc.ground_framework("three").in_ == ["1", "3"]
    assert svc.export_text("three", "af") == "p af 3\n1 2\n2 3\n"


def test_existing_name_needs_replace(svc: ArgumentationService, tmp_path: Path) -> None:
    p = tmp_path / "a.apx"
    p.write_text("arg(a).\narg(b).\natt(a,b).\n")
    svc.import_framework(p, "x")
    with pytest.raises(ValidationError, match="already exists"):
        svc.import_framework(p, "x")
    p.write_text("arg(c).\n")
    fw = svc.import_framework(p, "x", replace=True)
    assert fw.arguments == 1 and svc.ground_framework("x").in_ == ["c"]


# -- bad input: typed error, nothing written ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("arg(a).\narg(b).\natt(a,c).\n", 3, "unknown argument 'c'"),
        ("arg(a).\narg(b).\narg(a).\n", 3, "duplicate argument 'a'"),
        ("% nothing here\n", None, "empty framework"),
    ],
)
def test_bad_files_raise_and_write_nothing(
    svc: ArgumentationService, graph: Graph, space: str, tmp_path: Path, text: str, line: int | None, message: str
) -> None:
    p = tmp_path / "bad.apx"
    p.write_text(text)
    for call in (lambda: svc.import_framework(p, "bad"), lambda: svc.solve(p)):
        with pytest.raises(FormatError) as info:
            call()
        assert info.value.line == line and info.value.path == str(p) and message in str(info.value)
    assert _count(graph, space) == {}


def test_large_file_with_one_bad_line_writes_nothing(
    svc: ArgumentationService, graph: Graph, space: str, tmp_path: Path
) -> None:
    n = 100_000
    lines = [str(i) for i in range(n)] + ["#"] + [f"{i} {i + 1}" for i in range(n - 1)]
    lines[n + 1 + 77_777] = "5 6 7"  # one attack line with three fields
    p = tmp_path / "big.tgf"
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(FormatError) as info:
        svc.import_framework(p, "big")
    assert info.value.line == n + 2 + 77_777 and "3 field(s)" in str(info.value)
    assert _count(graph, space) == {}


def test_in_memory_validation_errors(svc: ArgumentationService, graph: Graph, space: str) -> None:
    with pytest.raises(ValidationError, match="unknown argument 'z'"):
        svc.store_attacks("dispute:k", ["a", "b"], [("a", "z")])
    with pytest.raises(ValidationError, match="duplicate argument"):
        svc.store_attacks("dispute:k", ["a", "a"], [])
    with pytest.raises(ValidationError, match="empty framework"):
        svc.store_attacks("dispute:k", [], [])
    with pytest.raises(ValidationError, match="framework name"):
        svc.store_framework(AttackGraph.from_lists(["a"], []), "")
    with pytest.raises(NotFoundError, match="no arguments"):
        svc.ground("dispute:nothing")
    assert _count(graph, space) == {}


def test_chunked_import_is_all_or_nothing(
    svc: ArgumentationService, graph: Graph, space: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above IMPORT_CHUNK the import spans transactions behind status 'importing'; a failure in
    the middle deletes the partial import before the error surfaces."""
    monkeypatch.setattr(argmod, "IMPORT_CHUNK", 40)
    af = chain_graph(101)
    fw = svc.store_framework(af, "chunked")
    assert fw.status == "ready" and fw.arguments == 101 and fw.attacks == 100
    res = svc.ground_framework("chunked")
    assert res.waves == 51 and len(res.in_) == 51 and res.in_[0] == "a0"

    calls = {"n": 0}
    real = svc.repo.create_attacks

    def failing(tx: Any, ns: str, pairs: Any) -> int:
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("disk full")
        return real(tx, ns, pairs)

    monkeypatch.setattr(svc.repo, "create_attacks", failing)
    with pytest.raises(RuntimeError, match="disk full"):
        svc.store_framework(af, "broken")
    assert [f.name for f in svc.frameworks()] == ["chunked"]
    assert svc.labels(framework_ns("chunked")).arguments == 101
    with pytest.raises(NotFoundError):
        svc.labels(framework_ns("broken"))


# -- explanations ---------------------------------------------------------------------------------------


def test_explanations_for_in_out_undec(svc: ArgumentationService) -> None:
    # c is reinstated (its attacker b is OUT, defeated by a); d and e attack each other; f attacks itself.
    svc.store_attacks(
        "dispute:x",
        ["a", "b", "c", "d", "e", "f", "g"],
        [("a", "b"), ("b", "c"), ("d", "e"), ("e", "d"), ("f", "f"), ("e", "g"), ("f", "g")],
    )
    res = svc.ground("dispute:x")
    assert res.round_trips == 1  # a small framework is solved by the one start_grounded statement
    assert res.extension() == {"in": ["a", "c"], "out": ["b"], "undec": ["d", "e", "f", "g"]}
    a = svc.explain_label("dispute:x", "a")
    assert a.label == "IN" and a.decisive == [] and "no attacker" in a.reason and a.wave == 1
    c = svc.explain_label("dispute:x", "c")
    assert c.label == "IN" and [x.name for x in c.decisive] == ["b"] and "every attacker is OUT" in c.reason
    assert c.wave == 2 and c.decisive[0].label == "OUT"
    b = svc.explain_label("dispute:x", "b")
    assert (
        b.label == "OUT" and [x.name for x in b.decisive] == ["a"] and "attacked by a, which is IN (wave 1)" in b.reason
    )
    g = svc.explain_label("dispute:x", "g")
    assert g.label == "UNDEC" and [x.name for x in g.decisive] == ["e", "f"]
    f = svc.explain_label("dispute:x", "f")
    assert "attacks itself" in f.reason and [t.name for t in f.targets] == ["f", "g"]
    with pytest.raises(NotFoundError):
        svc.explain_label("dispute:x", "nope")
    # the graph changes after the solve: the explanation says it is stale
    svc.add_attacks("dispute:x", [("d", "c")])
    assert "stale" in svc.explain_label("dispute:x", "c").reason
    assert svc.ground("dispute:x").label_of("c") == "UNDEC"


# -- namespaces built by other services ------------------------------------------------------------------


def test_enlisted_claims_multi_edges_and_namespace_isolation(bg: Any, svc: ArgumentationService) -> None:
    c1 = bg.assert_claim("user.city", "Porto", "The user lives in Porto", agent="user:a").claim.id
    c2 = bg.assert_claim("user.city2", "Lisbon", "The user lives in Lisbon", agent="agent:b").claim.id
    c3 = bg.assert_claim("user.city3", "Braga", "The user lives in Braga", agent="agent:c").claim.id
    assert bg.space == svc.space
    with pytest.raises(NotFoundError, match="missing-id"):
        svc.enlist("dispute:city", [c1, "missing-id"])
    assert svc.enlist("dispute:city", [c1, c2, c3]) == [c1, c2, c3]
    # two edges per attacking pair (different agents): c1 is reinstated only once both edges are out
    n = svc.add_attacks(
        "dispute:city",
        [
            Attack(attacker=c3, target=c2, reason="newer", by="policy"),
            Attack(attacker=c3, target=c2, reason="source", by="agent:c"),
            Attack(attacker=c2, target=c1, reason="contradicts", by="policy"),
            Attack(attacker=c2, target=c1, reason="older", by="agent:b"),
        ],
    )
    assert n == 4
    # the export gives each attacking pair once, however many edges it has
    exported = svc.export_framework("dispute:city")
    assert sorted(exported.arguments) == sorted([c1, c2, c3])
    assert sorted(exported.attacks) == sorted([(c3, c2), (c2, c1)])
    # an argument of another namespace attacking c3 does not count
    svc.store_attacks("dispute:other", ["z"], [])
    with pytest.raises(ValidationError, match="unknown argument"):
        svc.add_attacks("dispute:city", [("z", c3)])
    res = bg.argumentation.ground("dispute:city")
    assert res.labelling() == {c3: "IN", c2: "OUT", c1: "IN"}
    assert bg.argumentation.explain_label("dispute:city", c1).decisive[0].name == c2
    assert bg.beliefs.claim(c1).status.value == "active"  # the claim itself is untouched
    svc.clear_namespace("dispute:city")
    with pytest.raises(NotFoundError):
        svc.ground("dispute:city")
    assert bg.beliefs.claim(c2).id == c2


# -- grounded marks: :In / :Out / :Undec mirror the label (Browser and Bloom style by label) -------------

_MARK = {"IN": ["In"], "OUT": ["Out"], "UNDEC": ["Undec"], None: []}


def _marked(graph: Graph, space: str, ns: str) -> dict[str, str | None]:
    """The stored label of each argument of ``ns``, after checking it carries exactly its mark."""
    rows = graph.driver.execute_query(
        "MATCH (a:Argument {space: $s, ns: $ns}) "
        "RETURN a.name AS name, a.label AS label, [m IN labels(a) WHERE m IN ['In', 'Out', 'Undec']] AS marks",
        s=space,
        ns=ns,
        database_=graph.database,
    ).records
    wrong = [(r["name"], r["label"], r["marks"]) for r in rows if r["marks"] != _MARK[r["label"]]]
    assert not wrong, wrong
    return {r["name"]: r["label"] for r in rows}


def test_marks_follow_the_label_through_one_statement_solves_and_re_solves(
    svc: ArgumentationService, graph: Graph, space: str
) -> None:
    svc.store_attacks("marks:x", ["a", "b", "c", "d"], [("a", "b"), ("b", "c")])
    assert _marked(graph, space, "marks:x") == dict.fromkeys("abcd")  # never solved: no mark
    res = svc.ground("marks:x")
    assert res.round_trips == 1  # start_grounded alone
    assert _marked(graph, space, "marks:x") == {"a": "IN", "b": "OUT", "c": "IN", "d": "IN"}
    # new attacks flip labels: a and c IN -> OUT, b OUT -> IN; the old marks are removed
    svc.add_attacks("marks:x", [("d", "a")])
    svc.ground("marks:x")
    assert _marked(graph, space, "marks:x") == {"a": "OUT", "b": "IN", "c": "OUT", "d": "IN"}
    # a cycle d -> a -> b -> d: everything UNDEC
    svc.add_attacks("marks:x", [("b", "d")])
    svc.ground("marks:x")
    assert _marked(graph, space, "marks:x") == dict.fromkeys("abcd", "UNDEC")
    # a re-solve that changes no label changes no mark either: nothing to commit
    with graph.driver.session(database=graph.database) as session:
        summary = session.run(
            get_registry()["argumentation.start_grounded"].text, space=space, ns="marks:x", last_wave=8
        ).consume()
    assert (summary.counters.labels_added, summary.counters.labels_removed) == (0, 0)
    assert run_check(graph, space, only=["grounded_labels"]).ok


def test_marks_on_the_multi_statement_path(svc: ArgumentationService, graph: Graph, space: str) -> None:
    """A double chain of 200 needs 50 waves: start_grounded hands over to propagate_waves, and
    its last batch writes the labels and the marks."""
    svc.store_graph("marks:long", double_chain_graph(200))
    res = svc.ground("marks:long")
    assert res.round_trips > 1 and res.waves == 50
    labels = _marked(graph, space, "marks:long")
    assert labels == res.labelling()
    assert labels["a0"] == "IN" and labels["a1"] == "OUT"
    svc.add_attacks("marks:long", [("b0", "a0")])  # a0 IN -> OUT, nothing else changes
    res = svc.ground("marks:long")
    assert res.round_trips > 1
    assert _marked(graph, space, "marks:long") == {**labels, "a0": "OUT"}


def test_small_and_wave_paths_agree_whatever_the_size_memo_says(
    svc: ArgumentationService, graph: Graph, space: str
) -> None:
    """ground_small (<= SMALL_MAX arguments and SMALL_MAX_ATTACKS attacks) and start_grounded give
    the same labels, waves and marks; the remembered size is only a hint: a stale entry or a
    namespace that grew past the bounds never changes a label."""
    names = [f"x{i}" for i in range(20)]
    attacks = [(names[i], names[i + 1]) for i in range(19)] + [("x5", "x5"), ("x12", "x3")]
    svc.store_attacks("paths:a", names, attacks)
    small = svc.ground("paths:a")
    assert "paths:a" not in svc._large  # written small: no attempt skipped
    labels = _marked(graph, space, "paths:a")
    svc._large["paths:a"] = None  # a stale hint: the wave path solves it
    waves = svc.ground("paths:a")
    assert (waves.labelling(), waves.waves) == (small.labelling(), small.waves)
    assert _marked(graph, space, "paths:a") == labels == small.labelling()
    # dense: 20 arguments, more attacks than SMALL_MAX_ATTACKS, added behind the service's back
    # (add_attacks does not remember sizes): the small statement declines, start_grounded solves
    dense = [(a, b) for a in names for b in names if a != b and b != "x0"]
    assert len(dense) > argmod.SMALL_MAX_ATTACKS
    svc._large.pop("paths:a", None)
    svc.add_attacks("paths:a", dense)
    res = svc.ground("paths:a")
    assert "paths:a" in svc._large
    assert res.in_ == ["x0"] and res.waves == 1 and set(res.out) == set(names) - {"x0"}
    assert _marked(graph, space, "paths:a") == res.labelling()
    assert run_check(graph, space, only=["grounded_labels"]).ok


def test_marks_on_the_export_write_back(svc: ArgumentationService, graph: Graph, space: str) -> None:
    """argumentation.write_labels (the export path's write-back) writes the marks as the solver does."""
    svc.store_attacks("marks:ext", ["a", "b", "c"], [("a", "b"), ("b", "c")])
    assert svc.repo.write_labels("marks:ext", ["a", "c"], ["b"], []) == 3
    assert _marked(graph, space, "marks:ext") == {"a": "IN", "b": "OUT", "c": "IN"}
    assert svc.repo.write_labels("marks:ext", ["b"], ["a"], ["c"]) == 3
    assert _marked(graph, space, "marks:ext") == {"a": "OUT", "b": "IN", "c": "UNDEC"}
    # and the solver after it puts back its own labelling with its marks
    svc.ground("marks:ext")
    assert _marked(graph, space, "marks:ext") == {"a": "IN", "b": "OUT", "c": "IN"}


def test_enlisted_claims_keep_mark_and_label_when_released(bg: Any, svc: ArgumentationService, graph: Graph) -> None:
    c1 = bg.assert_claim("user.x", "1", "x is 1", agent="user:a").claim.id
    c2 = bg.assert_claim("user.y", "2", "y is 2", agent="user:b").claim.id
    svc.enlist("dispute:xy", [c1, c2])
    svc.add_attacks("dispute:xy", [(c1, c2)])
    svc.ground("dispute:xy")
    assert _marked(graph, svc.space, "dispute:xy") == {c1: "IN", c2: "OUT"}
    svc.clear_namespace("dispute:xy")
    rows = graph.driver.execute_query(
        "MATCH (c:Claim {space: $s}) WHERE c.id IN $ids RETURN c.id AS id, c.label AS label, labels(c) AS ls",
        s=svc.space,
        ids=[c1, c2],
        database_=graph.database,
    ).records
    got = {r["id"]: (r["label"], sorted(set(r["ls"]) & {"In", "Out", "Undec", "Argument", "Active"})) for r in rows}
    assert got == {c1: ("IN", ["Active", "In"]), c2: ("OUT", ["Active", "Out"])}
    assert bg.admin.check().ok


# -- linear work, index-backed frontier -------------------------------------------------------------------


def test_db_hits_grow_linearly_with_arguments_plus_attacks(svc: ArgumentationService) -> None:
    per_unit = []
    for make, n in ((chain_graph, 500), (chain_graph, 4000), (double_chain_graph, 500), (double_chain_graph, 4000)):
        af = make(n)
        ns = f"bench:{make.__name__}:{n}"
        svc.store_graph(ns, af)
        res, hits = svc.profile_ground(ns)
        assert res.waves == ((n + 1) // 2 if make is chain_graph else n // 4)
        per_unit.append((hits["init"] + hits["waves"] + hits["finish"]) / (len(af.arguments) + len(af.attacks)))
        # start (counters, waves 1..8 and 8 more) + doubling batches 16 + ... + 512 (1008 waves)
        assert res.round_trips <= 7
    assert max(per_unit[0], per_unit[1]) / min(per_unit[0], per_unit[1]) < 1.15, per_unit
    assert max(per_unit[2], per_unit[3]) / min(per_unit[2], per_unit[3]) < 1.15, per_unit


def _plan_ops(graph: Graph, name: str) -> list[str]:
    def ops(plan: dict[str, Any]) -> list[str]:
        out = [plan["operatorType"].split("@")[0] + " " + str(plan.get("args", {}).get("Details", ""))]
        for child in plan.get("children", []):
            out += ops(child)
        return out

    with graph.driver.session(database=graph.database) as s:
        summary = s.run("EXPLAIN " + get_registry()[name].text).consume()
    assert summary.plan is not None
    return ops(summary.plan)


@pytest.mark.parametrize("name", sorted(n for n in get_registry().names() if n.startswith("argumentation.")))
def test_argumentation_queries_never_scan_a_label(graph: Graph, name: str) -> None:
    ops = _plan_ops(graph, name)
    assert not [o for o in ops if o.startswith(("NodeByLabelScan", "AllNodesScan", "NodeIndexScan"))], ops


@pytest.mark.parametrize(
    ("name", "lookups"),
    [
        ("argumentation.create_attacks", 2),
        ("argumentation.merge_attacks", 2),
        ("argumentation.explain_argument", 1),
        ("argumentation.write_labels", 1),
    ],
)
def test_arguments_by_name_come_from_the_unique_index(graph: Graph, name: str, lookups: int) -> None:
    """Each lookup by name seeks the unique (space, ns, name) index: a seek on (space, ns) filtered
    on name makes an import quadratic (seen on Neo4j 2025.12.1 from an empty store: 10^4 attacks
    took 103-224 s instead of 0.8 s)."""
    ops = _plan_ops(graph, name)
    seeks = [o for o in ops if o.startswith("NodeUniqueIndexSeek") and "Argument(space, ns, name)" in o]
    assert len(seeks) == lookups, ops


@pytest.mark.parametrize("name", ["argumentation.propagate_waves", "argumentation.start_grounded"])
def test_each_wave_seeks_its_frontier(graph: Graph, name: str) -> None:
    ops = _plan_ops(graph, name)
    seeks = [o for o in ops if o.startswith("NodeIndexSeek") and "frontier = k" in o]
    # start_grounded runs two batches of waves (1..8, then 8 from the next non-empty wave)
    assert len(seeks) == (2 if name == "argumentation.start_grounded" else 1), ops


# -- CLI -----------------------------------------------------------------------------------------------------


@pytest.fixture()
def cli(base_settings: Settings, space: str) -> Iterator[Any]:
    runner = CliRunner()
    env = {
        "BELIEF_GRAPH_NEO4J__URI": base_settings.neo4j.uri,
        "BELIEF_GRAPH_NEO4J__USER": base_settings.neo4j.user,
        "BELIEF_GRAPH_NEO4J__PASSWORD": base_settings.neo4j.password.get_secret_value(),
    }

    def invoke(*args: str) -> Any:
        return runner.invoke(app, ["--space", space, *args], env=env, catch_exceptions=True)

    yield invoke


def test_cli_solve_prints_iccma_style_and_json(cli: Any) -> None:
    f = str(CORPUS / "aasgd" / "BA_60_60_2.tgf")
    r = cli("argue", "solve", f)
    assert r.exit_code == 0, r.output
    expected = (CORPUS / "aasgd" / "BA_60_60_2.tgf.GR").read_text().split()
    assert r.stdout.strip() == "[" + ",".join(expected) + "]"
    r = cli("argue", "solve", f, "--json")
    data = json.loads(r.stdout)
    assert set(data) == {"in", "out", "undec"} and data["in"] == expected
    assert (len(data["out"]), len(data["undec"])) == (11, 25)
    r = cli("argue", "solve", str(CORPUS / "probo" / "ex2.apx"), "--iccma23", "--explain", "a2")
    assert r.stdout.splitlines() == ["w a1", "a2: OUT: attacked by a1, which is IN (wave 1)"]
    r = cli("argue", "solve", str(CORPUS / "probo" / "ex2.apx"), "--json", "--explain", "a1")
    assert json.loads(r.stdout)["explain"]["a1"]["label"] == "IN"


def test_cli_import_show_explain_list_export_delete(cli: Any, tmp_path: Path) -> None:
    f = str(CORPUS / "probo" / "ex3.apx")
    r = cli("argue", "import", f, "--name", "ex3", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["arguments"] == 10
    r = cli("argue", "explain", "ex3", "a9", "--json")  # solves first
    assert json.loads(r.stdout)["label"] == "UNDEC" and "attacks itself" in json.loads(r.stdout)["reason"]
    r = cli("argue", "show", "ex3", "--json")
    data = json.loads(r.stdout)
    assert data["in"] == [] and len(data["undec"]) == 10 and data["framework"]["name"] == "ex3"
    r = cli("argue", "show", "ex3")
    assert r.exit_code == 0 and r.stdout.strip().endswith("[]")
    r = cli("argue", "list", "--json")
    assert [x["name"] for x in json.loads(r.stdout)] == ["ex3"]
    out = tmp_path / "ex3.tgf"
    r = cli("argue", "export", "ex3", "--format", "tgf", "--out", str(out))
    assert r.exit_code == 0 and len(iccma.read_framework(out).attacks) == 25
    r = cli("argue", "delete", "ex3")
    assert r.exit_code == 0
    r = cli("argue", "show", "ex3")
    assert isinstance(r.exception, FrameworkNotFound)


def test_cli_bad_file_is_one_line_with_exit_code_2(base_settings: Settings, space: str, tmp_path: Path) -> None:
    p = tmp_path / "bad.apx"
    p.write_text("arg(a).\natt(a,b).\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    env.update(
        BELIEF_GRAPH_NEO4J__URI=base_settings.neo4j.uri,
        BELIEF_GRAPH_NEO4J__USER=base_settings.neo4j.user,
        BELIEF_GRAPH_NEO4J__PASSWORD=base_settings.neo4j.password.get_secret_value(),
    )
    bin_ = str(Path(sys.executable).with_name("belief-graph"))
    r = subprocess.run(
        [bin_, "--space", space, "argue", "solve", str(p)], capture_output=True, text=True, env=env, timeout=120
    )
    assert r.returncode == 2
    assert r.stderr.strip() == (
        f"error: {p}:2: attack (a, b) names unknown argument 'b' (expected an argument declared with 'arg(<name>).')"
    )


def test_cli_bench_grounded_json(cli: Any) -> None:
    r = cli(
        "bench",
        "grounded",
        "--corpus-limit",
        "3",
        "--sizes",
        "200",
        "--repeat",
        "2",
        "--small",
        "3,5",
        "--small-repeat",
        "2",
        "--json",
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["summary"]["all_ok"] is True
    cases = {c["case"]: c for c in data["cases"]}
    assert set(cases) == {"chain(200)", "dchain(200)"}
    assert cases["chain(200)"]["waves"] == 100 and cases["dchain(200)"]["waves"] == 50
    for c in data["cases"] + data["corpus"]:
        for key in ("db_s", "ext_s", "export_s", "solve_s", "write_s", "ratio", "hits_per_unit", "db_us_per_argument"):
            assert isinstance(c[key], float) and c[key] > 0, (c["case"], key)
    for c in data["cases"]:  # one ratio per (db run, ext run) pair, the best ones in between
        assert len(c["ratio_pairs"]) == 2 and len(c["db_runs_s"]) == len(c["ext_runs_s"]) == 2
        assert c["ratio"] == min(c["db_runs_s"]) / min(c["ext_runs_s"])
    assert len(data["corpus_instances"]) == 3
    # the small-framework latency, next to the commit floor; the floor's probe space is dropped
    assert [r["arguments"] for r in data["small"]["rows"]] == [3, 5]
    assert data["small"]["db_ms_median"] > 0 and data["small"]["floor_ms_median"] > 0
