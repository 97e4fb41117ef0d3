"""Position-table cells rendered in Python: the document and position pages show one row per
position, and a template include plus `{% url %}` per cell made rendering cost several times
the DynamoDB Query behind the page (see bench/results). Values are escaped with the standard
library's html.escape (Django's lazy-aware wrapper costs more than the escaping itself)."""

from __future__ import annotations

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe

from fundportal.dynamo.entities import PositionEntry, PositionInDocument
from fundportal.fast_urls import UrlTemplate, fast_reverse
from fundportal.templatetags.money import money, multiple

register = template.Library()

EDIT_PERMISSION = "fundportal.edit_fund_data"
_EMPTY_CELL = mark_safe('<td class="num"><span class="muted">—</span></td>')


@register.simple_tag
def fast_url(viewname: str, *args: str) -> str:
    """`{% fast_url 'documents:position' doc pos %}`: same as {% url %}, for links in long loops."""
    return fast_reverse(viewname, *args)


def _edit_links(context: template.Context) -> tuple[UrlTemplate, UrlTemplate] | None:
    """The Change/Remove URL templates when the user may edit, worked out once per render."""
    cache = context.render_context
    if "entry_edit_links" not in cache:
        perms = context.get("perms")
        cache["entry_edit_links"] = (
            (UrlTemplate("documents:entry_edit", 3), UrlTemplate("documents:entry_delete", 3))
            if perms is not None and EDIT_PERMISSION in perms
            else None
        )
    return cache["entry_edit_links"]


@register.simple_tag(takes_context=True)
def entry_cell(context: template.Context, entry: PositionEntry | None) -> SafeString:
    """A `<td>` with the entry's amount and status, and Change/Remove links for editors."""
    return mark_safe(_entry_cell(context, entry))  # noqa: S308 - built from escaped values


@register.simple_tag(takes_context=True)
def document_position_rows(context: template.Context, document_id: str, rows: list[PositionInDocument]) -> SafeString:
    """The document page's `<tr>` per position: position, its three entries, DPI, history link."""
    in_document = UrlTemplate("documents:position", 2)
    across = UrlTemplate("positions:detail", 1)
    html = []
    for row in rows:
        pid = escape(row.position_id)
        position = row.position
        owner = f'<br><small class="muted">{escape(position.fund_id)} · {escape(position.investor_id)}</small>'
        html.append(
            f'<tr data-position="{pid}"><th scope="row">'
            f'<a href="{escape(in_document.format(document_id, row.position_id))}">{pid}</a>'
            f"{owner if position else ''}</th>"
            f"{_entry_cell(context, row.capital_call)}{_entry_cell(context, row.distribution)}"
            f"{_entry_cell(context, row.unfunded_commitment)}"
            f'<td class="num">{escape(multiple(row.totals.dpi))}</td>'
            f'<td><a href="{escape(across.format(row.position_id))}">{pid} history</a></td></tr>'
        )
    return mark_safe("\n".join(html))  # noqa: S308 - built from escaped values


def _entry_cell(context: template.Context, entry: PositionEntry | None) -> str:
    if entry is None:
        return _EMPTY_CELL
    status = escape(entry.status)
    links = ""
    edit_links = _edit_links(context)
    if edit_links is not None:
        change, remove = edit_links
        args = (entry.document_id, entry.kind.slug, entry.position_id)
        label = escape(f"{entry.kind.entity_type} of {entry.position_id}")
        links = (
            f'<br><small class="edit-links"><a href="{escape(change.format(*args))}" aria-label="Change {label}">'
            f'Change</a> · <a href="{escape(remove.format(*args))}" aria-label="Remove {label}">Remove</a></small>'
        )
    css = "num" if entry.counts_in_totals else "num excluded"
    amount = escape(money(entry.amount, entry.currency))
    return f'<td class="{css}">{amount}<br><span class="status status-{status}">{status}</span>{links}</td>'
