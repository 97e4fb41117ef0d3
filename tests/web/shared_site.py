"""A site of gunicorn servers sharing one database, cache and upload storage, for
tests/web/test_shared_state.py: the one-off preparation (run as `python -m tests.web.shared_site`
with the site's environment), starting a server, and plain HTTP requests with a session cookie.

`held_pair` sends two requests so that two different workers of one 2-worker server answer them:
each request's headers are left unfinished while both connections are open, and a sync worker
that has accepted a connection reads only that one until its request is whole. The first
connection is accepted first (the listen queue is in order), so the second one is accepted by the
other worker; finishing the second request first lets it be answered before the first's worker is
free again."""

from __future__ import annotations

import http.client
import re
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent.parent
PASSWORD = "shared-state-pass-123"
VIEWER, EDITOR, REVOKED = "viewer", "editor", "revoked-editor"
ACCESS_LOG_FORMAT = '%(p)s %(s)s "%(r)s"'  # worker pid, status, request line


def prepare() -> None:
    """Django's tables, the cache table, the DynamoDB table with the seed sample, the users."""
    import django

    django.setup()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command

    from fundportal.access.grants import grant_all_funds
    from fundportal.models import EDITORS_GROUP

    call_command("migrate", verbosity=0)
    call_command("createcachetable")
    call_command("create_table", verbosity=0)
    call_command("seed_demo", sample=True, verbosity=0)
    editors = Group.objects.get(name=EDITORS_GROUP)
    grant_all_funds(group=editors)
    grant_all_funds(user=User.objects.create_user(VIEWER, password=PASSWORD))
    for name in (EDITOR, REVOKED):
        User.objects.create_user(name, password=PASSWORD).groups.add(editors)


@dataclass
class Server:
    """One gunicorn server (a "machine") of the site."""

    port: int
    process: subprocess.Popen
    access_log: Path

    def worker_pids(self, marker: str) -> list[str]:
        """The pids of the workers that answered the requests whose line contains `marker`."""
        lines = self.access_log.read_text().splitlines() if self.access_log.exists() else []
        return [line.split()[0] for line in lines if marker in line]


def start_server(env: dict[str, str], port: int, workers: int, logs: Path, name: str) -> Server:
    """gunicorn with `workers` sync workers on 127.0.0.1:`port` (not yet answering: `wait_until_up`)."""
    access_log = logs / f"{name}-access.log"
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "fundportal.wsgi:application",
        "--workers",
        str(workers),
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
        "--access-logfile",
        str(access_log),
        "--access-logformat",
        ACCESS_LOG_FORMAT,
    ]
    with open(logs / f"{name}.log", "ab") as log:
        process = subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
    return Server(port, process, access_log)


def wait_until_up(server: Server, seconds: float = 45) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"gunicorn on port {server.port} exited with {server.process.returncode}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=2)
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            connection.close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn on port {server.port} did not answer within {seconds:.0f} s")


@dataclass
class Reply:
    status: int
    location: str
    body: str
    cookies: dict[str, str] = field(default_factory=dict)


@dataclass
class Visitor:
    """A browser's cookies (session and CSRF) sent with every request."""

    cookies: dict[str, str]

    def raw(self, server: Server, method: str, path: str, body: bytes = b"", content_type: str = "") -> bytes:
        headers = {
            "Host": f"127.0.0.1:{server.port}",
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            "Connection": "close",
            "Content-Length": str(len(body)),
        }
        if method == "POST":
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        if content_type:
            headers["Content-Type"] = content_type
        head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        return f"{method} {path} HTTP/1.1\r\n{head}\r\n".encode() + body

    def send(self, server: Server, method: str, path: str, body: bytes = b"", content_type: str = "") -> Reply:
        """One request; the cookies it sets are kept for the next ones."""
        reply = HeldRequest(server, self.raw(server, method, path, body, content_type)).finish()
        self.cookies.update(reply.cookies)
        return reply

    def held_pair(self, server: Server, method: str, path: str, body: bytes = b"") -> list[Reply]:
        """The same request twice, answered by two different workers (see the module)."""
        content_type = "application/x-www-form-urlencoded" if method == "POST" else ""
        first = HeldRequest(server, self.raw(server, method, path, body, content_type))
        second = HeldRequest(server, self.raw(server, method, path, body, content_type))
        return [second.finish(), first.finish()]


class HeldRequest:
    """A request whose headers stay unfinished until `finish()`."""

    def __init__(self, server: Server, data: bytes) -> None:
        split = data.index(b"\r\n\r\n") + 2
        self.rest = data[split:]
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        self.sock.sendall(data[:split])

    def finish(self) -> Reply:
        try:
            self.sock.sendall(self.rest)
            chunks = []
            while chunk := self.sock.recv(65536):
                chunks.append(chunk)
        finally:
            self.sock.close()
        head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:]]
        location = next((value for name, value in headers if name.lower() == "location"), "")
        cookies = dict(value.split(";", 1)[0].split("=", 1) for name, value in headers if name.lower() == "set-cookie")
        return Reply(status, location, body.decode("utf-8", "replace"), cookies)


def multipart(fields: dict[str, str], filename: str, data: bytes) -> tuple[bytes, str]:
    """A form with one file (`file`) as multipart/form-data: (body, content type)."""
    boundary = "shared-state-boundary-7d1f"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n' for k, v in fields.items()]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        "Content-Type: text/csv\r\n\r\n"
    )
    body = "".join(parts).encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def hidden_value(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', html)
    if not found:
        raise AssertionError(f"no hidden field {name!r} in the page")
    return found.group(1)


if __name__ == "__main__":
    prepare()
