"""Every URL of the site (walked from the project's URL map) x every kind of user -> the expected
status, and no id, name or figure of a fund the user does not cover in any body: pages, exports,
PDF statements, search.

Users: "alice" covers FUND_A (may edit), "bob" covers FUND_B (may edit), "lp" is INVESTOR_1's LP
user, "viewer" is signed in with no coverage, and an anonymous visitor. Each URL is requested
with FUND_A's ids (the seed sample) and with FUND_B's, so every signed-in user meets both a fund
they cover and one they do not."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.web.coverage_data import (
    FUND_A_MARKERS,
    FUND_B_MARKERS,
    NOT_INVESTOR_1,
    add_fund_b,
    body_text,
    covering,
    lp,
    make_user,
)
from tests.web.urlmap import Route, routes

pytestmark = [pytest.mark.django_db, pytest.mark.coverage_as_granted]

IDS = {
    "FUND_A": {
        "document_id": "DOC001",
        "position_id": "POSITION_1",
        "fund_id": "FUND_A",
        "investor_id": "INVESTOR_1",
        "kind": "capital_call",
    },
    "FUND_B": {
        "document_id": "DOC900",
        "position_id": "POSITION_B1",
        "fund_id": "FUND_B",
        "investor_id": "INVESTOR_B1",
        "kind": "capital_call",
    },
}
# Which fund each analyst covers, and what each user may never read.
COVERS = {"alice": "FUND_A", "bob": "FUND_B"}
HIDDEN = {
    "alice": FUND_B_MARKERS,
    "bob": FUND_A_MARKERS,
    "lp": NOT_INVESTOR_1,
    "viewer": FUND_A_MARKERS + FUND_B_MARKERS,
    "anonymous": FUND_A_MARKERS + FUND_B_MARKERS,
}
# The notice templates hold fixed example rows (their ids happen to be the sample's): no fund's data.
EXAMPLE_CONTENT = {"documents:imports:template_csv", "documents:imports:template_xlsx"}

# Pages by what they show; the route's namespaced name.
LISTS = {"documents:list", "documents:search", "funds:list", *EXAMPLE_CONTENT}
EDITOR_PAGES = {"documents:imports:upload", "documents:create", "documents:imports:fund_call"}
EDITOR_POST_ONLY = {"documents:imports:confirm"}
# An import job's pages: its own user's only (the dummy job is nobody's: 404 for every editor).
EDITOR_JOBS = {"documents:imports:job", "documents:imports:job_status"}
# A fund's statements job: its own user's only (the dummy job is nobody's: 404 for everyone).
STATEMENT_JOBS = {"funds:statements_job", "funds:statements_job_zip"}
# Submit and Approve are POSTs; who may take the step is the service's check (edit / approve rights).
APPROVAL_POST_ONLY = {"documents:submit", "documents:approve"}
DOCUMENT_READS = {
    "documents:detail",
    "documents:position",
    "documents:export_xlsx",
    "documents:export_csv",
    "documents:notice_pdf",
    "documents:notices_zip",  # every LP notice the user may see, as one ZIP
}
DOCUMENT_ANALYST_READS = {"documents:history", "documents:audit"}  # not for LP users
DOCUMENT_WRITES = {"documents:entry_add", "documents:entry_edit", "documents:entry_delete", "documents:restate"}
POSITION_READS = {
    "positions:detail",
    "positions:export",
    "positions:export_xlsx",
    "positions:statement",
    "positions:statement_xlsx",
}
POSITION_WRITES = {"positions:commitment", "positions:remove", "positions:merge"}
FUND_READS = {"funds:detail", "funds:export_xlsx", "funds:export_csv", "funds:statements_zip"}
INVESTOR_READS = {
    "investors:detail",
    "investors:export_csv",
    "investors:export_xlsx",
    "investors:statement_pdf",
    "investors:statement_xlsx",
}
FUND_RECORD = "funds:record"  # editors of the fund
INVESTOR_RECORD = "investors:record"  # editors of any fund the investor is in
# The user's own API tokens (no fund data): the list for anyone signed in; revoking is a POST.
ACCOUNT_PAGES = {"api_tokens:list"}
ACCOUNT_POST_ONLY = {"api_tokens:revoke"}
PROJECT_PAGES = (
    LISTS
    | EDITOR_PAGES
    | EDITOR_POST_ONLY
    | EDITOR_JOBS
    | STATEMENT_JOBS
    | APPROVAL_POST_ONLY
    | DOCUMENT_READS
    | DOCUMENT_ANALYST_READS
    | DOCUMENT_WRITES
    | POSITION_READS
    | POSITION_WRITES
    | FUND_READS
    | INVESTOR_READS
    | {FUND_RECORD, INVESTOR_RECORD}
    | ACCOUNT_PAGES
    | ACCOUNT_POST_ONLY
)
# Investors holding a position in each fund: INVESTOR_1 holds POSITION_B2 in FUND_B as well.
INVESTORS_IN = {"FUND_A": {"INVESTOR_1", "INVESTOR_2"}, "FUND_B": {"INVESTOR_B1", "INVESTOR_1"}}


def route_names() -> dict[str, Route]:
    """Each routed URL by its namespaced name (the admin's own pages apart)."""
    found = {}
    for route in routes():
        if route.is_admin and not route.template.startswith("/admin/dynamodb/"):
            continue
        found[_name(route)] = route
    return found


def _name(route: Route) -> str:
    prefix = route.template.split("/")[1]
    namespace = {
        "documents": "documents",
        "positions": "positions",
        "funds": "funds",
        "investors": "investors",
        "admin": "dynamodb_admin",
        "account": "api_tokens",
    }.get(prefix)
    if route.template.startswith("/documents/import/"):
        namespace = "documents:imports"
    return f"{namespace}:{route.name}" if namespace else f"{route.name or route.template}"


def expected_status(name: str, user: str, fund: str) -> int:
    """What `user` gets for the page `name` filled with `fund`'s ids."""
    ids = IDS[fund]
    if name == "healthz":
        return 200
    if name == "login":
        return 200 if user == "anonymous" else 302
    if name == "logout":
        return 302 if user == "anonymous" else 405  # sign-out is a POST, for signed-in users
    if name.startswith("dynamodb_admin:") or name == "/":
        return 302  # staff only (none of these users is staff); "/" redirects to the list
    assert name in PROJECT_PAGES, f"no expectation for {name}: add it to the matrix"
    if user == "anonymous":
        return 302
    covers = COVERS.get(user) == fund
    may_edit = user in COVERS
    own = user == "lp" and ids["investor_id"] == "INVESTOR_1"  # FUND_A's ids are INVESTOR_1's position
    if name in LISTS | ACCOUNT_PAGES:
        return 200
    if name in ACCOUNT_POST_ONLY:
        return 405
    if name in EDITOR_PAGES:
        return 200 if may_edit else 403
    if name in EDITOR_POST_ONLY:
        return 405 if may_edit else 403
    if name in EDITOR_JOBS:
        return 404 if may_edit else 403
    if name in STATEMENT_JOBS:
        return 404
    if name in APPROVAL_POST_ONLY:
        return 405
    if name == INVESTOR_RECORD:
        return 403 if not may_edit else 200 if ids["investor_id"] in INVESTORS_IN[COVERS[user]] else 404
    if name in DOCUMENT_WRITES | POSITION_WRITES | {FUND_RECORD}:
        return 403 if not may_edit else 200 if covers else 404
    if name in DOCUMENT_READS | POSITION_READS:
        return 200 if covers or own else 404
    if name in DOCUMENT_ANALYST_READS | FUND_READS:
        return 200 if covers else 404
    if name in INVESTOR_READS:
        if user == "lp":
            return 200 if own else 404
        held_in_covered = user in COVERS and ids["investor_id"] in INVESTORS_IN[COVERS[user]]
        return 200 if held_in_covered else 404
    raise AssertionError(name)


@pytest.fixture
def users(sample) -> dict[str, Client]:
    add_fund_b()
    return {
        "alice": covering("alice", "FUND_A"),
        "bob": covering("bob", "FUND_B"),
        "lp": lp("lp", "INVESTOR_1"),
        "viewer": make_user("viewer"),
        "anonymous": Client(),
    }


def _leaks(text: str, hidden: tuple[str, ...], url: str) -> list[str]:
    """Hidden markers in a body, except what the URL itself names (a 404 page repeats the id asked for)."""
    return [marker for marker in hidden if marker in text and marker not in url]


def test_every_url_for_every_user_has_its_status_and_shows_no_uncovered_fund(users):
    named = route_names()
    assert set(named) >= PROJECT_PAGES, sorted(PROJECT_PAGES - set(named))
    failures = []
    for name, route in sorted(named.items()):
        for fund in IDS:
            url = route.build(IDS[fund])
            for user, client in users.items():
                response = client.get(url)
                wanted = expected_status(name, user, fund)
                if response.status_code != wanted:
                    failures.append(f"{user} GET {url}: {response.status_code}, expected {wanted}")
                    continue
                if name in EXAMPLE_CONTENT:
                    continue
                leaks = _leaks(body_text(response), HIDDEN[user], url)
                if leaks:
                    failures.append(f"{user} GET {url} shows {leaks}")
    assert failures == []


@pytest.mark.parametrize("query", ["DOC", "FUND", "fund_a", "fund_b", "POSITION", "INVESTOR", "DOC001", "DOC900"])
def test_search_finds_nothing_of_a_fund_the_user_does_not_cover(users, query):
    for user, client in users.items():
        if user == "anonymous":
            continue
        response = client.get("/documents/search/", {"q": query}, follow=True)
        assert response.status_code in (200, 404), (user, query, response.status_code)
        leaks = _leaks(body_text(response), HIDDEN[user], f"?q={query}")
        assert leaks == [], (user, query, leaks)


def test_a_non_covering_analyst_gets_404_on_fund_a_pages_documents_positions_exports_and_search(users):
    bob = users["bob"]
    for url in (
        "/funds/FUND_A/",
        "/funds/FUND_A/export.xlsx",
        "/funds/FUND_A/export.csv",
        "/documents/DOC001/",
        "/documents/DOC001/export.csv",
        "/documents/DOC002/history/",
        "/positions/POSITION_1/",
        "/positions/POSITION_1/export.csv",
        "/positions/POSITION_1/statement.pdf",
        "/investors/INVESTOR_2/",
    ):
        assert bob.get(url).status_code == 404, url
    search = bob.get("/documents/search/", {"q": "DOC001"})
    assert search.status_code == 200 and b"DOC001 " not in search.content
    assert 'href="/documents/DOC001/"' not in search.content.decode()


def test_the_lp_user_sees_position_1_and_only_its_rows_on_doc001(users):
    client = users["lp"]
    page = client.get("/documents/DOC001/")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-position="POSITION_1"' in text
    assert 'data-position="POSITION_2"' not in text
    assert 'data-testid="document-totals"' not in text
    # the capital activity and its reconciliation against every position's calls are the fund's
    assert 'data-testid="activity-amount"' not in text and 'data-testid="reconciliation"' not in text
    assert 'data-testid="record-entry"' not in text and 'class="edit-link"' not in text
    assert client.get("/positions/POSITION_1/").status_code == 200
    assert client.get("/positions/POSITION_2/").status_code == 404


def test_searching_an_uncovered_id_answers_exactly_as_for_an_id_that_does_not_exist(users):
    bob = users["bob"]
    for uncovered, missing in (("DOC001", "DOC404"), ("POSITION_1", "POSITION_404"), ("FUND_A", "FUND_Q")):
        hidden = bob.get("/documents/search/", {"q": uncovered})
        absent = bob.get("/documents/search/", {"q": missing})
        assert hidden.status_code == absent.status_code == 200
        assert _plain(hidden, uncovered) == _plain(absent, missing)


def _plain(response, query: str) -> str:
    """A page with the query and the per-response CSRF token taken out."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode()).replace(query, "ID")
