"""The capital account's kinds ride in the seed's partitions and Queries: a document's overview,
one position in a document and a position across documents each stay one request and return the
new entries with their own fields; the seed article's 13 queries return exactly what they did,
plus the new entries only where a query reads a whole document partition or a position's index
partition. On moto and DynamoDB Local. Reading an entry's own amounts records into a draft DOC002
(`draft_sample`): an approved document's amounts change only through approval."""

from __future__ import annotations

from decimal import Decimal

from documents import services
from fundportal.domain.kinds import STATEMENT_KINDS, Kind
from fundportal.domain.position_entries import (
    CarriedInterest,
    Distribution,
    ManagementFee,
    PartnershipExpense,
    RealizedGain,
    UnrealizedGain,
)
from tests.approving import approve_by_another

from .test_entry_history import seed_queries

COMMON = {"document_id": "DOC002", "position_id": "POSITION_1", "fund_id": "FUND_A", "investor_id": "INVESTOR_1"}
NEW = [
    ManagementFee(**COMMON, amount=Decimal("1000.00"), status="Completed", fee_line="offset"),
    PartnershipExpense(**COMMON, amount=Decimal("250.00"), status="Completed"),
    RealizedGain(**COMMON, amount=Decimal("-75.50"), status="Completed"),
    UnrealizedGain(**COMMON, amount=Decimal("500.00"), status="Completed"),
    CarriedInterest(**COMMON, amount=Decimal("40.00"), status="Completed", carry_stage="paid"),
]
NEW_KEYS = {("DOC002", f"{entry.kind.value}#POSITION_1") for entry in NEW}
# The queries that read a whole document partition, or POSITION_1's position index partition.
SEE_NEW = {
    "get_document_overview(DOC002)",
    "get_position_items(DOC002)",
    "analyze_document_positions(DOC002)",
    "find_all_position_data_across_documents(POSITION_1)",
}


def record_new() -> None:
    for entry in NEW:
        services.entry_record(entry=entry, user="contract")


def test_the_seed_articles_queries_see_the_new_kinds_only_where_they_read_the_partition(sample):
    before = seed_queries(sample.table)
    record_new()
    after = seed_queries(sample.table)
    for name, items in before.items():
        expected = sorted(items + sorted(NEW_KEYS)) if name in SEE_NEW else items
        assert after[name] == expected, name
    # None of the new sort keys begins with the seed's CAPITAL_ prefix (pattern 4).
    assert not any(sk.startswith("CAPITAL_") for _, sk in NEW_KEYS)


def test_a_document_overview_is_still_one_query_and_holds_the_new_entries(
    sample, repo, django_assert_dynamodb_requests
):
    record_new()
    with django_assert_dynamodb_requests(1, ["Query"]):
        overview = repo.overview("DOC002")
    held = next(p for p in overview.positions if p.position_id == "POSITION_1")
    assert {kind for kind in STATEMENT_KINDS if held.get(kind) is not None} == set(STATEMENT_KINDS)
    assert held.get(Kind.MANAGEMENT_FEE).fee_line == "offset"
    assert held.get(Kind.CARRIED_INTEREST).carry_stage == "paid"


def test_one_position_in_a_document_is_still_one_batch_get_of_every_kind(
    draft_sample, repo, django_assert_dynamodb_requests
):
    record_new()
    with django_assert_dynamodb_requests(1, ["BatchGetItem"]):
        row = repo.position_in_document("DOC002", "POSITION_1")
    assert row.get(Kind.REALIZED_GAIN).amount == Decimal("-75.50")
    assert len(row.entries) == 2 + len(NEW)  # the seed's call and distribution, and the new five


def test_a_position_across_documents_is_still_one_query_with_each_entrys_own_fields(
    draft_sample, positions, django_assert_dynamodb_requests
):
    record_new()
    split = Distribution(
        **COMMON, amount=Decimal(120000), status="Pending", return_of_capital=Decimal(100000), gain=Decimal(20000)
    )
    current = services.entry_change(entry=split, user="contract")
    assert current.revision == 2
    approve_by_another("DOC002")  # the register counts the draft's entries once it is approved
    with django_assert_dynamodb_requests(1, ["Query"]):
        page = positions.page("POSITION_1")
    by_key = {(e.document_id, e.kind): e for e in page.entries}
    assert by_key[("DOC002", Kind.MANAGEMENT_FEE)].fee_line == "offset"  # projected by the position index
    assert by_key[("DOC002", Kind.CARRIED_INTEREST)].carry_stage == "paid"
    distribution = by_key[("DOC002", Kind.DISTRIBUTION)]
    assert (distribution.return_of_capital, distribution.gain, distribution.income) == (
        Decimal(100000),
        Decimal(20000),
        None,
    )
    # The register's roll-up holds the activity: net fee is gross less the offset, so -1,000.00.
    assert page.register is not None
    (usd,) = page.register.figures()
    assert usd.activity.management_fee_net == Decimal("-1000.00")
    assert usd.activity.return_of_capital == Decimal(100000)
    # The kept value of the changed distribution (its version) keeps its own fields too: none then.
    (version,) = [v for v in positions.entry_versions("POSITION_1") if v.kind is Kind.DISTRIBUTION]
    assert version.entry().return_of_capital is None and version.amount == Decimal(120000)
