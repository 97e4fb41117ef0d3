"""Section 3: the document and position pages through gunicorn (2 workers) on loopback,
signed in, against the bench's DynamoDB Local; compared with the data-layer query each page
makes, measured in this process in the same trials."""

from __future__ import annotations

import http.client
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fundportal.dynamodb_local import free_port
from fundportal.store import tables
from fundportal.store.gateway import TableGateway
from fundportal.store.repositories import DocumentRepository, PositionRepository

from . import data
from .common import Samples, interleave, load, percentile, raw_client, timed

BASE_DIR = Path(__file__).resolve().parent.parent
TABLE = "bench_pages"
WORKERS = 2
DOCUMENTS = 10
POSITIONS = 100
DOCUMENT = "PG_00"
POSITION = "POS_0000"  # in all 10 documents: 30 entries on its page
FUND = "FUND_BIG"  # a fund of FUND_POSITIONS positions, its page one Query of their registers
FUND_POSITIONS = 1_000


class Session:
    """A keep-alive HTTP connection carrying the signed-in session cookie."""

    def __init__(self, port: int, cookies: dict[str, str], token: str = "") -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies = cookies
        self.token = token  # an API token: sent as a bearer token instead of the session cookie

    def get(self, path: str) -> tuple[int, bytes]:
        if self.token:
            headers = {"Authorization": f"Bearer {self.token}"}
        else:
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        self.connection.request("GET", path, headers=headers)
        response = self.connection.getresponse()
        return response.status, response.read()

    def close(self) -> None:
        self.connection.close()


def sign_in(port: int, username: str, password: str) -> dict[str, str]:
    """Sign in through the login form (CSRF included); returns the cookies."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/accounts/login/")
    response = connection.getresponse()
    body = response.read().decode()
    cookies = _cookies(response)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)  # type: ignore[union-attr]
    form = urllib.parse.urlencode({"username": username, "password": password, "csrfmiddlewaretoken": token})
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
        "Referer": f"http://127.0.0.1:{port}/accounts/login/",
    }
    connection.request("POST", "/accounts/login/", body=form, headers=headers)
    response = connection.getresponse()
    response.read()
    cookies.update(_cookies(response))
    connection.close()
    if response.status != 302 or "sessionid" not in cookies:
        raise RuntimeError(f"sign-in failed (HTTP {response.status})")
    return cookies


def _cookies(response: http.client.HTTPResponse) -> dict[str, str]:
    out = {}
    for header in response.headers.get_all("Set-Cookie") or []:
        name, _, rest = header.partition("=")
        out[name.strip()] = rest.split(";", 1)[0]
    return out


def server_env(endpoint: str, workdir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fundportal.settings.local",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "DYNAMODB_ENDPOINT_URL": endpoint,
        "DYNAMODB_TABLE": TABLE,
        "DJANGO_LOG_LEVEL": "WARNING",
        "DJANGO_SUPERUSER_USERNAME": "bench",
        "DJANGO_SUPERUSER_PASSWORD": secrets.token_urlsafe(16),
        "API_THROTTLE_RATE": "1000000/min",  # the bench is not a client to throttle
    }


def manage(env: dict[str, str], *args: str) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed: {result.stderr.strip()[-400:]}")


def api_token(env: dict[str, str]) -> str:
    """A read-API token for the bench's analyst (`manage.py api_token create` prints it once)."""
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "api_token",
            "create",
            "--user",
            env["DJANGO_SUPERUSER_USERNAME"],
            "--name",
            "bench",
        ],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"api_token create failed: {result.stderr.strip()[-400:]}")
    return result.stdout.strip()


def start_gunicorn(env: dict[str, str], port: int, log: Any) -> subprocess.Popen:
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "fundportal.wsgi:application",
        "--workers",
        str(WORKERS),
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            return process
        except OSError:
            time.sleep(0.3)
    process.terminate()
    raise RuntimeError("gunicorn did not answer within 60 s")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def load_data(endpoint: str) -> None:
    tables.create(TABLE)
    positions = [f"POS_{n:04d}" for n in range(POSITIONS)]
    items = []
    for number in range(DOCUMENTS):
        items += data.document(f"PG_{number:02d}", positions, number, history=number == 0)
    load(raw_client(endpoint), TABLE, data.typed(items))
    load_fund(endpoint, TABLE, FUND_POSITIONS)


def load_fund(endpoint: str, table: str, positions: int) -> None:
    """The registers of a fund of `positions` positions (the fund page's one Query reads them)."""
    load(raw_client(endpoint), table, data.typed(data.fund_registers(FUND, positions)))


def fund_query_cost(table: str) -> dict[str, Any]:
    """Requests, items and read units of the fund page's one Query (GSI_Entity_Document)."""
    from fundportal.store.instrumentation import collect
    from fundportal.store.repositories.register import RegisterRepository

    with collect() as requests:
        registers = RegisterRepository(TableGateway(table)).fund_positions(FUND)
    return {
        "requests": requests.count,
        "operations": requests.operations,
        "items": len(registers),
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


def run(endpoint: str, requests: int, concurrency: int, trials: int, warmup: int) -> dict[str, Any]:
    from django.urls import NoReverseMatch, reverse

    try:
        doc_path = reverse("documents:detail", kwargs={"document_id": DOCUMENT})
        pos_path = reverse("positions:detail", kwargs={"position_id": POSITION})
        fund_path = reverse("funds:detail", kwargs={"fund_id": FUND})
        api_fund_path = f"/api/v1/funds/{FUND}/lines"  # its first 100 lines, from the fund page's one Query
        api_pos_path = f"/api/v1/positions/{POSITION}"
    except NoReverseMatch as error:
        return {"skipped": f"the pages are not there yet ({error})"}
    load_data(endpoint)
    repository = DocumentRepository(TableGateway(TABLE))
    positions = PositionRepository(TableGateway(TABLE))
    from fundportal.store.repositories.register import RegisterRepository

    registers = RegisterRepository(TableGateway(TABLE))
    with tempfile.TemporaryDirectory(prefix="bench-pages-") as workdir:
        env = server_env(endpoint, Path(workdir))
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

                def page(path: str) -> Any:
                    def get() -> None:
                        status, _ = (api_session if path.startswith("/api/") else session).get(path)
                        if status != 200:
                            raise RuntimeError(f"{path} answered {status}")

                    return get

                # Latency: one request at a time, pages and their queries interleaved per trial.
                samples = interleave(
                    {
                        "document page": page(doc_path),
                        "document query": lambda: repository.overview(DOCUMENT),
                        "position page": page(pos_path),
                        "position query": lambda: positions.page(POSITION),
                        "fund page": page(fund_path),
                        "fund query": lambda: registers.fund_positions(FUND),
                        "API fund lines page": page(api_fund_path),
                        "API position history page": page(api_pos_path),
                    },
                    trials=max(trials, 20) * 2,
                    warmup=warmup + 2,
                )
                session.close()
                api_session.close()
                # Throughput: `concurrency` clients hammering one page.
                loaded = {
                    path: throughput(port, cookies, path, requests, concurrency, token)
                    for path in (doc_path, pos_path, fund_path, api_fund_path, api_pos_path)
                }
            finally:
                stop(server)
    rows = []
    # The API's endpoints against the queries of the pages they mirror.
    measured = (
        ("document", doc_path, "document"),
        ("position", pos_path, "position"),
        ("fund", fund_path, "fund"),
        ("API fund lines", api_fund_path, "fund"),
        ("API position history", api_pos_path, "position"),
    )
    for label, path, query in measured:
        page_s: Samples = samples[f"{label} page"]
        query_s: Samples = samples[f"{query} query"]
        rows.append(
            {
                "path": path,
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
        "fund_positions": FUND_POSITIONS,
        "fund_query": fund_query_cost(TABLE),
        "fund_page_over_query": rows[2]["page_over_query"],
        "api_fund_lines_over_query": rows[3]["page_over_query"],
        "api_position_over_query": rows[4]["page_over_query"],
    }
