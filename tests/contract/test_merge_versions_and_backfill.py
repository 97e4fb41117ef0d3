"""A position merge keeps each moved entry's value (an entry version, removed from the mistyped
position, naming where it went), so the document compare page shows the move; `backfill_indexes`
gives entry versions kept before the position index held them their `HIST#<position>` keys, once
(a second run changes nothing); `verify_positions` stays clean (both backends)."""

from __future__ import annotations

import io
import re
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command

from documents import approval, services
from documents.selectors import document_header, document_history
from documents.version_compare import compare_versions
from fundportal.domain.entry_versions import EntryVersion, instant
from fundportal.domain.kinds import Kind
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, NetAssetValue
from fundportal.ops.register_repair import verify_positions
from fundportal.store.gateway import call
from fundportal.store.mapping import keys
from fundportal.store.repositories.documents import DocumentRepository
from fundportal.store.repositories.positions import PositionRepository
from fundportal.store.serialization import from_item
from fundportal.store.uow import NEW, UnitOfWork
from positions import merging

pytestmark = pytest.mark.django_db


def draft_with_typo(document_id: str = "DOC_T") -> None:
    """A draft Q4 statement holding a NAV for the mistyped POSITON_1 (and a call for POSITION_1)."""
    document = Document(document_id=document_id, title="Q4 statement", fund_id="FUND_A", as_of_date=date(2025, 12, 31))
    services.document_create(document=document, user="typist")
    nav = NetAssetValue(document_id, "POSITON_1", "FUND_A", "INVESTOR_1", Decimal(900_000), "Active")
    services.entry_record(entry=nav, user="typist")
    services.entry_record(
        entry=CapitalCall(document_id, "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(10_000)), user="typist"
    )


def test_merge_writes_versions_so_the_compare_page_shows_the_move(sample):
    draft_with_typo()
    # A version of the document from before the merge, to compare the current one with.
    revision = document_header(document_id="DOC_T").revision
    services.document_restate(
        document_id="DOC_T", expected_revision=revision, changes={"title": "Q4 statement (v2)"}, user="typist"
    )
    merging.position_merge(source="POSITON_1", target="POSITION_1", user="fixer")

    (kept,) = DocumentRepository().entry_versions("DOC_T")
    assert (kept.kind, kept.position_id, kept.removed, kept.moved_to) == (Kind.NAV, "POSITON_1", True, "POSITION_1")
    assert (kept.amount, kept.replaced_by) == (Decimal(900_000), "fixer")
    (version,) = PositionRepository().entry_versions("POSITON_1")
    assert version.document_id == "DOC_T" and version.removed

    ((older, _),) = document_history(document_id="DOC_T").versions
    comparison = compare_versions(document_id="DOC_T", older_id=older)
    moved = [(line.position_id, line.kind_label, line.what, line.older, line.newer) for line in comparison.amounts]
    assert moved == [
        ("POSITION_1", "NAV", "added", "—", "USD 900,000.00"),
        ("POSITON_1", "NAV", "removed", "USD 900,000.00", "—"),
    ]
    assert verify_positions().differences == []


def _version_without_position_keys(table: str) -> EntryVersion:
    """An entry version as kept before the position index held versions: no GSI2 keys."""
    at = instant()
    version = EntryVersion(
        document_id="DOC001",
        kind=Kind.CAPITAL_CALL,
        position_id="POSITION_1",
        replaced_at=at,
        replaced_by="ana",
        amount=Decimal(480_000),
        status="Completed",
        as_of_date=date(2025, 9, 30),
    )
    uow = UnitOfWork()
    with uow:
        uow.put(version, expect=NEW, name="entry version")
        uow.commit()
    pk = keys.entry_history_pk("DOC001")
    sk = keys.entry_history_sk(Kind.CAPITAL_CALL, "POSITION_1", at.isoformat(timespec="microseconds"), 1)
    call(
        "UpdateItem",
        TableName=table,
        Key={"PK": {"S": pk}, "SK": {"S": sk}},
        UpdateExpression="REMOVE GSI2_PK, GSI2_SK",
    )
    item = from_item(call("GetItem", TableName=table, Key={"PK": {"S": pk}, "SK": {"S": sk}})["Item"])
    assert "GSI2_PK" not in item
    return version


def _backfill() -> str:
    out = io.StringIO()
    call_command("backfill_indexes", segments=2, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_backfill_adds_the_position_history_keys_once(sample):
    kept = _version_without_position_keys(sample.table)
    assert PositionRepository().entry_versions("POSITION_1") == []

    first = _backfill()
    assert "updated 1," in first
    (found,) = PositionRepository().entry_versions("POSITION_1")
    assert (found.document_id, found.kind, found.amount, found.removed) == (
        "DOC001",
        Kind.CAPITAL_CALL,
        kept.amount,
        False,
    )
    second = _backfill()
    assert "updated 0," in second
    assert len(PositionRepository().entry_versions("POSITION_1")) == 1
    assert verify_positions().differences == []


def _paid_in(client, known_at: str) -> str:
    response = client.get(f"/positions/POSITION_1/?known_at={known_at}")
    assert response.status_code == 200
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))
    found = re.search(r"Paid-in \(called\) USD ([\d,.]+)", page)
    assert found is not None, page
    return found.group(1)


def _moment() -> str:
    return instant().replace(tzinfo=None).isoformat(timespec="microseconds")


def test_the_target_as_known_before_a_merge_leaves_out_what_the_merge_moved_in(
    sample, analyst_client, django_assert_dynamodb_requests
):
    """The sample's POSITION_1 was called 500,000 (DOC001) + 750,000 (DOC002) = 1,250,000. A Q1
    call of 200,000 recorded and approved for the mistyped POSITON_1 is merged into POSITION_1 at
    T1: known at T0 < T1 POSITION_1 was called 1,250,000 (the 200,000 stood under POSITON_1);
    known after T1, 1,450,000."""
    document = Document(document_id="DOC_Q1", title="Q1 call", fund_id="FUND_A", as_of_date=date(2026, 1, 31))
    services.document_create(document=document, user="typist")
    services.entry_record(
        entry=CapitalCall("DOC_Q1", "POSITON_1", "FUND_A", "INVESTOR_1", Decimal(200_000), "Active"), user="typist"
    )
    approval.document_submit(document_id="DOC_Q1", user="typist")
    approval.document_approve(document_id="DOC_Q1", user="checker")
    before_merge = _moment()
    merging.position_merge(source="POSITON_1", target="POSITION_1", user="fixer")
    after_merge = _moment()

    with django_assert_dynamodb_requests(2, ["Query", "Query"]):
        assert _paid_in(analyst_client, before_merge) == "1,250,000.00"
    assert _paid_in(analyst_client, after_merge) == "1,450,000.00"
    assert verify_positions().differences == []
