"""The access-pattern catalog (`fundportal/ops/access_patterns.py`): the design's twelve patterns;
running them against a table is tested through `manage.py access_patterns` and the admin page."""

from __future__ import annotations

from fundportal.ops.access_patterns import CATALOG


def test_catalog_lists_the_twelve_patterns_of_the_design():
    assert [p.number for p in CATALOG] == list(range(1, 13))
    assert "overview" in CATALOG[0].name
    assert [p.number for p in CATALOG if p.writes] == [10, 11, 12]
