"""A pytest plugin: record which DynamoDB operations each deployed role's code calls during the
suites, and fail the run when a role calls one its IAM policy lacks (fundportal/store/roles.py).

The role of a call is the entry point it came through, the outermost one winning (the process
that would run it in production):
- web: a request served by Django's handler (the test client, the live server of browser tests);
- operator: a management command (`call_command`, `manage.py`);
- worker: a background import job (`imports.jobs.ImportJobRun.run`), whatever enqueued it: in
  tests the immediate backend runs it inside the confirm's request, in production a `db_worker`
  process does, so the job is a boundary that starts its own role; and the import writing path
  (`imports.services.import_apply`) called outside the other entry points.
Calls made by tests directly on repositories or fixtures are nobody's and are not recorded.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import pytest

from fundportal.store import instrumentation
from fundportal.store.roles import GRANTS, Role, iam_actions

_role: ContextVar[Role | None] = ContextVar("iam_role", default=None)
# role -> IAM action -> the first entry point (test id, request path or command) that called it
direct_calls: dict[Role, dict[str, str]] = defaultdict(dict)
part_calls: dict[Role, dict[str, str]] = defaultdict(dict)


@contextmanager
def acting_as(role: Role, where: str, *, boundary: bool = False) -> Iterator[None]:
    """Record the DynamoDB calls made inside the block as `role`'s (unless a role is already
    acting and the block is no `boundary`: another process's entry point, such as a job)."""
    if _role.get() is not None and not boundary:
        yield
        return
    token = _role.set(role)
    try:
        with instrumentation.collect() as collector:
            yield
    finally:
        _role.reset(token)
        note(role, collector.records, where)


def note(role: Role, records: list[instrumentation.RequestRecord], where: str) -> None:
    for record in records:
        direct, parts = iam_actions(record.operation, record.parts)
        for action in direct:
            direct_calls[role].setdefault(action, where)
        for action in parts:
            part_calls[role].setdefault(action, where)


def violations() -> list[str]:
    """One line per action a role called without being granted it."""
    lines = []
    for role in Role:
        grant = GRANTS[role]
        for action in grant.lacks(direct_calls[role], ()):
            lines.append(f"{role} calls dynamodb:{action} (first from {direct_calls[role][action]})")
        for action in grant.lacks((), part_calls[role]):
            lines.append(
                f"{role} calls dynamodb:{action} inside TransactWriteItems (first from {part_calls[role][action]})"
            )
    return lines


def _wrap(owner: Any, name: str, role: Role, where: Callable[..., str], *, boundary: bool = False) -> None:
    original = getattr(owner, name)
    if getattr(original, "_iam_recording", False):
        return

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with acting_as(role, where(*args, **kwargs), boundary=boundary):
            return original(*args, **kwargs)

    wrapper._iam_recording = True  # type: ignore[attr-defined]
    setattr(owner, name, wrapper)


def install() -> None:
    """Tag the entry points (idempotent)."""
    from django.core.handlers.base import BaseHandler
    from django.core.management.base import BaseCommand

    import imports.jobs
    import imports.services

    _wrap(BaseHandler, "get_response", Role.WEB, lambda handler, request: f"{request.method} {request.path}")
    _wrap(BaseCommand, "execute", Role.OPERATOR, lambda command, *a, **k: f"command {type(command).__module__}")
    _wrap(imports.services, "import_apply", Role.WORKER, lambda *a, **k: "imports.services.import_apply")
    _wrap(imports.jobs.ImportJobRun, "run", Role.WORKER, lambda run: f"import job {run.job.filename}", boundary=True)


def pytest_configure(config: pytest.Config) -> None:
    install()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if violations() and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any) -> None:
    found = violations()
    if found:
        terminalreporter.section("IAM: operations a role calls but its policy lacks", red=True)
        for line in found:
            terminalreporter.write_line(line)
        terminalreporter.write_line("Grant them in fundportal/store/roles.py (or stop calling them).")
