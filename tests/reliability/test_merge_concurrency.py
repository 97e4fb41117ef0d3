"""A merge racing editors' entry writes into both positions, on DynamoDB Local: no entry is lost
or counted twice, each register equals its entries, and verify_positions is clean afterwards."""

from __future__ import annotations

import threading
from datetime import date
from decimal import Decimal

import pytest

from documents import approval, services
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, Distribution, NetAssetValue
from fundportal.ops.register_repair import verify_positions
from fundportal.store.repositories.positions import PositionRepository
from fundportal.store.repositories.register import RegisterRepository
from positions import merging

pytestmark = [pytest.mark.django_db, pytest.mark.local_only]

ROUNDS = 3


def _entry(entry_class, document_id: str, position_id: str, amount: int):
    return entry_class(
        document_id=document_id,
        position_id=position_id,
        fund_id="FUND_M",
        investor_id="INV_M",
        amount=Decimal(amount),
        status="Completed",
    )


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_merge_racing_entry_writes_loses_nothing_and_verify_is_clean(local_backend, round_):
    for n in range(4):
        services.document_create(
            document=Document(document_id=f"M{n}", fund_id="FUND_M", as_of_date=date(2025, 1 + n, 28)), user="setup"
        )
    services.entry_record(entry=_entry(CapitalCall, "M0", "TYPO_M", 100), user="typist")
    services.entry_record(entry=_entry(NetAssetValue, "M1", "TYPO_M", 200), user="typist")
    services.entry_record(entry=_entry(CapitalCall, "M2", "RIGHT_M", 300), user="editor")
    # M0-M2 approved (their entries count); M3 stays a draft, written directly during the merge.
    for n in range(3):
        approval.document_submit(document_id=f"M{n}", user="setup")
        approval.document_approve(document_id=f"M{n}", user="approver")
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def merge() -> None:
        barrier.wait()
        try:
            merging.position_merge(source="TYPO_M", target="RIGHT_M", user="fixer")
        except BaseException as error:  # asserted below
            errors.append(error)

    def write() -> None:
        barrier.wait()
        try:
            services.entry_record(entry=_entry(CapitalCall, "M3", "RIGHT_M", 400), user="editor")
            services.entry_record(entry=_entry(Distribution, "M3", "TYPO_M", 50), user="typist")
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=merge), threading.Thread(target=write)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    positions = PositionRepository()
    entries = positions.entries("RIGHT_M") + positions.entries("TYPO_M")
    assert sorted((e.document_id, e.kind.slug, e.amount) for e in entries) == [
        ("M0", "capital_call", Decimal(100)),
        ("M1", "nav", Decimal(200)),
        ("M2", "capital_call", Decimal(300)),
        ("M3", "capital_call", Decimal(400)),
        ("M3", "distribution", Decimal(50)),
    ]
    right = RegisterRepository().get("RIGHT_M", consistent=True)
    assert right is not None and {e.document_id for e in positions.entries("RIGHT_M")} >= {"M0", "M1", "M2", "M3"}
    assert verify_positions().differences == []
