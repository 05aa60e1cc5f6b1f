"""Model backends behind one small Protocol (`LLM.complete`)."""

from .base import LLM, Completion, Message, Usage
from .scripted import ScriptedBackend
from .select import select_backend

__all__ = ["LLM", "Completion", "Message", "ScriptedBackend", "Usage", "select_backend"]
