"""Fund summaries in the store: write-sharded items holding each fund's totals and dated flows
(`fundportal.domain.summary` has the rule; `keys.summary_keys` the item's keys).

- Writes: the unit of work collects every register change of a transaction in `SummaryDeltas`
  and adds ONE update per shard it touches (`ADD` of the shard's aggregated delta, so
  concurrent writers of one fund never conflict on a read-modify-write, and an import's 99
  registers cost at most `shard_count()` more actions, never one per position).
- Reads: `SummaryRepository.funds` gets every shard of the funds asked for by BatchGetItem, 100
  keys a request, and adds the shards up: a fund's totals never read its registers.
  `funds_with_records` adds each fund's record (name, vintage, GP) to the same requests.
- Bulk loads (sample, synthetic data, bench) write the shards whole (`shard_items`).
- The shard count is the setting `FUND_SUMMARY_SHARDS` (default 10). Changing it moves
  positions to other shards: run `verify_positions --repair` after (it rebuilds the shards).
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any

from fundportal.domain import summary as rule
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.records import FundRecord

from ..gateway import Condition, TableGateway
from ..mapping import keys
from ..mapping.entities import from_item
from .register import register_key

SUMMARY_TYPE = "FundSummaryShard"
WRITES = "Writes"  # how many transactions changed the shard (a repair is conditioned on it)
DEFAULT_SHARDS = 10
MAX_SHARDS = 50
BATCH_GET_KEYS = 100
PARALLEL_GETS = 8
Key = tuple[str, str]


def shard_count() -> int:
    """The number of shards per fund (setting FUND_SUMMARY_SHARDS)."""
    from django.conf import settings

    shards = int(getattr(settings, "FUND_SUMMARY_SHARDS", DEFAULT_SHARDS))
    if not 1 <= shards <= MAX_SHARDS:  # a transaction keeps room for one update per shard
        raise ValueError(f"FUND_SUMMARY_SHARDS must be between 1 and {MAX_SHARDS}, not {shards}")
    return shards


def shard_of(register: PositionRegister, shards: int | None = None) -> tuple[str, int]:
    """(fund id, shard) the register's share of its fund's summary goes to."""
    return summary_shard_of(register.fund_id, register.position_id, shards)


def summary_shard_of(fund_id: str, position_id: str, shards: int | None = None) -> tuple[str, int]:
    """(fund id, shard) of a position's share (a caller packing transactions counts the shards)."""
    return fund_id, keys.summary_shard(position_id, shards or shard_count())


def vector_of(item: Mapping[str, Any]) -> rule.Vector:
    """The summary measures a shard item holds (zeros dropped)."""
    vector: rule.Vector = {}
    for name, value in item.items():
        measure = keys.parse_summary_attribute(name)
        if measure is not None and value:
            vector[measure] = Decimal(value)
    return vector


def item_of(fund_id: str, shard: int, vector: Mapping[rule.Measure, Decimal], writes: int = 0) -> dict[str, Any]:
    """A whole shard item (bulk loads and repairs)."""
    pk, sk = keys.summary_keys(fund_id, shard)
    item: dict[str, Any] = {"PK": pk, "SK": sk, "EntityType": SUMMARY_TYPE, "FundId": fund_id, "Shard": shard}
    item[WRITES] = writes
    for (code, what, on), amount in vector.items():
        if amount:
            item[keys.summary_attribute(code, what, on)] = amount
    return item


def shard_items(registers: Iterable[PositionRegister], shards: int | None = None) -> list[dict[str, Any]]:
    """The summary shard items of `registers` (every register of the funds concerned)."""
    expected = expected_shards(registers, shards)
    return [item_of(fund, shard, vector) for (fund, shard), vector in sorted(expected.items())]


class SummaryDeltas:
    """The summary changes of one transaction, aggregated per shard (see the module doc)."""

    def __init__(self, shards: int | None = None) -> None:
        self.shards = shards or shard_count()
        self.by_shard: dict[tuple[str, int], list[rule.Vector]] = {}

    def register_changed(self, before: PositionRegister | None, after: PositionRegister | None) -> None:
        """`before` (None: absent) became `after` (None: removed)."""
        if before is not None and after is not None and shard_of(before, self.shards) == shard_of(after, self.shards):
            self.by_shard.setdefault(shard_of(after, self.shards), []).append(rule.delta(before, after))
            return
        if before is not None:
            self.by_shard.setdefault(shard_of(before, self.shards), []).append(rule.negate(rule.contribution(before)))
        if after is not None:
            self.by_shard.setdefault(shard_of(after, self.shards), []).append(rule.contribution(after))

    def clear(self) -> None:
        self.by_shard = {}

    def shard_deltas(self) -> dict[tuple[str, int], rule.Vector]:
        """The aggregated delta of each shard touched (shards whose changes cancel out are left out)."""
        summed = {shard: rule.add(*vectors) for shard, vectors in sorted(self.by_shard.items())}
        return {shard: vector for shard, vector in summed.items() if vector}

    def actions(self, gateway: TableGateway) -> list[tuple[Key, dict[str, Any]]]:
        """One transaction Update per shard touched: (key, request)."""
        return [
            (keys.summary_keys(fund, shard), update_action(gateway, fund, shard, vector))
            for (fund, shard), vector in self.shard_deltas().items()
        ]


def update_action(gateway: TableGateway, fund_id: str, shard: int, vector: Mapping[rule.Measure, Decimal]) -> dict:
    """An Update adding `vector` to the shard item (created by the first)."""
    expression, names, values = _adding(fund_id, shard, vector)
    return gateway.update_action(keys.summary_keys(fund_id, shard), expression, names, values)


def _adding(
    fund_id: str, shard: int, vector: Mapping[rule.Measure, Decimal]
) -> tuple[str, dict[str, str], dict[str, Any]]:
    """The update expression adding `vector` to a shard (and one to its write count)."""
    names = {"#type": "EntityType", "#fund": "FundId", "#shard": "Shard", "#writes": WRITES}
    values: dict[str, Any] = {":type": SUMMARY_TYPE, ":fund": fund_id, ":shard": shard, ":one": 1}
    adds = ["#writes :one"]
    for index, ((code, what, on), amount) in enumerate(sorted(vector.items(), key=_order)):
        names[f"#m{index}"] = keys.summary_attribute(code, what, on)
        values[f":m{index}"] = amount
        adds.append(f"#m{index} :m{index}")
    return "SET #type = :type, #fund = :fund, #shard = :shard ADD " + ", ".join(adds), names, values


def _order(pair: tuple[rule.Measure, Decimal]) -> tuple[str, str, str]:
    (code, what, on), _ = pair
    return code, what, on.isoformat() if on else ""


class SummaryRepository:
    """Reads of the fund summaries."""

    def __init__(self, gateway: TableGateway | None = None, shards: int | None = None) -> None:
        self.gateway = gateway or TableGateway()
        self.shards = shards or shard_count()

    def shard_keys(self, fund_ids: Iterable[str]) -> list[Key]:
        return [keys.summary_keys(fund, shard) for fund in fund_ids for shard in range(self.shards)]

    def items(
        self, fund_ids: Iterable[str], *, consistent: bool = False, also: Iterable[Key] = ()
    ) -> dict[Key, dict[str, Any]]:
        """Every shard item of `fund_ids` that exists (and of the keys `also`, read in the same
        requests): one BatchGetItem per 100 keys, up to `PARALLEL_GETS` at once (`/funds/` with
        200 funds: 20 requests, not 20 round trips in a row)."""
        wanted = [*self.shard_keys(fund_ids), *also]
        chunks = [wanted[start : start + BATCH_GET_KEYS] for start in range(0, len(wanted), BATCH_GET_KEYS)]

        def get(chunk: list[Key]) -> dict[Key, dict[str, Any]]:
            return self.gateway.batch_get(chunk, consistent=consistent)

        found: dict[Key, dict[str, Any]] = {}
        if len(chunks) <= 1:
            for chunk in chunks:
                found.update(get(chunk))
            return found
        with ThreadPoolExecutor(max_workers=min(PARALLEL_GETS, len(chunks))) as pool:
            # Each request runs in a copy of this context, so the page's request collector sees it.
            futures = [pool.submit(contextvars.copy_context().run, get, chunk) for chunk in chunks]
            for future in futures:
                found.update(future.result())
        return found

    def funds(self, fund_ids: Iterable[str]) -> dict[str, rule.Vector]:
        """Each fund's summary (its shards added up); a fund with no shard is left out."""
        return _added_up(self.items(list(fund_ids)))

    def fund(self, fund_id: str) -> rule.Vector | None:
        return self.funds([fund_id]).get(fund_id)

    def funds_with_records(self, fund_ids: Iterable[str]) -> tuple[dict[str, rule.Vector], dict[str, FundRecord]]:
        """Each fund's summary and its record (`keys.fund_record_keys`), from the same
        BatchGetItem requests as the summaries alone (one more key a fund); a fund with no shard
        or no record is left out of that mapping."""
        wanted = list(fund_ids)
        record_keys = {keys.fund_record_keys(fund_id): fund_id for fund_id in wanted}
        found = self.items(wanted, also=record_keys)
        records = {record_keys[key]: from_item(FundRecord, found.pop(key)) for key in record_keys if key in found}
        return _added_up(found), records

    def fund_with_record(self, fund_id: str) -> tuple[rule.Vector | None, FundRecord | None]:
        """The fund page's read: its summary and its record, one BatchGetItem."""
        summaries, records = self.funds_with_records([fund_id])
        return summaries.get(fund_id), records.get(fund_id)

    def fund_with_record_and_registers(
        self, fund_id: str, position_ids: Sequence[str]
    ) -> tuple[rule.Vector | None, FundRecord | None, dict[str, PositionRegister]]:
        """`fund_with_record` and the whole registers of `position_ids` (by position; one gone is
        left out), from the same BatchGetItem while the keys fit 100 (the shards, the record and
        the registers), in parallel requests of 100 beyond."""
        record_key = keys.fund_record_keys(fund_id)
        register_keys = {register_key(p): p for p in position_ids}
        found = self.items([fund_id], also=[record_key, *register_keys])
        record = found.pop(record_key, None)
        registers = {register_keys[k]: from_item(PositionRegister, found.pop(k)) for k in register_keys if k in found}
        summary = _added_up(found).get(fund_id)
        return summary, from_item(FundRecord, record) if record is not None else None, registers


def _added_up(shards: Mapping[Key, Mapping[str, Any]]) -> dict[str, rule.Vector]:
    """Each fund's summary from its shard items."""
    by_fund: dict[str, list[rule.Vector]] = {}
    for (pk, _), item in shards.items():
        fund_id, _shard = keys.parse_summary_pk(pk)
        by_fund.setdefault(fund_id, []).append(vector_of(item))
    return {fund: rule.add(*vectors) for fund, vectors in by_fund.items()}


def repair(
    gateway: TableGateway, fund_id: str, shard: int, correction: Mapping[rule.Measure, Decimal], seen: int | None
) -> None:
    """Add `correction` to a shard that drifted, only if no write changed it since it was read
    (`seen`: its Writes then; None: it was absent). ConditionFailed when one did: that write's
    own delta was exact, the drift is measured again by the next verification."""
    expression, names, values = _adding(fund_id, shard, correction)
    if seen is None:
        condition = Condition("attribute_not_exists(PK)")
    else:
        condition = Condition("#writes = :seen", None, {":seen": seen})
    gateway.update(keys.summary_keys(fund_id, shard), expression, condition, names, values)


def stored_shards(items: Iterable[Mapping[str, Any]]) -> dict[tuple[str, int], tuple[rule.Vector, int]]:
    """From scanned items: each shard's (vector, Writes)."""
    found: dict[tuple[str, int], tuple[rule.Vector, int]] = {}
    for item in items:
        if item.get("EntityType") == SUMMARY_TYPE:
            found[keys.parse_summary_pk(item["PK"])] = (vector_of(item), int(item.get(WRITES) or 0))
    return found


def expected_shards(
    registers: Iterable[PositionRegister], shards: int | None = None
) -> dict[tuple[str, int], rule.Vector]:
    """Each shard's summary recomputed from `registers` (every register of the table)."""
    shards = shards or shard_count()
    by_shard: dict[tuple[str, int], list[rule.Vector]] = {}
    for register in registers:
        by_shard.setdefault(shard_of(register, shards), []).append(rule.contribution(register))
    return {shard: rule.add(*vectors) for shard, vectors in by_shard.items()}
