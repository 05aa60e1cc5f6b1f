"""Pure renderers: chain state -> HTML and Markdown that read well without a live kernel."""

from __future__ import annotations

import html

import pandas as pd

from ..controller.events import Reply
from .state import Card, ChainState

STATUS_COLORS = {"waiting": "#888", "running": "#1a73e8", "done": "#188038", "failed": "#d93025", "retrying": "#e37400"}


def chain_html(state: ChainState) -> str:
    parts = [f'<div class="chatdb-chain"><div><b>Request:</b> {html.escape(state.request)}</div>']
    parts += [_card_html(card) for card in state.cards.values()]
    if state.generating:
        parts.append(f'<pre class="chatdb-generating" style="color:#888">{html.escape(state.generating)}</pre>')
    if state.note:
        color = "#d93025" if state.note.startswith(("Rolled back", "Not applied")) else "#555"
        parts.append(f'<div style="color:{color}">{html.escape(state.note)}</div>')
    if state.answer is not None:
        parts.append(f'<div class="chatdb-answer"><b>Answer:</b> {html.escape(state.answer)}</div>')
    return "\n".join(parts) + "</div>"


def chain_markdown(state: ChainState) -> str:
    lines = [f"**Request:** {state.request}", ""]
    for card in state.cards.values():
        lines += [f"**Step {card.index}** ({_status_text(card)})", "", "```sql", card.sql, "```", ""]
        if card.error:
            lines += [f"> {card.error}", ""]
        if card.preview is not None:
            lines += [_table_markdown(card.preview), ""]
    if state.note:
        lines += [state.note, ""]
    if state.answer is not None:
        lines.append(f"**Answer:** {state.answer}")
    return "\n".join(lines).strip() + "\n"


def chain_text(state: ChainState) -> str:
    lines = [f"Request: {state.request}"]
    for card in state.cards.values():
        lines.append(f"Step {card.index} ({_status_text(card)}): {card.sql}")
        if card.error:
            lines.append(f"  {card.error}")
    if state.note:
        lines.append(state.note)
    if state.answer is not None:
        lines.append(f"Answer: {state.answer}")
    return "\n".join(lines)


def mime_bundle(state: ChainState) -> dict[str, str]:
    return {"text/plain": chain_text(state), "text/html": chain_html(state), "text/markdown": chain_markdown(state)}


def reply_html(reply: Reply) -> str:
    return chain_html(ChainState.from_reply(reply))


def reply_markdown(reply: Reply) -> str:
    return chain_markdown(ChainState.from_reply(reply))


def _card_html(card: Card) -> str:
    color = STATUS_COLORS.get(card.status, "#888")
    body = [
        f'<div class="chatdb-step" data-status="{card.status}" style="border-left:3px solid {color};'
        f'padding:2px 8px;margin:6px 0">',
        f'<div><b>Step {card.index}</b> <span style="color:{color}">{html.escape(_status_text(card))}</span></div>',
        f'<pre class="chatdb-sql" style="margin:4px 0">{html.escape(card.sql)}</pre>',
    ]
    if card.error:
        body.append(f'<div class="chatdb-error" style="color:#d93025">{html.escape(card.error)}</div>')
    if card.preview is not None:
        body.append(card.preview.to_html(index=False, border=0, classes="chatdb-result"))
    return "\n".join(body) + "</div>"


def _status_text(card: Card) -> str:
    text = {"retrying": "failed, asking the model to fix it"}.get(card.status, card.status)
    if card.attempt > 1:
        text += f", attempt {card.attempt}"
    if card.rows_affected is not None:
        text += f", {card.rows_affected} row{'s' if card.rows_affected != 1 else ''} changed"
    elif card.row_count is not None:
        text += f", {card.row_count} row{'s' if card.row_count != 1 else ''}"
    if card.elapsed_ms is not None:
        text += f", {card.elapsed_ms:.0f} ms"
    return text


def _table_markdown(frame: pd.DataFrame) -> str:
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "| " + " | ".join("---" for _ in frame.columns) + " |"
    rows = ["| " + " | ".join(_cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")
