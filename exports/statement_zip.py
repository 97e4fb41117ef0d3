"""A ZIP written as its files arrive (stdlib `zipfile` on a stream that cannot seek: each member
carries a data descriptor), for a StreamingHttpResponse: the archive is never held whole."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator


class _Sink(io.RawIOBase):
    """A write-only stream whose bytes are taken away as they are produced."""

    def __init__(self) -> None:
        self._chunks: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self._chunks.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        data = b"".join(self._chunks)
        self._chunks.clear()
        return data


def zip_stream(files: Iterable[tuple[str, bytes]]) -> Iterator[bytes]:
    """The ZIP of `files` ((name, content) pairs), a chunk per file and the directory at the end."""
    sink = _Sink()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in files:
            archive.writestr(name, content)
            yield sink.take()
    yield sink.take()
