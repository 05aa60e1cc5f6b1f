"""Read-only tools that answer questions about the data's shape, quality and the engine (not in the data):
each takes a typed input and returns a table, shown as a card like a SQL step."""

from .base import Observation, ToolCall, ToolInputError, Workbench
from .pool import POOL, TOOLS, Tool, call_text, run_tool

__all__ = ["POOL", "TOOLS", "Observation", "Tool", "ToolCall", "ToolInputError", "Workbench", "call_text", "run_tool"]
