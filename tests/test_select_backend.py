"""Which backend a configuration selects, and the one sentence a bad one gets."""

import pytest

from jupyter_chatdb.errors import ModelUnavailable
from jupyter_chatdb.llm import ScriptedBackend, select_backend
from jupyter_chatdb.llm.local_backend import LocalBackend
from jupyter_chatdb.llm.openai_backend import OpenAIBackend


def test_default_is_the_embedded_model():
    assert isinstance(select_backend(env={}), LocalBackend)


def test_openai_environment_selects_a_server():
    backend = select_backend(env={"OPENAI_API_KEY": "sk-test"})
    assert isinstance(backend, OpenAIBackend) and backend.name == "gpt-4o-mini" and backend.base_url is None
    backend = select_backend(env={"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1", "OPENAI_MODEL": "qwen2.5-coder"})
    assert backend.base_url == "http://127.0.0.1:11434/v1" and backend.name == "qwen2.5-coder"


def test_chatdb_model_beats_openai_environment():
    assert isinstance(select_backend(env={"CHATDB_MODEL": "local", "OPENAI_API_KEY": "sk"}), LocalBackend)
    backend = select_backend(env={"CHATDB_MODEL": "gpt-4.1", "OPENAI_API_KEY": "sk"})
    assert backend.name == "gpt-4.1"


def test_explicit_choice_beats_environment():
    scripted = ScriptedBackend()
    assert select_backend(scripted, env={"CHATDB_MODEL": "gpt-4.1"}) is scripted
    assert isinstance(select_backend("local", env={"OPENAI_API_KEY": "sk"}), LocalBackend)
    backend = select_backend("llama3", base_url="http://127.0.0.1:8080/v1", env={"OPENAI_BASE_URL": "http://other/v1"})
    assert backend.base_url == "http://127.0.0.1:8080/v1" and backend.name == "llama3"


def test_gguf_path_and_url_forms(tmp_path):
    local = select_backend(str(tmp_path / "mine.gguf"), env={})
    assert isinstance(local, LocalBackend) and local.name == "mine"
    server = select_backend("http://127.0.0.1:8080/v1", env={})
    assert isinstance(server, OpenAIBackend) and server.base_url == "http://127.0.0.1:8080/v1"


def test_a_model_name_without_key_or_server_says_what_to_do():
    with pytest.raises(ModelUnavailable, match="No API key found: set OPENAI_API_KEY"):
        select_backend("gpt-4.1", env={})


def test_a_missing_gguf_file_is_explained(tmp_path):
    with pytest.raises(ModelUnavailable, match="No model file at"):
        select_backend(str(tmp_path / "absent.gguf"), env={}).load()


def test_keys_do_not_show_in_repr():
    backend = select_backend(env={"OPENAI_API_KEY": "sk-secret-value"})
    assert "sk-secret" not in repr(backend)
