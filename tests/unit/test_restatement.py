"""A restatement's entry values (fundportal.domain.restatement): the approved value keeps
counting, the restated one waits apart, approval promotes it."""

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

from fundportal.domain.kinds import APPROVED, DRAFT
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, RestatedValue
from fundportal.domain.restatement import promoted, restated, restated_removal, shown

AT = datetime(2025, 10, 2, tzinfo=UTC)
APPROVED_CALL = CapitalCall("DOC002", "POSITION_2", "FUND_A", "INVESTOR_2", Decimal(400000), "Pending", revision=1)


def changed(amount: int, status: str = "Pending", revision: int = 2) -> CapitalCall:
    return replace(
        APPROVED_CALL, amount=Decimal(amount), status=status, revision=revision, updated_at=AT, updated_by="ana"
    )


def test_a_restated_entry_keeps_its_approved_value_and_holds_the_new_one_apart():
    entry = restated(APPROVED_CALL, changed(410000, "Completed"))
    # The counted value keeps its own who/when (the register ranks it by them); the restated
    # value carries who set it and when.
    assert (entry.amount, entry.status, entry.revision, entry.updated_by) == (Decimal(400000), "Pending", 2, None)
    assert entry.restated == RestatedValue(Decimal(410000), "Completed", updated_at=AT, updated_by="ana")
    assert shown(entry).amount == Decimal(410000) and shown(entry).restated is None
    assert (shown(entry).updated_at, shown(entry).updated_by) == (AT, "ana")


def test_restating_again_keeps_the_approved_value():
    twice = restated(restated(APPROVED_CALL, changed(410000)), changed(420000, revision=3))
    assert (twice.amount, twice.restated.amount, twice.revision) == (Decimal(400000), Decimal(420000), 3)


def test_a_restated_removal_counts_until_approved_and_then_removes():
    removal = restated_removal(APPROVED_CALL, changed(400000))
    assert removal.amount == Decimal(400000) and removal.restated.removed
    assert shown(removal) is None and promoted(removal) is None


def test_a_removal_after_a_change_keeps_the_change_as_what_was_restated_away():
    entry = restated_removal(restated(APPROVED_CALL, changed(410000)), changed(0, revision=3))
    assert entry.restated == RestatedValue(Decimal(410000), "Pending", None, True, updated_at=AT, updated_by="ana")


def test_promotion_makes_the_restated_value_the_entry():
    entry = promoted(restated(APPROVED_CALL, changed(410000)))
    assert (entry.amount, entry.restated) == (Decimal(410000), None)
    assert promoted(APPROVED_CALL) == APPROVED_CALL


def test_a_document_is_restating_only_while_its_restatement_awaits_approval():
    document = Document("DOC002", as_of_date=date(2025, 12, 31))
    assert document.counts_entries and not document.restating
    restating = replace(document, approval=DRAFT, counted_revision=1)
    assert restating.restating and restating.counts_entries and not restating.approved
    assert not replace(document, approval=DRAFT).counts_entries
    assert not replace(restating, approval=APPROVED).restating
