"""Reading the user's words: one place for how a request is split into words and stems, how its numbers,
dates and lengths of time are read, which common words are set aside, and the English cues that let a
decision be made without a model call.

It imports nothing of the package but `errors`; every room above it may import it (`sql/`, the engine,
does not). Word lists here are generic English: no table's, column's or value's name.
"""
