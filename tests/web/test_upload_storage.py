"""Uploaded notices wait for their confirm in the shared upload storage (`STORAGES["imports"]`),
read and written by name through Django's storage API: the same import works with the S3 bucket
production uses across machines (moto's S3 here) as with the local directory
(tests/web/test_data_io.py, tests/web/test_shared_state.py)."""

from __future__ import annotations

from decimal import Decimal

import boto3
import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from documents import selectors
from imports.services import checksum_of
from tests.conftest import signed_in_editor
from tests.notices import csv_bytes, notice_rows

pytestmark = pytest.mark.django_db

BUCKET = "fundportal-imports-test"


@pytest.fixture
def s3_uploads(backend, settings):
    """The upload storage as an S3 bucket (inside the moto backend's mock)."""
    boto3.client("s3", region_name="us-east-1").create_bucket(Bucket=BUCKET)
    settings.STORAGES = {
        **settings.STORAGES,
        "imports": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {"bucket_name": BUCKET, "location": "imports", "region_name": "us-east-1"},
        },
    }
    return storages["imports"]


@pytest.fixture
def editor_client(django_user_model) -> Client:
    return signed_in_editor(django_user_model, "importer")


def _stored_keys() -> list[str]:
    listing = boto3.client("s3", region_name="us-east-1").list_objects_v2(Bucket=BUCKET)
    return [item["Key"] for item in listing.get("Contents", [])]


def test_an_upload_waits_in_the_bucket_and_is_deleted_once_confirmed(s3_uploads, editor_client):
    data = csv_bytes(notice_rows(2))
    preview = editor_client.post("/documents/import/", {"file": SimpleUploadedFile("notice.csv", data)})
    assert preview.status_code == 200
    checksum = checksum_of(data)
    assert checksum in preview.content.decode()
    assert _stored_keys() == [f"imports/{checksum}.csv"]
    done = editor_client.post("/documents/import/confirm/", {"checksum": checksum, "filename": "notice.csv"})
    assert done.status_code == 302 and done["Location"].startswith("/documents/import/jobs/")
    (totals,) = selectors.document_overview(document_id="NOTICE_1").totals
    assert totals.called.amount == Decimal("2500001.00")
    assert _stored_keys() == []


def test_a_confirm_without_the_stored_upload_asks_for_it_again(s3_uploads, editor_client):
    response = editor_client.post(
        "/documents/import/confirm/", {"checksum": "0" * 64, "filename": "x.csv"}, follow=True
    )
    assert "no longer here" in response.content.decode()


def test_a_stored_upload_that_no_longer_matches_its_checksum_is_dropped(s3_uploads, editor_client):
    checksum = "1" * 64
    s3_uploads.save(f"{checksum}.csv", ContentFile(csv_bytes(notice_rows(1))))
    response = editor_client.post(
        "/documents/import/confirm/", {"checksum": checksum, "filename": "notice.csv"}, follow=True
    )
    assert "The uploaded file changed; upload it again." in response.content.decode()
    assert _stored_keys() == []  # the next upload of the real file stores it afresh
