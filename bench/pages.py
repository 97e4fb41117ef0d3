"""Section 3: the document and position pages through gunicorn (2 workers) on loopback,
signed in, against the bench's DynamoDB Local; compared with the data-layer query each page
makes, measured in this process in the same trials."""

from __future__ import annotations

import re
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fundportal.dynamodb_local import free_port
from fundportal.store import tables
from fundportal.store.gateway import TableGateway
from fundportal.store.repositories import DocumentRepository, PositionRepository

from . import data
from .common import Samples, interleave, load, percentile, raw_client, timed
from .portal_server import WORKERS, Session, api_token, manage, server_env, sign_in, start_gunicorn, stop

TABLE = "bench_pages"
# Latency rounds (each page and query once) per trial asked for: a page's time spreads widely
# between requests on a shared machine (a 30 ms page from 22 to 45 ms), so its median needs about
# a hundred samples to move by less than a few per cent between runs (120 by default).
LATENCY_TRIAL_FACTOR = 6
DOCUMENTS = 10
POSITIONS = 100
DOCUMENT = "PG_00"
POSITION = "POS_0000"  # in all 10 documents: 30 entries on its page
FUND = "FUND_BIG"  # a fund of FUND_POSITIONS positions: its page reads its summary and 100 registers
FUND_POSITIONS = 20_000
LIST_FUNDS, LIST_FUND_POSITIONS = 200, 100  # /funds/: 200 funds x 100 positions (summaries only)


def load_data(
    endpoint: str, fund_positions: int = FUND_POSITIONS, funds: tuple[int, int] = (LIST_FUNDS, LIST_FUND_POSITIONS)
) -> None:
    tables.create(TABLE)
    positions = [f"POS_{n:04d}" for n in range(POSITIONS)]
    items = []
    for number in range(DOCUMENTS):
        items += data.document(f"PG_{number:02d}", positions, number, history=number == 0)
    load(raw_client(endpoint), TABLE, data.typed(items))
    load_fund(endpoint, TABLE, fund_positions)
    load_funds(endpoint, TABLE, *funds)


def load_fund(endpoint: str, table: str, positions: int) -> None:
    """The registers and summary shards of a fund of `positions` positions."""
    load(raw_client(endpoint), table, data.typed(data.fund_registers(FUND, positions)))


def load_funds(endpoint: str, table: str, funds: int, positions: int) -> None:
    """`funds` funds of `positions` positions each (what `/funds/` lists, from their summaries)."""
    items = [item for n in range(funds) for item in data.fund_registers(f"LIST_F{n:03d}", positions)]
    load(raw_client(endpoint), table, data.typed(items))


def fund_reads(table: str, cursor: str | None = None) -> Any:
    """The fund page's data-layer reads: the summary shards and one page of registers."""
    from fundportal.store.repositories.register import RegisterRepository
    from fundportal.store.repositories.summaries import SummaryRepository

    gateway = TableGateway(table)
    SummaryRepository(gateway).fund(FUND)
    return RegisterRepository(gateway).fund_page(FUND, cursor)


def funds_list_reads(table: str) -> None:
    """`/funds/`'s data-layer reads: the catalog and every fund's summary shards."""
    from fundportal.store.repositories.register import RegisterRepository
    from fundportal.store.repositories.summaries import SummaryRepository

    gateway = TableGateway(table)
    SummaryRepository(gateway).funds(RegisterRepository(gateway).funds())


def middle_cursor(table: str, positions: int) -> str | None:
    """The cursor of the fund's middle page (walked to once, before anything is timed)."""
    from fundportal.store.repositories.register import RegisterRepository

    registers, cursor = RegisterRepository(TableGateway(table)), None
    for _ in range(max(positions // 100 // 2, 1)):
        cursor = registers.fund_page(FUND, cursor).next_cursor
        if cursor is None:
            break
    return cursor


def walk_to_middle(session: Session, fund_path: str, positions: int) -> str:
    """The path of the fund page's middle page, following its Next links (not timed)."""
    path = fund_path
    for _ in range(max(positions // 100 // 2, 1)):
        _, body = session.get(path)
        found = re.search(r'<a href="(\?cursor=[^"]+)" rel="next"', body.decode())
        if not found:
            break
        path = fund_path + found.group(1).replace("&amp;", "&")
    return path


def fund_query_cost(table: str, cursor: str | None = None) -> dict[str, Any]:
    """Requests, items and read units of the fund page's reads (summary + one page)."""
    from fundportal.store.instrumentation import collect

    with collect() as requests:
        page = fund_reads(table, cursor)
    return {
        "requests": requests.count,
        "operations": requests.operations,
        "items": len(page.registers),
        "read_units": round(sum(r.read_units for r in requests.records), 1),
    }


def funds_list_cost(table: str) -> dict[str, Any]:
    """Requests and read units of `/funds/`'s reads."""
    from fundportal.store.instrumentation import collect

    with collect() as requests:
        funds_list_reads(table)
    return {
        "requests": requests.count,
        "operations": sorted(set(requests.operations)),
        "read_units": round(sum(r.read_units for r in requests.records), 1),
    }


def throughput(
    port: int, cookies: dict[str, str], path: str, requests: int, concurrency: int, token: str = ""
) -> dict[str, Any]:
    """`requests` GETs of one page (or API endpoint, with `token`) from `concurrency` keep-alive clients."""
    sessions = [Session(port, cookies, token if path.startswith("/api/") else "") for _ in range(concurrency)]

    def worker(index: int) -> list[float]:
        session = sessions[index]
        latencies = []
        for _ in range(requests // concurrency):
            wall, _, (status, _) = timed(lambda: session.get(path))
            if status != 200:
                raise RuntimeError(f"{path} answered {status}")
            latencies.append(wall)
        return latencies

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        latencies = [ms for chunk in pool.map(worker, range(concurrency)) for ms in chunk]
    elapsed = time.perf_counter() - started
    for session in sessions:
        session.close()
    return {
        "requests": len(latencies),
        "p50_ms": round(percentile(latencies, 50), 2),
        "p95_ms": round(percentile(latencies, 95), 2),
        "rps": round(len(latencies) / elapsed, 1),
    }


def run(
    endpoint: str,
    requests: int,
    concurrency: int,
    trials: int,
    warmup: int,
    fund_positions: int = FUND_POSITIONS,
    funds: tuple[int, int] = (LIST_FUNDS, LIST_FUND_POSITIONS),
) -> dict[str, Any]:
    from django.urls import NoReverseMatch, reverse

    try:
        doc_path = reverse("documents:detail", kwargs={"document_id": DOCUMENT})
        pos_path = reverse("positions:detail", kwargs={"position_id": POSITION})
        fund_path = reverse("funds:detail", kwargs={"fund_id": FUND})
        api_fund_path = f"/api/v1/funds/{FUND}/lines"  # its first 100 lines, from the fund page's one Query
        api_pos_path = f"/api/v1/positions/{POSITION}"
        # An id the API refuses before any DynamoDB request: the read API's fixed cost (token,
        # throttle, routing, the problem JSON, gunicorn and HTTP).
        api_refused_path = "/api/v1/positions/a%23b"
        list_path = reverse("funds:list")
    except NoReverseMatch as error:
        return {"skipped": f"the pages are not there yet ({error})"}
    load_data(endpoint, fund_positions, funds)
    middle = middle_cursor(TABLE, fund_positions)  # signed by the bench process (its own queries)
    repository = DocumentRepository(TableGateway(TABLE))
    positions = PositionRepository(TableGateway(TABLE))
    with tempfile.TemporaryDirectory(prefix="bench-pages-") as workdir:
        env = server_env(endpoint, Path(workdir), TABLE)
        manage(env, "migrate", "--noinput")
        manage(env, "createcachetable")  # the shared cache (sessions, request log) is a DB cache locally
        manage(env, "ensure_analyst")
        manage(env, "collectstatic", "--noinput", "--verbosity", "0")
        token = api_token(env)
        port = free_port()
        with open(Path(workdir) / "gunicorn.log", "w+b") as log:
            server = start_gunicorn(env, port, log)
            try:
                cookies = sign_in(port, env["DJANGO_SUPERUSER_USERNAME"], env["DJANGO_SUPERUSER_PASSWORD"])
                session = Session(port, cookies)
                api_session = Session(port, cookies, token)
                middle_path = walk_to_middle(session, fund_path, fund_positions)  # the server's own cursors

                def page(path: str, expected: int = 200) -> Any:
                    def get() -> None:
                        status, _ = (api_session if path.startswith("/api/") else session).get(path)
                        if status != expected:
                            raise RuntimeError(f"{path} answered {status}, not {expected}")

                    return get

                # Latency: one request at a time, pages and their queries interleaved per trial.
                samples = interleave(
                    {
                        "document page": page(doc_path),
                        "document query": lambda: repository.overview(DOCUMENT),
                        "position page": page(pos_path),
                        "position query": lambda: positions.page(POSITION),
                        "fund page": page(fund_path),
                        "fund query": lambda: fund_reads(TABLE),
                        "API fund lines page": page(api_fund_path),
                        "API position history page": page(api_pos_path),
                        "API refused id page": page(api_refused_path, expected=400),
                        "fund middle page": page(middle_path),
                        "fund middle query": lambda: fund_reads(TABLE, middle),
                        "funds list page": page(list_path),
                        "funds list query": lambda: funds_list_reads(TABLE),
                    },
                    trials=max(trials * LATENCY_TRIAL_FACTOR, 20),
                    warmup=warmup + 2,
                )
                session.close()
                api_session.close()
                # Throughput: `concurrency` clients hammering one page.
                loaded = {
                    path: throughput(port, cookies, path, requests, concurrency, token)
                    for path in (doc_path, pos_path, fund_path, middle_path, list_path, api_fund_path, api_pos_path)
                }
            finally:
                stop(server)
    rows = []
    # The API's endpoints against the queries of the pages they mirror.
    measured = (
        ("document", doc_path, "document"),
        ("position", pos_path, "position"),
        ("fund", fund_path, "fund"),
        ("fund middle", middle_path, "fund middle"),
        ("funds list", list_path, "funds list"),
        ("API fund lines", api_fund_path, "fund"),
        ("API position history", api_pos_path, "position"),
    )
    for label, path, query in measured:
        page_s: Samples = samples[f"{label} page"]
        query_s: Samples = samples[f"{query} query"]
        rows.append(
            {
                "path": f"{fund_path} (middle page)" if label == "fund middle" else path,
                "requests": page_s.trials,
                "p50_ms": round(page_s.median, 2),
                "p95_ms": round(page_s.p95, 2),
                "query_p50_ms": round(query_s.median, 2),
                "page_over_query": round(page_s.median / query_s.median, 2),
                "rps": round(1000 / page_s.median, 1),
                "under_load": loaded[path],
            }
        )
    return {
        "workers": WORKERS,
        "concurrency": concurrency,
        "document_positions": POSITIONS,
        "position_documents": DOCUMENTS,
        "pages": rows,
        "page_over_query": rows[0]["page_over_query"],
        "position_page_over_query": rows[1]["page_over_query"],
        "fund_positions": fund_positions,
        "fund_query": fund_query_cost(TABLE),
        "fund_middle_query": fund_query_cost(TABLE, middle),
        "fund_page_over_query": rows[2]["page_over_query"],
        "fund_middle_page_over_query": rows[3]["page_over_query"],
        "list_funds": funds[0],
        "list_fund_positions": funds[1],
        "funds_list_query": funds_list_cost(TABLE),
        "funds_list_over_query": rows[4]["page_over_query"],
        "api_fund_lines_over_query": rows[5]["page_over_query"],
        "api_position_over_query": rows[6]["page_over_query"],
        "api_fixed_cost": {
            "path": api_refused_path,
            "p50_ms": round(samples["API refused id page"].median, 2),
            "of_position_query": round(samples["API refused id page"].median / samples["position query"].median, 2),
        },
    }
