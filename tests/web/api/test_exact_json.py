"""The exact bytes the clients get: the fund lines and the position history of the seed sample
are pinned (`pinned/*.json`, today's date written as "TODAY"), so a change in how the API builds
or serialises its JSON cannot move a byte, a key's place or a space unnoticed."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

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
