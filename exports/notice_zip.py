"""Every LP notice of a notice document as one ZIP (`/documents/<doc>/notices.zip`): the same
PDFs as `/documents/<doc>/notices/<pos>.pdf` (`exports.notice`), one per position holding a
capital call or a distribution, in natural order of position ids.

Reads, all before the first byte is sent (a bad id or an empty document is a 404 page, never a
broken download): the document's partition (one Query, pattern 1: the document and every
position's entries) and the positions' registers (one BatchGetItem per 100). The PDFs are then
rendered one at a time while the ZIP streams (stdlib `zipfile` writing to a sink the response
drains after each file): memory holds one PDF, never the archive."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import NotFound
from fundportal.domain.ordering import natural_key
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.register import RegisterRepository

from .notice import NOTICE_KINDS, Notice, notice_of, notice_pdf


@dataclass(frozen=True, slots=True)
class DocumentNotices:
    document_id: str
    notices: list[Notice]  # in natural order of position ids

    @property
    def filename(self) -> str:
        return f"notices-{self.document_id}.zip"


def document_notices(
    *,
    document_id: str,
    scope: AccessScope = OPERATOR,
    documents: DocumentRepository | None = None,
    registers: RegisterRepository | None = None,
) -> DocumentNotices:
    """The notices of every position of the document that `scope` covers and that holds a call
    or a distribution (an LP user: their own). NotFound when there is none."""
    documents = documents or DocumentRepository()
    overview = documents.overview(document_id)
    rows = [
        row
        for row in overview.positions
        if any(kind in row.by_kind for kind in NOTICE_KINDS)
        and scope.covers_position(row.entries[0].fund_id, row.entries[0].investor_id)
    ]
    if not rows:
        raise NotFound("Notices", document_id)
    rows.sort(key=lambda row: natural_key(row.position_id))
    registers = registers or RegisterRepository(documents.gateway)
    found = {r.position_id: r for r in registers.in_full([row.position_id for row in rows])}
    notices = [notice_of(overview.document, row, found.get(row.position_id)) for row in rows]
    return DocumentNotices(document_id, [n for n in notices if n is not None])


class _Sink(io.RawIOBase):
    """A write-only, unseekable file the ZIP writes to; `drain` hands over what was written."""

    def __init__(self) -> None:
        super().__init__()
        self._parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:  # type: ignore[no-untyped-def]
        self._parts.append(bytes(data))
        return len(data)

    def drain(self) -> bytes:
        data = b"".join(self._parts)
        self._parts.clear()
        return data


def zip_chunks(files: Iterable[tuple[str, bytes]]) -> Iterator[bytes]:
    """A ZIP of `files` (name, content), yielded a file at a time (PDFs are compressed already:
    stored, not deflated). An unseekable sink makes `zipfile` write data descriptors."""
    sink = _Sink()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, content in files:
            archive.writestr(name, content)
            yield sink.drain()
    yield sink.drain()


def notices_zip(notices: DocumentNotices, *, generated_by: str) -> Iterator[bytes]:
    """The ZIP's bytes, each notice rendered (WeasyPrint) only when the stream reaches it."""
    return zip_chunks((n.filename, notice_pdf(n, generated_by=generated_by)) for n in notices.notices)
