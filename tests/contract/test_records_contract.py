"""Fund and investor records on both backends: set through the unit of work (audited,
conditioned on the revision), read back in the fund page's BatchGetItem of its summary shards
and in the investor page's one Query without changing what those return otherwise, and found
by name in the id search's Query."""

from __future__ import annotations

import pytest

from documents import list_selectors
from fundportal.domain.access import AccessScope
from fundportal.domain.errors import Conflict, NotFound, NotPermitted
from fundportal.domain.records import FundRecord, InvestorRecord
from fundportal.ops.register_repair import verify_positions
from fundportal.store.gateway import TableGateway
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.repositories.summaries import SummaryRepository
from funds.record_services import fund_record_set, investor_record_set

pytestmark = pytest.mark.django_db


def alpha(revision: int = 0, name: str = "Alpha Growth Fund") -> FundRecord:
    return fund_record_set(
        FundRecord("FUND_A", name, "Alpha Growth Fund L.P.", 2019, "USD", "Alpha GP"),
        expected_revision=revision,
        user="editor",
    )


def fund_record(fund_id: str = "FUND_A") -> FundRecord | None:
    return SummaryRepository().fund_with_record(fund_id)[1]


def test_the_fund_summary_batch_reads_the_record_and_the_same_summary(sample, django_assert_dynamodb_requests):
    summaries = SummaryRepository()
    before = summaries.fund("FUND_A")
    saved = alpha()
    assert (saved.revision, saved.updated_by) == (1, "editor")
    with django_assert_dynamodb_requests(1, ["BatchGetItem"]):
        summary, record = summaries.fund_with_record("FUND_A")
    assert record == saved
    assert summary == before
    both = ["FUND_A", "FUND_B"]
    assert summaries.funds_with_records(both) == (summaries.funds(both), {"FUND_A": saved})


def test_the_fund_record_is_not_in_the_fund_index(sample):
    alpha()
    registers = RegisterRepository()
    assert sorted(r.position_id for r in registers.fund_positions("FUND_A")) == ["POSITION_1", "POSITION_2"]
    assert registers.fund_position_ids("FUND_A") == {"POSITION_1", "POSITION_2"}
    assert [r.position_id for r in registers.fund_page("FUND_A").registers] == ["POSITION_1", "POSITION_2"]


def test_the_investor_page_query_reads_the_investor_record(sample, django_assert_dynamodb_requests):
    teachers = InvestorRecord("INVESTOR_1", "Teachers' Pension Plan", "pension")
    investor_record_set(teachers, expected_revision=0, user="ed")
    with django_assert_dynamodb_requests(1, ["Query"]):
        found, record = RegisterRepository().investor_positions_and_record("INVESTOR_1")
    assert [r.position_id for r in found] == ["POSITION_1"]
    assert (record.name, record.type_label, record.revision) == ("Teachers' Pension Plan", "Pension", 1)


def test_a_change_on_a_stale_revision_is_a_conflict_and_nothing_is_written(sample):
    alpha()
    alpha(revision=1, name="Alpha Growth Fund I")
    with pytest.raises(Conflict) as raised:
        alpha(revision=1, name="Someone else's name")
    assert (raised.value.current_revision, raised.value.updated_by) == (2, "editor")
    assert fund_record().name == "Alpha Growth Fund I"


def test_a_second_create_of_the_same_record_is_refused(sample):
    alpha()
    with pytest.raises(Conflict):
        fund_record_set(FundRecord("FUND_A", "Other"), expected_revision=0, user="someone else")


def test_each_change_is_audited_with_the_fields_it_changed(sample):
    alpha()
    alpha(revision=1, name="Alpha Growth Fund II")
    items = TableGateway().query("PK = :pk", {":pk": "AUDIT#FUND#FUND_A"})
    changes = [item["Changes"] for item in items]
    assert len(changes) == 2
    assert changes[1] == {"name": ["Alpha Growth Fund", "Alpha Growth Fund II"]}


def test_a_fund_is_found_by_any_word_of_its_name_and_a_rename_drops_the_old_name(sample):
    alpha()
    for query in ("alpha growth", "Growth", "fund"):
        hits = list_selectors.search(query=query).hits
        assert [(h.kind.value, h.target_id) for h in hits] == [("fund", "FUND_A")], query
    alpha(revision=1, name="Beta Ventures")
    assert list_selectors.search(query="alpha growth").hits == []
    assert [h.target_id for h in list_selectors.search(query="ventures").hits] == ["FUND_A"]
    # A fund found by its id is still found once, whatever its name.
    assert [h.target_id for h in list_selectors.search(query="FUND_A").hits] == ["FUND_A"]


def test_investor_names_are_found_only_within_scope(sample):
    investor_record_set(InvestorRecord("INVESTOR_2", "Harbor Endowment", "endowment"), expected_revision=0, user="e")
    assert [h.target_id for h in list_selectors.search(query="harbor").hits] == ["INVESTOR_2"]
    assert list_selectors.search(query="harbor", scope=AccessScope.investor(["INVESTOR_1"])).hits == []


def test_editing_needs_edit_rights_in_the_fund(sample):
    reader = AccessScope(funds=frozenset({"FUND_A"}))
    with pytest.raises(NotPermitted):
        fund_record_set(FundRecord("FUND_A", "Alpha"), expected_revision=0, user="r", scope=reader)
    with pytest.raises(NotPermitted):
        investor_record_set(InvestorRecord("INVESTOR_1", "T"), expected_revision=0, user="r", scope=reader)
    with pytest.raises(NotFound):  # a fund with no position has no page and no record
        fund_record_set(FundRecord("FUND_Z", "Nothing"), expected_revision=0, user="r")
    assert fund_record() is None


def test_verify_positions_stays_clean_with_records(sample):
    alpha()
    investor_record_set(InvestorRecord("INVESTOR_1", "Teachers"), expected_revision=0, user="e")
    assert verify_positions().differences == []


def test_the_same_change_sent_twice_is_written_once(sample):
    alpha()
    again = alpha()  # a double click: the same values on the same revision, by the same user
    assert again.revision == 1
    assert len(list(TableGateway().query("PK = :pk", {":pk": "AUDIT#FUND#FUND_A"}))) == 1
