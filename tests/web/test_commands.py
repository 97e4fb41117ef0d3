"""Management commands through call_command on both backends (moto and DynamoDB Local),
including their error paths: one-line CommandError, never a traceback."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from fundportal.domain.errors import NotFound
from fundportal.domain.kinds import ENTRY_STATUSES
from fundportal.dynamodb_local import free_port
from fundportal.ops.maintenance import INDEX_ATTRIBUTES
from fundportal.ops.synthetic import SyntheticSpec, generate
from fundportal.store.gateway import call
from fundportal.store.mapping import entities as mapping
from fundportal.store.mapping.entities import entity_from_item
from fundportal.store.repositories import DocumentRepository, PositionRepository
from fundportal.store.schema import TABLE, describe_differences
from fundportal.store.serialization import from_item

FUND_TYPES = {"Document", "CapitalActivity", "CapitalCall", "Distribution", "UnfundedCommitment"}


def run(*args, **options) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO(), **options)
    return out.getvalue()


def scan_all(table: str) -> list[dict]:
    """Every item of the table (tests may Scan)."""
    items, params = [], {"TableName": table}
    while True:
        response = call("Scan", **params)
        items += [from_item(i) for i in response["Items"]]
        if not response.get("LastEvaluatedKey"):
            return items
        params["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def raw_item(table: str, pk: str, sk: str) -> dict:
    return from_item(call("GetItem", TableName=table, Key={"PK": {"S": pk}, "SK": {"S": sk}})["Item"])


def single_line_error(excinfo) -> str:
    message = str(excinfo.value)
    assert "\n" not in message and "Traceback" not in message
    return message


# --- access_patterns ---------------------------------------------------------------------------


def test_access_patterns_json_one_request_for_overview_and_position_and_no_scan(sample):
    before = scan_all(sample.table)
    rows = json.loads(run("access_patterns", format="json"))
    assert len(rows) == 12
    for row in rows:
        assert {"pattern", "operation", "index", "items", "requests", "consumed_rcu", "ms"} <= set(row)
        assert row["scan"] is False
    overview = next(r for r in rows if "overview" in r["pattern"])
    assert (overview["requests"], overview["operation"], overview["index"]) == (1, "Query", None)
    assert overview["items"] == 10  # DOC001: the seed's 10 items
    position = next(r for r in rows if r["number"] == 7)
    assert (position["requests"], position["index"], position["items"]) == (1, "GSI_Position_Document", 5)
    assert all(r["requests"] == 1 for r in rows if r["number"] <= 9)
    assert next(r for r in rows if r["number"] == 6)["index"] == "GSI_Entity_Document"
    bulk = next(r for r in rows if r["number"] == 12)
    assert (bulk["operation"], bulk["executed"], bulk["items"]) == ("BatchWriteItem", True, 24)
    # The write patterns ran on a throwaway document that is gone again: the table is unchanged.
    assert sorted((i["PK"], i["SK"]) for i in scan_all(sample.table)) == sorted((i["PK"], i["SK"]) for i in before)


def test_access_patterns_table_and_reads_only(sample):
    out = run("access_patterns", "--document", "DOC002", "--position", "POSITION_2", "--reads-only")
    assert "document overview" in out and "GSI_Position_Document" in out
    rows = json.loads(run("access_patterns", "--reads-only", format="json"))
    writes = [r for r in rows if r["number"] >= 10]
    assert all(not r["executed"] and r["requests"] == 0 for r in writes)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--document", "NOPE"], "Document 'NOPE' was not found."),
        (["--document", "DOC#1"], "Invalid document id 'DOC#1'"),
        (["--position", "P 1"], "Invalid position id 'P 1'"),
    ],
)
def test_access_patterns_bad_input(sample, args, expected):
    with pytest.raises(CommandError) as excinfo:
        run("access_patterns", *args)
    assert expected in single_line_error(excinfo)


# --- unreachable table and missing table ---------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["access_patterns"],
        ["document_history", "DOC001"],
        ["position_report", "POSITION_1"],
        ["seed_demo", "--sample"],
        ["seed_demo", "--documents", "2", "--positions", "2"],
        ["backfill_indexes"],
    ],
)
def test_unreachable_endpoint_is_one_line(settings, args):
    settings.DYNAMODB_ENDPOINT_URL = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(CommandError) as excinfo:
        run(*args)
    assert "DynamoDB is unavailable" in single_line_error(excinfo)


@pytest.mark.parametrize("args", [["seed_demo", "--documents", "1", "--positions", "1"], ["backfill_indexes"]])
def test_missing_table_is_one_line(backend, settings, args):
    settings.DYNAMODB_TABLE = "no_such_table"
    with pytest.raises(CommandError) as excinfo:
        run(*args)
    assert "does not exist" in single_line_error(excinfo)


# --- document_history ----------------------------------------------------------------------------


def test_document_history_lists_current_and_superseded(sample):
    rows = json.loads(run("document_history", "DOC001", format="json"))
    assert [(r["version"], r["version_date"], r["revision"]) for r in rows] == [
        ("Latest", "current", "2"),
        ("Historical", "2025-09-01", "1"),
    ]
    text = run("document_history", "DOC001")
    assert "Q3 2025 capital account statement" in text and "2025-09-01" in text


def test_document_history_date_range(sample):
    inside = json.loads(run("document_history", "DOC001", "--from", "2025-08-01", "--to", "2025-09-01", format="json"))
    assert [r["version_date"] for r in inside] == ["current", "2025-09-01"]
    after = json.loads(run("document_history", "DOC001", "--from", "2025-09-02", format="json"))
    assert [r["version_date"] for r in after] == ["current"]
    table = list(csv.DictReader(io.StringIO(run("document_history", "DOC001", "--to", "2025-09-30", format="csv"))))
    assert [r["version"] for r in table] == ["Latest", "Historical"]


def test_document_history_compare_shows_field_differences(sample):
    payload = json.loads(run("document_history", "DOC001", "--compare", "2025-09-01", format="json"))
    differences = {d["field"]: (d["then"], d["now"]) for d in payload["differences"]}
    assert differences["title"] == (
        "Q3 2025 capital account statement (preliminary)",
        "Q3 2025 capital account statement",
    )
    assert differences["revision"] == ("1", "2")
    assert (payload["revision_then"], payload["revision_now"]) == (1, 2)
    assert "as_of_date" not in differences and "fund_id" not in differences
    assert "preliminary" in run("document_history", "DOC001", "--compare", "2025-09-01")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["DOC001", "--from", "2025-02-30"], "Invalid --from date '2025-02-30'"),
        (["DOC001", "--compare", "yesterday"], "Invalid --compare date 'yesterday'"),
        (["DOC001", "--from", "2025-10-01", "--to", "2025-09-01"], "--from 2025-10-01 is after --to 2025-09-01"),
        (["DOC001", "--compare", "2025-09-02"], "no version archived on 2025-09-02 (archived: 2025-09-01)"),
        (["NOPE"], "Document 'NOPE' was not found."),
        (["NOPE", "--from", "2025-01-01"], "Document 'NOPE' was not found."),
        (["../etc"], "Invalid document id '../etc'"),
    ],
)
def test_document_history_errors(sample, args, expected):
    with pytest.raises(CommandError) as excinfo:
        run("document_history", *args)
    assert expected in single_line_error(excinfo)


# --- position_report -----------------------------------------------------------------------------


def test_position_report_totals_across_documents(sample):
    payload = json.loads(run("position_report", "POSITION_1", format="json"))
    assert payload["documents"] == 2
    assert len(payload["entries"]) == 5
    (totals,) = payload["totals"]
    # Seed: calls 500,000 (DOC001) + 750,000 (DOC002); distributions 75,000 + 120,000;
    # unfunded = the latest by as-of date (only DOC001 has one).
    assert Decimal(totals["called"]) == Decimal(1_250_000)
    assert Decimal(totals["distributed"]) == Decimal(195_000)
    assert Decimal(totals["unfunded"]) == Decimal(1_500_000)
    assert Decimal(totals["dpi"]) == Decimal("0.16")
    text = run("position_report", "POSITION_1")
    assert "USD 1,250,000.00" in text and "DPI 0.16" in text


def test_position_report_entity_filter_and_csv(sample):
    rows = list(csv.DictReader(io.StringIO(run("position_report", "POSITION_2", entity="capital_call", format="csv"))))
    assert [(r["document"], r["amount"]) for r in rows] == [("DOC001", "300000.00"), ("DOC002", "400000.00")]
    assert {r["entity"] for r in rows} == {"capital_call"}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["NOPE"], "Position 'NOPE' has no entries."),
        (["POSITION_2", "--entity", "unfunded_commitment"], "no unfunded commitment entries"),
        (["POS#1"], "Invalid position id 'POS#1'"),
    ],
)
def test_position_report_errors(sample, args, expected):
    if args[0] == "POSITION_2":
        call(
            "DeleteItem",
            TableName=sample.table,
            Key={"PK": {"S": "DOC001"}, "SK": {"S": "UNFUNDED_COMMITMENT#POSITION_2"}},
        )
    with pytest.raises(CommandError) as excinfo:
        run("position_report", *args)
    assert expected in single_line_error(excinfo)


# --- export_table_definition ---------------------------------------------------------------------


def test_export_cloudformation_template():
    template = json.loads(run("export_table_definition"))
    resource = template["Resources"]["FundTable"]
    assert resource["Type"] == "AWS::DynamoDB::Table"
    properties = resource["Properties"]
    assert properties["BillingMode"] == "PAY_PER_REQUEST"
    assert properties["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert properties["SSESpecification"]["SSEEnabled"] is True
    assert [i["IndexName"] for i in properties["GlobalSecondaryIndexes"]] == [i.name for i in TABLE.indexes]
    assert {a["AttributeName"] for a in properties["AttributeDefinitions"]} == set(TABLE.attribute_names())


def test_export_json_creates_a_table_matching_the_definition(backend):
    kwargs = json.loads(run("export_table_definition", format="json", table=f"{backend.table}_copy"))
    call("CreateTable", **kwargs)
    try:
        live = call("DescribeTable", TableName=kwargs["TableName"])["Table"]
        assert describe_differences(live) == []
    finally:
        call("DeleteTable", TableName=kwargs["TableName"])


# --- backfill_indexes ----------------------------------------------------------------------------


def _corrupt(table: str) -> None:
    call(
        "UpdateItem",
        TableName=table,
        Key={"PK": {"S": "DOC001"}, "SK": {"S": "CAPITAL_CALL#POSITION_1"}},
        UpdateExpression="SET GSI2_SK = :wrong",
        ExpressionAttributeValues={":wrong": {"S": "CAPITAL_CALL#DOC999"}},
    )
    call(
        "UpdateItem",
        TableName=table,
        Key={"PK": {"S": "DOC002"}, "SK": {"S": "DOCUMENT#LATEST"}},
        UpdateExpression="REMOVE GSI_PK, GSI_SK",
    )


def test_backfill_fixes_corrupted_index_keys_and_is_idempotent(sample):
    _corrupt(sample.table)
    assert raw_item(sample.table, "DOC001", "CAPITAL_CALL#POSITION_1")["GSI2_SK"] == "CAPITAL_CALL#DOC999"
    with pytest.raises(NotFound):
        DocumentRepository().get_via_index("DOC002")
    out = run("backfill_indexes", segments=3)
    # 14 fund items and 2 registers (2 fixed) + month-catalog entries and the 7 search keys (DOC001, DOC002,
    # POSITION_1/2, FUND_A, INVESTOR_1/2), skipped; the search keys the fund items name are put
    # again (idempotent puts).
    assert "updated 2, unchanged 14," in out
    assert "search keys written 7" in out
    fixed = raw_item(sample.table, "DOC001", "CAPITAL_CALL#POSITION_1")
    assert fixed["GSI2_SK"] == "CAPITAL_CALL#DOC001"
    derived = mapping.to_item(entity_from_item(fixed))
    assert {k: fixed.get(k) for k in INDEX_ATTRIBUTES} == {k: derived.get(k) for k in INDEX_ATTRIBUTES}
    document = raw_item(sample.table, "DOC002", "DOCUMENT#LATEST")
    assert (document["GSI_PK"], document["GSI_SK"]) == ("DOCUMENT#LATEST#DOC002", "METADATA")
    assert DocumentRepository().get_via_index("DOC002").title == "Q4 2025 capital call notice"
    assert "updated 0, unchanged 16" in run("backfill_indexes", segments=2, rate=1000)


def test_backfill_removes_a_registers_whole_copy_from_the_entity_index(sample):
    """A register written before registers left GSI_Entity_Document still carries GSI_PK =
    FUND#<fund> (a whole copy on that index key): the backfill removes it and nothing else."""
    call(
        "UpdateItem",
        TableName=sample.table,
        Key={"PK": {"S": "POSITION#POSITION_1"}, "SK": {"S": "REGISTER"}},
        UpdateExpression="SET GSI_PK = :pk, GSI_SK = :sk",
        ExpressionAttributeValues={":pk": {"S": "FUND#FUND_A"}, ":sk": {"S": "POSITION#POSITION_1"}},
    )
    before = raw_item(sample.table, "POSITION#POSITION_1", "REGISTER")
    assert "updated 1," in run("backfill_indexes", segments=2)
    after = raw_item(sample.table, "POSITION#POSITION_1", "REGISTER")
    assert "GSI_PK" not in after and "GSI_SK" not in after
    assert after == {k: v for k, v in before.items() if k not in ("GSI_PK", "GSI_SK")}
    assert "updated 0," in run("backfill_indexes", segments=2)


def _counts(out: str) -> dict[str, int]:
    summary = out.split("Backfill complete: ")[1].split(" (")[0]
    return {name: int(number.replace(",", "")) for number, name in (p.split(" ")[::-1] for p in summary.split(", "))}


def test_backfill_resumes_where_the_resume_file_says(sample, tmp_path):
    _corrupt(sample.table)
    resume = tmp_path / "backfill.json"

    def resume_after(done: list[int]) -> dict[str, int]:
        resume.write_text(json.dumps({"table": sample.table, "segments": 2, "positions": {}, "done": done}))
        out = run("backfill_indexes", segments=2, resume_file=resume)
        assert "1 of 2 segments already done" in out
        assert not resume.exists()  # every segment done: the resume file is removed
        return _counts(out)

    # Two interrupted runs, each with the other segment already done, together cover the table once.
    second_only, first_only = resume_after([0]), resume_after([1])
    assert second_only["scanned"] + first_only["scanned"] == len(scan_all(sample.table))  # incl. search keys
    assert second_only["updated"] + first_only["updated"] == 2
    assert _counts(run("backfill_indexes", segments=2))["updated"] == 0

    resume.write_text(json.dumps({"table": sample.table, "segments": 2, "positions": {}, "done": [0, 1]}))
    assert _counts(run("backfill_indexes", segments=2, resume_file=resume))["scanned"] == 0
    resume.write_text(json.dumps({"table": sample.table, "segments": 4, "positions": {}, "done": []}))
    with pytest.raises(CommandError) as excinfo:
        run("backfill_indexes", segments=2, resume_file=resume)
    assert "use the same --segments" in single_line_error(excinfo)


@pytest.mark.parametrize(
    ("options", "expected"),
    [({"segments": 0}, "--segments must be between 1 and 64"), ({"rate": -1}, "--rate must be 0")],
)
def test_backfill_bad_options(sample, options, expected):
    with pytest.raises(CommandError) as excinfo:
        run("backfill_indexes", **options)
    assert expected in single_line_error(excinfo)


# --- seed_demo synthetic -------------------------------------------------------------------------

SMALL = {"documents": 5, "positions": 4, "versions": 2, "funds": 2, "seed": 11}


def _fund_snapshot(table: str) -> list[tuple]:
    return sorted(tuple(sorted((k, str(v)) for k, v in item.items())) for item in scan_all(table))


def test_seed_demo_synthetic_is_deterministic_and_idempotent(backend):
    out = run("seed_demo", **SMALL, workers=backend.workers(4))
    spec = SyntheticSpec(**SMALL)
    # 5 documents x (current + 2 superseded document and activity copies + 4 positions x 4 entries) + months
    # + per fund (2): its catalog entry, 4 positions' registers and the summary shards they hash to
    months = len({spec.as_of(n).replace(day=1) for n in range(1, 6)})
    shards = [len(spec.summary_shards(fund)) for fund in range(2)]
    assert all(1 <= n <= 4 for n in shards)
    assert spec.item_count == 5 * (6 + 16) + months + 2 * (1 + 4) + sum(shards)
    assert f"Loaded {spec.item_count} items" in out
    first = _fund_snapshot(backend.table)
    # + one search key per document, position, fund and investor id
    assert len([item for item in first if ("EntityType", "SearchKey") not in item]) == spec.item_count
    run("seed_demo", **SMALL, workers=backend.workers(4))  # same seed, same keys: overwritten, nothing added
    assert _fund_snapshot(backend.table) == first
    assert list(generate(spec)) == list(generate(SyntheticSpec(**SMALL)))
    assert list(generate(spec)) != list(generate(SyntheticSpec(**{**SMALL, "seed": 12})))


def test_seed_demo_synthetic_data_is_realistic(backend):
    run("seed_demo", **SMALL, workers=backend.workers(4))
    items = scan_all(backend.table)
    entities = [entity_from_item(i) for i in items if i["EntityType"] in FUND_TYPES]
    repository = DocumentRepository()
    for document_id in ("DOC001", "DOC005"):
        overview = repository.overview(document_id)
        assert len(overview.document_history) == 2 and len(overview.activity_history) == 2
        assert len(overview.positions) == 4
        assert overview.document.revision == 3
    funds = {e.fund_id for e in entities if hasattr(e, "fund_id") and e.fund_id}
    assert funds == {"FUND_A", "FUND_B"}
    for entity in entities:
        amount = getattr(entity, "amount", None)
        if amount is not None:
            assert isinstance(amount, Decimal) and amount == amount.quantize(Decimal("0.01")) and amount >= 0
        if hasattr(entity, "position_id"):
            assert entity.status in ENTRY_STATUSES
    months = repository.months()
    assert len(months) > 1  # as-of dates spread over months, each in the month catalog
    assert sum(len(repository.in_month(*map(int, m.split("-")))) for m in months) == 5
    # A position of FUND_B appears only in FUND_B's documents (2 of 5), with all four entries each.
    assert len(PositionRepository().entries("POSITION_5")) == 2 * 4


def test_seed_demo_dry_run_writes_nothing(backend):
    out = run("seed_demo", "--dry-run", **SMALL)
    assert f"Dry run: {SyntheticSpec(**SMALL).item_count} items" in out
    assert scan_all(backend.table) == []


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], "choose what to load"),
        (["--sample", "--documents", "3"], "choose one: --sample or --documents"),
        (["--documents", "0"], "--documents must be at least 1"),
        (["--documents", "3", "--positions", "x"], "expected a whole number, got 'x'"),
    ],
)
def test_seed_demo_bad_options(backend, args, expected):
    with pytest.raises(CommandError) as excinfo:
        run("seed_demo", *args)
    assert expected in single_line_error(excinfo)


def test_seed_demo_if_empty_applies_to_synthetic(sample):
    assert "nothing loaded" in run("seed_demo", "--if-empty", **SMALL)
