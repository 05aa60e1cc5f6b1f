"""Any OpenAI-compatible server through the `openai` SDK. The only module importing openai."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import openai

from ..errors import ModelOutputError, ModelUnavailable
from .base import Completion, JSONSchema, Message, StreamCallback, Usage
from .urls import redact

OPENAI_DEFAULT_MODEL = "gpt-4o-mini"
LOCAL_SERVER_KEY = "not-needed"  # local servers (llama.cpp, Ollama, vLLM) accept any key

StructuredOutput = Literal["json_schema", "json_object"]


class OpenAIBackend:
    """Chat completions from OpenAI, Azure, Ollama, vLLM or a llama.cpp server.

    `structured_output` says what the server supports: `json_schema` (OpenAI, vLLM, llama.cpp,
    Ollama) constrains output to the schema; `json_object` only asks for JSON and puts the schema
    in the prompt. Retries and timeouts are the SDK's own.
    """

    def __init__(
        self,
        model: str = OPENAI_DEFAULT_MODEL,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        structured_output: StructuredOutput = "json_schema",
    ) -> None:
        if not api_key and not base_url:
            raise ModelUnavailable(
                "No API key found: set OPENAI_API_KEY, point OPENAI_BASE_URL at a local server, "
                "or use the embedded model (CHATDB_MODEL=local)."
            )
        self.name = model
        self.base_url = redact(base_url)  # for messages and repr: a key in the URL is never shown
        self.timeout = timeout
        self.structured_output = structured_output
        self._client = openai.OpenAI(
            api_key=api_key or LOCAL_SERVER_KEY, base_url=base_url, timeout=timeout, max_retries=max_retries
        )

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAIBackend({self.name!r}, base_url={self.base_url!r})"

    def complete(
        self,
        messages: list[Message],
        *,
        json_schema: JSONSchema | None = None,
        stream: StreamCallback | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        stop: Sequence[str] = (),
    ) -> Completion:
        request: dict[str, Any] = dict(
            model=self.name, messages=list(messages), max_tokens=max_tokens, temperature=temperature
        )
        if json_schema is not None:
            request.update(self._structured(request["messages"], json_schema))
        if stop:
            request["stop"] = list(stop)[:4]  # the API takes at most four
        try:
            if stream is None:
                return _completion(self._client.chat.completions.create(**request))
            return _streamed(
                self._client.chat.completions.create(stream=True, stream_options={"include_usage": True}, **request),
                stream,
            )
        except openai.APIError as error:
            raise self._translate(error) from error

    def _structured(self, messages: list[Message], schema: JSONSchema) -> dict[str, Any]:
        if self.structured_output == "json_schema":
            # OpenAI's strict mode takes an object at the root; a choice of objects (one per table) is
            # followed by servers that constrain decoding (vLLM, llama.cpp) and is a guide to the others
            strict = schema.get("type") == "object"
            return {
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": "reply", "schema": schema, "strict": strict},
                }
            }
        hint: Message = {"role": "system", "content": f"Reply with JSON matching this schema: {schema}"}
        return {"messages": [hint, *messages], "response_format": {"type": "json_object"}}

    def _translate(self, error: openai.APIError) -> Exception:
        where = self.base_url or "the OpenAI API"
        if isinstance(error, openai.AuthenticationError):
            return ModelUnavailable(f"{where} rejected the API key: check OPENAI_API_KEY.")
        if isinstance(error, openai.APITimeoutError):
            return ModelUnavailable(
                f"{where} did not answer within {self.timeout:g} s: check that the server is running."
            )
        if isinstance(error, openai.APIConnectionError):
            return ModelUnavailable(f"Cannot reach {where}: start the server or fix OPENAI_BASE_URL.")
        if isinstance(error, openai.NotFoundError):
            return ModelUnavailable(f"{where} has no model {self.name!r}: set CHATDB_MODEL to a model it serves.")
        if isinstance(error, openai.RateLimitError):
            return ModelUnavailable(f"{where} is rate-limiting requests: wait a moment and run again.")
        return ModelOutputError(f"{where} refused the request: {error.message}")


def _completion(response: Any) -> Completion:
    if not response.choices:
        raise ModelOutputError("The model server returned no choices: check that the model is loaded.")
    text = response.choices[0].message.content or ""
    return Completion(text, _usage(response.usage))


def _streamed(chunks: Any, stream: StreamCallback) -> Completion:
    pieces: list[str] = []
    usage = Usage(calls=1)
    for chunk in chunks:
        if chunk.usage is not None:
            usage = _usage(chunk.usage)
        if chunk.choices and chunk.choices[0].delta.content:
            pieces.append(chunk.choices[0].delta.content)
            stream(pieces[-1])
    return Completion("".join(pieces), usage)


def _usage(usage: Any) -> Usage:
    if usage is None:
        return Usage(calls=1)
    return Usage(usage.prompt_tokens or 0, usage.completion_tokens or 0, 1)
