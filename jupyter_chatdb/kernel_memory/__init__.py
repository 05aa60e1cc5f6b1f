"""The notebook's thought memory (Think-in-Memory) with subject-relation-object triples (RET-LLM)."""
