"""What every key shares: the separator, the common markers and the join of key parts."""

from __future__ import annotations

from fundportal.domain.kinds import Kind

SEP = "#"
LATEST = "LATEST"
METADATA = "METADATA"
MONTH_SHARD_PREFIX = "LATEST_DOCS"
AUDIT_PREFIX = "AUDIT"
MONTH_CATALOG_PK = "CATALOG#MONTHS"
# Sorts above every date/revision suffix: '~' (0x7E) > '#' (0x23) > digits.
_HIGH = "~"


def kind_prefix(kind: Kind) -> str:
    """The `begins_with` prefix of a kind's sort keys, delimiter included: 'CAPITAL_CALL#'."""
    return kind.value + SEP


# All capital items of a document (pattern 4): CAPITAL_ACTIVITY#... and CAPITAL_CALL#...
CAPITAL_PREFIX = "CAPITAL_"


def _join(*parts: str) -> str:
    return SEP.join(parts)
