"""Where uploads wait between the preview and the job that writes them: one storage every server
and worker process shares (`STORAGES["imports"]`: a directory locally, an S3 bucket across
machines), each upload named by its sha256."""

from __future__ import annotations

from django.core.files.storage import Storage, storages

from .reader import kind_of


def upload_storage() -> Storage:
    return storages["imports"]


def stored_name(checksum: str, filename: str) -> str:
    return f"{checksum}.{kind_of(filename)}"


def read_stored(name: str) -> bytes | None:
    """The stored upload's bytes, or None when it is not (or no longer) there."""
    storage = upload_storage()
    try:
        if not storage.exists(name):
            return None
        with storage.open(name, "rb") as stored:
            return stored.read()
    except OSError:
        return None


def discard(name: str) -> None:
    upload_storage().delete(name)
