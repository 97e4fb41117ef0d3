"""Fund and investor records as values: their rules, what changes, the terms a name is found
by, and how they are stored (keys beside the pages' index partitions, round trip)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from fundportal.domain.errors import InvalidRecord
from fundportal.domain.kinds import SearchKind
from fundportal.domain.records import (
    FundRecord,
    InvestorRecord,
    RecordAudit,
    is_name_query,
    name_search_terms,
    normalise_name,
    record_changes,
)
from fundportal.store.mapping import keys
from fundportal.store.mapping.entities import from_item, to_item
from fundportal.store.mapping.record_maps import is_record_item, record_of_item
from fundportal.store.repositories.records import name_items


def test_a_fund_record_tidies_its_text_and_keeps_its_values():
    given = FundRecord("FUND_A", "  Alpha   Growth Fund ", " Alpha Growth Fund L.P.", 2019, "EUR", " Alpha GP ")
    record = given.check()
    assert (record.name, record.legal_name, record.vintage, record.currency, record.gp) == (
        "Alpha Growth Fund",
        "Alpha Growth Fund L.P.",
        2019,
        "EUR",
        "Alpha GP",
    )


@pytest.mark.parametrize(
    ("record", "field", "problem"),
    [
        (FundRecord("FUND_A", "   "), "name", "missing"),
        (FundRecord("FUND_A", "x" * 201), "name", "too_long"),
        (FundRecord("FUND_A", "Alpha", vintage=1850), "vintage", "out_of_range"),
        (FundRecord("FUND_A", "Alpha", currency="XYZ"), "currency", "unknown"),
        (InvestorRecord("INVESTOR_1", "Teachers' Pension", "hedge"), "investor_type", "unknown"),
        (InvestorRecord("INVESTOR_1", ""), "name", "missing"),
    ],
)
def test_a_record_the_rules_refuse_names_its_field_and_problem(record, field, problem):
    with pytest.raises(InvalidRecord) as raised:
        record.check()
    assert (raised.value.field, raised.value.problem) == (field, problem)


def test_an_investor_record_shows_its_type_label():
    assert InvestorRecord("INVESTOR_1", "Ontario Teachers", "sovereign_wealth").check().type_label == "Sovereign wealth"


def test_record_changes_list_each_changed_field_as_old_and_new():
    old = FundRecord("FUND_A", "Alpha", vintage=2019)
    assert record_changes(None, old) == {
        "name": [None, "Alpha"],
        "legal_name": [None, ""],
        "vintage": [None, 2019],
        "currency": [None, "USD"],
        "gp": [None, ""],
    }
    assert record_changes(old, FundRecord("FUND_A", "Alpha", vintage=2020)) == {"vintage": [2019, 2020]}


def test_a_name_is_found_by_its_start_and_by_each_later_word():
    assert normalise_name("Alpha-Growth  Fund #2") == "alpha growth fund 2"
    assert name_search_terms("Alpha Growth Fund") == ["alpha growth fund", "growth fund", "fund"]
    assert name_search_terms("&&&") == []


def test_a_fund_record_is_stored_in_its_own_partition_with_no_index_copy():
    record = FundRecord("FUND_A", "Alpha Growth Fund", vintage=2019, gp="Alpha GP", revision=2)
    item = to_item(record)
    assert (item["PK"], item["SK"]) == ("FUND#FUND_A", "RECORD") == keys.fund_record_keys("FUND_A")
    # Read by key beside the fund's summary shards: in no index (not the fund's positions).
    assert not [name for name in item if name.startswith("GSI")]
    assert is_record_item(item) and record_of_item(item) == from_item(FundRecord, item)
    assert from_item(FundRecord, item).name == "Alpha Growth Fund"


def test_an_investor_record_is_first_in_the_investor_page_partition():
    item = to_item(InvestorRecord("INVESTOR_1", "Teachers", "pension", revision=1))
    assert (item["PK"], item["SK"]) == ("INVESTOR#INVESTOR_1", "RECORD")
    assert (item["GSI4_PK"], item["GSI4_SK"]) == ("INVESTOR#INVESTOR_1", "!RECORD")
    assert record_of_item(item) == InvestorRecord("INVESTOR_1", "Teachers", "pension", revision=1, updated_by="")


def test_name_search_items_share_the_id_search_partitions_and_read_back_as_the_id():
    items = name_items(FundRecord("FUND_A", "Alpha Growth"))
    stored = [to_item(i) for i in items]
    assert [(s["PK"], s["SK"]) for s in stored] == [
        ("SEARCH#alp", "alpha growth#fund#FUND_A"),
        ("SEARCH#gro", "growth#fund#FUND_A"),
    ]
    assert keys.parse_search_sk(stored[0]["SK"]) == (SearchKind.FUND, "FUND_A")
    assert stored[0]["FundId"] == "FUND_A"
    assert name_items(InvestorRecord("INVESTOR_1", "Teachers"))[0].investor_id == "INVESTOR_1"


def test_a_record_audit_is_kept_beside_the_record():
    at = datetime(2025, 10, 1, 12, 0, tzinfo=UTC)
    item = to_item(RecordAudit("fund", "FUND_A", at, "editor", {"name": [None, "Alpha"]}, "tok"))
    assert item["PK"] == "AUDIT#FUND#FUND_A" and item["SK"].endswith("#tok")


@pytest.mark.parametrize(
    ("query", "searched"),
    [("Alpha Growth", True), ("Teachers' Pension", True), ("bad#id", False), ("&&&", False), ("   ", False)],
)
def test_a_name_query_holds_words_and_name_punctuation_only(query, searched):
    assert is_name_query(query) is searched
