"""The import's guard rails: a position its fund does not hold is refused unless a row opens it
("did you mean" the closest registered id), and a document type is validated and agrees."""

from __future__ import annotations

from datetime import date

import pytest

from fundportal.domain.model import Document
from imports.guards import closest, funds_to_read, opens_new, position_claims
from imports.reader import RawRow
from imports.validation import validate
from imports.validation_values import Known, Registered
from tests.notices import row

TOKEN = "import-test"


def _rows(*values: dict[str, str]) -> list[RawRow]:
    return [RawRow(n, row(**v)) for n, v in enumerate(values, start=2)]


def _fund_a() -> Known:
    """FUND_A holding POSITION_1 (INVESTOR_1) and POSITION_2 (INVESTOR_2)."""
    registers = {"POSITION_1": Registered("FUND_A", "INVESTOR_1"), "POSITION_2": Registered("FUND_A", "INVESTOR_2")}
    return Known(registers=registers, fund_positions={"FUND_A": {"POSITION_1", "POSITION_2"}})


def _reasons(validation, column: str) -> list[str]:
    return [e.reason for e in validation.errors if e.column == column]


def test_a_mistyped_position_in_a_known_fund_is_refused_naming_the_close_one():
    rows = _rows({"fund_id": "FUND_A", "position_id": "POSITON_1", "investor_id": "INVESTOR_1", "new_position": ""})
    validation = validate(rows, _fund_a(), TOKEN)
    assert not validation.ok and validation.plans == []
    (reason,) = _reasons(validation, "position_id")
    assert reason.startswith("POSITON_1 is not a position of FUND_A. Did you mean POSITION_1?")
    assert "new_position" in reason


def test_a_row_that_says_it_opens_a_new_position_is_accepted():
    rows = _rows({"fund_id": "FUND_A", "position_id": "POSITION_9", "investor_id": "INVESTOR_9", "new_position": "yes"})
    validation = validate(rows, _fund_a(), TOKEN)
    assert validation.ok
    assert [e.position_id for plan in validation.plans for e in plan.entries] == ["POSITION_9"]


def test_a_position_opened_on_one_row_may_appear_on_its_other_rows_without_the_flag():
    rows = _rows(
        {"fund_id": "FUND_A", "position_id": "POSITION_9", "investor_id": "I9", "new_position": "true"},
        {"fund_id": "FUND_A", "position_id": "POSITION_9", "investor_id": "I9", "new_position": "", "kind": "nav"},
    )
    assert validate(rows, _fund_a(), TOKEN).ok


def test_an_unregistered_position_with_no_close_id_is_refused_without_a_suggestion():
    rows = _rows({"fund_id": "FUND_A", "position_id": "ZEBRA", "investor_id": "INVESTOR_1", "new_position": ""})
    (reason,) = _reasons(validate(rows, _fund_a(), TOKEN), "position_id")
    assert reason.startswith("ZEBRA is not a position of FUND_A. To open")
    assert "Did you mean" not in reason


def test_a_typo_of_a_position_the_same_file_opens_is_named():
    rows = _rows(
        {"fund_id": "FUND_A", "position_id": "NEW_POS_1", "investor_id": "I9", "new_position": "1"},
        {"fund_id": "FUND_A", "position_id": "NEW_P0S_1", "investor_id": "I9", "new_position": "", "kind": "nav"},
    )
    (reason,) = _reasons(validate(rows, _fund_a(), TOKEN), "position_id")
    assert "Did you mean NEW_POS_1?" in reason


def test_registered_positions_need_no_flag_and_a_flag_on_them_is_harmless():
    rows = _rows(
        {"fund_id": "FUND_A", "position_id": "POSITION_1", "investor_id": "INVESTOR_1", "new_position": ""},
        {"fund_id": "FUND_A", "position_id": "POSITION_2", "investor_id": "INVESTOR_2", "new_position": "yes"},
    )
    assert validate(rows, _fund_a(), TOKEN).ok


@pytest.mark.parametrize(("cell", "expected"), [("yes", True), ("TRUE", True), ("1", True), ("", False), ("no", False)])
def test_new_position_reads_yes_and_no(cell, expected):
    assert opens_new(cell) is expected


def test_a_new_position_cell_that_is_neither_yes_nor_no_is_an_error_of_its_cell():
    validation = validate(_rows({"new_position": "maybe"}), Known(), TOKEN)
    (reason,) = _reasons(validation, "new_position")
    assert "'maybe' is not yes or no" in reason


def test_the_close_match_ignores_case_and_skips_the_id_itself():
    assert closest("positon_1", {"POSITION_1", "POSITION_2"}) == "POSITION_1"
    assert closest("POSITION_1", {"POSITION_1"}) is None
    assert closest("ABC", {"POSITION_1"}) is None


def test_only_funds_with_an_unknown_unopened_position_are_read():
    rows = _rows(
        {"fund_id": "FUND_A", "position_id": "POSITION_1", "new_position": ""},
        {"fund_id": "FUND_B", "position_id": "TYPO", "new_position": ""},
        {"fund_id": "FUND_C", "position_id": "OPENED", "new_position": "yes"},
    )
    assert funds_to_read(position_claims(rows), {"POSITION_1"}) == ["FUND_B"]


def test_a_document_type_column_sets_the_new_documents_type():
    rows = _rows({"document_type": "Quarterly_Report"}, {"document_type": "", "kind": "nav"})
    validation = validate(rows, Known(), TOKEN)
    assert validation.ok
    assert validation.plans[0].document.document_type == "quarterly_report"


def test_without_a_document_type_a_new_document_is_typed_by_what_it_holds():
    validation = validate(_rows({"kind": "capital_call"}), Known(), TOKEN)
    assert validation.plans[0].document.document_type == "capital_call_notice"


def test_an_unknown_document_type_is_refused_listing_the_known_ones():
    (reason,) = _reasons(validate(_rows({"document_type": "memo"}), Known(), TOKEN), "document_type")
    assert reason.startswith("'memo' is not one of capital_call_notice, distribution_notice")


def test_a_documents_rows_agree_on_its_type():
    rows = _rows({"document_type": "other"}, {"document_type": "quarterly_report", "kind": "nav"})
    (reason,) = _reasons(validate(rows, Known(), TOKEN), "document_type")
    assert "differs from row 2 ('other')" in reason


def test_an_import_does_not_change_an_existing_documents_type():
    document = Document(
        document_id="NOTICE_1",
        title="Q1 2026 capital call",
        fund_id="FUND_N",
        as_of_date=date(2026, 3, 31),
        currency="USD",
        document_type="quarterly_report",
    )
    known = Known(documents={"NOTICE_1": document})
    (reason,) = _reasons(validate(_rows({"document_type": "other"}), known, TOKEN), "document_type")
    assert "exists with document_type 'quarterly_report'" in reason
