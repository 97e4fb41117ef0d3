"""`manage.py position remove|merge`: one line on success, one clear line and exit 1 (nothing
written) on a refusal, `--as-user` limited to what the user may edit."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from documents import services
from fundportal.domain.kinds import Kind
from fundportal.domain.position_entries import NetAssetValue
from fundportal.ops.register_repair import verify_positions
from fundportal.store.repositories.register import RegisterRepository
from tests.web.coverage_data import covering

pytestmark = pytest.mark.django_db


def _typo(investor_id: str = "INVESTOR_1") -> None:
    entry = NetAssetValue(
        document_id="DOC001",
        position_id="POSITON_1",
        fund_id="FUND_A",
        investor_id=investor_id,
        amount=Decimal(900_000),
        status="Active",
    )
    services.entry_record(entry=entry, user="typist")


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command("position", *args, stdout=out)
    return out.getvalue()


def test_merge_moves_the_entries_and_prints_one_line(draft_sample):
    _typo()
    line = _run("merge", "POSITON_1", "--into", "POSITION_1", "--user", "ops")
    assert line == "POSITON_1 merged into POSITION_1: 1 entries moved in 2 transactions; POSITON_1 removed\n"
    assert RegisterRepository().get("POSITON_1", consistent=True) is None
    assert verify_positions().differences == []


def test_a_refused_merge_is_one_clear_line_and_writes_nothing(draft_sample):
    _typo()
    with pytest.raises(CommandError, match=r"different investors: only a position of the same fund"):
        _run("merge", "POSITON_1", "--into", "POSITION_2")
    assert RegisterRepository().get("POSITON_1", consistent=True) is not None


def test_remove_refuses_a_position_with_entries_then_removes_it_once_empty(draft_sample):
    _typo(investor_id="INVESTOR_9")
    with pytest.raises(CommandError, match="POSITON_1 still has 1 entries"):
        _run("remove", "POSITON_1")
    services.entry_remove(document_id="DOC001", kind=Kind.NAV, position_id="POSITON_1", user="typist")
    assert _run("remove", "POSITON_1", "--user", "ops") == "POSITON_1 removed (fund FUND_A, investor INVESTOR_9)\n"
    with pytest.raises(CommandError, match="POSITON_1"):
        _run("remove", "POSITON_1")


@pytest.mark.coverage_as_granted
def test_as_user_may_only_change_positions_of_funds_the_user_edits(draft_sample):
    _typo()
    covering("reader", "FUND_A", can_edit=False)
    with pytest.raises(CommandError):
        _run("merge", "POSITON_1", "--into", "POSITION_1", "--as-user", "reader")
    assert RegisterRepository().get("POSITON_1", consistent=True) is not None


def test_a_bad_position_id_is_one_line(draft_sample):
    with pytest.raises(CommandError, match="Invalid position id"):
        _run("remove", "BAD#ID")
