"""Pure renderers: chain state -> HTML, Markdown and text that read well without a live kernel."""

from __future__ import annotations

import html

import pandas as pd
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import SqlLexer

from ..controller.answer import plain_answer
from ..controller.events import Reply, TablesSelected, ValueCorrected
from ..sql.journal import TableChange
from .state import Card, ChainState

STATUS_COLORS = {
    "waiting": "#888",
    "running": "#1a73e8",
    "done": "#188038",
    "failed": "#d93025",
    "retrying": "#e37400",
    "not run": "#888",
    "waiting for approval": "#e37400",
    "rolled back": "#888",
}
RED, GRAY = "#d93025", "#555"
_SQL_FORMAT = HtmlFormatter(nowrap=True, noclasses=True, style="friendly")


def chain_html(state: ChainState) -> str:
    parts = [
        f'<div class="chatdb-chain" data-phase="{state.phase}">',
        f'<div class="chatdb-request"><b>Request:</b> {html.escape(state.request)}</div>',
    ]
    if state.verbose and state.decisions:
        items = "".join(f"<li>{html.escape(d)}</li>" for d in state.decisions)
        parts.append(f'<ul class="chatdb-decisions" style="color:{GRAY};margin:2px 0">{items}</ul>')
    if state.selection is not None:
        parts.append(
            f'<div class="chatdb-tables" style="color:{GRAY}">{html.escape(selection_text(state.selection))}</div>'
        )
    if state.recalled:
        items = "".join(
            f"<li>{html.escape(text)} <span style='color:#888'>#{i}, {sim:.2f}</span></li>"
            for i, text, sim in state.recalled
        )
        parts.append(
            f'<div class="chatdb-recalled" style="color:{GRAY}">Recalled from memory:<ul style="margin:2px 0">{items}</ul></div>'
        )
    if state.checked:
        items = "".join(f"<li>{html.escape(text)}</li>" for text in state.checked)
        parts.append(f'<div class="chatdb-checked" style="color:{GRAY}"><ul style="margin:2px 0">{items}</ul></div>')
    if state.procedure:
        parts.append(f'<div class="chatdb-procedure" style="color:#1a73e8">{html.escape(state.procedure)}</div>')
    if state.examples:
        items = "".join(
            f"<li>{html.escape(question)} <span style='color:#888'>{similarity:.2f}</span></li>"
            for question, _, similarity in state.examples
        )
        parts.append(
            f'<div class="chatdb-examples" style="color:{GRAY}">Asked with the verified '
            f'{_examples_word(state)}:<ul style="margin:2px 0">{items}</ul></div>'
        )
    if state.corrections:
        items = "".join(f"<li>{html.escape(correction_text(c))}</li>" for c in state.corrections)
        parts.append(
            f'<div class="chatdb-corrections" style="color:#e37400">Value corrections:<ul style="margin:2px 0">{items}</ul></div>'
        )
    parts += [card_html(card) for card in state.cards.values()]
    if state.activity and state.activity_since is not None:
        parts.append(
            f'<div class="chatdb-progress" style="color:#1a73e8" data-label="{html.escape(state.activity)}" '
            f'data-started="{state.activity_since}">{html.escape(state.activity)}...</div>'
        )
    if state.generating and not state.generating.lstrip().startswith("{"):  # SQL as written; JSON is not for people
        parts.append(
            f'<pre class="chatdb-generating" style="color:#888;white-space:pre-wrap">'
            f"{html.escape(state.generating[-600:])}</pre>"
        )
    if state.note:
        color = RED if state.phase in ("pending", "failed") else GRAY
        parts.append(f'<div class="chatdb-note" style="color:{color}">{html.escape(state.note)}</div>')
    if state.phase == "pending":
        parts += [_change_html(change) for change in state.changes]
    if state.answer is not None and not _repeats_the_result(state):
        parts.append(f'<div class="chatdb-answer"><b>Answer:</b> {html.escape(state.answer)}</div>')
    if state.remembered:
        items = "".join(
            f"<li>{html.escape(text)} <span style='color:#888'>#{i}</span></li>" for i, text in state.remembered
        )
        replaced = f" (replacing #{', #'.join(map(str, state.replaced))})" if state.replaced else ""
        parts.append(
            f'<div class="chatdb-remembered" style="color:{GRAY}">Remembered{replaced}:<ul '
            f'style="margin:2px 0">{items}</ul></div>'
        )
    if state.usage.calls:
        parts.append(
            f'<div class="chatdb-usage" style="color:#888;font-size:90%">{html.escape(_usage_text(state))}</div>'
        )
    return "\n".join(parts) + "</div>"


def chain_markdown(state: ChainState) -> str:
    lines = [f"**Request:** {state.request}", ""]
    if state.selection is not None:
        lines += [selection_text(state.selection), ""]
    if state.recalled:
        lines += ["Recalled from memory:", *[f"- {text} (#{i})" for i, text, _ in state.recalled], ""]
    if state.checked:
        lines += [*[f"- {text}" for text in state.checked], ""]
    if state.procedure:
        lines += [state.procedure, ""]
    if state.examples:
        lines += [f"Asked with the verified {_examples_word(state)}:", *[f"- {q}" for q, _, _ in state.examples], ""]
    if state.corrections:
        lines += ["Value corrections:", *[f"- {correction_text(c)}" for c in state.corrections], ""]
    for card in state.cards.values():
        lines += [f"**Step {card.index}: {card.goal}** ({status_text(card)})", ""]
        lines += ["```sql", card.sql, "```", ""] if card.sql else []
        lines += [card.note, ""] if card.note else []
        if card.error:
            lines += [f"> {card.error}", ""]
        if card.preview is not None:
            lines += [_table_markdown(card.preview), ""]
    if state.note:
        lines += [state.note, ""]
    if state.phase == "pending":
        for change in state.changes:
            lines += [f"*{change.summary}*", ""] + [_table_markdown(f) + "\n" for _, f in _change_frames(change)]
    if state.answer is not None and not _repeats_the_result(state):
        lines += [f"**Answer:** {state.answer}", ""]
    if state.remembered:
        lines += ["Remembered:", *[f"- {text} (#{i})" for i, text in state.remembered]]
    return "\n".join(lines).strip() + "\n"


def chain_text(state: ChainState) -> str:
    lines = [f"Request: {state.request}"]
    if state.selection is not None:
        lines.append(selection_text(state.selection))
    lines += [f"Recalled: {text} (#{i})" for i, text, _ in state.recalled]
    lines += list(state.checked)
    lines += [state.procedure] if state.procedure else []
    lines += [f"Asked with the verified example: {question}" for question, _, _ in state.examples]
    lines += [f"Value correction: {correction_text(c)}" for c in state.corrections]
    if state.verbose:
        lines += [f"  {decision}" for decision in state.decisions]
    for card in state.cards.values():
        shown = card.goal if card.note or not card.sql else card.sql  # a tool's card: its call, then its gist
        lines.append(f"Step {card.index} ({status_text(card)}): {shown}")
        if card.note:
            lines.append(f"  {card.note}")
        if card.error:
            lines.append(f"  {card.error}")
    if state.note:
        lines.append(state.note)
    if state.answer is not None:
        lines.append(f"Answer: {state.answer}")
    lines += [f"Remembered: {text} (#{i})" for i, text in state.remembered]
    if state.replaced:
        lines.append(f"Replaced older thoughts: #{', #'.join(map(str, state.replaced))}")
    return "\n".join(lines)


def mime_bundle(state: ChainState) -> dict[str, str]:
    return {"text/plain": chain_text(state), "text/html": chain_html(state), "text/markdown": chain_markdown(state)}


def reply_html(reply: Reply) -> str:
    return chain_html(ChainState.from_reply(reply))


def reply_markdown(reply: Reply) -> str:
    return chain_markdown(ChainState.from_reply(reply))


def card_html(card: Card) -> str:
    color = STATUS_COLORS.get(card.status, "#888")
    started = f' data-started="{card.started_at:.3f}"' if card.started_at is not None else ""
    goal = f" {html.escape(card.goal)}" if card.goal else ""
    body = [
        f'<div class="chatdb-step" data-index="{card.index}" data-status="{card.status}"{started} '
        f'style="border-left:3px solid {color};padding:2px 8px;margin:6px 0">',
        f'<div class="chatdb-step-head"><b>Step {card.index}:</b>{goal} '
        f'<span class="chatdb-status" style="color:{color}">{html.escape(status_text(card))}</span></div>',
    ]
    if card.sql:
        body.append(
            '<pre class="chatdb-sql" style="margin:4px 0;white-space:pre-wrap;word-break:normal;overflow-wrap:break-word">'
            f"{highlight_sql(card.sql)}</pre>"
        )
    if card.note:
        body.append(f'<div class="chatdb-note">{html.escape(card.note)}</div>')
    if card.error:
        body.append(f'<div class="chatdb-error" style="color:{RED}">{html.escape(card.error)}</div>')
    if card.preview is not None and card.is_cell_value:
        rows = f"{card.row_count} row{'' if card.row_count == 1 else 's'}"
        body.append(f'<div class="chatdb-below" style="color:#888">{rows}: the cell\'s value, below</div>')
    elif card.preview is not None:
        body.append(card.preview.to_html(index=False, border=0, classes="chatdb-result"))
        if card.row_count is not None and card.row_count > len(card.preview):
            body.append(f'<div style="color:#888">first {len(card.preview)} of {card.row_count} rows</div>')
    return "\n".join(body) + "</div>"


def selection_text(selection: TablesSelected) -> str:
    """
    >>> selection_text(TablesSelected((("ferries", 0.9, ()), ("crossings", 0.5, ())), ("ferries",), 59, True))
    'Tables: ferries (chosen by the model from 2 considered of 59; %chatdb tables says why)'
    """
    how = "chosen by the model from" if selection.refined else "the"
    return (
        f"Tables: {', '.join(selection.chosen)} ({how} {len(selection.considered)} considered of {selection.total};"
        " %chatdb tables says why)"
    )


def correction_text(correction: ValueCorrected) -> str:
    """
    >>> correction_text(ValueCorrected(1, "customers", "city", "Los Angeles", "LA", "initials"))
    "step 1: 'Los Angeles' → 'LA' (column customers.city, by initials)"
    """
    how = "chosen by the model" if correction.how == "model" else f"by {correction.how}"
    column = f"{correction.table}.{correction.column}"
    return f"step {correction.index}: {correction.old!r} → {correction.new!r} (column {column}, {how})"


def highlight_sql(sql: str) -> str:
    """SQL as HTML with inline colours (they survive static renderers that drop stylesheets)."""
    return highlight(sql, SqlLexer(), _SQL_FORMAT).rstrip("\n")


def status_text(card: Card) -> str:
    text = {"retrying": "failed, asking the model to fix it"}.get(card.status, card.status)
    if card.attempt > 1:
        text += f", attempt {card.attempt}"
    if card.rows_affected is not None and card.status == "waiting for approval":
        text += f", would change {card.rows_affected} row{'s' if card.rows_affected != 1 else ''}"
    elif card.rows_affected is not None and card.status == "rolled back":
        text += f", its {card.rows_affected} row{'s' if card.rows_affected != 1 else ''} not written"
    elif card.rows_affected is not None:
        text += f", {card.rows_affected} row{'s' if card.rows_affected != 1 else ''} changed"
    elif card.row_count is not None:
        text += f", {card.row_count} row{'s' if card.row_count != 1 else ''}"
    if card.elapsed_ms is not None:
        text += f", {card.elapsed_ms:.0f} ms"
    return text


def _repeats_the_result(state: ChainState) -> bool:
    """An answer that only lists the rows of a result shown just above (SQL the user wrote, an answer
    not phrased by the model) says nothing the table does not."""
    result = state.result
    return result is not None and not result.empty and state.answer == plain_answer(result, None)


def _usage_text(state: ChainState) -> str:
    usage = state.usage
    calls = f"{usage.calls} model call{'s' if usage.calls != 1 else ''}"
    took = ""
    if state.started_at is not None and state.ended_at is not None:
        took = f"; {state.ended_at - state.started_at:.1f} s in all"
    return f"{state.model}: {calls}, {usage.prompt_tokens} tokens in, {usage.completion_tokens} out{took}"


def _change_html(change: TableChange) -> str:
    frames = "".join(
        f'<div style="color:{GRAY}">{label}</div>' + frame.to_html(index=False, border=0)
        for label, frame in _change_frames(change)
    )
    return f'<div class="chatdb-change"><b>{html.escape(change.summary)}</b>{frames}</div>'


def _change_frames(change: TableChange) -> list[tuple[str, pd.DataFrame]]:
    """The first rows before and after a pending change, each only when there are some."""
    return [
        (label, frame.head(20))
        for label, frame in (("rows before", change.old), ("rows after", change.new))
        if not frame.empty
    ]


def _table_markdown(frame: pd.DataFrame) -> str:
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "| " + " | ".join("---" for _ in frame.columns) + " |"
    rows = ["| " + " | ".join(_cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _examples_word(state: ChainState) -> str:
    return "example" if len(state.examples) == 1 else "examples"
