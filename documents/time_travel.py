"""The document list and the document page as of a date (`?as_of=`, parsed by
`fundportal.web.time_travel`): documents dated after it are left out of the list, and a document
dated after it says so (`DatedAfter`, a 404 with its message) instead of showing an empty page."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from documents.list_selectors import ListFilters
from fundportal.domain.errors import DatedAfter
from fundportal.domain.model import Document


def list_filters_as_of(filters: ListFilters, as_of: date | None) -> ListFilters:
    """`filters` with documents dated after `as_of` left out (the earlier of its "as of to" and
    `as_of`)."""
    if as_of is None or (filters.end is not None and filters.end <= as_of):
        return filters
    return replace(filters, end=as_of)


def check_dated_by(document: Document, as_of: date | None) -> None:
    """DatedAfter when `document` is dated after `as_of` (it did not count then)."""
    if as_of is not None and document.as_of_date is not None and document.as_of_date > as_of:
        raise DatedAfter("Document", document.document_id, document.as_of_date, as_of)
