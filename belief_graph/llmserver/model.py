"""GGUF metadata of the served model: its name, size and quantization for labels and status."""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

# --------------------------------------------------------------------------------------------
# GGUF metadata (the model's name and size for labels and status)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GGUFInfo:
    """What a GGUF file says about itself (``general.*`` metadata) and its size on disk."""

    path: Path
    name: str | None
    architecture: str | None
    size_label: str | None
    file_type: str | None
    context_length: int | None
    bytes: int

    @property
    def label(self) -> str:
        """``Qwen2.5 Coder 1.5B Instruct (1.5B parameters, Q4_K_M, 1.04 GiB GGUF)``."""
        bits = [
            f"{self.size_label} parameters" if self.size_label else None,
            self.file_type,
            f"{self.bytes / 2**30:.2f} GiB GGUF",
        ]
        return f"{self.name or self.path.name} ({', '.join(b for b in bits if b)})"


# general.file_type (llama_ftype) -> quantisation name, for the common types
_FILE_TYPES = {
    0: "F32",
    1: "F16",
    2: "Q4_0",
    3: "Q4_1",
    7: "Q8_0",
    8: "Q5_0",
    9: "Q5_1",
    10: "Q2_K",
    11: "Q3_K_S",
    12: "Q3_K_M",
    13: "Q3_K_L",
    14: "Q4_K_S",
    15: "Q4_K_M",
    16: "Q5_K_S",
    17: "Q5_K_M",
    18: "Q6_K",
    32: "BF16",
}
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}


def _read(fh: BinaryIO, fmt: str) -> Any:
    size = struct.calcsize(fmt)
    data = fh.read(size)
    if len(data) != size:
        raise ValueError("truncated GGUF header")
    return struct.unpack(fmt, data)[0]


def _read_str(fh: BinaryIO) -> str:
    n = _read(fh, "<Q")
    if n > 1 << 24:
        raise ValueError("implausible GGUF string length")
    return fh.read(n).decode("utf-8", errors="replace")


def _read_value(fh: BinaryIO, vtype: int, keep: bool) -> Any:
    if vtype in _SCALARS:
        return _read(fh, _SCALARS[vtype])
    if vtype == 8:
        return _read_str(fh)
    if vtype == 9:
        itype, n = _read(fh, "<I"), _read(fh, "<Q")
        if itype in _SCALARS and not keep:  # skip fixed-size arrays without decoding
            fh.seek(struct.calcsize(_SCALARS[itype]) * n, os.SEEK_CUR)
            return None
        items = [_read_value(fh, itype, keep) for _ in range(n)]
        return items if keep else None
    raise ValueError(f"unknown GGUF value type {vtype}")


def read_gguf_info(path: Path) -> GGUFInfo:
    """Read the ``general.*`` metadata of a GGUF file (header only; the tensors are not read).

    Raises :class:`ValueError` when the file is not GGUF (v2/v3).
    """
    meta: dict[str, Any] = {}
    with open(path, "rb") as fh:
        if fh.read(4) != b"GGUF":
            raise ValueError(f"{path} is not a GGUF file")
        version = _read(fh, "<I")
        if version not in (2, 3):
            raise ValueError(f"{path}: GGUF version {version} is not supported")
        _read(fh, "<Q")  # tensor count
        for _ in range(_read(fh, "<Q")):
            key = _read_str(fh)
            vtype = _read(fh, "<I")
            wanted = key.startswith("general.") or key.endswith(".context_length")
            value = _read_value(fh, vtype, keep=wanted and vtype != 9)
            if wanted:
                meta[key] = value
    arch = meta.get("general.architecture")
    ftype = meta.get("general.file_type")
    ctx = meta.get(f"{arch}.context_length") if arch else None
    return GGUFInfo(
        path=path,
        name=meta.get("general.name"),
        architecture=arch,
        size_label=meta.get("general.size_label"),
        file_type=_FILE_TYPES.get(ftype, f"type {ftype}") if isinstance(ftype, int) else None,
        context_length=int(ctx) if isinstance(ctx, int) else None,
        bytes=path.stat().st_size,
    )


def model_alias(path: Path) -> str:
    """The name the server answers as (and provenance records): the GGUF file's stem."""
    return path.name.removesuffix(".gguf")
