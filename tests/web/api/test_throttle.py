"""The throttle counts every call of a token exactly, however many workers call at once: one
atomic UPDATE of the token's row a call (`api.throttle`), a fixed window, 429 with the seconds
to the window's end."""

from __future__ import annotations

import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from api import throttle, tokens
from api.models import ApiToken

BASE_DIR = Path(__file__).resolve().parents[3]
WORKER = "tests.web.api.throttle_worker"


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("120/min", throttle.Rate(120, 60)),
        ("2/s", throttle.Rate(2, 1)),
        ("10/5s", throttle.Rate(10, 5)),
        ("1000/day", throttle.Rate(1000, 86400)),
        ("30/2h", throttle.Rate(30, 7200)),
    ],
)
def test_a_rate_is_calls_a_window(text, rate):
    assert throttle.parse_rate(text) == rate


@pytest.mark.parametrize("text", ["", "120", "x/min", "10/fortnight", "-1/min"])
def test_a_malformed_rate_is_refused(text):
    with pytest.raises(ValueError):
        throttle.parse_rate(text)


@pytest.mark.django_db
def test_a_window_allows_its_calls_then_says_when_it_ends(analyst):
    token = tokens.issue(analyst, "notebook").record
    rate = throttle.Rate(3, 60)
    start = 1_800_000_000.0  # a window's first second
    assert [throttle.take_call(token.pk, rate, start + s) for s in (0, 1, 2)] == [None, None, None]
    assert throttle.take_call(token.pk, rate, start + 20) == 40.0
    assert throttle.take_call(token.pk, rate, start + 59.5) == 1.0  # never less than a second
    # The refused calls were not counted; the next window starts again at one.
    assert throttle.take_call(token.pk, rate, start + 60) is None
    assert ApiToken.objects.values_list("window_start", "window_calls").get() == (int(start) + 60, 1)


@pytest.mark.django_db
def test_each_token_has_its_own_count(analyst):
    first, second = (tokens.issue(analyst, name).record for name in ("first", "second"))
    rate = throttle.Rate(1, 60)
    assert throttle.take_call(first.pk, rate, 1_800_000_000.0) is None
    assert throttle.take_call(first.pk, rate, 1_800_000_001.0) is not None
    assert throttle.take_call(second.pk, rate, 1_800_000_001.0) is None


@pytest.mark.django_db(transaction=True)
def test_threads_calling_at_once_get_exactly_the_limit(analyst):
    token = tokens.issue(analyst, "busy").record
    rate, now = throttle.Rate(25, 3600), time.time()

    def call(_: int) -> bool:
        from django.db import connection

        try:
            return throttle.take_call(token.pk, rate, now) is None
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        allowed = sum(pool.map(call, range(80)))
    assert allowed == 25


@pytest.mark.slow
def test_processes_calling_at_once_get_exactly_the_limit(tmp_path):
    """Six processes on one database file, like gunicorn workers, 15 calls each at the same
    instant against a limit of 40: exactly 40 pass."""
    database = str(tmp_path / "shared.sqlite3")

    def run(*args: str) -> subprocess.Popen[str]:
        command = [sys.executable, "-m", WORKER, *args]
        return subprocess.Popen(command, cwd=BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    setup = run("setup", database)
    out, err = setup.communicate(timeout=120)
    assert setup.returncode == 0, err
    token_id = out.strip()
    start_at = f"{time.time() + 4:.3f}"  # after every process has started Django
    workers = [run("calls", database, token_id, "15", "40", start_at) for _ in range(6)]
    counts = []
    for worker in workers:
        out, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
        counts.append(int(out))
    assert sum(counts) == 40, counts
