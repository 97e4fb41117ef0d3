"""The portal as the bench serves it: gunicorn (`WORKERS` workers) on loopback against the bench's
DynamoDB Local, its environment and management commands, an API token, a signed-in session, and
a keep-alive connection per client."""

from __future__ import annotations

import http.client
import os
import re
import secrets
import signal
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
WORKERS = 2


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


def server_env(endpoint: str, workdir: Path, table: str) -> dict[str, str]:
    """The environment of the served portal: `table` on `endpoint`, a throwaway database in `workdir`."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fundportal.settings.local",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "DYNAMODB_ENDPOINT_URL": endpoint,
        "DYNAMODB_TABLE": table,
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
