"""Rebuild ``tests/data/corpus`` from the full corpus (a folder holding ``argumentation/`` and ``tms/``).

    python tests/data/corpus/vendor.py /path/to/shared/corpus

The TMS scenarios are copied whole. From the argumentation corpus a fixed subset is copied (the rule
is ``select`` below and is explained in ``argumentation/PROVENANCE.md``), with the matching rows of
``EXPECTED.tsv``, ``MANIFEST.tsv`` and ``ORACLES.tsv`` and each instance's ``.GR`` answer. Each
``PROVENANCE.md`` is the upstream text followed by a section saying what was copied here and why.
"""

from __future__ import annotations

import csv
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# afgen: the three smallest dense AFs (100-128 arguments, 2,025-4,737 attacks); the rest are up to
# 943 KB each.
AFGEN = ("afgen/n100p3q34ve.apx", "afgen/n100p5q2.apx", "afgen/n128p5q2_ve.apx")
# pygarg-ba: seed 0 at three cycle probabilities for each of the 10 sizes, plus the only 4-wave AF.
PYGARG_P = ("0", "0.45", "0.9")
PYGARG_EXTRA = ("pygarg-ba/BA-numArg100-pbCycle0.1-0.apx",)

ARGUMENTATION_NOTE = """
## This copy: tests/data/corpus/argumentation (a subset)

The test suite runs from a plain clone, so it carries a subset of the corpus above (about 0.5 MB of
the 8.9 MB), made by `tests/data/corpus/vendor.py` from the full corpus. Files, `.GR` answers and
the rows of `EXPECTED.tsv`, `MANIFEST.tsv` and `ORACLES.tsv` are copied unchanged; rows of files
that were not copied are left out. Every subfolder (family) is represented:

- **probo/**: all 6 instances and all 12 published solution files (the only published answers;
  reinstatement, a self-attack, a .tgf without a trailing newline).
- **aasgd/**: all 4 instances (ICCMA 2017 families; `BA_60_60_2.tgf` is used by name in tests).
- **afgen/**: the 3 smallest of the 17 dense AFGen instances, `n100p3q34ve.apx`, `n100p5q2.apx`
  and `n128p5q2_ve.apx` (100-128 arguments, 2,025-4,737 attacks, empty grounded extension). The
  others are 68 KB to 943 KB each.
- **pygarg-ba/**: 31 of the 570 instances: seed 0 at cycle probabilities 0, 0.45 and 0.9 for each
  of the 10 sizes (n = 10..100), plus `BA-numArg100-pbCycle0.1-0.apx`, the only AF with 4 waves.
  The subset has waves 0 to 4, empty and non-empty grounded extensions, with and without UNDEC.

The full corpus stays usable: `BELIEF_GRAPH_TEST_CORPUS=/path/to/corpus` (a folder holding
`argumentation/` and `tms/`) makes the same tests read it instead, and
`belief-graph bench grounded --corpus /path/to/corpus/argumentation` measures it.
"""

TMS_NOTE = """
## This copy: tests/data/corpus/tms

All 11 scenarios are copied unchanged by `tests/data/corpus/vendor.py`, so the test suite runs from
a plain clone.
"""


def select(rows: list[dict[str, str]]) -> list[str]:
    """The instance files (paths relative to the argumentation corpus) kept in the subset."""
    keep: list[str] = []
    for r in rows:
        f = r["file"]
        family, name = f.split("/", 1)
        if family in ("probo", "aasgd"):
            keep.append(f)  # every file: the tests use them by name
        elif family == "afgen" and f in AFGEN:
            keep.append(f)
        elif family == "pygarg-ba":
            # BA-numArg<n>-pbCycle<p>-<seed>.apx
            p, seed = name.removesuffix(".apx").split("-pbCycle")[1].rsplit("-", 1)
            if (seed == "0" and p in PYGARG_P) or f in PYGARG_EXTRA:
                keep.append(f)
    return keep


def _tsv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        return list(reader.fieldnames or []), list(reader)


def _write_tsv(path: Path, fields: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fields, delimiter="\t", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def _copy_files(src: Path, dst: Path) -> None:
    """The files of ``src`` (not its permissions: the source may be read-only)."""
    dst.mkdir(parents=True)
    for p in sorted(src.iterdir()):
        if p.is_file():
            shutil.copyfile(p, dst / p.name)


def main(source: Path) -> None:
    tms_src, arg_src = source / "tms", source / "argumentation"
    tms_dst, arg_dst = HERE / "tms", HERE / "argumentation"
    for d in (tms_dst, arg_dst):
        if d.exists():
            shutil.rmtree(d)
    _copy_files(tms_src, tms_dst)
    with (tms_dst / "PROVENANCE.md").open("a", encoding="utf-8") as fh:
        fh.write(TMS_NOTE)
    fields, rows = _tsv(arg_src / "EXPECTED.tsv")
    keep = set(select(rows))
    arg_dst.mkdir()
    for f in sorted(keep):
        for name in (f, f + ".GR"):
            (arg_dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(arg_src / name, arg_dst / name)
    _copy_files(arg_src / "probo" / "solutions", arg_dst / "probo" / "solutions")
    _write_tsv(arg_dst / "EXPECTED.tsv", fields, [r for r in rows if r["file"] in keep])
    for table in ("MANIFEST.tsv", "ORACLES.tsv"):
        t_fields, t_rows = _tsv(arg_src / table)
        solution = "probo/solutions/"
        _write_tsv(
            arg_dst / table, t_fields, [r for r in t_rows if r["file"] in keep or r["file"].startswith(solution)]
        )
    shutil.copyfile(arg_src / "PROVENANCE.md", arg_dst / "PROVENANCE.md")
    with (arg_dst / "PROVENANCE.md").open("a", encoding="utf-8") as fh:
        fh.write(ARGUMENTATION_NOTE)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
