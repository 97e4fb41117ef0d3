"""The store decides which companion items a write brings along (the month and funds catalogs,
the search items), and where a position's audit is kept; the import marker is a domain id rule."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.errors import InvalidId
from fundportal.domain.kinds import SearchKind, import_marker
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall
from fundportal.domain.position_register import PositionRegister
from fundportal.store.gateway import TableGateway
from fundportal.store.mapping import keys
from fundportal.store.mapping.companions import FundCatalogEntry, MonthCatalogEntry, SearchItem
from fundportal.store.mapping.entities import companions_of, from_item, to_item
from fundportal.store.uow import NEW, ImportUnitOfWork, UnitOfWork

DOCUMENT = Document(document_id="DOC9", fund_id="FUND_A", as_of_date=date(2025, 9, 30))
REGISTER = PositionRegister("POSITION_9", "FUND_A", "INVESTOR_9")


def test_a_current_document_brings_its_month_its_fund_and_the_search_items_of_both():
    assert companions_of(DOCUMENT) == [
        MonthCatalogEntry(date(2025, 9, 30)),
        FundCatalogEntry("FUND_A"),
        SearchItem(SearchKind.DOCUMENT, "DOC9"),
        SearchItem(SearchKind.FUND, "FUND_A"),
    ]


def test_an_undated_fundless_document_brings_only_its_own_search_item_and_a_superseded_copy_none():
    assert companions_of(Document(document_id="DOC9")) == [SearchItem(SearchKind.DOCUMENT, "DOC9")]
    assert companions_of(DOCUMENT.superseded(date(2025, 10, 1))) == []


def test_a_register_brings_its_position_and_investor_search_items_never_its_funds():
    assert companions_of(REGISTER) == [
        SearchItem(SearchKind.POSITION, "POSITION_9"),
        SearchItem(SearchKind.INVESTOR, "INVESTOR_9"),
    ]


def test_entries_bring_no_companions():
    assert companions_of(CapitalCall(document_id="DOC9", position_id="POSITION_9", fund_id="FUND_A")) == []


def _put(uow: UnitOfWork, *entities: object) -> list[tuple[str, tuple[str, str]]]:
    with uow:
        for entity in entities:
            uow.put(entity, expect=NEW, name="subject", companions=True)
        return [(a.name, a.key) for a in uow.actions]


def test_the_unit_of_work_puts_companions_only_when_asked_and_each_item_once():
    uow = UnitOfWork(TableGateway("fake"))
    with uow:
        uow.put(DOCUMENT, expect=NEW, name="document")
        assert len(uow.actions) == 1
    other = Document(document_id="DOC8", fund_id="FUND_A", as_of_date=date(2025, 9, 1))
    names = [name for name, _ in _put(uow, DOCUMENT, other)]
    # The second document of the month and fund adds its own search item only.
    assert names == ["subject", "month catalog", "fund catalog", "search", "search", "subject", "search"]


def test_an_import_leaves_the_funds_catalog_to_the_positions_it_registers():
    names = [name for name, _ in _put(ImportUnitOfWork(TableGateway("fake")), DOCUMENT)]
    assert names == ["subject", "month catalog", "search", "search"]


def test_a_position_audit_is_kept_beside_the_register_and_reads_back():
    at = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
    audit = AuditEntry(None, at, "editor", "commitment", "Position POSITION_9", {}, "tok", position_id="POSITION_9")
    item = to_item(audit)
    assert item["PK"] == "AUDIT#POSITION#POSITION_9" and item["DocumentId"] == "POSITION_9"
    assert from_item(AuditEntry, item) == audit
    document_audit = AuditEntry("DOC9", at, "editor", "create", "Document", {}, "tok")
    assert to_item(document_audit)["PK"] == "AUDIT#DOC9"
    assert from_item(AuditEntry, to_item(document_audit)) == document_audit
    assert keys.parse_position_audit_pk("AUDIT#POSITION") is None  # a document named POSITION


def test_an_import_marker_is_the_first_16_hex_digits_of_the_files_sha256():
    checksum = "0123456789abcdef" * 4
    assert import_marker(checksum) == "0123456789abcdef"
    assert keys.import_run_keys(import_marker(checksum)) == ("IMPORT_RUN#0123456789abcdef", "RUN")
    for bad in ("0123", checksum.upper(), None, checksum + "0"):
        with pytest.raises(InvalidId):
            import_marker(bad)  # type: ignore[arg-type]
