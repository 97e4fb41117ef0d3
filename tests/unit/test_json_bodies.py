"""The read API's renderer writes every value as ninja's default renderer did: the same JSON
values (dates, datetimes to the millisecond with Z, Decimals as strings, string enums, pydantic
models), only without spaces and with UTF-8 instead of \\u escapes."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from ninja import Schema
from ninja.renderers import JSONRenderer

from fundportal.domain.kinds import Kind
from fundportal.web import json_bodies


class _Money(Schema):
    amount: str
    currency: str


BODY = {
    "as_of": date(2025, 9, 30),
    "updated_at": datetime(2025, 10, 1, 8, 30, 15, 123456, tzinfo=UTC),
    "updated_at_whole_second": datetime(2025, 10, 1, 8, 30, 15, tzinfo=UTC),
    "updated_at_elsewhere": datetime(2025, 10, 1, 8, 30, 15, 500, tzinfo=timezone(timedelta(hours=2))),
    "naive": datetime(2025, 10, 1, 8, 30),
    "amount": Decimal("1234567.50"),
    "kind": Kind.CAPITAL_CALL,
    "money": _Money(amount="10.00", currency="EUR"),
    "investor": "Société Générale",
    "lines": [{"percent": "62.5", "irr": None, "count": 3, "ratio": 0.25, "ok": True}],
}


def test_every_value_is_written_as_ninjas_default_renderer_wrote_it(rf):
    request = rf.get("/api/v1/")
    written = json_bodies.RENDERER.render(request, BODY, response_status=200)
    before = JSONRenderer().render(request, BODY, response_status=200)
    assert json.loads(written) == json.loads(before)


def test_datetimes_keep_the_millisecond_z_form_and_dates_their_iso_form():
    written = json.loads(json_bodies.dumps(BODY))
    assert written["updated_at"] == "2025-10-01T08:30:15.123Z"
    assert written["updated_at_whole_second"] == "2025-10-01T08:30:15Z"
    assert written["as_of"] == "2025-09-30"
    assert written["amount"] == "1234567.50"


def test_the_json_is_compact_utf8():
    written = json_bodies.dumps({"investor": "Société", "amount": ["1", "2"]})
    assert written == '{"investor":"Société","amount":["1","2"]}'.encode()


def test_a_value_neither_writes_is_refused():
    with pytest.raises(TypeError):
        json_bodies.dumps({"what": object()})
