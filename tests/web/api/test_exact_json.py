"""The exact bytes the clients get: the fund lines and the position history of the seed sample
are pinned (`pinned/*.json`, today's date written as "TODAY"), so a change in how the API builds
or serialises its JSON cannot move a byte, a key's place or a space unnoticed."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from fundportal.perf import direct_json
from fundportal.web import json_bodies

pytestmark = pytest.mark.django_db

PINNED = Path(__file__).parent / "pinned"

PINNED_PATHS = {
    "fund_lines": "/api/v1/funds/FUND_A/lines",
    "fund_lines_as_of": "/api/v1/funds/FUND_A/lines?as_of=2025-10-31",
    "position_history": "/api/v1/positions/POSITION_1",
    "position_history_as_of": "/api/v1/positions/POSITION_1?as_of=2025-09-30",
}


def pinned(name: str) -> bytes:
    text = (PINNED / f"{name}.json").read_text().rstrip("\n")
    return text.replace('"TODAY"', f'"{date.today().isoformat()}"').encode()


@pytest.mark.parametrize(("name", "path"), PINNED_PATHS.items())
def test_the_json_of_fund_lines_and_position_history_is_byte_for_byte_pinned(sample, api_client, name, path):
    response = api_client.get(path)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response.content == pinned(name)


# Every endpoint on the sample, plain and with its parameters: the body sent as built (the speed
# trick) and the body ninja checked against the schema (the plain path) are the same bytes.
EVERY_ENDPOINT = [
    "/api/v1/documents",
    "/api/v1/documents?fund=FUND_A&from=2025-01-01",
    "/api/v1/documents/DOC001",
    "/api/v1/documents/DOC001?as_of=2025-10-31",
    "/api/v1/documents/DOC001/reconciliation",
    "/api/v1/documents/DOC001/audit",
    "/api/v1/positions/POSITION_1",
    "/api/v1/positions/POSITION_1?known_at=2030-01-01",
    "/api/v1/positions/POSITION_1/figures?as_of=2025-09-30",
    "/api/v1/positions/POSITION_1/reconciliation",
    "/api/v1/positions?fund=FUND_A",
    "/api/v1/positions?investor=INVESTOR_1",
    "/api/v1/funds",
    "/api/v1/funds?limit=1",
    "/api/v1/funds/FUND_A/lines",
    "/api/v1/funds/FUND_A/figures?as_of=2025-09-30",
    "/api/v1/funds/FUND_A/reconciliation",
    "/api/v1/investors",
    "/api/v1/investors/INVESTOR_1/lines",
    "/api/v1/investors/INVESTOR_1/figures",
    "/api/v1/investors/INVESTOR_1/reconciliation",
]


@pytest.fixture
def sender():
    """Put the process's direct sender (installed or not by `PerfConfig.ready()`) back after."""
    installed = json_bodies.direct_sender()
    yield json_bodies.set_direct_sender
    json_bodies.set_direct_sender(installed)


@pytest.mark.parametrize("path", EVERY_ENDPOINT)
def test_a_body_sent_as_built_is_byte_for_byte_the_body_ninja_checked(sample, api_client, sender, path):
    sender(None)
    checked = api_client.get(path)
    sender(direct_json.send)
    direct = api_client.get(path)
    assert checked.status_code == direct.status_code == 200, checked.content
    assert direct["Content-Type"] == checked["Content-Type"]
    assert direct.content == checked.content


def test_an_audit_trail_with_changes_is_the_same_bytes_either_way(sample, api_client, editor_client, sender):
    changed = {
        "kind": "capital_call",
        "position_id": "POSITION_1",
        "fund_id": "FUND_A",
        "investor_id": "INVESTOR_1",
        "amount": "600000",
        "status": "Completed",
        "currency": "USD",
        "due_date": "2025-10-15",
    }
    assert editor_client.post("/documents/DOC001/entries/capital_call/POSITION_1/edit/", changed).status_code == 302
    sender(None)
    checked = api_client.get("/api/v1/documents/DOC001/audit")
    sender(direct_json.send)
    direct = api_client.get("/api/v1/documents/DOC001/audit")
    assert b'"amount":["500000","600000"]' in direct.content
    assert direct.content == checked.content
