"""Keys of notice imports: the import record, the import run and its publishing parts."""

from __future__ import annotations

from fundportal.domain.kinds import validate_checksum, validate_marker

from .parts import _join

# --- notice imports ----------------------------------------------------------------
#   Import record  PK=IMPORT#<sha256 of the file> SK=IMPORT: written by the transaction that
#                  publishes the import (never before): a re-run of the same file writes nothing.
#   Import run     PK=IMPORT_RUN#<marker> SK=RUN (marker: `fundportal.domain.kinds.import_marker`): written
#                  before the first entry (time, user, new documents: every run stamps the same),
#                  marked Published on publishing. A register lists the markers of the imports
#                  whose new-document entries it counts until they are published.
#   Publishing part PK=IMPORT_RUN#<marker> SK=PART#<nnn>: a file too large to publish in one
#                  transaction publishes in parts; each part's transaction puts its item (NEW), so
#                  a re-run knows the parts done and a concurrent run never publishes one twice.

IMPORT_PREFIX = "IMPORT"
IMPORT_RUN_PREFIX = "IMPORT_RUN"
IMPORT_RUN_SK = "RUN"
IMPORT_PART_PREFIX = "PART"


def import_record_keys(checksum: str) -> tuple[str, str]:
    """(PK, SK) of the record of a completed import of the file with this sha256."""
    return _join(IMPORT_PREFIX, validate_checksum(checksum)), IMPORT_PREFIX


def import_run_keys(marker: str) -> tuple[str, str]:
    """(PK, SK) of the run record of the import with this marker."""
    return _join(IMPORT_RUN_PREFIX, validate_marker(marker)), IMPORT_RUN_SK


def import_part_keys(marker: str, part: int) -> tuple[str, str]:
    """(PK, SK) of the item a publishing part of the import with this marker puts (beside its run)."""
    if part < 0:
        raise ValueError("a publishing part is numbered from 0")
    return _join(IMPORT_RUN_PREFIX, validate_marker(marker)), _join(IMPORT_PART_PREFIX, f"{part:03d}")
