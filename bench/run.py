"""`python -m bench`: run the sections, each against its own DynamoDB Local in memory, print a
report and write bench/results/latest.{md,json}."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS_DIR = Path(__file__).resolve().parent / "results"
SECTIONS = ("scale", "overview", "pages", "bulk_load", "data_io", "hot_keys")


@dataclass(frozen=True)
class Plan:
    """How much work each section does (full run vs --quick smoke run)."""

    trials: int
    warmup: int
    scale_sizes: tuple[int, ...]
    scan_trials: int  # trials of the Scan design at the largest size (each reads the whole table)
    overview_sizes: tuple[int, ...]
    page_requests: int
    page_concurrency: int
    bulk_items: int
    bulk_rounds: int
    fund_positions: int = 20_000  # the fund page's fund (first and middle page)
    list_funds: tuple[int, int] = (200, 100)  # /funds/: funds x positions

    @classmethod
    def full(cls) -> Plan:
        return cls(20, 3, (1_000, 10_000, 100_000), 5, (10, 100, 1000), 400, 4, 20_000, 3)

    @classmethod
    def quick(cls) -> Plan:
        return cls(5, 1, (1_000, 5_000), 3, (10, 100), 60, 2, 2_000, 1, 1_000, (20, 10))


def setup_django(endpoint: str, table: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    # DynamoDB Local keeps one database per access key: every client of the bench uses the same
    # fake key (the bench only ever talks to its own DynamoDB Local).
    os.environ.update(AWS_ACCESS_KEY_ID="local", AWS_SECRET_ACCESS_KEY="local")
    os.environ.pop("AWS_SESSION_TOKEN", None)
    os.environ.pop("AWS_PROFILE", None)
    import django
    from django.conf import settings

    django.setup()
    settings.DYNAMODB_ENDPOINT_URL = endpoint
    settings.DYNAMODB_TABLE = table


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (fewer trials, smaller tables)")
    parser.add_argument("--only", choices=SECTIONS, action="append", help="run only these sections (repeatable)")
    parser.add_argument("--trials", type=int, help="trials per measurement (default 20, --quick 5)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the data layer's overview")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR, help="where latest.md/latest.json go")
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/results alone")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    plan = Plan.quick() if args.quick else Plan.full()
    if args.trials:
        plan = Plan(**{**plan.__dict__, "trials": args.trials})
    sections = args.only or list(SECTIONS)

    from fundportal.dynamodb_local import DynamoDBLocalError, start

    started = time.monotonic()
    failed = False
    results: dict[str, Any] = {}
    for section in sections:
        # Each section gets its own DynamoDB Local: its figures then do not depend on what the
        # sections before it left in the server (section 1 alone loads ~300,000 items; a full run
        # and `--only` of one section disagreed by 20-30% when they shared one server).
        try:
            server = start(in_memory=True)
        except DynamoDBLocalError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        try:
            setup_django(server.endpoint, "bench_fund")
            if not results:
                from .common import machine_info

                results = {
                    "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
                    "mode": "quick" if args.quick else "full",
                    "plan": plan.__dict__,
                    "machine": machine_info(),
                }
            print(f"-- {section} ...", file=sys.stderr, flush=True)
            t0 = time.monotonic()
            try:
                results[section] = run_section(section, server.endpoint, plan, args)
            except Exception as error:  # one broken section must not lose the others' figures
                traceback.print_exc()
                results[section] = {"error": f"{type(error).__name__}: {error}"}
                failed = True
            results[section]["seconds"] = round(time.monotonic() - t0, 1)
        finally:
            server.stop()
    results["total_seconds"] = round(time.monotonic() - started, 1)
    results["load_average_after"] = os.getloadavg()[0]
    from . import report

    markdown = report.render(results)
    print(markdown)
    if not args.no_write:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "latest.md").write_text(markdown)
        (args.out / "latest.json").write_text(json.dumps(results, indent=2, default=str) + "\n")
        print(f"wrote {args.out / 'latest.md'} and latest.json", file=sys.stderr)
    return 1 if failed else 0


def run_section(section: str, endpoint: str, plan: Plan, args: argparse.Namespace) -> dict[str, Any]:
    if section == "overview":
        from . import overview

        result = overview.run(endpoint, "bench_overview", plan.overview_sizes, plan.trials, plan.warmup)
        if args.profile:
            print(overview.profile("bench_overview", min(plan.overview_sizes[-1], 100)), file=sys.stderr)
        return result
    if section == "scale":
        from . import designs

        return designs.run(endpoint, plan.scale_sizes, plan.trials, plan.warmup, plan.scan_trials)
    if section == "pages":
        from . import pages

        return pages.run(
            endpoint,
            plan.page_requests,
            plan.page_concurrency,
            plan.trials,
            plan.warmup,
            plan.fund_positions,
            plan.list_funds,
        )
    if section == "bulk_load":
        from . import bulk

        return bulk.run(endpoint, plan.bulk_items, plan.bulk_rounds)
    if section == "data_io":  # notice import rows/s, XLSX export vs its query
        from . import data_io

        quick = plan.bulk_items < Plan.full().bulk_items
        rows, positions = (1_000, 100) if quick else (10_000, 1_000)
        return data_io.run(endpoint, rows, positions, plan.trials, plan.warmup, rounds=plan.bulk_rounds)
    if section == "hot_keys":  # the load model: units per partition key at the production target
        from . import hot_keys

        return hot_keys.run(endpoint, quick=plan.bulk_items < Plan.full().bulk_items)
    raise ValueError(section)
