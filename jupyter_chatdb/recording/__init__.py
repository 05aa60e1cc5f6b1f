"""Reading a write: the rows a request states, read against the schema (its CHECK lists, its reference rows,
its keys), kept to what the request says, and written by code as statements with bound values."""
