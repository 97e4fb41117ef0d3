"""A second fund beside the seed sample, and users of every kind of coverage, for the access
tests: FUND_A (the sample: DOC001, DOC002, POSITION_1 of INVESTOR_1, POSITION_2 of INVESTOR_2)
and FUND_B (DOC900 with POSITION_B1 of INVESTOR_B1; DOC901 with POSITION_B2 of INVESTOR_1, so
the LP INVESTOR_1 holds positions in both funds)."""

from __future__ import annotations

import io
import zipfile
from datetime import date
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.test import Client
from pypdf import PdfReader

from documents import approval, services
from fundportal.access import grants
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, Distribution

FUND_B = "FUND_B"
B_AS_OF = date(2025, 10, 31)

# What only FUND_A shows (ids, names, figures of the seed sample) and only FUND_B shows.
FUND_A_MARKERS = (
    "FUND_A",
    "DOC001",
    "DOC002",
    "POSITION_1",
    "POSITION_2",
    "INVESTOR_2",
    "Q3 2025 capital account statement",
    "1,500,000.00",
    "850,000.00",
    "3,150,000.00",
)
FUND_B_MARKERS = (
    "FUND_B",
    "DOC900",
    "DOC901",
    "POSITION_B1",
    "POSITION_B2",
    "INVESTOR_B1",
    "Fund B October notice",
    "987,654.32",
    "333,333.33",
    "12,345.67",
)
# What INVESTOR_1's LP user may never see: other LPs' positions and figures, and totals of a
# document or fund that include them (DOC001 called in total 800,000.00; FUND_A 1,950,000.00).
NOT_INVESTOR_1 = (
    "POSITION_2",
    "INVESTOR_2",
    "POSITION_B1",
    "INVESTOR_B1",
    "987,654.32",
    "850,000.00",
    "45,000.00",
    "800,000.00",
    "1,950,000.00",
    "3,150,000.00",
)


def add_fund_b() -> None:
    """FUND_B's two documents and positions, written through the services (as an editor would)."""
    for document_id, title in (("DOC900", "Fund B October notice"), ("DOC901", "Fund B October notice (2)")):
        services.document_create(
            document=Document(document_id=document_id, title=title, fund_id=FUND_B, as_of_date=B_AS_OF),
            user="setup",
        )
    for cls, document_id, position_id, investor_id, amount in (
        (CapitalCall, "DOC900", "POSITION_B1", "INVESTOR_B1", "987654.32"),
        (Distribution, "DOC900", "POSITION_B1", "INVESTOR_B1", "12345.67"),
        (CapitalCall, "DOC901", "POSITION_B2", "INVESTOR_1", "333333.33"),
    ):
        entry = cls(
            document_id=document_id,
            position_id=position_id,
            fund_id=FUND_B,
            investor_id=investor_id,
            amount=Decimal(amount),
            status="Pending",
        )
        services.entry_record(entry=entry, user="setup")
    for document_id in ("DOC900", "DOC901"):  # approved: their amounts are in FUND_B's figures
        approval.document_submit(document_id=document_id, user="setup")
        approval.document_approve(document_id=document_id, user="approver")


def make_user(name: str) -> Client:
    user = get_user_model().objects.create_user(name, password=f"{name}-pass-123")
    client = Client()
    client.force_login(user)
    client.user = user  # type: ignore[attr-defined]
    return client


def covering(name: str, fund_id: str, *, can_edit: bool = True) -> Client:
    client = make_user(name)
    grants.grant_funds(funds=[fund_id], user=client.user, can_edit=can_edit)  # type: ignore[attr-defined]
    return client


def lp(name: str, investor_id: str) -> Client:
    client = make_user(name)
    grants.link_investors(user=client.user, investors=[investor_id])  # type: ignore[attr-defined]
    return client


def body_text(response) -> str:
    """A response's text as a reader sees it: pages as sent, XLSX's XML parts, a PDF's text."""
    content = b"".join(response.streaming_content) if response.streaming else response.content
    kind = response.get("Content-Type", "")
    if "spreadsheetml" in kind:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            return "".join(archive.read(name).decode() for name in archive.namelist() if name.endswith(".xml"))
    if kind.startswith("application/pdf"):
        return "".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    return content.decode(errors="replace")
