"""The hot-keys bench scenarios on DynamoDB Local at a tiny size: each records the partitions its
requests touched and reports them at the target rate; recording them adds no request."""

from __future__ import annotations

import pytest

from bench import common, hot_keys, report
from fundportal.store.instrumentation import collect
from fundportal.store.schema import ENTITY_INDEX, FUND_INDEX

pytestmark = [pytest.mark.django_db, pytest.mark.local_only]


def _keys(result: dict) -> dict[tuple[str, str], dict]:
    return {(k["table"], k["key"]): k for k in result["hottest"]}


def test_recording_partitions_adds_no_request_and_only_keyed_collectors_get_them(local_sample):
    repo = local_sample.repository
    with collect() as plain:
        repo.overview("DOC001")
    with collect(keys=True) as keyed:
        repo.overview("DOC001")
    assert plain.count == keyed.count == 1
    assert plain.records[0].touches == ()
    assert plain.records[0].at < keyed.records[0].at  # when each reply arrived
    (touch,) = keyed.records[0].touches
    assert (touch.index, touch.key, touch.kind) == (None, "DOC001", "read")
    assert touch.bytes > 0


def test_the_import_loads_the_document_partition_and_the_fund_index_key(local_backend):
    result = hot_keys.import_notice(30, table=f"{local_backend.table}_import")
    assert result["operations"] == 30
    keys = _keys(result)
    document = keys[("table", "HOT_NOTICE")]
    fund = next(k for (table, key), k in keys.items() if table == FUND_INDEX and key.endswith("FUND_N"))
    # registers are copied to the fund's key slim, never whole to the entity index
    assert not any(table == ENTITY_INDEX and key.endswith("FUND_N") for table, key in keys)
    # every row writes an entry into the document's partition: at least 1 WCU a row, at the target
    assert document["average_wcu_per_s"] >= hot_keys.IMPORT_ROWS_PER_S
    # unpaced, a tiny run's bursts put the document over its limit; paced, its writes queue at it
    assert document["unpaced_wcu_per_s"] > 1000 and document["wcu_per_s"] <= 1000
    assert result["paced"]["unpaced_over_limit"] >= 1 and result["paced"]["seconds"] >= result["target_seconds"]
    assert fund["wcu_per_s"] >= fund["average_wcu_per_s"] > 0  # the busiest second, its average beside it
    assert result["over_limit"] == sum(1 for k in result["hottest"] if k["over_limit"])

    section = {"limits": {"wcu_per_s": 1000.0, "rcu_per_s": 3000.0}, "scenarios": {"import": result}}
    text = report.render(
        {"generated_at": "now", "mode": "quick", "machine": common.machine_info(), "hot_keys": section}
    )
    assert "| `HOT_NOTICE` | table |" in text and "unpaced WCU/s" in text
    assert f"| hot keys, import: partitions over their limit | 0 | {result['over_limit']} |" in text
    assert "| hot keys, import: paced run ÷ the target's duration | ≤ 1.05x |" in text


def test_the_fund_page_reads_its_index_key_and_its_summary_shards_unscaled(local_backend):
    result = hot_keys.fund_page(local_backend.endpoint, 20, table=f"{local_backend.table}_fund")
    keys = _keys(result)
    (index,) = [k for (table, _), k in keys.items() if table == FUND_INDEX]
    shards = [key for table, key in keys if table == "table"]
    assert index["wcu_per_s"] == 0 and index["rcu_per_s"] > 0
    # The summary shards, and the fund's record read in the same BatchGetItem.
    assert shards and all(key.startswith("FUND_SUMMARY#HOT_FUND#") or key == "FUND#HOT_FUND" for key in shards)
    assert result["size_factor"] == 1  # the same reads at any fund size: a summary and 100 positions
    assert not result["over_limit"]


def test_the_funds_list_reads_summary_shards_and_the_editors_write_their_document(local_backend):
    funds = hot_keys.fund_list(local_backend.endpoint, 3, 2, table=f"{local_backend.table}_funds")
    assert not any(k["table"] == ENTITY_INDEX for k in funds["hottest"])  # no fund's registers
    assert any(k["key"].startswith("FUND_SUMMARY#HOT_F") for k in funds["hottest"])
    editors = hot_keys.editors(1, table=f"{local_backend.table}_editors")
    assert editors["operations"] == hot_keys.EDITORS
    assert ("table", "HOT_D0") in _keys(editors)
    assert all(k["wcu_per_s"] + k["rcu_per_s"] > 0 for k in editors["hottest"])


def test_the_next_notice_rewrites_the_registers_slim_copies_under_the_fund_index_key(local_backend):
    result = hot_keys.next_notice(30, table=f"{local_backend.table}_next")
    assert result["operations"] == 30
    keys = _keys(result)
    assert ("table", "HOT_NEXT") in keys
    assert any(
        table == FUND_INDEX and key.endswith("FUND_N") and k["wcu_per_s"] > 0 for (table, key), k in keys.items()
    )
    assert not any(table == ENTITY_INDEX and key.endswith("FUND_N") for table, key in keys)
