"""The position register on both backends: kept in the entry transactions, one
request per read pattern, mismatches refused with nothing written, verify/repair, and
create_table upgrading an existing table's changed index."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command

from documents import approval, services
from fundportal.domain.errors import PositionMismatch
from fundportal.domain.kinds import Kind
from fundportal.domain.position_entries import CapitalCall, Distribution, NetAssetValue, UnfundedCommitment
from fundportal.ops.register_repair import verify_positions
from fundportal.store import tables
from fundportal.store.gateway import call
from fundportal.store.mapping.entities import to_item
from fundportal.store.repositories import summaries
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.schema import POSITION_INDEX, TABLE

pytestmark = pytest.mark.django_db


def _usd(register):
    (figures,) = register.figures()
    return figures


def test_sample_registers_and_the_read_patterns_are_one_request_each(sample, django_assert_dynamodb_requests):
    registers = RegisterRepository()
    with django_assert_dynamodb_requests(2, ["Query", "BatchGetItem"]):  # the slim ids, then the registers whole
        fund = {r.position_id: r for r in registers.fund_positions("FUND_A")}
    assert set(fund) == {"POSITION_1", "POSITION_2"}
    assert fund["POSITION_1"].rollup == registers.get("POSITION_1").rollup  # with its dated flows
    with django_assert_dynamodb_requests(1, ["Query"]):
        assert registers.fund_position_ids("FUND_A") == {"POSITION_1", "POSITION_2"}
    with django_assert_dynamodb_requests(1, ["Query"]):
        slim = {r.position_id: r.commitment for r in registers.fund_slim_positions("FUND_A")}
    assert slim == {"POSITION_1": Decimal(2_000_000), "POSITION_2": Decimal(1_150_000)}
    p1, p2 = _usd(fund["POSITION_1"]), _usd(fund["POSITION_2"])
    assert (p1.called.amount, p2.called.amount) == (Decimal(1_250_000), Decimal(700_000))
    assert (p1.distributed.amount, p2.distributed.amount) == (Decimal(195_000), Decimal(45_000))
    assert (fund["POSITION_1"].commitment, fund["POSITION_2"].commitment) == (Decimal(2_000_000), Decimal(1_150_000))
    with django_assert_dynamodb_requests(1, ["Query"]):
        assert [r.position_id for r in registers.investor_positions("INVESTOR_1")] == ["POSITION_1"]
    with django_assert_dynamodb_requests(1, ["Query"]):
        assert registers.funds() == ["FUND_A"]
    with django_assert_dynamodb_requests(1, ["Query"]):
        page = sample.positions.page("POSITION_1")
    assert page.register is not None and page.register.commitment == Decimal(2_000_000)
    assert len(page.entries) == 5  # the register is not an entry
    assert verify_positions().differences == []


def _entry(cls, document_id="DOC002", amount="1000", **changes):
    values = dict(
        document_id=document_id,
        position_id="POSITION_1",
        fund_id="FUND_A",
        investor_id="INVESTOR_1",
        amount=Decimal(amount),
        status="Completed",
    )
    return cls(**{**values, **changes})


def _approve(*document_ids: str) -> None:
    for document_id in document_ids:
        approval.document_submit(document_id=document_id, user="u")
        approval.document_approve(document_id=document_id, user="checker")


def test_every_entry_write_keeps_the_register_equal_to_the_entries(draft_sample):
    # Direct writes into the draft DOC001/DOC002, counted once another user approves them.
    services.entry_record(entry=_entry(NetAssetValue, amount="1400000"), user="u")
    services.entry_change(entry=_entry(Distribution, amount="130000"), user="u")
    services.entry_record(entry=_entry(UnfundedCommitment, amount="750000", status="Active"), user="u")
    services.entry_record(
        entry=_entry(
            CapitalCall, document_id="DOC001", position_id="POSITION_9", investor_id="INVESTOR_9", amount="5000"
        ),
        user="u",
    )
    new = RegisterRepository().get("POSITION_9", consistent=True)
    assert (new.fund_id, new.investor_id, new.revision) == ("FUND_A", "INVESTOR_9", 1)
    assert verify_positions().differences == []
    _approve("DOC001", "DOC002")
    figures = _usd(RegisterRepository().get("POSITION_1", consistent=True))
    assert figures.distributed.amount == Decimal(75_000 + 130_000)
    assert (figures.nav.amount, figures.unfunded.amount) == (Decimal(1_400_000), Decimal(750_000))
    assert verify_positions().differences == []
    # Removing the entry that holds the latest unfunded commitment recounts it from the others
    # (DOC002 is approved: once the removal is approved too).
    services.entry_remove(document_id="DOC002", kind=Kind.UNFUNDED_COMMITMENT, position_id="POSITION_1", user="u")
    assert _usd(RegisterRepository().get("POSITION_1", consistent=True)).unfunded.amount == Decimal(750_000)
    _approve("DOC002")
    assert _usd(RegisterRepository().get("POSITION_1", consistent=True)).unfunded.amount == Decimal(1_500_000)
    services.entry_remove(document_id="DOC002", kind=Kind.NAV, position_id="POSITION_1", user="u")
    _approve("DOC002")
    assert _usd(RegisterRepository().get("POSITION_1", consistent=True)).nav is None
    assert verify_positions().differences == []


def _scan(table):
    return sorted(
        call("Scan", TableName=table, ConsistentRead=True)["Items"], key=lambda i: (i["PK"]["S"], i["SK"]["S"])
    )


@pytest.mark.parametrize(
    "changes",
    [{"fund_id": "FUND_Z"}, {"investor_id": "INVESTOR_9"}, {"document_id": "DOC001", "investor_id": "INVESTOR_2"}],
)
def test_a_mismatched_fund_or_investor_is_refused_with_nothing_written(sample, changes):
    before = _scan(sample.table)
    with pytest.raises(PositionMismatch):
        services.entry_record(entry=_entry(NetAssetValue, **changes), user="u")
    assert _scan(sample.table) == before


def test_verify_reports_and_repair_fixes_idempotently(sample, settings):
    registers = RegisterRepository()
    broken = registers.get("POSITION_2", consistent=True)
    builder = broken.builder()
    builder.add(_entry(CapitalCall, position_id="POSITION_2", investor_id="INVESTOR_2", amount="1"))
    item = {k: v for k, v in to_item(broken.with_builder(builder)).items() if not k.startswith("GSI4")}
    registers.gateway.batch_write([item])  # disagrees with its entries, written before the investor index
    call("DeleteItem", TableName=sample.table, Key={"PK": {"S": "POSITION#POSITION_1"}, "SK": {"S": "REGISTER"}})
    report = verify_positions()
    # Written around the unit of work, so FUND_A's summary shard (both positions hash to it) no
    # longer sums the stored registers either.
    summary, shard = report.differences[0], summaries.shard_of(broken)[1]
    assert summary.position_id == f"fund FUND_A summary shard {shard}"
    assert summary.problem.startswith("summary shard differs from its registers in")
    assert {(d.position_id, d.problem) for d in report.differences[1:]} == {
        ("POSITION_1", "no register item (unregistered position)"),
        ("POSITION_2", "roll-up differs from the entries"),
        ("POSITION_2", "not in the investor index (written before it)"),
    }
    with pytest.raises(Exception, match="4 differences"):
        call_command("verify_positions", stdout=io.StringIO())
    out = io.StringIO()
    call_command("verify_positions", repair=True, stdout=out)
    assert "repaired 3" in out.getvalue()  # the shard, then the registers (each moving it exactly)
    assert verify_positions().differences == []
    assert verify_positions(repair=True).repaired == 0  # idempotent
    assert _usd(registers.get("POSITION_2", consistent=True)).called.amount == Decimal(700_000)


def test_repair_moves_a_table_from_investor_copies_to_the_investor_index(sample):
    """Before the investor index, each register had a copy (SK REGISTER#INVESTOR) carrying the
    investor's keys on GSI_Entity_Document. `verify_positions --repair` (run by `make run`) puts
    each register back with its investor index keys and deletes the copy, in one transaction."""
    registers = RegisterRepository()
    old = registers.get("POSITION_1", consistent=True)
    legacy_register = {k: v for k, v in to_item(old).items() if not k.startswith("GSI4")}
    legacy_copy = {
        **{k: v for k, v in legacy_register.items() if not k.startswith("GSI")},
        "SK": "REGISTER#INVESTOR",
        "EntityType": "PositionRegisterInvestorCopy",
        "GSI_PK": "INVESTOR#INVESTOR_1",
        "GSI_SK": "POSITION#POSITION_1",
    }
    registers.gateway.batch_write([legacy_register, legacy_copy])
    assert registers.investor_positions("INVESTOR_1") == []  # the old table's investor page: not indexed
    assert {(d.position_id, d.problem) for d in verify_positions().differences} == {
        ("POSITION_1", "not in the investor index (written before it)"),
        ("POSITION_1", "an investor copy left from before the investor index"),
    }
    assert verify_positions(repair=True).repaired == 1
    assert [r.position_id for r in registers.investor_positions("INVESTOR_1")] == ["POSITION_1"]
    assert registers.gateway.get(("POSITION#POSITION_1", "REGISTER#INVESTOR")) is None
    assert registers.get("POSITION_1").rollup == old.rollup
    assert verify_positions().differences == []


def test_a_register_is_indexed_by_fund_only_as_its_slim_copy(sample):
    """A register write copies no whole register under FUND#<fund> on the entity index (an
    import's register writes would all land on that one key): only the slim fund page copy."""
    item = to_item(RegisterRepository().get("POSITION_1", consistent=True))
    assert "GSI_PK" not in item and "GSI_SK" not in item
    assert (item["GSI6_PK"], item["GSI6_SK"]) == ("FUND#FUND_A", "POSITION#POSITION_1")
    stored = RegisterRepository().gateway.get(("POSITION#POSITION_1", "REGISTER"), consistent=True)
    assert stored is not None and "GSI_PK" not in stored


def test_repair_removes_a_registers_whole_copy_from_the_entity_index(sample):
    """Registers written before they left the entity index still carry GSI_PK = FUND#<fund>:
    `verify_positions` reports them and `--repair` puts each back without those keys."""
    registers = RegisterRepository()
    old = registers.get("POSITION_1", consistent=True)
    registers.gateway.batch_write(
        [{**to_item(old), "GSI_PK": "FUND#FUND_A", "GSI_SK": "POSITION#POSITION_1"}]  # as older code wrote it
    )
    assert [(d.position_id, d.problem) for d in verify_positions().differences] == [
        ("POSITION_1", "copied whole to the entity index under its fund (written before the slim copy)")
    ]
    assert verify_positions(repair=True).repaired == 1
    stored = registers.gateway.get(("POSITION#POSITION_1", "REGISTER"), consistent=True)
    assert stored is not None and "GSI_PK" not in stored and "GSI_SK" not in stored
    assert registers.get("POSITION_1").rollup == old.rollup
    assert verify_positions().differences == []


def test_create_table_upgrades_an_index_whose_projection_differs(backend, settings):
    name = backend.table + "_old"
    kwargs = TABLE.create_table_kwargs(name)
    for index in kwargs["GlobalSecondaryIndexes"]:
        if index["IndexName"] == POSITION_INDEX:  # the projection before the register existed
            index["Projection"]["NonKeyAttributes"] = [
                a
                for a in index["Projection"]["NonKeyAttributes"]
                if a not in ("Commitment", "Rollup", "Revision", "UpdatedAt")
            ]
    kwargs["GlobalSecondaryIndexes"] = [
        i for i in kwargs["GlobalSecondaryIndexes"] if i["IndexName"] != "GSI_Latest_Documents_By_Month"
    ]
    kwargs["AttributeDefinitions"] = [
        a for a in kwargs["AttributeDefinitions"] if not a["AttributeName"].startswith("GSI3")
    ]
    call("CreateTable", **kwargs)
    settings.DYNAMODB_TABLE = name
    try:
        assert len(tables.describe(name).problems) == 2
        out = io.StringIO()
        call_command("create_table", rebuild_in_place=True, stdout=out)  # a local table before `make run`
        assert "rebuilding index GSI_Position_Document in place" in out.getvalue()
        assert "creating index GSI_Latest_Documents_By_Month" in out.getvalue()
        assert "matches the definition" in out.getvalue()
        assert tables.describe(name).problems == ()
    finally:
        tables.delete(name)


def test_register_dates_are_the_entries(sample):
    flows = RegisterRepository().get("POSITION_1").builder().flows("USD")
    # calls negative, distributions positive, netted per date (DOC001: 2025-09-30, DOC002: 2025-12-31)
    assert flows == [(date(2025, 9, 30), Decimal(-425_000)), (date(2025, 12, 31), Decimal(-630_000))]


def test_dated_commitment_history_reads_back_from_every_register_pattern(sample, django_assert_dynamodb_requests):
    """The history rides in the projected Commitment attribute: the position index (INCLUDE), the
    fund's and the investor's registers and the item itself all read it back, in one request each."""
    from positions.services import commitment_set

    commitment_set(
        position_id="POSITION_1",
        amount=Decimal(2_500_000),
        effective_on=date(2025, 10, 15),
        reason="Side letter",
        expected_revision=1,
        user="ann",
    )
    registers = RegisterRepository()
    with django_assert_dynamodb_requests(1, ["Query"]):
        page = sample.positions.page("POSITION_1")
    with django_assert_dynamodb_requests(1, ["Query"]):
        (by_investor,) = registers.investor_positions("INVESTOR_1")
    fund = {r.position_id: r for r in registers.fund_positions("FUND_A")}
    for register in (page.register, by_investor, fund["POSITION_1"], registers.get("POSITION_1", consistent=True)):
        assert register is not None and register.commitment == Decimal(2_500_000)
        assert [(c.effective_on, c.amount, c.reason, c.recorded_by) for c in register.commitments] == [
            (date.min, Decimal(2_000_000), "", ""),
            (date(2025, 10, 15), Decimal(2_500_000), "Side letter", "ann"),
        ]
        assert register.commitment_on(date(2025, 9, 30)).amount == Decimal(2_000_000)
    assert fund["POSITION_2"].commitments == ()  # the other register is untouched
    assert verify_positions().differences == []
