"""seed_demo --sample writes exactly the seed article's 14 items (both backends)."""

from __future__ import annotations

import io
from decimal import Decimal

from django.core.management import call_command

from fundportal.store.gateway import call
from fundportal.store.serialization import from_item

# The seed article's table (seeds/000_*.txt, "The Single Table Structure").
SEED_TABLE = [
    ("DOC001", "DOCUMENT#LATEST", "Document", None, "Active", "Latest", None),
    ("DOC001", "DOCUMENT#2025-09-01", "Document", None, "Historical", "Historical", None),
    ("DOC001", "CAPITAL_ACTIVITY#LATEST", "CapitalActivity", 500000, "Pending", "Latest", None),
    ("DOC001", "CAPITAL_ACTIVITY#2025-08-15", "CapitalActivity", 450000, "Completed", "Historical", None),
    ("DOC001", "CAPITAL_CALL#POSITION_1", "CapitalCall", 500000, "Pending", "Latest", "POSITION_1"),
    ("DOC001", "DISTRIBUTION#POSITION_1", "Distribution", 75000, "Completed", "Latest", "POSITION_1"),
    ("DOC001", "UNFUNDED_COMMITMENT#POSITION_1", "UnfundedCommitment", 1500000, "Active", "Latest", "POSITION_1"),
    ("DOC001", "CAPITAL_CALL#POSITION_2", "CapitalCall", 300000, "Pending", "Latest", "POSITION_2"),
    ("DOC001", "DISTRIBUTION#POSITION_2", "Distribution", 45000, "Completed", "Latest", "POSITION_2"),
    ("DOC001", "UNFUNDED_COMMITMENT#POSITION_2", "UnfundedCommitment", 850000, "Active", "Latest", "POSITION_2"),
    ("DOC002", "DOCUMENT#LATEST", "Document", None, "Active", "Latest", None),
    ("DOC002", "CAPITAL_CALL#POSITION_1", "CapitalCall", 750000, "Completed", "Latest", "POSITION_1"),
    ("DOC002", "DISTRIBUTION#POSITION_1", "Distribution", 120000, "Pending", "Latest", "POSITION_1"),
    ("DOC002", "CAPITAL_CALL#POSITION_2", "CapitalCall", 400000, "Pending", "Latest", "POSITION_2"),
]
FUND_TYPES = {"Document", "CapitalActivity", "CapitalCall", "Distribution", "UnfundedCommitment"}


def _fund_items(table: str) -> list[dict]:
    items = [from_item(i) for i in call("Scan", TableName=table)["Items"]]
    return [i for i in items if i["EntityType"] in FUND_TYPES]


def _as_rows(items):
    return sorted(
        (
            i["PK"],
            i["SK"],
            i["EntityType"],
            int(i["Amount"]) if "Amount" in i else None,
            i["Status"],
            i["Version"],
            i.get("PositionId"),
        )
        for i in items
    )


def test_sample_is_exactly_the_seed_table(sample):
    items = _fund_items(sample.table)
    assert _as_rows(items) == sorted(SEED_TABLE)
    for item in items:
        assert isinstance(item.get("Amount", Decimal(0)), Decimal)
        if item["EntityType"] in {"Document", "CapitalActivity"}:
            assert "PositionId" not in item  # the seed: PositionId only on position entities


def test_sample_index_keys_follow_the_seed(sample):
    by_key = {(i["PK"], i["SK"]): i for i in _fund_items(sample.table)}
    doc = by_key[("DOC001", "DOCUMENT#LATEST")]
    assert (doc["GSI_PK"], doc["GSI_SK"]) == ("DOCUMENT#LATEST#DOC001", "METADATA")
    assert doc["GSI3_PK"] == "LATEST_DOCS#2025-09"
    call_ = by_key[("DOC001", "CAPITAL_CALL#POSITION_1")]
    assert (call_["GSI_PK"], call_["GSI_SK"]) == ("CAPITAL_CALL#POSITION_1#DOC001", "LATEST")
    assert (call_["GSI2_PK"], call_["GSI2_SK"]) == ("POSITION_1", "CAPITAL_CALL#DOC001")
    assert (call_["FundId"], call_["InvestorId"]) == ("FUND_A", "INVESTOR_1")
    assert by_key[("DOC001", "CAPITAL_CALL#POSITION_2")]["InvestorId"] == "INVESTOR_2"
    historical = by_key[("DOC001", "DOCUMENT#2025-09-01")]
    assert not {"GSI_PK", "GSI2_PK", "GSI3_PK"} & set(historical)  # superseded copies are not indexed
    assert "GSI_PK" not in by_key[("DOC001", "CAPITAL_ACTIVITY#LATEST")]


def test_sample_twice_leaves_14_items(sample):
    call_command("seed_demo", sample=True, stdout=io.StringIO())
    assert len(_fund_items(sample.table)) == 14


def test_if_empty_does_not_reload(sample):
    out = io.StringIO()
    call_command("seed_demo", sample=True, if_empty=True, stdout=out)
    assert "already has documents" in out.getvalue()


def test_sample_adds_exactly_the_documented_register_items(sample):
    """Beside the seed's 14 fund items: POSITION_1/POSITION_2's registers (in the fund,
    position and investor indexes) and FUND_A's funds-catalog entry; commitments 2,000,000 and
    1,150,000 (README)."""
    items = [from_item(i) for i in call("Scan", TableName=sample.table)["Items"]]
    extra = sorted((i["PK"], i["SK"]) for i in items if i["EntityType"].startswith(("PositionRegister", "FundCatalog")))
    assert extra == [
        ("CATALOG#FUNDS", "FUND_A"),
        ("POSITION#POSITION_1", "REGISTER"),
        ("POSITION#POSITION_2", "REGISTER"),
    ]
    registers = {i["PositionId"]: i for i in items if i["EntityType"] == "PositionRegister"}
    assert (registers["POSITION_1"]["FundId"], registers["POSITION_1"]["InvestorId"]) == ("FUND_A", "INVESTOR_1")
    assert (registers["POSITION_2"]["FundId"], registers["POSITION_2"]["InvestorId"]) == ("FUND_A", "INVESTOR_2")
    assert (registers["POSITION_1"]["Commitment"], registers["POSITION_2"]["Commitment"]) == (
        Decimal(2_000_000),
        Decimal(1_150_000),
    )
    assert (registers["POSITION_1"]["GSI6_PK"], registers["POSITION_1"]["GSI2_SK"]) == ("FUND#FUND_A", "!REGISTER")
    assert "GSI_PK" not in registers["POSITION_1"]  # no whole copy on the entity index
    assert (registers["POSITION_1"]["GSI4_PK"], registers["POSITION_1"]["GSI4_SK"]) == (
        "INVESTOR#INVESTOR_1",
        "POSITION#POSITION_1",
    )
