"""Removing a position with no entries and merging a mistyped position into the right one, on
both backends: entries moved into the same documents, the target register recounted, the
mistyped register and its search item gone, audited, `verify_positions` clean; refusals write
nothing."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from documents import approval, services
from fundportal.domain.access import AccessScope
from fundportal.domain.errors import NotFound, NotPermitted, PositionChangeRefused
from fundportal.domain.kinds import Kind, SearchKind
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, NetAssetValue, UnfundedCommitment
from fundportal.ops.register_repair import verify_positions
from fundportal.store.gateway import TableGateway
from fundportal.store.mapping import keys
from fundportal.store.repositories.documents import DocumentRepository
from fundportal.store.repositories.positions import PositionRepository
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.repositories.spellings import SpellingRepository
from positions import merging

pytestmark = pytest.mark.django_db


def _typo(entry_class, document_id: str, amount: int, position_id: str = "POSITON_1", investor_id: str = "INVESTOR_1"):
    entry = entry_class(
        document_id=document_id,
        position_id=position_id,
        fund_id="FUND_A",
        investor_id=investor_id,
        amount=Decimal(amount),
        status="Active",
    )
    services.entry_record(entry=entry, user="typist")


def _draft(document_id: str, as_of: date = date(2026, 1, 31)) -> None:
    """A new statement, a draft: its entries are written directly (the seed's approved documents
    change only through approval)."""
    document = Document(document_id=document_id, title="statement", fund_id="FUND_A", as_of_date=as_of)
    services.document_create(document=document, user="typist")


def _approve(document_id: str) -> None:
    """Entered by the typist, approved by a checker: its amounts count, as the seed's do."""
    approval.document_submit(document_id=document_id, user="typist")
    approval.document_approve(document_id=document_id, user="checker")


def _position_audits(position_id: str) -> list[dict]:
    pk = keys.position_audit_pk(position_id)
    return list(TableGateway().query("PK = :pk", {":pk": pk}))


def _spelled(position_id: str) -> set[str]:
    found = SpellingRepository().existing([(SearchKind.POSITION, position_id)])
    return found.get((SearchKind.POSITION, position_id.lower()), set())


def test_merging_a_typo_moves_its_entries_and_recounts_the_target(sample):
    for document_id in ("DOC_Q1", "DOC_Q2"):
        _draft(document_id)
    _typo(NetAssetValue, "DOC_Q1", 900_000)
    _typo(UnfundedCommitment, "DOC_Q2", 1_000_000)
    _approve("DOC_Q1")
    _approve("DOC_Q2")
    registers = RegisterRepository()
    before = registers.get("POSITION_1", consistent=True)

    result = merging.position_merge(source="POSITON_1", target="POSITION_1", user="fixer")

    assert (result.moved, result.transactions) == (2, 2)
    assert registers.get("POSITON_1", consistent=True) is None
    after = registers.get("POSITION_1", consistent=True)
    assert after.revision == before.revision + 1 and after.commitment == before.commitment
    (figures,) = after.figures()
    assert figures.nav.amount == Decimal(900_000) and figures.unfunded.amount == Decimal(1_000_000)
    moved = {(e.document_id, e.kind) for e in PositionRepository().entries("POSITION_1")}
    assert {("DOC_Q1", Kind.NAV), ("DOC_Q2", Kind.UNFUNDED_COMMITMENT)} <= moved
    assert PositionRepository().entries("POSITON_1") == []
    assert _spelled("POSITON_1") == set() and _spelled("POSITION_1") == {"POSITION_1"}
    (gone,) = _position_audits("POSITON_1")
    assert gone["User"] == "fixer" and gone["Action"] == "merge" and "POSITION_1" in gone["Target"]
    assert any(a["Action"] == "merge" for a in _position_audits("POSITION_1"))
    (audit,) = [a for a in DocumentRepository().audit_trail("DOC_Q1") if a.action == "merge"]
    assert audit.user == "fixer" and audit.changes["position_id"] == ["POSITON_1", "POSITION_1"]
    assert verify_positions().differences == []


def test_merging_positions_of_different_investors_is_refused_and_writes_nothing(sample):
    _draft("DOC_Q1")
    _typo(NetAssetValue, "DOC_Q1", 900_000)
    before = RegisterRepository().get("POSITON_1", consistent=True)
    with pytest.raises(PositionChangeRefused) as refused:
        merging.position_merge(source="POSITON_1", target="POSITION_2", user="fixer")
    assert refused.value.reason == "investor_id" and refused.value.detail == ("INVESTOR_1", "INVESTOR_2")
    assert RegisterRepository().get("POSITON_1", consistent=True) == before
    assert len(PositionRepository().entries("POSITON_1")) == 1


def test_merging_when_both_hold_an_entry_of_one_kind_in_one_document_is_refused(sample):
    _draft("DOC_Q1")
    _typo(CapitalCall, "DOC_Q1", 2_000, position_id="POSITION_1")
    _typo(CapitalCall, "DOC_Q1", 1_000)
    with pytest.raises(PositionChangeRefused) as refused:
        merging.position_merge(source="POSITON_1", target="POSITION_1", user="fixer")
    assert (
        refused.value.reason == PositionChangeRefused.CLASHING_ENTRIES
        and refused.value.detail == "DOC_Q1 (capital_call)"
    )
    assert len(PositionRepository().entries("POSITON_1")) == 1


def test_a_merge_outside_the_users_edit_rights_is_refused(sample):
    _draft("DOC_Q1")
    _typo(NetAssetValue, "DOC_Q1", 900_000)
    reader = AccessScope(funds=frozenset({"FUND_A"}))
    with pytest.raises((NotPermitted, NotFound)):
        merging.position_merge(source="POSITON_1", target="POSITION_1", user="reader", scope=reader)
    assert RegisterRepository().get("POSITON_1", consistent=True) is not None


def test_a_long_merge_goes_in_transactions_of_at_most_100_items():
    groups = merging.steps(
        [NetAssetValue(document_id=f"DOC{n:03d}", position_id="P", fund_id="F", investor_id="I") for n in range(120)]
    )
    # 5 items an entry alone in its document (delete, put, kept version, audit, document check)
    # + 2 registers, the 2 versions they keep and up to 2 summary shard updates
    assert [len(g) for g in groups] == [18, 18, 18, 18, 18, 18, 12]
    assert all(6 + 5 * len(g) <= 100 for g in groups)
    same_document = [
        NetAssetValue(document_id="DOC", position_id="P", fund_id="F", investor_id="I"),
        CapitalCall(document_id="DOC", position_id="P", fund_id="F", investor_id="I"),
    ]
    assert merging.steps(same_document) == [sorted(same_document, key=lambda e: e.kind.value)]


def test_removing_a_position_with_entries_is_refused(sample):
    _draft("DOC_Q1")
    _typo(NetAssetValue, "DOC_Q1", 900_000)
    with pytest.raises(PositionChangeRefused) as refused:
        merging.position_remove(position_id="POSITON_1", user="fixer")
    assert refused.value.reason == PositionChangeRefused.HAS_ENTRIES and refused.value.detail == 1


def test_removing_a_position_without_entries_deletes_it_and_its_search_items(sample):
    _draft("DOC_Q1")
    _typo(NetAssetValue, "DOC_Q1", 900_000, investor_id="INVESTOR_9")
    services.entry_remove(document_id="DOC_Q1", kind=Kind.NAV, position_id="POSITON_1", user="typist")
    merging.position_remove(position_id="POSITON_1", user="fixer")
    assert RegisterRepository().get("POSITON_1", consistent=True) is None
    assert _spelled("POSITON_1") == set()
    investors = SpellingRepository().existing([(SearchKind.INVESTOR, "INVESTOR_9")])
    assert investors.get((SearchKind.INVESTOR, "investor_9"), set()) == set()
    (audit,) = _position_audits("POSITON_1")
    assert audit["Action"] == "remove" and audit["User"] == "fixer"
    assert verify_positions().differences == []
    with pytest.raises(NotFound):
        merging.position_remove(position_id="POSITON_1", user="fixer")


def test_an_entry_of_a_draft_document_moves_into_the_targets_awaiting_part(sample):
    services.document_create(
        document=Document(document_id="DRAFT_1", fund_id="FUND_A", as_of_date=date(2026, 1, 31)), user="typist"
    )
    _typo(NetAssetValue, "DRAFT_1", 700_000)
    merging.position_merge(source="POSITON_1", target="POSITION_1", user="fixer")
    target = RegisterRepository().get("POSITION_1", consistent=True)
    assert "DRAFT_1" in target.awaiting_documents
    (awaiting,) = target.awaiting_figures()
    assert awaiting.nav.amount == Decimal(700_000)
    (counted,) = target.figures()
    assert counted.nav is None  # a draft counts nowhere until approved (POSITION_1 has no NAV)
    assert verify_positions().differences == []


def test_a_merge_longer_than_one_transaction_leaves_verify_clean(sample):
    documents = [f"LONG_{n:02d}" for n in range(26)]  # 26 documents: two steps of entries
    for n, document_id in enumerate(documents):
        services.document_create(
            document=Document(document_id=document_id, fund_id="FUND_A", as_of_date=date(2024, 1 + n % 12, 28)),
            user="setup",
        )
        _typo(CapitalCall, document_id, 1_000 + n)
    result = merging.position_merge(source="POSITON_1", target="POSITION_1", user="fixer")
    assert (result.moved, result.transactions) == (26, 3)
    moved = [e for e in PositionRepository().entries("POSITION_1") if e.document_id.startswith("LONG_")]
    assert sorted(e.amount for e in moved) == [Decimal(1_000 + n) for n in range(26)]
    assert RegisterRepository().get("POSITON_1", consistent=True) is None
    assert verify_positions().differences == []
