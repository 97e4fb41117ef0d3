"""Every LP amount versioned, on moto and DynamoDB Local: changing or removing an entry keeps
the value it replaced (who set it, who replaced it and when) in the same transaction, in the
document's history partition, where none of the seed article's queries sees it."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest

from documents import services
from fundportal.domain.errors import Conflict
from fundportal.domain.kinds import Kind
from fundportal.ops.sample import BY as SAMPLE_BY
from fundportal.ops.sample import LOADED_AT as SAMPLE_AT
from fundportal.store.gateway import call
from fundportal.store.mapping import keys
from fundportal.store.repositories import PositionRepository
from fundportal.store.serialization import from_item

from .test_repository_contract import just_before_next_transaction, table_items


def seed_queries(table: str) -> dict[str, list[tuple[str, str]]]:
    """The seed article's 13 query functions (seeds/000_*.txt), each as the (PK, SK) pairs it returns."""

    def query(index: str | None = None, **params: Any) -> list[tuple[str, str]]:
        extra = {"IndexName": index} if index else {}
        items = call("Query", TableName=table, **extra, **params)["Items"]
        return sorted((from_item(i)["PK"], from_item(i)["SK"]) for i in items)

    def base(condition: str, values: dict[str, str], **more: Any) -> list[tuple[str, str]]:
        return query(KeyConditionExpression=condition, ExpressionAttributeValues=_s(values), **more)

    def gsi(index: str, pk: str, value: str) -> list[tuple[str, str]]:
        return query(index, KeyConditionExpression=f"{pk} = :v", ExpressionAttributeValues=_s({":v": value}))

    found = {}
    for doc in ("DOC001", "DOC002"):
        found[f"get_document_overview({doc})"] = base("PK = :pk", {":pk": doc})
        found[f"get_position_items({doc})"] = base(
            "PK = :pk",
            {":pk": doc, ":pos": "POSITION_1"},
            FilterExpression="PositionId = :pos",
        )
        found[f"get_position_capital_calls({doc})"] = base(
            "PK = :pk AND SK = :sk", {":pk": doc, ":sk": "CAPITAL_CALL#POSITION_2"}
        )
        found[f"get_all_capital_entities({doc})"] = base(
            "PK = :pk AND begins_with(SK, :p)", {":pk": doc, ":p": "CAPITAL_"}
        )
        found[f"get_latest_document({doc})"] = base("PK = :pk AND SK = :sk", {":pk": doc, ":sk": "DOCUMENT#LATEST"})
        found[f"find_specific_document_latest({doc})"] = gsi("GSI_Entity_Document", "GSI_PK", f"DOCUMENT#LATEST#{doc}")
        found[f"find_position_capital_calls_in_document({doc})"] = gsi(
            "GSI_Entity_Document", "GSI_PK", f"CAPITAL_CALL#POSITION_2#{doc}"
        )
        found[f"analyze_document_positions({doc})"] = base("PK = :pk", {":pk": doc})
        found[f"get_historical_documents({doc})"] = base(
            "PK = :pk AND SK BETWEEN :a AND :b", {":pk": doc, ":a": "DOCUMENT#2025-01-01", ":b": "DOCUMENT#2025-12-31"}
        )
        found[f"compare_document_versions({doc})"] = base(
            "PK = :pk AND begins_with(SK, :p)", {":pk": doc, ":p": "DOCUMENT#"}
        )
        found[f"get_document_overview_broken({doc})"] = base("PK = :pk", {":pk": f"DOCUMENT#{doc}"})
        found[f"get_document_overview_position_centric({doc})"] = base("PK = :pk", {":pk": f"DOCUMENT#{doc}"}) + base(
            "PK = :pk AND SK = :sk", {":pk": "CAPITAL_CALL#POSITION_2", ":sk": doc}
        )
    for position in ("POSITION_1", "POSITION_2"):
        items = gsi("GSI_Position_Document", "GSI2_PK", position)
        # The register (a stored record beside the seed's items) sorts first in this index.
        found[f"find_all_position_data_across_documents({position})"] = [
            i for i in items if i[0] != f"POSITION#{position}"
        ]
    return found


def _s(values: dict[str, str]) -> dict[str, dict[str, str]]:
    return {k: {"S": v} for k, v in values.items()}


def history_items(table: str, document_id: str) -> list[dict[str, Any]]:
    return [i for i in table_items(table) if i["PK"] == keys.entry_history_pk(document_id)]


def change(amount: int, user: str, revision: int, position: str = "POSITION_2", doc: str = "DOC002"):
    current = _entry(doc, position)
    return services.entry_change(entry=replace(current, amount=Decimal(amount)), user=user, expected_revision=revision)


def _entry(doc: str, position: str):
    from documents.selectors import entry

    return entry(document_id=doc, kind=Kind.CAPITAL_CALL, position_id=position)


def test_changing_an_entry_keeps_its_previous_value_who_and_when(sample):
    changed = change(410000, "ben", 1)
    versions = sample.repository.entry_versions("DOC002")
    assert len(versions) == 1
    kept = versions[0]
    assert (kept.kind, kept.position_id, kept.amount, kept.revision, kept.removed) == (
        Kind.CAPITAL_CALL,
        "POSITION_2",
        Decimal(400000),
        1,
        False,
    )
    assert (kept.updated_by, kept.updated_at) == (SAMPLE_BY, SAMPLE_AT)  # who set the kept value, when
    assert kept.replaced_by == "ben"
    changed_at = changed.restated.updated_at  # DOC002 is approved: the change waits, stamped apart
    assert changed.restated.updated_by == "ben"
    assert changed_at <= kept.replaced_at < changed_at + timedelta(seconds=2)  # to the microsecond
    # DOC002 is approved: the new value waits for approval, the kept one still counts.
    stored = _entry("DOC002", "POSITION_2")
    assert (stored.amount, stored.restated.amount) == (Decimal(400000), Decimal(410000))


def test_removing_an_entry_keeps_it_as_removed(sample):
    services.entry_remove(document_id="DOC002", kind=Kind.CAPITAL_CALL, position_id="POSITION_2", user="cy")
    [kept] = sample.repository.entry_versions("DOC002")
    assert (kept.amount, kept.removed, kept.replaced_by) == (Decimal(400000), True, "cy")


def test_every_change_keeps_one_version_in_order(sample):
    change(410000, "ben", 1)
    change(420000, "cy", 2)
    amounts = [(v.amount, v.revision, v.replaced_by) for v in sample.repository.entry_versions("DOC002")]
    assert amounts == [(Decimal(400000), 1, "ben"), (Decimal(410000), 2, "cy")]


def test_a_refused_change_keeps_no_version(sample):
    with pytest.raises(Conflict):
        change(410000, "ben", 7)  # a stale form: nothing is written
    assert history_items(sample.table, "DOC002") == []


def test_a_change_racing_another_keeps_only_the_winners_version(sample):
    with just_before_next_transaction(lambda: change(405000, "cy", 1)), pytest.raises(Conflict):
        change(410000, "ben", 1)
    assert [(v.amount, v.replaced_by) for v in sample.repository.entry_versions("DOC002")] == [(Decimal(400000), "cy")]


def test_history_items_carry_only_their_positions_history_partition_keys(sample):
    """Sparse on the position index, in a partition no position page reads (HIST#POSITION_2,
    never POSITION_2), so the seed's queries never see them; no other index key."""
    change(410000, "ben", 1)
    [item] = history_items(sample.table, "DOC002")
    assert item["EntityType"] == "EntryVersion"
    assert {k for k in item if k.startswith("GSI")} == {"GSI2_PK", "GSI2_SK"}
    assert item["GSI2_PK"] == "HIST#POSITION_2"
    assert item["GSI2_SK"].startswith("DOC002#CAPITAL_CALL#") and item["GSI2_SK"].endswith("#000001#C")
    assert "PositionId" not in item  # the seed: PositionId only on position entities


def test_a_positions_kept_values_are_one_query_on_its_history_partition(sample):
    change(410000, "ben", 1)
    [version] = PositionRepository(sample.repository.gateway).entry_versions("POSITION_2")
    assert (version.document_id, version.position_id, version.amount, version.removed) == (
        "DOC002",
        "POSITION_2",
        Decimal(400000),
        False,
    )


def test_the_seed_articles_queries_return_exactly_the_seeds_items_after_changes(sample):
    before = seed_queries(sample.table)
    change(410000, "ben", 1)
    change(400000, "ben", 2)  # back to the seed's value
    services.entry_remove(document_id="DOC001", kind=Kind.CAPITAL_CALL, position_id="POSITION_1", user="cy")
    # Both documents are approved: the changes wait for approval, no item is added or removed.
    assert seed_queries(sample.table) == before
    assert len(history_items(sample.table, "DOC002")) == 2
    assert len(history_items(sample.table, "DOC001")) == 1

    from documents import approval

    for doc in ("DOC001", "DOC002"):
        approval.document_submit(document_id=doc, user="cy")
        approval.document_approve(document_id=doc, user="dee")
    after = seed_queries(sample.table)
    removed = ("DOC001", "CAPITAL_CALL#POSITION_1")
    for name, items in before.items():
        assert after[name] == [i for i in items if i != removed], name
    assert len(history_items(sample.table, "DOC002")) == 2
    assert len(history_items(sample.table, "DOC001")) == 1


def test_a_restated_value_waits_apart_and_its_approval_keeps_the_approved_one_as_history(sample):
    from documents import approval
    from documents.selectors import document_header
    from fundportal.ops.register_repair import verify_positions

    current = _entry("DOC002", "POSITION_2")
    services.document_restate(
        document_id="DOC002",
        expected_revision=document_header(document_id="DOC002").revision,
        changes={},
        entries=[replace(current, amount=Decimal("410000.50"))],
        user="ana",
    )
    stored = _entry("DOC002", "POSITION_2")
    assert (stored.amount, stored.restated.amount) == (Decimal(400000), Decimal("410000.50"))
    [kept] = sample.repository.entry_versions("DOC002")
    assert (kept.amount, kept.replaced_by) == (Decimal(400000), "ana")
    approval.document_submit(document_id="DOC002", user="ana")
    approval.document_approve(document_id="DOC002", user="ben")
    promoted = _entry("DOC002", "POSITION_2")
    assert (promoted.amount, promoted.restated) == (Decimal("410000.50"), None)
    assert verify_positions(table=sample.table).differences == []
