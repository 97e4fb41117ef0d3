"""Section "hot_keys": the load model run on real scenarios against DynamoDB Local.

Each scenario runs the portal's own code inside `collect(keys=True)`, which records every
partition each request touched and its billed bytes (`fundportal.store.partition_touches`);
`load_model` turns them into WCU and RCU per partition key (base table and each index) and
scales them to the production target below (stated in the README):

- import: a notice of N rows over N/3 new positions of one fund (`tests.notices`), validated and
  applied (`import_prepare` + `import_apply`), at 700 rows/s (a 10,000-row notice in 14.3 s),
  judged on the paced replay (`load_model.paced_replay`: the import paces its writes per
  partition), which must not take more than 5% longer than that;
- next notice: the same, for positions already registered (a new document; the usual notice);
- fund page: the fund page's data (`funds.selectors.fund_detail`) of a fund of P positions,
  scaled to 20,000 positions, at 2 views/s of that one page;
- funds list: `/funds/`'s data (`funds.selectors.fund_list`) over F funds of Q positions,
  scaled to 200 funds of 100 positions, at 2 views/s;
- editors: 8 editors saving entries for positions of one fund at once (`entry_record`), at one
  save per editor per second (8 saves/s).

DynamoDB Local has no per-partition limits; the model applies AWS's published ones.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from decimal import Decimal
from typing import Any

from django.conf import settings

from fundportal.store import tables
from fundportal.store.instrumentation import collect

from . import data
from .common import load, raw_client
from .load_model import (
    PARTITION_RCU_PER_S,
    PARTITION_WCU_PER_S,
    Target,
    busiest_second,
    hottest,
    key_rates,
    paced_replay,
    partition_units,
)

TOP = 10
# The production throughput targets the rates are scaled to (the README states them).
# One notice's entries all go to its document's partition, at least 1 WCU each: at AWS's 1,000 WCU/s
# a partition one document never takes more than ~1,000 rows/s, and less end to end: the first
# ~15% of an import reads (validation) and writes nothing. 700 rows/s (a 10,000-row notice in
# 14.3 s) leaves the document's partition ~15% of its limit for bursts and other writers.
IMPORT_ROWS_PER_S = 700.0
IMPORT_ROWS = 10_000
FUND_POSITIONS = 20_000
FUND_PAGE_VIEWS_PER_S = 2.0
FUNDS = 200
FUND_LIST_POSITIONS = 100
FUND_LIST_VIEWS_PER_S = 2.0
EDITORS = 8
EDITOR_SAVES_PER_S = 1.0


def measured(work: Callable[[], int]) -> tuple[int, float, float, list[tuple[float, Any]], list[tuple[float, Any]]]:
    """(operations, start, seconds, (when, partition touch) pairs, (when, touches) per request)
    of one run of `work`."""
    with collect(keys=True) as requests:
        started = time.perf_counter()
        operations = work()
        seconds = time.perf_counter() - started
    timed = [(r.at, touch) for r in requests.records for touch in r.touches]
    return operations, started, seconds, timed, [(r.at, r.touches) for r in requests.records]


def scenario(
    description: str,
    work: Callable[[], int],
    per_second: float,
    size_factor: float = 1.0,
    target_operations: int | None = None,
    paced: bool = False,
) -> dict:
    """Run `work`, then judge every partition it touched at the target: its busiest second (the
    run replayed at the target pace) against the limits, with its average beside it. `paced`
    (the imports, whose writes are paced per partition): judged on the paced replay, which also
    says how long the run takes with every partition held to its limit."""
    operations, started, seconds, timed, per_request = measured(work)
    requests = len(per_request)
    target = Target(operations, per_second, size_factor, target_operations)
    units = partition_units(touch for _, touch in timed)
    average = {(r.table, r.key): r for r in key_rates(units, target)}
    unpaced = busiest_second(timed, started=started, measured_seconds=seconds, target=target)
    busiest, pacing = unpaced, None
    if paced:
        replay = paced_replay(per_request, started=started, measured_seconds=seconds, target=target)
        busiest = replay.rates
        pacing = {
            "seconds": round(replay.seconds, 2),
            "longest_wait": round(replay.longest_wait, 2),
            "slower": round(replay.slower, 3),
            "operations_per_s": round(target.seconds * per_second / replay.seconds, 1),
            "unpaced_over_limit": sum(1 for r in unpaced if r.over_limit),
        }
    before = {(r.table, r.key): r for r in unpaced}
    return {
        "description": description,
        "operations": operations,
        "seconds": round(seconds, 2),
        "requests": requests,
        "target_per_second": per_second,
        "target_seconds": round(target.seconds, 2),
        "size_factor": round(size_factor, 3),
        "unit_factor": round(target.unit_factor, 3),
        "partitions": len(busiest),
        "measured_wcu": round(sum(u.wcu for u in units), 1),
        "measured_rcu": round(sum(u.rcu for u in units), 1),
        "over_limit": sum(1 for r in busiest if r.over_limit),
        "paced": pacing,
        "hottest": [
            {
                "table": r.table,
                "key": r.key,
                "wcu_per_s": round(r.wcu_per_s, 1),
                "rcu_per_s": round(r.rcu_per_s, 1),
                "average_wcu_per_s": round(average[(r.table, r.key)].wcu_per_s, 1),
                "average_rcu_per_s": round(average[(r.table, r.key)].rcu_per_s, 1),
                "unpaced_wcu_per_s": round(before[(r.table, r.key)].wcu_per_s, 1),
                "wcu_share": round(r.wcu_share, 3),
                "rcu_share": round(r.rcu_share, 3),
                "over_limit": r.over_limit,
            }
            for r in hottest(busiest, TOP)
        ],
    }


@contextmanager
def fresh_table(table: str) -> Iterator[None]:
    """A new table of the portal's layout for one scenario, deleted after it."""
    settings.DYNAMODB_TABLE = table
    tables.create(table)
    try:
        yield
    finally:
        tables.delete(table)


def _imported(payload: bytes, filename: str) -> int:
    """Validate and write one notice as the import does; the rows written."""
    from imports.services import import_apply, import_prepare

    prepared = import_prepare(data=payload, filename=filename)
    if not prepared.ok:
        raise RuntimeError(f"{filename} did not validate: {prepared.validation.errors[:3]}")
    return import_apply(prepared=prepared, user="bench", workers=8).rows


def import_notice(rows: int, table: str = "hot_import") -> dict:
    from .data_io import notice_csv

    with fresh_table(table):
        payload = notice_csv(rows, "HOT_NOTICE")

        return scenario(
            f"import of a {rows:,}-row notice over {rows // 3:,} new positions of one fund, scaled to "
            f"{IMPORT_ROWS:,} rows at {IMPORT_ROWS_PER_S:,.0f} rows/s ({IMPORT_ROWS / IMPORT_ROWS_PER_S:.1f} s)",
            lambda: _imported(payload, "hot.csv"),
            IMPORT_ROWS_PER_S,
            target_operations=IMPORT_ROWS,
            paced=True,
        )


def next_notice(rows: int, table: str = "hot_next") -> dict:
    """The usual notice: the next quarter's, a new document for positions already registered
    (each register read, added to and put back, one document's cash flows larger)."""
    from .data_io import notice_csv

    with fresh_table(table):
        _imported(notice_csv(rows, "HOT_FIRST"), "first.csv")  # the positions' first notice
        payload = notice_csv(rows, "HOT_NEXT")

        return scenario(
            f"{rows:,} rows for the same {rows // 3:,} positions in a new document (registers exist), scaled to "
            f"{IMPORT_ROWS:,} rows at {IMPORT_ROWS_PER_S:,.0f} rows/s",
            lambda: _imported(payload, "next.csv"),
            IMPORT_ROWS_PER_S,
            target_operations=IMPORT_ROWS,
            paced=True,
        )


def fund_page(endpoint: str, positions: int, table: str = "hot_fund") -> dict:
    from funds.selectors import fund_detail

    with fresh_table(table):
        load(raw_client(endpoint), table, data.typed(data.fund_registers("HOT_FUND", positions)))

        def work() -> int:
            fund_detail(fund_id="HOT_FUND")
            return 1

        # The page reads the fund's summary shards and 100 registers at any size (no scaling).
        return scenario(
            f"the fund page of a {positions:,}-position fund (its summary + 100 positions: the same reads at "
            f"{FUND_POSITIONS:,} positions), at {FUND_PAGE_VIEWS_PER_S:g} views/s",
            work,
            FUND_PAGE_VIEWS_PER_S,
        )


def fund_list(endpoint: str, funds: int, positions: int, table: str = "hot_funds") -> dict:
    from funds.selectors import fund_list as list_funds

    with fresh_table(table):
        items = [item for n in range(funds) for item in data.fund_registers(f"HOT_F{n:03d}", positions)]
        load(raw_client(endpoint), table, data.typed(items))

        def work() -> int:
            list_funds()
            return 1

        # /funds/ reads the catalog and the summary shards: the same reads at any fund size.
        return scenario(
            f"/funds/ over {funds:,} funds of {positions:,} positions (summaries only: the same reads at "
            f"{FUND_LIST_POSITIONS:,} positions a fund), at {FUND_LIST_VIEWS_PER_S:g} views/s",
            work,
            FUND_LIST_VIEWS_PER_S,
        )


def editors(saves_each: int, table: str = "hot_editors") -> dict:
    from documents import services
    from fundportal.domain.model import Document
    from fundportal.domain.position_entries import CapitalCall

    with fresh_table(table):
        for n in range(saves_each):
            document = Document(document_id=f"HOT_D{n}", fund_id="HOT_FUND", as_of_date=date(2025, 1 + n % 12, 28))
            services.document_create(document=document, user="setup")

        def editor(t: int, barrier: threading.Barrier, errors: list[BaseException]) -> None:
            barrier.wait()
            try:
                for n in range(saves_each):
                    entry = CapitalCall(
                        document_id=f"HOT_D{n}",
                        position_id=f"HOT_P{t}",
                        fund_id="HOT_FUND",
                        investor_id=f"HOT_I{t}",
                        amount=Decimal(1000 + n),
                        status="Pending",
                    )
                    services.entry_record(entry=entry, user=f"editor{t}")
            except BaseException as error:  # re-raised below, in the bench's thread
                errors.append(error)

        def work() -> int:
            barrier = threading.Barrier(EDITORS)
            errors: list[BaseException] = []
            # Each editor runs in a copy of this context, so its requests reach the collector.
            threads = [
                threading.Thread(target=contextvars.copy_context().run, args=(editor, t, barrier, errors))
                for t in range(EDITORS)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            if errors:
                raise errors[0]
            return EDITORS * saves_each

        return scenario(
            f"{EDITORS} editors saving entries for positions of one fund at once, "
            f"{EDITOR_SAVES_PER_S:g} save per editor per second",
            work,
            EDITORS * EDITOR_SAVES_PER_S,
        )


def run(endpoint: str, *, quick: bool) -> dict[str, Any]:
    settings.DYNAMODB_ENDPOINT_URL = endpoint
    if quick:
        rows, positions, funds, fund_positions, saves = 600, 1_000, 20, 10, 3
    else:
        rows, positions, funds, fund_positions, saves = IMPORT_ROWS, FUND_POSITIONS, FUNDS, FUND_LIST_POSITIONS, 6
    return {
        "limits": {"wcu_per_s": PARTITION_WCU_PER_S, "rcu_per_s": PARTITION_RCU_PER_S},
        "scenarios": {
            "import": import_notice(rows),
            "next notice": next_notice(rows),
            "fund page": fund_page(endpoint, positions),
            "funds list": fund_list(endpoint, funds, fund_positions),
            "editors": editors(saves),
        },
    }
