"""What counted at a moment (`fundportal.domain.known_at`), hand-computed on the seed's DOC002
call for POSITION_2: 400,000, loaded at L, first approved at A1; restated to 410,000 at R and the
restatement approved at A2 (L < A1 < R < A2)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

from fundportal.domain.approval_times import Approval, counted_from, first_approved_at
from fundportal.domain.entry_versions import EntryVersion
from fundportal.domain.known_at import entries_counted_at
from fundportal.domain.position_entries import CapitalCall

L = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
A1 = datetime(2026, 1, 6, 9, 0, tzinfo=UTC)
R = datetime(2026, 2, 1, 9, 0, tzinfo=UTC)
A2 = datetime(2026, 2, 3, 9, 0, tzinfo=UTC)
LOADED = CapitalCall(
    "DOC002",
    "POSITION_2",
    "FUND_A",
    "INVESTOR_2",
    Decimal(400_000),
    "Active",
    as_of_date=date(2025, 12, 31),
    updated_at=L,
)
RESTATED = replace(LOADED, amount=Decimal(410_000), updated_at=R, revision=2)
KEPT = EntryVersion.of(LOADED, R, "ana")
FIRST_THEN_RESTATED = {"DOC002": (Approval(None, A1), Approval(R, A2))}


def amounts_at(at: datetime, approvals=FIRST_THEN_RESTATED) -> list[Decimal]:
    return [e.amount for e in entries_counted_at([RESTATED], [KEPT], approvals, at)]


def test_a_document_first_approved_after_the_moment_does_not_count_then():
    assert amounts_at(datetime(2026, 1, 5, 12, 0, tzinfo=UTC)) == []
    assert entries_counted_at([LOADED], [], {"DOC002": (Approval(None, A1),)}, L) == []


def test_the_approved_value_counts_from_the_first_approval_until_the_restatement_is_approved():
    assert amounts_at(A1) == [Decimal(400_000)]
    assert amounts_at(datetime(2026, 2, 2, tzinfo=UTC)) == [Decimal(400_000)]  # restated, awaiting


def test_the_restated_value_counts_from_the_restatements_approval():
    assert amounts_at(A2) == [Decimal(410_000)]
    assert amounts_at(datetime(2026, 3, 1, tzinfo=UTC)) == [Decimal(410_000)]


def test_a_document_approved_before_times_were_kept_counts_by_its_values_times():
    """The seed's sample carries no first approval: 400,000 counts from L, 410,000 from A2."""
    approvals = {"DOC002": (Approval(R, A2),)}
    assert amounts_at(L, approvals) == [Decimal(400_000)]
    assert amounts_at(datetime(2026, 2, 2, tzinfo=UTC), approvals) == [Decimal(400_000)]
    assert amounts_at(A2, approvals) == [Decimal(410_000)]


def test_a_removed_value_is_back_before_its_removal_counts():
    removal = EntryVersion.of(LOADED, R, "ana", removed=True)
    approvals = FIRST_THEN_RESTATED
    assert [e.amount for e in entries_counted_at([], [removal], approvals, datetime(2026, 2, 2, tzinfo=UTC))] == [
        Decimal(400_000)
    ]
    assert entries_counted_at([], [removal], approvals, A2) == []


def test_counted_from_is_the_first_approval_a_value_waited_for_else_its_own_time():
    approvals = FIRST_THEN_RESTATED["DOC002"]
    assert (counted_from(L, approvals), counted_from(None, approvals), counted_from(R, approvals)) == (A1, A1, A2)
    later = datetime(2026, 3, 1, tzinfo=UTC)
    assert counted_from(later, approvals) == later
    assert first_approved_at(approvals) == A1 and first_approved_at((Approval(R, A2),)) is None


# A merge at M (A1 < M < R) moves the approved 400,000 from the mistyped POSITON_2 to POSITION_2.
M = datetime(2026, 1, 20, 9, 0, tzinfo=UTC)
TYPO = replace(LOADED, position_id="POSITON_2")
MOVED_OUT = EntryVersion.of(TYPO, M, "fixer", removed=True, moved_to="POSITION_2")
MOVED_IN = {("DOC002", LOADED.kind): M}
FIRST = {"DOC002": (Approval(None, A1),)}


def test_an_entry_a_merge_moved_in_counts_on_the_target_only_from_the_move():
    before_move = datetime(2026, 1, 10, tzinfo=UTC)
    assert entries_counted_at([LOADED], [], FIRST, before_move, MOVED_IN) == []
    assert [e.amount for e in entries_counted_at([LOADED], [], FIRST, M, MOVED_IN)] == [Decimal(400_000)]
    # Without the move kept, it would count from its approval (A1), as if it had always been here.
    assert [e.amount for e in entries_counted_at([LOADED], [], FIRST, before_move)] == [Decimal(400_000)]


def test_an_entry_a_merge_moved_out_counts_on_the_source_until_the_move():
    before_move = datetime(2026, 1, 10, tzinfo=UTC)
    assert [(e.position_id, e.amount) for e in entries_counted_at([], [MOVED_OUT], FIRST, before_move)] == [
        ("POSITON_2", Decimal(400_000))
    ]
    assert entries_counted_at([], [MOVED_OUT], FIRST, M) == []


def test_a_moved_entry_counts_under_exactly_one_position_at_every_moment():
    for at in (A1, datetime(2026, 1, 10, tzinfo=UTC), M, datetime(2026, 3, 1, tzinfo=UTC)):
        source = entries_counted_at([], [MOVED_OUT], FIRST, at)
        target = entries_counted_at([LOADED], [], FIRST, at, MOVED_IN)
        assert len(source) + len(target) == 1, at


def test_a_draft_entry_moved_in_counts_from_its_documents_approval_after_the_move():
    approved_later = {"DOC002": (Approval(None, datetime(2026, 1, 25, tzinfo=UTC)),)}
    assert entries_counted_at([LOADED], [], approved_later, datetime(2026, 1, 24, tzinfo=UTC), MOVED_IN) == []
    counted = entries_counted_at([LOADED], [], approved_later, datetime(2026, 1, 25, tzinfo=UTC), MOVED_IN)
    assert [e.amount for e in counted] == [Decimal(400_000)]


def test_a_value_changed_after_the_move_replaces_the_moved_one_from_its_approval():
    """Moved in at M, restated on the target at R and approved at A2: the moved value counts from
    M to A2, the restated one from A2."""
    kept = EntryVersion.of(LOADED, R, "ana")
    counted = [
        [e.amount for e in entries_counted_at([RESTATED], [kept], FIRST_THEN_RESTATED, at, MOVED_IN)]
        for at in (datetime(2026, 1, 10, tzinfo=UTC), M, A2)
    ]
    assert counted == [[], [Decimal(400_000)], [Decimal(410_000)]]
