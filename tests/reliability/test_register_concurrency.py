"""8 writers recording entries for the positions of one fund at once, on DynamoDB Local:
every entry lands, the register of each position equals its entries recomputed (no lost update,
whatever TransactionConflicts and register retries happened), the fund's summary sums the
registers exactly, and verify_positions (registers and summaries) is clean."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.core.management import call_command

from documents import approval, services
from fundportal.domain import summary as summary_rule
from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, Distribution, NetAssetValue
from fundportal.ops.register_repair import verify_positions
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.repositories.summaries import SummaryRepository

pytestmark = [pytest.mark.django_db, pytest.mark.local_only]

THREADS = 8
DOCUMENTS = 6  # each thread records, in every document, entries for 2 of the fund's 4 positions
POSITIONS = ["P_1", "P_2", "P_3", "P_4"]


def test_eight_writers_on_one_fund_lose_no_update(local_backend):
    from datetime import date

    for n in range(DOCUMENTS):
        services.document_create(
            document=Document(document_id=f"D{n}", fund_id="FUND_C", as_of_date=date(2025, 1 + n, 28)), user="setup"
        )
        # Drafts: the writers' entries are written directly (an approved document's would wait for
        # approval as a restatement), and counted once the documents are approved below.
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []
    recorded: list[object] = []
    lock = threading.Lock()

    def writer(t: int) -> None:
        kinds = (CapitalCall, Distribution, NetAssetValue)
        barrier.wait()
        try:
            for n in range(DOCUMENTS):
                # Threads t and t+4 share the positions; each (document, kind, position) is written once.
                position = POSITIONS[t % 4]
                kind = kinds[(t // 4 + n) % 3] if t < 4 else kinds[(t // 4 + n + 1) % 3]
                entry = kind(
                    document_id=f"D{n}",
                    position_id=position,
                    fund_id="FUND_C",
                    investor_id=f"INV_{position}",
                    amount=Decimal(1000 * (t + 1) + n),
                    status="Completed" if n % 2 else "Pending",
                )
                saved = services.entry_record(entry=entry, user=f"writer{t}")
                with lock:
                    recorded.append(saved)
        except BaseException as error:  # asserted below
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(recorded) == THREADS * DOCUMENTS
    for n in range(DOCUMENTS):
        approval.document_submit(document_id=f"D{n}", user="setup")
        approval.document_approve(document_id=f"D{n}", user="approver")

    registers = {r.position_id: r for r in RegisterRepository().fund_positions("FUND_C")}
    assert set(registers) == set(POSITIONS)
    for position in POSITIONS:
        builder = FiguresBuilder(flows=True)
        for entry in recorded:
            if entry.position_id == position:
                builder.add(entry)
        register = registers[position]
        assert register.rollup == builder.state(), position  # no lost update
        # one revision a write, and one a document's approval moving its entries into the roll-up
        assert register.revision == sum(1 for e in recorded if e.position_id == position) + DOCUMENTS
    # The fund's summary (ADD deltas from 8 writers at once, no read-modify-write) sums the
    # registers exactly: every call recorded is in it once.
    summary = SummaryRepository().fund("FUND_C")
    assert summary == summary_rule.add(*(summary_rule.contribution(r) for r in registers.values()))
    called = sum(e.amount for e in recorded if isinstance(e, CapitalCall))
    assert sum(a for (_, what, _), a in summary.items() if what in ("called_settled", "called_pending")) == called
    assert verify_positions().differences == []
    call_command("verify_positions")  # exits non-zero on any difference
