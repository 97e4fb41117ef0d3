"""Keep the benchmarks from rotting: import every bench module and run the smallest pieces on
DynamoDB Local. No timing is asserted here (benchmarks are not tests)."""

from __future__ import annotations

import pytest

from bench import bulk, common, designs, overview, pages, profile_pages, report
from fundportal.store.gateway import call
from fundportal.store.instrumentation import collect

pytestmark = pytest.mark.local_only


def test_interleave_runs_every_contender_each_trial():
    calls = []
    samples = common.interleave({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, trials=4, warmup=1)
    assert sorted(calls) == ["a"] * 5 + ["b"] * 5
    assert samples["a"].trials == samples["b"].trials == 4
    assert common.percentile([1, 2, 3, 4], 50) == 2


def test_profile_pages_parses_its_options_profiles_a_call_and_dumps_pages_without_tokens(tmp_path):
    args = profile_pages.parse_args(["--profile", "fund", "--trials", "3", "--dump", str(tmp_path)])
    assert (args.profile, args.trials, args.dump) == (["fund"], 3, tmp_path)
    assert "function calls" in profile_pages.profile(lambda: sum(range(10)), calls=2, top=5, sort="cumulative")

    class Response:
        content = b'<input name="csrfmiddlewaretoken" value="abc123"> 1 request \xc2\xb7 0.5 RCU \xc2\xb7 3.2 ms'

    profile_pages.dump({f"{name} page": Response for name in profile_pages.PAGES}, tmp_path)
    blanked = '<input name="csrfmiddlewaretoken" value=""> 1 request · 0.5 RCU · ms'
    assert (tmp_path / "fund.html").read_text() == blanked


def test_overview_contenders_read_the_same_document(local_backend):
    results = overview.run(local_backend.endpoint, "bench_smoke_overview", (10,), trials=1, warmup=0)
    row = results["10"]
    assert row["items"] == 34
    assert row["requests"] == 1
    assert set(row["contenders"]) == set(overview.CONTENDERS)
    profiled = overview.profile("bench_smoke_overview", 10, calls=1, top=1000)  # every function, not the top 25
    assert "repositories/documents.py" in profiled and "(overview)" in profiled  # DocumentRepository.overview


def test_three_designs_answer_with_the_same_items(local_backend):
    designs.create_tables(local_backend.endpoint)
    designs.grow(local_backend.endpoint, 0, designs.DOCUMENTS_PER_POSITION)
    costs = {}
    for (design, op), fn in designs.operations().items():
        with collect() as requests:
            result = fn()
        costs[(design, op)] = requests.operations
        assert designs._result_size(result) == (
            designs.ITEMS_PER_DOCUMENT if op == "document overview" else 3 * designs.DOCUMENTS_PER_POSITION
        )
    assert costs[(designs.PROPER, "document overview")] == ["Query"]
    assert costs[(designs.PROPER, "position across documents")] == ["Query"]
    assert costs[(designs.POSITION_CENTRIC, "document overview")] == ["Query"] * 31
    assert costs[(designs.BROKEN, "document overview")][0] == "Query"
    assert set(costs[(designs.BROKEN, "position across documents")]) == {"Scan"}
    for name in designs.TABLES.values():
        call("DeleteTable", TableName=name)


def test_bulk_load_section_loads_the_same_items(local_backend):
    result = bulk.run(local_backend.endpoint, 200, rounds=1)
    assert result["ratio"] > 0
    counts = {run["items"] for run in result["runs"].values()}
    assert len(counts) == 1


def test_report_renders_targets_and_skipped_pages():
    results = {
        "generated_at": "now",
        "mode": "quick",
        "machine": common.machine_info(),
        "pages": {"skipped": "not there yet"},
        "bulk_load": {"description": "d", "runs": {}, "ratio": 1.2},
    }
    text = report.render(results)
    assert "Skipped: not there yet" in text
    assert "bulk load ÷ raw single-thread" in text
    assert results["machine"]["dynamodb_local"] != "unknown"


def pages_report(**figures):
    """The report of a one-page pages section carrying `figures` (its targets' ratios and the like)."""
    under_load = {"requests": 1, "p50_ms": 1.0, "p95_ms": 1.0, "rps": 1.0}
    row = {"path": "/x", "requests": 1, "p50_ms": 1.0, "p95_ms": 1.0, "query_p50_ms": 1.0}
    pages_result = {
        "workers": 2,
        "concurrency": 1,
        "document_positions": 1,
        "position_documents": 1,
        "pages": [{**row, "page_over_query": 1.0, "rps": 1.0, "under_load": under_load}],
        "page_over_query": 1.0,
        **figures,
    }
    results = {"generated_at": "now", "mode": "quick", "machine": common.machine_info(), "pages": pages_result}
    return report.render(results)


def test_report_marks_the_api_targets_beside_the_pages():
    text = pages_report(api_fund_lines_over_query=1.2, api_position_over_query=1.5)
    assert "| API fund lines p50 ÷ the fund page's reads p50 | ≤ 1.3x | 1.2x | met |" in text
    assert "| API position history p50 ÷ the position query p50 | ≤ 1.3x | 1.5x | **missed** |" in text
    assert "fixed cost" not in text  # a result from before the refused-id contender: no line


def test_report_gives_the_api_fixed_cost_against_the_position_query():
    fixed = {"path": "/api/v1/positions/a%23b", "p50_ms": 3.42, "of_position_query": 0.48}
    text = pages_report(api_fixed_cost=fixed)
    assert "p50 **3.4 ms**, 0.48 of the position query's p50 (a ≤ 1.3x target leaves 0.30 of it)" in text


def test_pages_section_knows_the_page_urls():
    from django.urls import reverse

    assert reverse("documents:detail", kwargs={"document_id": pages.DOCUMENT}) == "/documents/PG_00/"
    assert reverse("positions:detail", kwargs={"position_id": pages.POSITION}) == "/positions/POS_0000/"


def test_data_io_section_imports_and_exports(local_backend):
    """The bench section at toy sizes: the import lands every row, the workbook is built."""
    from bench import data_io

    result = data_io.run(local_backend.endpoint, rows=30, positions=5, trials=1, warmup=0, rounds=2)
    assert result["import"]["rows"] == 30 and result["import"]["second_run_wrote"] == 0
    assert result["export"]["items"] > 15 and result["export"]["xlsx_bytes"] > 0
    # Raw's items are every item the import leaves in its table: 30 entries, a search item per
    # new position and investor, 10 registers, and the document, summaries, catalog and records.
    raw = result["import"]["raw"]
    assert raw["items"] > 30 + 20 + 10 and raw["rows_per_s"] > 0
    assert len(result["import"]["round_ratios"]) == 2 and result["import"]["import_over_raw"] > 0
    text = report.render({"generated_at": "now", "mode": "quick", "machine": common.machine_info(), "data_io": result})
    assert "## 5. Data in and out" in text
    assert "| that import ÷ raw single-thread BatchWriteItem of its items | ≥ 0.6x |" in text
    # Each target is judged against its own goal (a slow next notice is never "met" by the ratio's).
    slow = {**result, "import": {**result["import"], "next_notice_rows_per_s": 106.0, "import_over_raw": 0.98}}
    text = report.render({"generated_at": "now", "mode": "quick", "machine": common.machine_info(), "data_io": slow})
    assert "| import of the next notice (same positions) | ≥ 1,000 rows/s | 106 | **missed** |" in text
    assert "| that import ÷ raw single-thread BatchWriteItem of its items | ≥ 0.6x | 0.98x | met |" in text


def test_import_bench_scans_every_item_the_import_wrote(local_backend):
    """Raw's items are the import's table as it stands: one typed item per key, nothing left out."""
    from bench import data_io

    client = common.raw_client(local_backend.endpoint)
    before = data_io.table_items(client, local_backend.table)
    result = data_io._timed_import(data_io.notice_csv(9), local_backend.table, workers=2)
    items = data_io.table_items(client, local_backend.table)
    assert result["rows"] == 9
    kinds = [item["EntityType"]["S"] for item in items if item not in before]
    assert kinds.count("PositionRegister") == 3
    assert sum(kind in ("CapitalCall", "Distribution", "UnfundedCommitment") for kind in kinds) == 9
    assert all("S" in item["PK"] and "S" in item["SK"] for item in items)


def test_fund_page_bench_data_is_its_summary_and_one_page(local_backend):
    """The bench's fund (registers and summary shards of N positions) is read by the fund page's
    BatchGetItem of its summary and one Query of a page; its middle page costs the same."""
    pages.load_fund(local_backend.endpoint, local_backend.table, 250)
    cost = pages.fund_query_cost(local_backend.table)
    assert (cost["requests"], cost["operations"], cost["items"]) == (2, ["BatchGetItem", "Query"], 100)
    middle = pages.middle_cursor(local_backend.table, 250)
    assert middle and pages.fund_query_cost(local_backend.table, middle)["items"] == 100
    pages.load_funds(local_backend.endpoint, local_backend.table, 3, 4)
    listed = pages.funds_list_cost(local_backend.table)
    assert listed["operations"] == ["BatchGetItem", "Query"] and listed["requests"] == 2
    assert reverse_fund() == f"/funds/{pages.FUND}/"


def reverse_fund() -> str:
    from django.urls import reverse

    return reverse("funds:detail", kwargs={"fund_id": pages.FUND})
