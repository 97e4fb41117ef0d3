"""Install, start and stop AWS DynamoDB Local (the jar inside the npm package
amplify-dynamodb-simulator), for `make run`, the test fixtures and the benchmarks.

    python -m fundportal.dynamodb_local install
    python -m fundportal.dynamodb_local serve [--port 8100] [--db-path var/dynamodb | --in-memory]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PACKAGE = "amplify-dynamodb-simulator"
VERSION = "2.9.30"
SHA1 = "a7ec81c475dc309aa15d047d8d03679c8be49189"
BASE_DIR = Path(__file__).resolve().parent.parent
INSTALL_DIR = BASE_DIR / "var" / "dynamodb-local"
EMULATOR_DIR = INSTALL_DIR / "emulator"
LAUNCHER = Path(__file__).resolve().parent / "LoopbackDynamoDBLocal.java"


class DynamoDBLocalError(RuntimeError):
    pass


def installed() -> bool:
    return (EMULATOR_DIR / "DynamoDBLocal.jar").exists()


def install(quiet: bool = False) -> Path:
    """Fetch only the package tarball with `npm pack`, verify its sha1, unpack the emulator."""
    if installed():
        return EMULATOR_DIR
    if shutil.which("npm") is None:
        raise DynamoDBLocalError("npm is required to fetch DynamoDB Local: install Node.js 20+ (with npm)")
    INSTALL_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=INSTALL_DIR) as tmp:
        if not quiet:
            print(f"Fetching {PACKAGE}@{VERSION} (DynamoDB Local, ~56 MB) with npm pack...", flush=True)
        result = subprocess.run(
            ["npm", "pack", f"{PACKAGE}@{VERSION}", "--silent"], cwd=tmp, capture_output=True, text=True
        )
        if result.returncode != 0:
            raise DynamoDBLocalError(f"npm pack {PACKAGE}@{VERSION} failed: {result.stderr.strip()[-300:]}")
        tarball = Path(tmp) / f"{PACKAGE}-{VERSION}.tgz"
        digest = hashlib.sha1(tarball.read_bytes()).hexdigest()  # noqa: S324 - npm's published shasum
        if digest != SHA1:
            raise DynamoDBLocalError(f"{tarball.name} sha1 is {digest}, expected {SHA1}: refusing to use it")
        staging = Path(tmp) / "unpacked"
        with tarfile.open(tarball) as archive:
            members = [m for m in archive.getmembers() if m.name.startswith("package/emulator/")]
            archive.extractall(staging, members=members, filter="data")
        shutil.rmtree(EMULATOR_DIR, ignore_errors=True)
        shutil.move(str(staging / "package" / "emulator"), EMULATOR_DIR)
    return EMULATOR_DIR


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class DynamoDBLocal:
    """A running DynamoDB Local process."""

    process: subprocess.Popen
    port: int
    log: Any = None

    def output(self) -> str:
        if self.log is None:
            return ""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self, timeout: float = 10) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def command_line(port: int, db_path: Path | None = None, in_memory: bool = False) -> list[str]:
    """The java command line. Always `-sharedDb`: one database whatever the credentials and
    region of the caller, so the portal, the AWS CLI and a test see the same tables."""
    command = [
        "java",
        "-Xmx1g",
        f"-Djava.library.path={EMULATOR_DIR / 'DynamoDBLocal_lib'}",
        # DynamoDB Local has no bind option; this launcher binds its connector to loopback.
        "-cp",
        f"{EMULATOR_DIR / 'DynamoDBLocal.jar'}:{EMULATOR_DIR / 'DynamoDBLocal_lib'}/*",
        str(LAUNCHER),
        "-port",
        str(port),
        "-disableTelemetry",
        "-sharedDb",
    ]
    if in_memory:
        return [*command, "-inMemory"]
    db_path = (db_path or BASE_DIR / "var" / "dynamodb").resolve()  # the JVM runs in EMULATOR_DIR
    db_path.mkdir(parents=True, exist_ok=True)
    return [*command, "-dbPath", str(db_path)]


def start(port: int | None = None, db_path: Path | None = None, in_memory: bool = False) -> DynamoDBLocal:
    """Start DynamoDB Local bound to 127.0.0.1 and wait until it answers."""
    if shutil.which("java") is None:
        raise DynamoDBLocalError("Java 17+ is required to run DynamoDB Local: install a JRE (e.g. openjdk-17-jre)")
    install()
    port = port or free_port()
    command = command_line(port, db_path, in_memory)
    log = tempfile.TemporaryFile()  # a file, not a pipe: a full pipe would block the JVM
    process = subprocess.Popen(command, cwd=EMULATOR_DIR, stdout=log, stderr=subprocess.STDOUT)
    server = DynamoDBLocal(process, port, log)
    try:
        wait_ready(server)
    except BaseException:  # including Ctrl-C or SIGTERM while waiting: never leave a JVM behind
        server.stop()
        raise
    return server


def wait_ready(server: DynamoDBLocal, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            err = server.output()
            raise DynamoDBLocalError(f"DynamoDB Local exited (code {server.process.returncode}): {err[-300:]}")
        if answers(server.endpoint):
            return
        time.sleep(0.2)
    raise DynamoDBLocalError(f"DynamoDB Local did not answer on {server.endpoint} within {timeout:g}s")


def answers(endpoint: str) -> bool:
    """True when something speaking HTTP answers at the endpoint (DynamoDB Local replies 400)."""
    try:
        urllib.request.urlopen(endpoint, timeout=1)  # noqa: S310 - loopback only
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("install", help="fetch and unpack DynamoDB Local under var/")
    serve = sub.add_parser("serve", help="run DynamoDB Local in the foreground until interrupted")
    serve.add_argument("--port", type=int, default=int(os.environ.get("DYNAMODB_LOCAL_PORT", 8100)))
    serve.add_argument("--db-path", type=Path, default=BASE_DIR / "var" / "dynamodb")
    serve.add_argument("--in-memory", action="store_true")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        if args.command == "install":
            print(f"DynamoDB Local ready in {install()}")
            return 0
        server = start(args.port, args.db_path, args.in_memory)
    except DynamoDBLocalError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    where = "in memory" if args.in_memory else f"data in {args.db_path}"
    print(f"DynamoDB Local listening on {server.endpoint} ({where})", flush=True)
    # SIGTERM raises SystemExit so the JVM is stopped from the main flow, not inside the
    # handler (Popen.wait() is not re-entrant).
    try:
        server.process.wait()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.stop()
    return 0


def _exit_on_signal(signum: int, frame: Any) -> None:
    raise SystemExit(0)


if __name__ == "__main__":
    sys.exit(main())
