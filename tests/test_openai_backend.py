"""OpenAIBackend against a real HTTP server on loopback, through the real `openai` SDK."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from jupyter_chatdb.errors import ModelUnavailable
from jupyter_chatdb.llm.base import Completion, Message, Usage
from jupyter_chatdb.llm.openai_backend import LOCAL_SERVER_KEY, OpenAIBackend

from .openai_server import PROMPT_TOKENS, OpenAIServer, split_text

KEY = "sk-test-secret-123"
MODEL = "test-model"
MESSAGES: list[Message] = [
    {"role": "system", "content": "You answer questions about data."},
    {"role": "user", "content": "How many rows?"},
]
SCHEMA = {
    "type": "object",
    "properties": {"sql": {"type": "string"}},
    "required": ["sql"],
    "additionalProperties": False,
}


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # The SDK reads these; keep the tests independent of the machine's environment.
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(name, raising=False)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer(api_key=KEY, models={MODEL}) as running:
        yield running


def backend_for(server: OpenAIServer, **options: object) -> OpenAIBackend:
    options.setdefault("api_key", KEY)
    return OpenAIBackend(MODEL, base_url=server.base_url, max_retries=0, timeout=5.0, **options)


def test_plain_completion_returns_server_text_and_usage(server: OpenAIServer) -> None:
    server.replies.append("There are five rows.")
    result = backend_for(server).complete(MESSAGES, max_tokens=64, temperature=0.25)

    assert result == Completion("There are five rows.", Usage(PROMPT_TOKENS, 4, 1))
    (request,) = server.requests
    assert request.body["model"] == MODEL
    assert request.body["messages"] == MESSAGES
    assert request.body["max_tokens"] == 64
    assert request.body["temperature"] == 0.25
    assert "response_format" not in request.body
    assert not request.body.get("stream")


def test_default_sampling_options_are_sent(server: OpenAIServer) -> None:
    server.replies.append("ok")
    backend_for(server).complete(MESSAGES)

    body = server.requests[0].body
    assert body["max_tokens"] == 512
    assert body["temperature"] == 0.0


def test_json_schema_structured_output(server: OpenAIServer) -> None:
    reply = json.dumps({"sql": "SELECT count(*) FROM sales"})
    server.replies.append(reply)
    result = backend_for(server).complete(MESSAGES, json_schema=SCHEMA)

    assert json.loads(result.text) == {"sql": "SELECT count(*) FROM sales"}
    body = server.requests[0].body
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "reply", "schema": SCHEMA, "strict": True},
    }
    assert body["messages"] == MESSAGES  # the schema travels in response_format, not the prompt


def test_json_object_structured_output_puts_schema_in_a_system_message(server: OpenAIServer) -> None:
    server.replies.append('{"sql": "SELECT 1"}')
    backend = backend_for(server, structured_output="json_object")
    result = backend.complete(MESSAGES, json_schema=SCHEMA)

    assert result.text == '{"sql": "SELECT 1"}'
    body = server.requests[0].body
    assert body["response_format"] == {"type": "json_object"}
    hint, *rest = body["messages"]
    assert hint["role"] == "system"
    assert str(SCHEMA) in hint["content"]
    assert rest == MESSAGES


def test_streaming_delivers_pieces_in_order(server: OpenAIServer) -> None:
    text = "The North region sold the most apples."
    server.replies.append(text)
    pieces: list[str] = []
    result = backend_for(server).complete(MESSAGES, stream=pieces.append)

    assert pieces == split_text(text)
    assert len(pieces) > 1
    assert "".join(pieces) == result.text == text
    assert result.usage == Usage(PROMPT_TOKENS, len(text.split()), 1)
    body = server.requests[0].body
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["messages"] == MESSAGES


def test_streaming_with_json_schema(server: OpenAIServer) -> None:
    reply = '{"sql": "SELECT region FROM sales"}'
    server.replies.append(reply)
    pieces: list[str] = []
    result = backend_for(server).complete(MESSAGES, json_schema=SCHEMA, stream=pieces.append)

    assert "".join(pieces) == result.text == reply
    body = server.requests[0].body
    assert body["stream"] is True
    assert body["response_format"]["type"] == "json_schema"


def test_wrong_key_is_model_unavailable_about_openai_api_key(server: OpenAIServer) -> None:
    backend = backend_for(server, api_key="sk-wrong")
    with pytest.raises(ModelUnavailable) as caught:
        backend.complete(MESSAGES)

    assert str(caught.value) == f"{server.base_url} rejected the API key: check OPENAI_API_KEY."
    assert len(server.requests) == 1  # max_retries=0: one try


def test_wrong_key_while_streaming(server: OpenAIServer) -> None:
    backend = backend_for(server, api_key="sk-wrong")
    with pytest.raises(ModelUnavailable, match="OPENAI_API_KEY"):
        backend.complete(MESSAGES, stream=lambda piece: None)


def test_unknown_model_is_model_unavailable_about_chatdb_model(server: OpenAIServer) -> None:
    backend = OpenAIBackend("no-such-model", base_url=server.base_url, api_key=KEY, max_retries=0)
    with pytest.raises(ModelUnavailable) as caught:
        backend.complete(MESSAGES)

    assert str(caught.value) == (
        f"{server.base_url} has no model 'no-such-model': set CHATDB_MODEL to a model it serves."
    )


def closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_server_is_model_unavailable() -> None:
    base_url = f"http://127.0.0.1:{closed_port()}/v1"
    backend = OpenAIBackend(MODEL, base_url=base_url, api_key=KEY, max_retries=0, timeout=2.0)
    with pytest.raises(ModelUnavailable) as caught:
        backend.complete(MESSAGES)

    message = str(caught.value)
    assert message.startswith("Cannot reach")
    assert message == f"Cannot reach {base_url}: start the server or fix OPENAI_BASE_URL."


def test_no_key_and_no_base_url_raises_in_constructor() -> None:
    with pytest.raises(ModelUnavailable, match="OPENAI_API_KEY"):
        OpenAIBackend(MODEL)
    with pytest.raises(ModelUnavailable, match="OPENAI_API_KEY"):
        OpenAIBackend(MODEL, api_key="", base_url="")


def test_repr_never_shows_the_key(server: OpenAIServer) -> None:
    backend = backend_for(server)
    assert KEY not in repr(backend)
    assert repr(backend) == f"OpenAIBackend({MODEL!r}, base_url={server.base_url!r})"
    assert KEY not in repr(OpenAIBackend(MODEL, api_key=KEY))


def test_bearer_token_is_the_given_key(server: OpenAIServer) -> None:
    server.replies.append("ok")
    backend_for(server).complete(MESSAGES)

    assert server.requests[0].bearer == KEY


def test_bearer_token_is_placeholder_when_only_base_url_is_given() -> None:
    with OpenAIServer() as open_server:  # a local server that accepts any key
        open_server.replies.extend(["first", "second"])
        backend = OpenAIBackend(MODEL, base_url=open_server.base_url, max_retries=0, timeout=5.0)
        assert backend.complete(MESSAGES).text == "first"
        assert backend.complete(MESSAGES, stream=lambda piece: None).text == "second"

    assert [request.bearer for request in open_server.requests] == [LOCAL_SERVER_KEY] * 2
