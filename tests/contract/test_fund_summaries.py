"""Fund summaries on both backends: every register write moves its fund's summary shard in the
same transaction, an import adds one update per shard it touches, verify_positions reports and
repairs a drifted shard, and the fund page reads its summary plus one page of 100 positions."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest

from documents import services
from fundportal.domain import summary as rule
from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.kinds import Kind
from fundportal.domain.position_entries import CapitalCall, Distribution, NetAssetValue
from fundportal.domain.position_register import PositionRegister
from fundportal.ops.register_repair import verify_positions
from fundportal.store.gateway import MAX_ITEM_BYTES, TableGateway
from fundportal.store.repositories import summaries
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.repositories.summaries import SummaryRepository, shard_count, shard_items
from funds.selectors import fund_detail
from imports.services import import_apply, import_prepare
from positions.services import commitment_set
from tests.fund_loading import load_fund
from tests.notices import csv_bytes, notice_rows

pytestmark = pytest.mark.django_db


def _from_registers(fund_id: str) -> rule.Vector:
    registers = RegisterRepository().fund_positions(fund_id)
    return rule.add(*(rule.contribution(r) for r in registers))


def _entry(cls, amount, position_id="POSITION_1", investor_id="INVESTOR_1", document_id="DOC002", **changes):
    return cls(
        document_id=document_id,
        position_id=position_id,
        fund_id="FUND_A",
        investor_id=investor_id,
        amount=Decimal(amount),
        status="Completed",
        **changes,
    )


def test_every_register_write_moves_the_summary_in_the_same_transaction(draft_sample, monkeypatch):
    assert SummaryRepository().fund("FUND_A") == _from_registers("FUND_A")
    sent: list[list[dict]] = []
    real = TableGateway.transact

    def recording(self, actions, token):
        sent.append(actions)
        return real(self, actions, token)

    monkeypatch.setattr(TableGateway, "transact", recording)
    services.entry_record(entry=_entry(NetAssetValue, "1400000"), user="u")
    services.entry_change(entry=_entry(Distribution, "130000"), user="u")
    services.entry_record(entry=_entry(CapitalCall, "5000", "POSITION_9", "INVESTOR_9", "DOC001"), user="u")
    services.entry_remove(document_id="DOC002", kind=Kind.NAV, position_id="POSITION_1", user="u")
    register = RegisterRepository().get("POSITION_2", consistent=True)
    commitment_set(
        position_id="POSITION_2",
        amount=Decimal(1_300_000),
        reason="side letter",
        expected_revision=register.revision,
        user="u",
    )
    assert len(sent) == 5
    for actions in sent:  # each write: its register and exactly one update of the register's shard
        assert sum("Update" in a for a in actions) == 1
    assert SummaryRepository().fund("FUND_A") == _from_registers("FUND_A")
    assert verify_positions().differences == []


def test_an_import_adds_one_aggregated_update_per_shard_it_touches(backend, monkeypatch):
    sent: list[list[dict]] = []
    real = TableGateway.transact

    def recording(self, actions, token):
        sent.append(actions)
        return real(self, actions, token)

    monkeypatch.setattr(TableGateway, "transact", recording)
    prepared = import_prepare(data=csv_bytes(notice_rows(40)), filename="notice.csv")
    assert prepared.ok
    import_apply(prepared=prepared, user="importer", workers=1)
    registers = [
        a for a in sent if any("Put" in x and x["Put"]["Item"]["EntityType"]["S"] == "PositionRegister" for x in a)
    ]
    assert registers
    for actions in registers:
        updates = [a["Update"]["Key"]["PK"]["S"] for a in actions if "Update" in a]
        puts = sum(1 for a in actions if "Put" in a)
        assert len(updates) == len(set(updates)) <= shard_count() < puts  # aggregated, never per position
        assert len(actions) <= 100
    assert SummaryRepository().fund("FUND_N") == _from_registers("FUND_N")
    assert verify_positions().differences == []


def test_verify_reports_a_drifted_shard_and_the_repair_fixes_it_once(sample):
    gateway = TableGateway()
    fund_id, shard = summaries.shard_of(RegisterRepository().get("POSITION_1"))
    summaries.repair(gateway, fund_id, shard, {("USD", "called_settled", None): Decimal(7)}, _writes(fund_id, shard))
    report = verify_positions()
    assert [(d.position_id, d.problem) for d in report.differences] == [
        (f"fund FUND_A summary shard {shard}", "summary shard differs from its registers in called_settled")
    ]
    repaired = verify_positions(repair=True)
    assert (repaired.repaired, repaired.skipped) == (1, 0)
    assert verify_positions(repair=True).repaired == 0  # nothing left to write
    assert SummaryRepository().fund("FUND_A") == _from_registers("FUND_A")


def _writes(fund_id: str, shard: int) -> int:
    item = SummaryRepository().items([fund_id], consistent=True)
    (found,) = [i for i in item.values() if i["Shard"] == shard]
    return int(found["Writes"])


def test_a_large_fund_page_is_its_summary_and_one_page_of_100_positions(backend, django_assert_dynamodb_requests):
    load_fund("FUND_BIG", 230)
    seen: list[str] = []
    cursor = None
    pages = []
    for _ in range(3):
        with django_assert_dynamodb_requests(2, ["BatchGetItem", "Query"]) as requests:
            page = fund_detail(fund_id="FUND_BIG", cursor=cursor)
        assert requests.read_units <= 40
        (total,) = page.totals  # the whole fund's, not the page's
        assert total.positions == 230 and total.figures.called.amount == sum(Decimal(1000 + n) for n in range(230))
        seen += [line.position_id for line in page.lines]
        pages.append(page)
        cursor = page.next_cursor
    assert [len(p.lines) for p in pages] == [100, 100, 30]
    assert seen == sorted(seen) and len(set(seen)) == 230
    assert pages[0].previous_cursor is None and pages[2].next_cursor is None
    back = fund_detail(fund_id="FUND_BIG", cursor=pages[2].previous_cursor)
    assert [line.position_id for line in back.lines] == [line.position_id for line in pages[1].lines]
    first = fund_detail(fund_id="FUND_BIG", cursor=back.previous_cursor)
    assert [line.position_id for line in first.lines] == seen[:100] and first.previous_cursor is None


def test_a_shard_item_stays_far_below_the_item_limit_however_many_positions():
    registers = [
        PositionRegister(f"P{n}", "FUND_S", f"I{n}", commitment=Decimal(n)).with_builder(FiguresBuilder(flows=True))
        for n in range(5000)
    ]
    items = shard_items(registers, shards=10)
    assert len(items) == 10 and all(len(str(i)) < MAX_ITEM_BYTES / 100 for i in items)
    assert Counter(i["Shard"] for i in items) == Counter(range(10))
