"""Every register write keeps the state it replaced, in the same transaction, and one Query per fund
or investor finds the writes after a moment (moto and DynamoDB Local, the seed sample)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from documents import services
from fundportal.domain.entry_versions import instant
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, NetAssetValue
from fundportal.domain.register_versions import registers_known_at, summary_known_at
from fundportal.ops.register_repair import verify_positions
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.repositories.summaries import SummaryRepository
from tests.approving import approve_by_another

pytestmark = pytest.mark.django_db


def _nav(amount: str) -> NetAssetValue:
    return NetAssetValue("DOC001", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(amount), "Active")


def test_a_register_write_keeps_what_it_replaced_and_one_query_finds_it(sample, django_assert_dynamodb_requests):
    registers = RegisterRepository()
    before = registers.get("POSITION_1", consistent=True)
    summary_before = SummaryRepository().fund("FUND_A")
    at = instant()
    services.entry_record(entry=_nav("445000"), user="u")  # DOC001 is approved: a restatement
    approve_by_another("DOC001", submitter="u")  # the register changes once it is approved
    with django_assert_dynamodb_requests(1, ["Query"]):
        by_fund = registers.fund_versions_after("FUND_A", at)
    with django_assert_dynamodb_requests(1, ["Query"]):
        by_investor = registers.investor_versions_after("INVESTOR_1", at)
    assert [v.position_id for v in by_fund] == [v.position_id for v in by_investor] == ["POSITION_1"]
    (version,) = by_fund
    assert version.before == before and version.replaced_at > at
    assert registers.investor_versions_after("INVESTOR_2", at) == []
    assert registers.fund_versions_after("FUND_A", instant()) == []  # nothing written since
    # The register and the summary as they stood before the write, from today's and the versions.
    now = registers.get("POSITION_1", consistent=True)
    assert now != before
    assert registers_known_at([now], by_fund, at) == [before]
    assert summary_known_at(SummaryRepository().fund("FUND_A") or {}, by_fund, at) == summary_before
    assert verify_positions().differences == []  # versions are no registers


def test_a_new_position_keeps_a_version_saying_it_was_not_there(sample):
    # A new position enters through a draft (an approved document's restatement refuses one).
    document = Document(document_id="DOC_NEW", title="Q4", fund_id="FUND_A", as_of_date=date(2025, 12, 31))
    services.document_create(document=document, user="u")
    at = instant()
    call = CapitalCall("DOC_NEW", "POSITION_9", "FUND_A", "INVESTOR_9", Decimal(1000), "Pending")
    services.entry_record(entry=call, user="u")
    (version,) = RegisterRepository().investor_versions_after("INVESTOR_9", at)
    assert version.before is None and version.position_id == "POSITION_9"
    assert [v.position_id for v in RegisterRepository().fund_versions_after("FUND_A", at)] == ["POSITION_9"]
    assert registers_known_at(RegisterRepository().investor_positions("INVESTOR_9"), [version], at) == []


def test_an_imports_new_positions_keep_one_registration_item_and_are_not_there_before(sample):
    from imports.services import import_apply, import_prepare
    from tests.notices import csv_bytes, notice_rows

    at = instant()
    prepared = import_prepare(data=csv_bytes(notice_rows(3)), filename="notice.csv")
    import_apply(prepared=prepared, user="importer", workers=1)
    registers = RegisterRepository()
    by_fund = registers.fund_versions_after("FUND_N", at)
    assert sorted(v.position_id for v in by_fund) == ["NP_000", "NP_001", "NP_002"]
    assert all(v.before is None for v in by_fund)
    # No version of its own: the register says when it was registered.
    assert registers.investor_versions_after("NI_001", at) == []
    (register,) = registers.investor_positions("NI_001")
    assert register.registered_at is not None and register.registered_at > at
    assert registers_known_at([register], [], at) == []
    assert registers_known_at([register], [], register.registered_at) == [register]
    summary = SummaryRepository().fund("FUND_N") or {}
    assert summary and summary_known_at(summary, by_fund, at) == {}
    assert verify_positions().differences == []
