"""A real browser: an editor uploads a notice, reads the preview (every row and the
totals), confirms, follows the import job's progress page to the new document; then downloads
its XLSX export. (The tests' immediate task backend has finished the job when its page opens.)

Headless Debian chromium via Playwright (`browser_page`) against the live server on DynamoDB Local.
"""

from __future__ import annotations

import io
import re

import openpyxl
import pytest

from tests.browser.test_browser_writes import EDITOR, accounts, sign_in  # noqa: F401 - `accounts` is a fixture
from tests.notices import csv_bytes, notice_rows, upload_storage_in

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = pytest.mark.browser


def test_upload_preview_confirm(local_backend, accounts, live_server, browser_page, tmp_path, settings):  # noqa: F811
    settings.STORAGES = {**settings.STORAGES, "imports": upload_storage_in(tmp_path / "imports")}
    page, base = browser_page, live_server.url
    notice = tmp_path / "q1-notice.csv"
    notice.write_bytes(csv_bytes(notice_rows(3)))
    sign_in(page, base, EDITOR)
    page.goto(f"{base}/documents/import/")
    page.get_by_label("Notice file (CSV or XLSX)").set_input_files(str(notice))
    page.get_by_role("button", name="Check the file").click()

    expect(page.locator('[data-testid="import-rows"] tbody tr')).to_have_count(9)
    expect(page.get_by_test_id("import-totals")).to_contain_text("USD 3,750,003.00")
    expect(page.get_by_test_id("import-summary")).to_contain_text("new document, 9 entries to write")
    page.get_by_role("button", name="Import 9 entries").click()

    page.wait_for_url(re.compile(r".*/documents/import/jobs/[0-9a-f-]+/$"))
    expect(page.get_by_test_id("import-job")).to_have_attribute("data-state", "done")
    expect(page.get_by_test_id("import-job-rows")).to_contain_text("9 of 9 (100 %)")
    expect(page.get_by_test_id("import-job-message")).to_contain_text(
        "Imported 9 rows from q1-notice.csv into NOTICE_1"
    )
    page.get_by_role("link", name="NOTICE_1").click()
    page.wait_for_url(f"{base}/documents/NOTICE_1/")
    expect(page.locator("tr[data-position]")).to_have_count(3)

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download XLSX").click()
    sheet = openpyxl.load_workbook(io.BytesIO(open(download_info.value.path(), "rb").read())).active
    header = [c.value for c in sheet[1]]
    totals = [r for r in sheet.iter_rows(min_row=2, values_only=True) if r[header.index("position_id")] == "TOTAL"]
    assert [r[header.index("called")] for r in totals] == [3_750_003]
