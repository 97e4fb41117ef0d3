"""Section 1, the seed article's "Performance Comparison" measured: the proper single-table
design (the portal's own table and repository), the position-centric design and the broken
(Scan) design, each in its own table holding the same logical documents, as tables grow.

The two alternative layouts exist only here, to be measured against; their key strings are
built in this module (the portal's own keys come from fundportal/store/mapping/keys/ through the
entities). Every request goes through fundportal.store.gateway.call, so requests and read
units are counted the same way for all three designs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fundportal.store import tables
from fundportal.store.gateway import TableGateway, call
from fundportal.store.instrumentation import collect
from fundportal.store.repositories import DocumentRepository, PositionRepository
from fundportal.store.serialization import from_item, to_item

from . import data
from .common import create_simple_table, interleave, load, raw_client

POSITIONS_PER_DOCUMENT = 10
DOCUMENTS_PER_POSITION = 10  # a position appears in 10 consecutive documents
ITEMS_PER_DOCUMENT = 2 + 3 * POSITIONS_PER_DOCUMENT  # document, capital activity, 3 entries a position
TARGET_DOCUMENT = "D000000"
TARGET_POSITION = "P00000_0"  # in documents D000000..D000009, all inside the smallest table
KIND_PREFIXES = {
    "CapitalCall": "CAPITAL_CALL",
    "Distribution": "DISTRIBUTION",
    "UnfundedCommitment": "UNFUNDED_COMMITMENT",
}
PROPER, POSITION_CENTRIC, BROKEN = "proper single-table", "position-centric", "broken (Scan)"
TABLES = {PROPER: "bench_scale_proper", POSITION_CENTRIC: "bench_scale_position_centric", BROKEN: "bench_scale_broken"}


def document_id(number: int) -> str:
    return f"D{number:06d}"


def positions_of(number: int) -> list[str]:
    return [f"P{number // DOCUMENTS_PER_POSITION:05d}_{i}" for i in range(POSITIONS_PER_DOCUMENT)]


# --- the three layouts of one logical document --------------------------------------------------


def proper_items(number: int) -> list[dict[str, Any]]:
    return data.document(document_id(number), positions_of(number), number)


def _alternative_items(number: int, entry_pk: Callable[[str, str, int], str]) -> list[dict[str, Any]]:
    """The seed's alternative layouts: the document and its capital activity under
    DOCUMENT#<doc>, each entry under a partition chosen by `entry_pk`, SK = the document id."""
    doc = document_id(number)
    items = proper_items(number)
    document, activity, entries = items[0], items[1], items[2:]
    out = [
        {**_plain(document), "PK": f"DOCUMENT#{doc}", "SK": "METADATA", "PositionIds": positions_of(number)},
        {**_plain(activity), "PK": f"DOCUMENT#{doc}", "SK": "CAPITAL_ACTIVITY"},
    ]
    for n, entry in enumerate(entries):
        out.append({**_plain(entry), "PK": entry_pk(entry["EntityType"], entry["PositionId"], n), "SK": doc})
    return out


def _plain(item: dict[str, Any]) -> dict[str, Any]:
    """An item without the proper design's keys and index keys."""
    return {k: v for k, v in item.items() if k not in {"PK", "SK"} and not k.startswith("GSI")}


def position_centric_items(number: int) -> list[dict[str, Any]]:
    """Seed: {"PK": "CAPITAL_CALL#POSITION_1", "SK": "DOC001"}."""
    return _alternative_items(number, lambda entity, position, _: f"{KIND_PREFIXES[entity]}#{position}")


def broken_items(number: int) -> list[dict[str, Any]]:
    """Seed: {"PK": "CAPITAL_CALL#CC001", "SK": "DOC001"} - one partition per entry."""
    return _alternative_items(number, lambda entity, _, n: f"{KIND_PREFIXES[entity]}#E{number:06d}{n:02d}")


BUILDERS = {PROPER: proper_items, POSITION_CENTRIC: position_centric_items, BROKEN: broken_items}


# --- the two access patterns in each design --------------------------------------------------------


def _query_all(table: str, condition: str, values: dict[str, Any]) -> list[dict[str, Any]]:
    params: dict[str, Any] = {
        "TableName": table,
        "KeyConditionExpression": condition,
        "ExpressionAttributeValues": values,
    }
    items: list[dict[str, Any]] = []
    while True:
        response = call("Query", key_condition=condition, **params)
        items += [from_item(i) for i in response["Items"]]
        if "LastEvaluatedKey" not in response:
            return items
        params["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def _scan_all(table: str, condition: str, values: dict[str, Any]) -> list[dict[str, Any]]:
    params: dict[str, Any] = {"TableName": table, "FilterExpression": condition, "ExpressionAttributeValues": values}
    items: list[dict[str, Any]] = []
    while True:
        response = call("Scan", **params)
        items += [from_item(i) for i in response["Items"]]
        if "LastEvaluatedKey" not in response:
            return items
        params["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def position_centric_overview(doc: str) -> list[dict[str, Any]]:
    """Seed: one Query for the document, then one Query per position per entity type."""
    table = TABLES[POSITION_CENTRIC]
    head = _query_all(table, "PK = :pk", {":pk": {"S": f"DOCUMENT#{doc}"}})
    metadata = next(i for i in head if i["SK"] == "METADATA")
    items = head
    for position in metadata["PositionIds"]:
        for prefix in KIND_PREFIXES.values():
            items += _query_all(
                table, "PK = :pk AND SK = :doc", {":pk": {"S": f"{prefix}#{position}"}, ":doc": {"S": doc}}
            )
    return items


def position_centric_position(position: str) -> list[dict[str, Any]]:
    """One Query per entity type (each kind of entry is its own partition)."""
    table = TABLES[POSITION_CENTRIC]
    items: list[dict[str, Any]] = []
    for prefix in KIND_PREFIXES.values():
        items += _query_all(table, "PK = :pk", {":pk": {"S": f"{prefix}#{position}"}})
    return items


def broken_overview(doc: str) -> list[dict[str, Any]]:
    """Seed: Query the document, Scan (with a filter) for its entries. We give it its best case:
    one filtered Scan for all three entity types instead of the seed's one Scan per type."""
    table = TABLES[BROKEN]
    head = _query_all(table, "PK = :pk", {":pk": {"S": f"DOCUMENT#{doc}"}})
    return head + _scan_all(table, "SK = :doc", {":doc": {"S": doc}})


def broken_position(position: str) -> list[dict[str, Any]]:
    return _scan_all(TABLES[BROKEN], "PositionId = :p", {":p": {"S": position}})


def operations() -> dict[tuple[str, str], Callable[[], Any]]:
    gateway = TableGateway(TABLES[PROPER])
    repository, positions = DocumentRepository(gateway), PositionRepository(gateway)
    return {
        (PROPER, "document overview"): lambda: repository.overview(TARGET_DOCUMENT),
        (PROPER, "position across documents"): lambda: positions.entries(TARGET_POSITION),
        (POSITION_CENTRIC, "document overview"): lambda: position_centric_overview(TARGET_DOCUMENT),
        (POSITION_CENTRIC, "position across documents"): lambda: position_centric_position(TARGET_POSITION),
        (BROKEN, "document overview"): lambda: broken_overview(TARGET_DOCUMENT),
        (BROKEN, "position across documents"): lambda: broken_position(TARGET_POSITION),
    }


def _result_size(result: Any) -> int:
    if isinstance(result, list):
        return len(result)
    if hasattr(result, "positions"):  # DocumentOverview
        return 2 + sum(len(p.entries) for p in result.positions)
    raise TypeError(type(result))


# --- loading and the run ------------------------------------------------------------------------


def create_tables(endpoint: str) -> None:
    tables.create(TABLES[PROPER])
    client = raw_client(endpoint)
    for design in (POSITION_CENTRIC, BROKEN):
        create_simple_table(client, TABLES[design])


def grow(endpoint: str, start: int, stop: int, workers: int = 8) -> None:
    """Add documents [start, stop) to all three tables with parallel BatchWriteItem."""
    client = raw_client(endpoint, pool=workers * 2)

    def typed(build: Callable[[int], list[dict[str, Any]]]) -> Iterator[dict[str, Any]]:
        for number in range(start, stop):
            for item in build(number):
                yield to_item(item)

    for design, build in BUILDERS.items():
        load(client, TABLES[design], typed(build), workers=workers)


def run(endpoint: str, sizes: tuple[int, ...], trials: int, warmup: int, scan_trials: int) -> dict[str, Any]:
    create_tables(endpoint)
    ops = operations()
    expected = {"document overview": ITEMS_PER_DOCUMENT, "position across documents": 3 * DOCUMENTS_PER_POSITION}
    loaded = 0
    by_size: dict[str, Any] = {}
    notes: list[str] = []
    for size in sizes:
        documents = max(size // ITEMS_PER_DOCUMENT, DOCUMENTS_PER_POSITION)
        grow(endpoint, loaded, documents)
        loaded = documents
        costs = {}
        for (design, op), fn in ops.items():
            with collect() as requests:
                result = fn()
            if _result_size(result) != expected[op]:
                raise RuntimeError(f"{design} {op} returned {_result_size(result)} items, expected {expected[op]}")
            costs[(design, op)] = (requests.count, round(requests.read_units, 1))
        runners = {f"{design}|{op}": fn for (design, op), fn in ops.items()}
        capped = {}
        if size > 10_000 and scan_trials < trials:
            capped = {name: scan_trials for name in runners if name.startswith(BROKEN)}
            notes.append(
                f"At {size:,} items the Scan design ran {scan_trials} trials (each reads the whole table); "
                f"the others {trials}."
            )
        # With capped Scan trials the cost-measuring call above is the warm-up.
        samples = interleave(runners, trials, 0 if capped else warmup, trials_for=capped)
        designs: dict[str, dict[str, Any]] = {}
        for (design, op), (count, rcu) in costs.items():
            s = samples[f"{design}|{op}"]
            designs.setdefault(design, {})[op] = {
                "requests": count,
                "rcu": rcu,
                "median_ms": round(s.median, 2),
                "p95_ms": round(s.p95, 2),
                "trials": s.trials,
            }
        by_size[str(size)] = {"documents": documents, "items": documents * ITEMS_PER_DOCUMENT, "designs": designs}
    first, last = by_size[str(sizes[0])]["designs"], by_size[str(sizes[-1])]["designs"]

    def ratio(design: str, op: str = "document overview") -> float:
        return round(last[design][op]["median_ms"] / first[design][op]["median_ms"], 2)

    return {
        "document_positions": POSITIONS_PER_DOCUMENT,
        "position_documents": DOCUMENTS_PER_POSITION,
        "sizes": by_size,
        "query_ratio": ratio(PROPER),
        "position_query_ratio": ratio(PROPER, "position across documents"),
        "position_centric_ratio": ratio(POSITION_CENTRIC),
        "scan_ratio": ratio(BROKEN),
        "scan_position_ratio": ratio(BROKEN, "position across documents"),
        "notes": [
            "Items in table = documents x 32 (document, capital activity, 3 entries for each of 10 positions) "
            "in each design's own table; the proper table also carries its GSIs.",
            "Broken design: one filtered Scan for the document's entries (the seed scans once per entity type, "
            "so this is its best case); position across documents is a filtered Scan.",
            "Position-centric: PositionIds on the document item tell which partitions to query.",
            *notes,
        ],
    }
