"""`python -m bench.profile_pages`: the document, position and fund pages and the read API's
fund lines and position history, rendered in this process through Django's test client (every
middleware; a signed-in session in the database, or an API token), timed against the data-layer
query each page makes, and optionally cProfile'd.

The same page data as `make bench` section 3 (a 100-position document, one position across
10 documents, a 1,000-position fund) on a DynamoDB Local of its own, in memory. No gunicorn and
no HTTP: the ratios are lower than section 3's, but the per-page work they measure is the same,
and a profile shows where it goes. One core's worth of work: safe to run beside other jobs.

    .venv/bin/python -m bench.profile_pages                # ratios (20 trials)
    .venv/bin/python -m bench.profile_pages --profile fund # + the fund page's top functions
    .venv/bin/python -m bench.profile_pages --profile api-fund --sort cumulative
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

PAGES = ("document", "position", "fund", "api-fund", "api-position")
# The data-layer call each page makes: an API endpoint is held to its page's query.
QUERY_OF = {
    "document": "document",
    "position": "position",
    "fund": "fund",
    "api-fund": "fund",
    "api-position": "position",
}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_pages", description=__doc__)
    parser.add_argument("--trials", type=int, default=20, help="interleaved trials per page and query")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--profile", choices=PAGES, action="append", help="cProfile this page (repeatable)")
    parser.add_argument("--profile-calls", type=int, default=10, help="renders under the profiler")
    parser.add_argument("--top", type=int, default=40, help="functions listed per profile")
    parser.add_argument("--sort", default="tottime", help="pstats sort key (tottime, cumulative, ...)")
    parser.add_argument("--dump", type=Path, help="write each page's HTML here (compare two versions' output)")
    return parser.parse_args(argv)


def setup(workdir: Path, endpoint: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'db.sqlite3'}"
    # As in `make bench`: the throttle counts every call (one UPDATE) but never refuses one.
    os.environ.setdefault("API_THROTTLE_RATE", "1000000/min")
    from .pages import TABLE
    from .run import setup_django

    setup_django(endpoint, TABLE)
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)
    call_command("createcachetable", verbosity=0)


def signed_in_clients() -> tuple[Any, Any]:
    """A client with a signed-in session (the pages) and one with the same user's API token."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from api import tokens

    user = get_user_model().objects.create_superuser("bench", password="bench-only")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    token = tokens.issue(user, "profile_pages").token
    return client, Client(HTTP_HOST="127.0.0.1", HTTP_AUTHORIZATION=f"Bearer {token}")


def contenders() -> dict[str, Callable[[], Any]]:
    from django.urls import reverse

    from fundportal.store.gateway import TableGateway
    from fundportal.store.repositories import DocumentRepository, PositionRepository
    from fundportal.store.repositories.register import RegisterRepository

    from .pages import DOCUMENT, FUND, POSITION, TABLE

    client, api_client = signed_in_clients()
    paths = {
        "document": reverse("documents:detail", kwargs={"document_id": DOCUMENT}),
        "position": reverse("positions:detail", kwargs={"position_id": POSITION}),
        "fund": reverse("funds:detail", kwargs={"fund_id": FUND}),
        "api-fund": f"/api/v1/funds/{FUND}/lines",
        "api-position": f"/api/v1/positions/{POSITION}",
    }

    def page(path: str) -> Callable[[], Any]:
        def get() -> Any:
            response = (api_client if path.startswith("/api/") else client).get(path)
            if response.status_code != 200:
                raise RuntimeError(f"{path} answered {response.status_code}")
            return response

        return get

    documents = DocumentRepository(TableGateway(TABLE))
    positions = PositionRepository(TableGateway(TABLE))
    registers = RegisterRepository(TableGateway(TABLE))
    return {
        "document page": page(paths["document"]),
        "document query": lambda: documents.overview(DOCUMENT),
        "position page": page(paths["position"]),
        "position query": lambda: positions.page(POSITION),
        "fund page": page(paths["fund"]),
        "fund query": lambda: registers.fund_page(FUND),
        "api-fund page": page(paths["api-fund"]),
        "api-position page": page(paths["api-position"]),
    }


def profile(call: Callable[[], Any], calls: int, top: int, sort: str) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        call()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats(sort).print_stats(top)
    return out.getvalue()


def dump(calls: dict[str, Callable[[], Any]], directory: Path) -> None:
    """Each page's HTML (an endpoint's JSON), the per-request tokens (CSRF, the DynamoDB
    footer's timing) blanked."""
    directory.mkdir(parents=True, exist_ok=True)
    for name in PAGES:
        html = calls[f"{name} page"]().content.decode()
        if name.startswith("api-"):
            (directory / f"{name}.json").write_text(html)
            continue
        html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken" value=""', html)
        html = re.sub(r"RCU · [0-9.]+ ms", "RCU · ms", html)
        (directory / f"{name}.html").write_text(html)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from fundportal.dynamodb_local import start

    server = start(in_memory=True)
    try:
        with tempfile.TemporaryDirectory(prefix="profile-pages-") as workdir:
            setup(Path(workdir), server.endpoint)
            from .common import interleave
            from .pages import load_data

            load_data(server.endpoint)
            calls = contenders()
            if args.dump:
                dump(calls, args.dump)
            samples = interleave(calls, trials=args.trials, warmup=args.warmup)
            # CPU is steadier than wall time on a shared machine: page CPU - query CPU is the
            # page's own work (middleware, selector, template) in this process.
            print(
                "| page | page p50 ms | query p50 ms | page ÷ query | page CPU ms | query CPU ms | page's own CPU ms |"
            )
            print("|---|---|---|---|---|---|---|")
            for name in PAGES:
                page, query = samples[f"{name} page"], samples[f"{QUERY_OF[name]} query"]
                ratio, own = page.median / query.median, page.cpu_median - query.cpu_median
                print(
                    f"| {name} | {page.median:.1f} | {query.median:.1f} | {ratio:.2f}x "
                    f"| {page.cpu_median:.1f} | {query.cpu_median:.1f} | {own:.1f} |"
                )
            for name in args.profile or ():
                print(f"\n## {name} page, {args.profile_calls} renders\n", file=sys.stderr)
                print(profile(calls[f"{name} page"], args.profile_calls, args.top, args.sort), file=sys.stderr)
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
