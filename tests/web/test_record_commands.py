"""`manage.py fund_record` / `investor_record`: set a record, keep the fields not given, and
refuse bad values or unknown funds with one line and nothing written."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from fundportal.store.repositories.records import RecordRepository

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue().strip()


def test_fund_record_sets_the_given_fields_and_keeps_the_others(sample):
    line = run("fund_record", "FUND_A", "--name", "Alpha Growth Fund", "--vintage", "2019", "--user", "ops")
    assert line == "FUND_A record saved: Alpha Growth Fund, vintage 2019 (revision 1)"
    run("fund_record", "FUND_A", "--gp", "Alpha GP", "--user", "ops")
    record = RecordRepository().fund("FUND_A", consistent=True)
    assert (record.name, record.vintage, record.gp, record.revision) == ("Alpha Growth Fund", 2019, "Alpha GP", 2)


def test_investor_record_sets_name_and_type(sample):
    line = run("investor_record", "INVESTOR_1", "--name", "Teachers", "--type", "pension", "--user", "ops")
    assert line == "INVESTOR_1 record saved: Teachers (Pension, revision 1)"


def test_a_refused_record_is_one_line_and_nothing_written(sample):
    with pytest.raises(CommandError, match="The vintage must be a year between 1900 and 2100"):
        run("fund_record", "FUND_A", "--name", "Alpha", "--vintage", "1700", "--user", "ops")
    with pytest.raises(CommandError, match="The name is required"):
        run("fund_record", "FUND_A", "--gp", "Alpha GP", "--user", "ops")
    with pytest.raises(CommandError, match="FUND_Z"):
        run("fund_record", "FUND_Z", "--name", "Nothing", "--user", "ops")
    assert RecordRepository().fund("FUND_A", consistent=True) is None
