"""Fund coverage on the pages: the same DynamoDB requests as before, writes refused outside the
scope with nothing written, investor pages limited to covered funds, imports, the admin and the
`coverage` command."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from documents import selectors
from fundportal.access import grants
from fundportal.access.models import FundCoverage, InvestorLink
from fundportal.domain.errors import NotFound
from fundportal.domain.kinds import Kind
from fundportal.store.instrumentation import page_log
from tests.notices import csv_bytes, notice_rows, upload_storage_in
from tests.web.coverage_data import add_fund_b, covering, lp, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.coverage_as_granted]

CALL = {
    "kind": "capital_call",
    "position_id": "POSITION_9",
    "fund_id": "FUND_A",
    "investor_id": "INVESTOR_9",
    "amount": "1000.00",
    "status": "Pending",
    "due_date": "",
}


@pytest.fixture
def funds(sample):
    add_fund_b()
    return sample


@pytest.mark.parametrize(
    ("url", "operations"),
    [
        ("/documents/DOC001/", ["Query"]),
        ("/positions/POSITION_1/", ["Query"]),
        ("/funds/FUND_A/", ["BatchGetItem", "Query"]),  # its summary, one page of positions
        ("/investors/INVESTOR_1/", ["Query"]),
        ("/funds/", ["Query", "BatchGetItem"]),  # the catalog, then the covered fund's summary
    ],
)
def test_coverage_costs_no_dynamodb_request(funds, url, operations, django_assert_dynamodb_requests):
    client = covering("alice", "FUND_A")
    with django_assert_dynamodb_requests(len(operations), operations):
        assert client.get(url).status_code == 200


def test_an_uncovered_fund_page_is_refused_after_the_same_single_read(funds, django_assert_dynamodb_requests):
    client = covering("bob", "FUND_B")
    with django_assert_dynamodb_requests(1, ["Query"]):
        assert client.get("/documents/DOC001/").status_code == 404


def test_a_fund_page_outside_the_scope_reads_nothing(funds, django_assert_dynamodb_requests):
    client = covering("bob", "FUND_B")
    with django_assert_dynamodb_requests(0):
        assert client.get("/funds/FUND_A/").status_code == 404


def test_the_investor_page_shows_only_covered_funds_lines_and_totals(funds):
    text = covering("bob", "FUND_B").get("/investors/INVESTOR_1/").content.decode()
    assert 'data-position="POSITION_B2"' in text
    assert "POSITION_1" not in text and "FUND_A" not in text
    assert "2,000,000.00" not in text  # POSITION_1's commitment is not in the totals


def test_a_write_in_an_uncovered_fund_is_404_and_writes_nothing(funds):
    client = covering("bob", "FUND_B")
    response = client.post("/documents/DOC001/entries/new/", CALL)
    assert response.status_code == 404
    page = selectors.document_overview(document_id="DOC001")
    assert "POSITION_9" not in {row.position_id for row in page.rows}


def test_a_write_in_a_fund_covered_read_only_is_403_and_writes_nothing(funds):
    client = covering("carol", "FUND_A", can_edit=False)
    grants.grant_funds(funds=["FUND_B"], user=client.user, can_edit=True)
    assert client.get("/documents/DOC001/").status_code == 200
    assert b'data-testid="record-entry"' not in client.get("/documents/DOC001/").content
    assert client.post("/documents/DOC001/entries/new/", CALL).status_code == 403
    assert "POSITION_9" not in {row.position_id for row in selectors.document_overview(document_id="DOC001").rows}


def test_per_fund_edit_rights_let_an_analyst_write_in_that_fund(funds):
    client = covering("alice", "FUND_A", can_edit=True)
    assert b'data-testid="record-entry"' in client.get("/documents/DOC001/").content
    nav = {**CALL, "kind": "nav", "position_id": "POSITION_1", "investor_id": "INVESTOR_1", "status": "Active"}
    assert client.post("/documents/DOC001/entries/new/", nav).status_code == 302
    # DOC001 is approved: the new entry waits for another user's approval.
    written = selectors.entry(document_id="DOC001", kind=Kind.NAV, position_id="POSITION_1")
    assert written.restated is not None and written.restated.added
    assert written.restated.amount == Decimal("1000.00") and written.updated_by == "alice"


def test_creating_a_document_in_an_uncovered_fund_is_a_form_error(funds):
    client = covering("bob", "FUND_B")
    form = {"document_id": "DOC777", "title": "x", "fund_id": "FUND_A", "as_of_date": "2025-11-30", "currency": "USD"}
    response = client.post("/documents/new/", {**form, "document_type": "other", "status": "Active"})
    assert response.status_code == 400
    assert "You may not create documents in fund" in response.content.decode()
    with pytest.raises(NotFound):
        selectors.document_header(document_id="DOC777")


def test_an_import_row_in_an_uncovered_fund_is_a_preview_error(funds, settings, tmp_path):
    settings.STORAGES = {**settings.STORAGES, "imports": upload_storage_in(tmp_path / "imports")}
    client = covering("bob", "FUND_B")
    data = csv_bytes(notice_rows(1, fund_id="FUND_N"))
    response = client.post("/documents/import/", {"file": SimpleUploadedFile("notice.csv", data)})
    assert response.status_code == 400
    text = response.content.decode()
    assert "You may not import into fund" in text and "FUND_N" in text, text[text.find("import-errors") :][:600]
    grants.grant_funds(funds=["FUND_N"], user=client.user, can_edit=True)
    response = client.post("/documents/import/", {"file": SimpleUploadedFile("notice.csv", data)})
    assert response.status_code == 200


def test_the_lp_user_has_no_edit_controls_and_every_post_is_refused(funds):
    client = lp("lp", "INVESTOR_1")
    position = client.get("/positions/POSITION_1/").content.decode()
    assert 'data-testid="edit-commitment"' not in position
    cells = client.get("/documents/DOC001/positions/POSITION_1/").content.decode()
    assert "Change" not in cells and "Remove" not in cells
    assert b"New document" not in client.get("/documents/").content
    assert client.post("/documents/DOC001/entries/new/", CALL).status_code == 403
    assert client.post("/positions/POSITION_1/commitment/", {"commitment": "1"}).status_code == 403
    assert client.post("/documents/DOC001/restate/", {}).status_code == 403


def test_the_lp_user_lists_no_document_and_no_fund(funds):
    client = lp("lp", "INVESTOR_1")
    assert b"DOC001" not in client.get("/documents/").content
    assert b"FUND_A" not in client.get("/funds/").content


def test_coverage_given_or_taken_counts_on_the_next_request(funds):
    client = make_user("dave")
    assert client.get("/documents/DOC001/").status_code == 404
    group = Group.objects.create(name="Fund A team")
    client.user.groups.add(group)
    grants.grant_funds(funds=["FUND_A"], group=group)
    assert client.get("/documents/DOC001/").status_code == 200
    grants.revoke_funds(funds=["FUND_A"], group=group)
    assert client.get("/documents/DOC001/").status_code == 404
    grants.grant_all_funds(user=client.user)
    assert client.get("/documents/DOC900/").status_code == 200


def test_the_explorer_shows_staff_the_funds_they_cover(funds):
    client = covering("ops", "FUND_B")
    client.user.is_staff = True
    client.user.save()
    covered = client.get("/admin/dynamodb/explorer/", {"document": "DOC900"}).content.decode()
    assert "987654.32" in covered
    uncovered = client.get("/admin/dynamodb/explorer/", {"document": "DOC001"}).content.decode()
    assert "500000" not in uncovered and "FUND_A" not in uncovered


def test_the_admin_shows_who_covers_what(funds, django_user_model):
    root = django_user_model.objects.create_superuser("root", password="root-pass-123")
    alice = covering("alice", "FUND_A")
    lp("lp", "INVESTOR_1")
    admin = Client()
    admin.force_login(root)
    listing = admin.get("/admin/access/fundcoverage/").content.decode()
    assert "FUND_A" in listing and "user alice" in listing
    assert "INVESTOR_1" in admin.get("/admin/access/investorlink/").content.decode()
    user_page = admin.get(f"/admin/auth/user/{alice.user.pk}/change/").content.decode()
    assert "FUND_A" in user_page


def _coverage(*args: str) -> str:
    out = io.StringIO()
    call_command("coverage", *args, stdout=out)
    return out.getvalue()


def test_the_coverage_command_grants_lists_and_revokes(funds, django_user_model):
    django_user_model.objects.create_user("erin")
    Group.objects.create(name="Heads of operations")
    assert _coverage("grant", "--user", "erin", "--fund", "FUND_A", "--fund", "FUND_B", "--edit") == (
        "Granted for user erin: fund FUND_A (edit), fund FUND_B (edit).\n"
    )
    assert _coverage("grant", "--group", "Heads of operations", "--all-funds") == (
        "Granted for group Heads of operations: all funds.\n"
    )
    _coverage("grant", "--user", "erin", "--investor", "INVESTOR_1")
    listed = _coverage("list", "--user", "erin")
    assert listed.splitlines() == [
        "user erin: fund FUND_A (read, edit)",
        "user erin: fund FUND_B (read, edit)",
        "user erin: investor INVESTOR_1 (read own)",
    ]
    assert "group Heads of operations: all funds (read)" in _coverage("list")
    _coverage("revoke", "--user", "erin", "--fund", "FUND_B", "--investor", "INVESTOR_1")
    assert list(FundCoverage.objects.values_list("fund_id", flat=True)) == ["FUND_A"]
    assert not InvestorLink.objects.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("grant", "--user", "nobody", "--fund", "FUND_A"), "No user 'nobody'."),
        (("grant", "--fund", "FUND_A"), "grant and revoke need --user U or --group G."),
        (("grant", "--user", "erin"), "Say what"),
        (("grant", "--user", "erin", "--fund", "BAD#ID"), "Invalid fund id"),
    ],
)
def test_the_coverage_command_refuses_bad_input_in_one_line(db, django_user_model, args, message):
    django_user_model.objects.create_user("erin")
    with pytest.raises(CommandError, match=message.replace("(", r"\(")):
        call_command("coverage", *args, stdout=io.StringIO())


def test_commands_read_every_fund_by_default_and_one_users_coverage_with_as_user(funds, django_user_model):
    covering("bob", "FUND_B")
    out = io.StringIO()
    call_command("position_report", "POSITION_1", "--format", "csv", stdout=out)
    assert "DOC001,2025-09-30,capital_call,500000.00" in out.getvalue()
    call_command("position_report", "POSITION_1", "--all-funds", "--format", "csv", stdout=io.StringIO())
    with pytest.raises(CommandError, match="POSITION_1"):
        call_command("position_report", "POSITION_1", "--as-user", "bob", stdout=io.StringIO())
    with pytest.raises(CommandError):
        call_command("document_history", "DOC001", "--as-user", "bob", stdout=io.StringIO(), stderr=io.StringIO())
    with pytest.raises(CommandError, match="No user 'nobody'"):
        call_command("document_history", "DOC001", "--as-user", "nobody", stdout=io.StringIO())


def test_the_lp_user_lands_on_links_to_their_own_investor_pages(funds):
    page = lp("lp", "INVESTOR_1").get("/documents/").content.decode()
    assert 'href="/investors/INVESTOR_1/"' in page
    assert 'data-testid="own-investors"' not in covering("alice", "FUND_A").get("/documents/").content.decode()


def test_the_lp_user_gets_no_link_to_a_fund_page(funds):
    client = lp("lp", "INVESTOR_1")
    for url in ("/investors/INVESTOR_1/", "/positions/POSITION_1/"):
        page = client.get(url).content.decode()
        assert 'href="/funds/FUND' not in page, url
    assert 'href="/funds/FUND_A/"' in covering("alice", "FUND_A").get("/investors/INVESTOR_1/").content.decode()


def test_the_request_log_shows_staff_covering_some_funds_only_their_own_requests(funds, django_user_model):
    page_log.clear()
    covering("alice", "FUND_A").get("/documents/DOC001/")
    ops = covering("ops", "FUND_B")
    ops.user.is_staff = True
    ops.user.save()
    ops.get("/documents/DOC900/")
    log = ops.get("/admin/dynamodb/requests/").content.decode()
    assert "/documents/DOC900/" in log and "/documents/DOC001/" not in log
    root = django_user_model.objects.create_superuser("root", password="root-pass-123")
    head = Client()
    head.force_login(root)
    everything = head.get("/admin/dynamodb/requests/").content.decode()
    assert "/documents/DOC001/" in everything and "/documents/DOC900/" in everything
