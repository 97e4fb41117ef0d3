"""An LP's capital call or distribution notice as a PDF (`/documents/<doc>/notices/<pos>.pdf`),
after the ILPA capital call and distribution notice templates: the fund, the LP, the amount and
its purpose, the notice and due dates, the wire reference, and the LP's commitment and unfunded
commitment before and after the notice.

Reads: the position's entries in the document (BatchGetItem, pattern 2), the document (GetItem)
and the position's register (GetItem). The unfunded before and after are the computed unfunded
(`fundportal.domain.reconciliation.computed_unfunded`) as of the notice's flow date (its due
date, else the notice's date), with the notice's amount in it or not as its approval says
(`fundportal.domain.allocation.unfunded_around`). Rendered from a Jinja2 template by WeasyPrint."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.template.loader import render_to_string

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.allocation import Purpose, UnfundedChange, unfunded_around
from fundportal.domain.errors import NotFound
from fundportal.domain.kinds import Kind
from fundportal.domain.model import Document
from fundportal.domain.money import Money
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.reconciliation import computed_unfunded
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.document_models import PositionInDocument
from fundportal.store.repositories.register import RegisterRepository

NOTICE_KINDS = (Kind.CAPITAL_CALL, Kind.DISTRIBUTION)


@dataclass(frozen=True, slots=True)
class Notice:
    document: Document
    position_id: str
    fund_id: str
    investor_id: str
    kind: Kind
    purpose: Purpose | None  # None: a notice recorded without one (typed or imported)
    amount: Money
    status: str
    on: date | None
    due: date | None
    wire_reference: str
    commitment: Money | None
    unfunded: UnfundedChange
    awaiting_approval: bool

    @property
    def is_call(self) -> bool:
        return self.kind is Kind.CAPITAL_CALL

    @property
    def heading(self) -> str:
        return "Capital call notice" if self.is_call else "Distribution notice"

    @property
    def purpose_label(self) -> str:
        if self.purpose is not None:
            return self.purpose.label
        return "Capital call" if self.is_call else "Distribution"

    @property
    def filename(self) -> str:
        return f"notice-{self.document.document_id}-{self.position_id}.pdf"


def wire_reference(document_id: str, investor_id: str) -> str:
    """What the LP quotes on the wire so the payment is matched to this notice."""
    return f"{document_id}/{investor_id}"


def position_notice(
    *,
    document_id: str,
    position_id: str,
    scope: AccessScope = OPERATOR,
    documents: DocumentRepository | None = None,
    registers: RegisterRepository | None = None,
) -> Notice:
    """The LP's notice in `document_id`: its capital call, else its distribution. NotFound
    outside `scope` (an LP user: their own positions only) or when it holds neither."""
    documents = documents or DocumentRepository()
    row = documents.position_in_document(document_id, position_id)
    first = row.entries[0]
    scope.require_position(first.fund_id, first.investor_id, "Position", f"{position_id} in {document_id}")
    if not any(kind in row.by_kind for kind in NOTICE_KINDS):
        raise NotFound("Notice", f"{position_id} in {document_id}")
    register = (registers or RegisterRepository(documents.gateway)).get(position_id)
    notice = notice_of(documents.get(document_id), row, register)
    assert notice is not None  # the row holds a call or a distribution
    return notice


def notice_of(document: Document, row: PositionInDocument, register: PositionRegister | None) -> Notice | None:
    """The LP's notice from what was read: its capital call in `document`, else its distribution
    (None: the position holds neither), valued against its register (None: no register)."""
    entry = next((row.by_kind[k] for k in NOTICE_KINDS if k in row.by_kind), None)
    if entry is None:
        return None
    position_id, document_id = row.position_id, document.document_id
    purpose = next((p for p in Purpose if p.value == document.purpose), None)
    flow_date = entry.flow_date or date.today()
    commitment = computed = None
    counted = True
    if register is not None and register.currency == entry.currency:
        commitment = register.commitment_on(flow_date)
        computed = computed_unfunded(commitment, register.figures_of(entry.currency, flow_date))
        counted = register.counts_document(document_id)
    return Notice(
        document=document,
        position_id=position_id,
        fund_id=entry.fund_id,
        investor_id=entry.investor_id,
        kind=entry.kind,
        purpose=purpose,
        amount=entry.money,
        status=entry.status,
        on=document.as_of_date,
        due=entry.due_date,
        wire_reference=wire_reference(document_id, entry.investor_id),
        commitment=commitment,
        unfunded=unfunded_around(computed, entry.money, call=entry.kind is Kind.CAPITAL_CALL, counted=counted),
        awaiting_approval=not document.approved,
    )


def notice_pdf(notice: Notice, *, generated_by: str, base_url: str | None = None) -> bytes:
    """The notice rendered from `exports/notice.html` by WeasyPrint."""
    from weasyprint import HTML

    html = render_to_string("exports/notice.html", {"notice": notice, "generated_by": generated_by})
    return HTML(string=html, base_url=base_url).write_pdf()
