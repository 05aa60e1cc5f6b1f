"""What two of issue 17's techniques would cost on this machine, before building them: several candidates
decoded in one batch (voting), and decoding constrained to the schema's identifiers (a GBNF grammar).

The embedded model, the threads the product uses, an invented schema:
- batch: ms per decode step for k sequences sharing one prompt (llama.cpp's low-level batch API), against
  one sequence; voting over k candidates costs what k sequences per step cost;
- grammar: ms per token written for the same four questions, free and constrained to the schema's words,
  keywords, numbers, strings and punctuation (an unambiguous grammar; an ambiguous one is far slower).

    python benchmarks/decode_costs.py
"""

from __future__ import annotations

import os
import time

import llama_cpp
from llama_cpp import Llama, LlamaGrammar

from jupyter_chatdb.llm.model_files import ensure_model

SCHEMA = (
    "CREATE TABLE riders (rider_id INTEGER, name TEXT, stable_id INTEGER, age INTEGER);\n"
    "CREATE TABLE stables (stable_id INTEGER, stable_name TEXT, town TEXT, opened INTEGER);\n"
)
NAMES = ["riders", "rider_id", "name", "stable_id", "age", "stables", "stable_name", "town", "opened"]
KEYWORDS = (
    "SELECT FROM WHERE JOIN ON AS GROUP BY ORDER HAVING LIMIT AND OR NOT IN COUNT AVG SUM MIN MAX DISTINCT "
    "DESC ASC T1 T2 T3 LIKE IS NULL UNION INTERSECT EXCEPT BETWEEN"
).split()
QUESTIONS = [
    "Which town has the most riders?",
    "List the names of riders older than 30 in stables opened after 1990.",
    "How many stables are in each town?",
    "What is the average age of riders per stable name?",
]
STEPS = 24
_QUIET = llama_cpp.llama_log_callback(lambda level, text, data: None)  # kept alive as long as the module


def batch_costs(path: str, threads: int) -> None:
    """ms per decode step of k sequences after one shared prompt of about 400 tokens."""
    llama_cpp.llama_log_set(_QUIET, None)  # the low-level API logs every tensor it loads
    llama_cpp.llama_backend_init()
    model = llama_cpp.llama_model_load_from_file(path.encode(), llama_cpp.llama_model_default_params())
    params = llama_cpp.llama_context_default_params()
    params.n_ctx, params.n_batch, params.n_ubatch, params.n_seq_max, params.kv_unified = 4096, 512, 512, 4, True
    params.n_threads = params.n_threads_batch = threads
    ctx = llama_cpp.llama_init_from_model(model, params)
    vocab = llama_cpp.llama_model_get_vocab(model)
    text = (SCHEMA * 10).encode()
    tokens = (llama_cpp.llama_token * 2048)()
    n = llama_cpp.llama_tokenize(vocab, text, len(text), tokens, 2048, True, False)
    batch = llama_cpp.llama_batch_init(512, 0, 4)

    def decode(entries: list[tuple[int, int, int]]) -> None:
        batch.n_tokens = len(entries)
        for i, (token, position, sequence) in enumerate(entries):
            batch.token[i], batch.pos[i], batch.n_seq_id[i] = token, position, 1
            batch.seq_id[i][0], batch.logits[i] = sequence, i == len(entries) - 1 or position >= n
        if llama_cpp.llama_decode(ctx, batch) != 0:
            raise RuntimeError("llama_decode failed")

    started = time.perf_counter()
    decode([(tokens[i], i, 0) for i in range(n)])
    print(f"prompt: {n} tokens in {time.perf_counter() - started:.2f} s")
    memory = llama_cpp.llama_get_memory(ctx)
    for sequence in (1, 2, 3):
        llama_cpp.llama_memory_seq_cp(memory, 0, sequence, -1, -1)
    single = 0.0
    for k in (1, 2, 3, 4):
        for sequence in range(4):
            llama_cpp.llama_memory_seq_rm(memory, sequence, n, -1)
        started = time.perf_counter()
        for step in range(STEPS):
            decode([(tokens[step], n + step, sequence) for sequence in range(k)])
        per_step = (time.perf_counter() - started) / STEPS
        single = single or per_step
        print(f"batch of {k}: {1000 * per_step:.1f} ms per step, {per_step / single:.2f}x one sequence")
    llama_cpp.llama_batch_free(batch)
    llama_cpp.llama_free(ctx)
    llama_cpp.llama_model_free(model)


def grammar_costs(path: str, threads: int) -> None:
    """ms per token written, free and under the identifier grammar, on the same questions."""
    llm = Llama(path, n_ctx=4096, n_threads=threads, verbose=False)
    words = " | ".join(f'"{w}"' for w in [*NAMES, *KEYWORDS, *(k.lower() for k in KEYWORDS)])
    grammar = LlamaGrammar.from_string(
        'root ::= "SELECT " item* ";"\n'
        'item ::= word | num | str | punct | " " | "\\n"\n'
        f"word ::= {words}\n"
        'num ::= [0-9]+ ("." [0-9]+)?\n'
        'str ::= "\'" [^\']* "\'"\n'
        "punct ::= [(),.*=<>!+-/]\n",
        verbose=False,
    )
    for label, constraint in (("free", None), ("identifier grammar", grammar)):
        seconds = written = 0.0
        for question in QUESTIONS:
            prompt = f"<|im_start|>user\n{SCHEMA}\n-- {question}\n<|im_end|>\n<|im_start|>assistant\n```sql\n"
            llm(prompt, max_tokens=1, temperature=0)  # the prompt cached, so only writing is timed
            started = time.perf_counter()
            out = llm(prompt, max_tokens=30, temperature=0, stop=[";", "```"], grammar=constraint)
            seconds += time.perf_counter() - started
            assert isinstance(out, dict)  # not streamed
            written += out["usage"]["completion_tokens"]
        print(
            f"{label}: {1000 * seconds / written:.0f} ms per token ({written:.0f} tokens, {len(QUESTIONS)} questions)"
        )


def main() -> None:
    path = str(ensure_model())
    threads = int(os.environ.get("CHATDB_THREADS", "2"))  # as the embedded backend reads it
    print(f"{threads} threads")
    batch_costs(path, threads)
    grammar_costs(path, threads)


if __name__ == "__main__":
    main()
