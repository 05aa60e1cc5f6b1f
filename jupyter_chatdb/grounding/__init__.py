"""What grounds a request in the data: its words and their stems, which tables join, which tables a
request needs (schema selection), and which stored values its literals mean (the value index).
"""
