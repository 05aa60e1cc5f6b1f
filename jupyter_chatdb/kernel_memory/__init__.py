"""Thought memory per notebook (Think-in-Memory, RET-LLM triples): built in a later issue."""
