"""View tests for the analyst pages on the seed sample, on moto and DynamoDB Local.

Seed figures: DOC001 (as of 2025-09-30) calls POSITION_1 500,000 and POSITION_2 300,000;
DOC002 (2025-12-31) calls POSITION_1 750,000. POSITION_1 has called 1,250,000 and received
75,000 + 120,000 = 195,000 in distributions.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from decimal import Decimal

import pytest
from django.template import engines
from django.urls import reverse
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects

from fundportal.charts import ChartPoint, build_chart, compact
from fundportal.domain.errors import BadCursor, InvalidId, NotFound
from fundportal.domain.kinds import parse_version_id, version_id
from fundportal.jinja_globals import money, multiple

pytestmark = pytest.mark.django_db

PAGES = [
    "/documents/",
    "/documents/DOC001/",
    "/documents/DOC001/positions/POSITION_1/",
    "/documents/DOC001/history/",
    "/positions/POSITION_1/",
    "/positions/POSITION_1/export.csv",
]


def text(response) -> str:
    """The page's visible text with tags removed and whitespace collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


# --- formatting -------------------------------------------------------------------------------


def test_money_has_currency_and_thousands_separators():
    assert money(Decimal("1250000")) == "USD 1,250,000.00"
    assert money(Decimal("75000.5"), "EUR") == "EUR 75,000.50"
    assert money(None) == "—"
    assert multiple(Decimal("0.156")) == "0.16x"
    assert multiple(None) == "—"


def cumulative_chart(points: list[ChartPoint]) -> str:
    """The chart's markup as the position page includes it."""
    return engines["jinja2"].get_template("charts/cumulative.html").render({"chart": build_chart(points)})


def test_chart_is_an_accessible_svg_with_both_series():
    svg = str(
        cumulative_chart(
            [
                ChartPoint(date(2025, 9, 30), Decimal(500000), Decimal(75000)),
                ChartPoint(date(2025, 12, 31), Decimal(1250000), Decimal(195000)),
            ]
        )
    )
    assert svg.startswith("<svg") and 'role="img"' in svg
    assert 'data-series="called"' in svg and 'data-series="distributed"' in svg
    assert "cumulative called USD 1,250,000.00" in svg
    assert compact(Decimal(1250000)) == "1.25M"
    assert str(cumulative_chart([])) == ""


def test_version_ids_round_trip_and_reject_bad_input():
    assert version_id(date(2025, 9, 1)) == "2025-09-01"
    assert version_id(date(2025, 9, 1), 2) == "2025-09-01.2"
    assert parse_version_id("2025-09-01.2") == (date(2025, 9, 1), 2)
    assert parse_version_id("2025-09-01") == (date(2025, 9, 1), None)
    for bad in ["", "2025-13-01", "2025-09-01#x", "DOCUMENT#2025-09-01", "2025-09-01.", "٢٠٢٥-09-01"]:
        with pytest.raises(InvalidId):
            parse_version_id(bad)


# --- data-layer helpers the pages use ----------------------------------------------------------


def test_get_document_version(sample):
    repo = sample.repository
    old = repo.version("DOC001", "2025-09-01")
    assert old.title == "Q3 2025 capital account statement (preliminary)" and not old.latest
    with pytest.raises(NotFound):
        repo.version("DOC001", "2024-01-01")


def test_position_cursor_keeps_the_position_and_carries_figures(sample):
    positions = sample.positions
    first = positions.page("POSITION_1", limit=2)
    assert first.has_next
    cursor = first.next_cursor({"called": "1250000"})
    second = positions.page("POSITION_1", cursor=cursor, limit=2)
    assert second.carried == {"called": "1250000"}
    # The register is the first item of the first page; then kind, then document order.
    assert first.register is not None and [e.document_id for e in first.entries] == ["DOC001"]
    assert [(e.kind.value, e.document_id) for e in second.entries] == [
        ("CAPITAL_CALL", "DOC002"),
        ("DISTRIBUTION", "DOC001"),
    ]
    with pytest.raises(BadCursor):  # bound to the position it was made for
        positions.page("POSITION_2", cursor=cursor, limit=2)


# --- sign-in ------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", PAGES)
def test_anonymous_users_are_sent_to_sign_in(client, url):
    response = client.get(url)
    assertRedirects(response, f"{reverse('login')}?next={url}", fetch_redirect_response=False)


# --- document list and search ----------------------------------------------------------------------


def test_document_list_shows_every_month_newest_first(sample, analyst_client, django_assert_dynamodb_requests):
    # month catalog + the two month partitions (the list walks months newest first)
    with django_assert_dynamodb_requests(3, ["Query", "Query", "Query"]):
        response = analyst_client.get("/documents/")
    html = response.content.decode()
    assert re.findall(r'<tr data-document="([^"]+)"', html) == ["DOC002", "DOC001"]
    assertContains(response, "Q3 2025 capital account statement")


def test_document_list_bad_filter_is_a_400(sample, analyst_client):
    bad = analyst_client.get("/documents/?from=2025-13-01")
    assert bad.status_code == 400
    assertContains(bad, "Enter a valid date", status_code=400)


@pytest.mark.parametrize(
    ("query", "target"),
    [("DOC001", "/documents/DOC001/"), ("POSITION_1", "/positions/POSITION_1/")],
)
def test_search_jumps_to_a_document_or_position(sample, analyst_client, query, target):
    assertRedirects(analyst_client.get("/documents/search/", {"q": query}), target, fetch_redirect_response=False)


@pytest.mark.parametrize(
    ("query", "message"), [("bad#id", "Invalid document, position, fund or investor id"), ("NOPE", "Nothing found")]
)
def test_search_explains_bad_or_unknown_ids(sample, analyst_client, query, message):
    response = analyst_client.get("/documents/search/", {"q": query}, follow=True)
    assert response.status_code == 200
    assertContains(response, message)


# --- document overview --------------------------------------------------------------------------------


def test_document_overview_is_one_query_with_the_seed_figures(sample, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/documents/DOC001/")
    page = text(response)
    assert "Q3 2025 capital account statement" in page
    assert "FUND_A" in page and "2025-09-30" in page and "Active" in page
    assert re.search(r"Revision 2\b", page)
    # Capital activity: current 500,000 and two superseded copies (document + activity).
    assert "USD 500,000.00 Pending" in page and "1 historical version" in page
    # One row per position with call, distribution, unfunded commitment.
    assert "POSITION_1 FUND_A · INVESTOR_1 USD 500,000.00 Pending USD 75,000.00 Completed USD 1,500,000.00 Active" in (
        page
    )
    assert "POSITION_2 FUND_A · INVESTOR_2 USD 300,000.00 Pending USD 45,000.00 Completed USD 850,000.00 Active" in (
        page
    )
    # Document totals (one row per currency; both calls are pending, so shown apart) and
    # DPI = 120,000 / 800,000; no settled call, so no settled DPI.
    assert "Document total USD 800,000.00 pending USD 800,000.00 USD 120,000.00 USD 2,350,000.00 — 0.15x settled —" in (
        page
    )
    assertContains(response, 'data-testid="document-totals" data-currency="USD"', count=1)
    assertContains(response, 'href="/positions/POSITION_1/"')
    assertContains(response, 'href="/documents/DOC001/positions/POSITION_2/"')
    assertContains(response, 'href="/documents/DOC001/history/"')
    assertContains(
        response,
        '<td class="num" data-testid="total-called">'
        'USD 800,000.00<br><small class="muted">pending USD 800,000.00</small></td>',
        html=True,
    )
    assertContains(response, '<td class="num" data-testid="total-distributed">USD 120,000.00</td>', html=True)


def test_document_without_history_or_distribution(sample, analyst_client):
    page = text(analyst_client.get("/documents/DOC002/"))
    assert "0 historical versions" in page
    # 400,000 of the calls and the 120,000 distribution are pending; no unfunded commitment.
    assert (
        "Document total USD 1,150,000.00 pending USD 400,000.00 USD 120,000.00 pending USD 120,000.00 — — 0.10x "
        "settled 0.00x"
    ) in page


# --- position in a document -------------------------------------------------------------------------


def test_position_in_document_is_one_batch_get(sample, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["BatchGetItem"]):
        response = analyst_client.get("/documents/DOC001/positions/POSITION_1/")
    page = text(response)
    assert "CapitalCall USD 500,000.00 Pending" in page
    assert "Distribution USD 75,000.00 Completed" in page
    assert "UnfundedCommitment USD 1,500,000.00 Active" in page
    assert "INVESTOR_1" in page and "2025-09-30" in page


def test_position_missing_from_a_document_entry_is_marked(sample, analyst_client):
    page = text(analyst_client.get("/documents/DOC002/positions/POSITION_1/"))
    assert "CapitalCall USD 750,000.00 Completed" in page
    assert "UnfundedCommitment — not in this document" in page


# --- history -----------------------------------------------------------------------------------------------


def test_history_lists_versions_in_the_range(sample, analyst_client, django_assert_dynamodb_requests):
    # GetItem (current) + one SK BETWEEN Query per versioned kind.
    with django_assert_dynamodb_requests(3, ["GetItem", "Query", "Query"]):
        response = analyst_client.get("/documents/DOC001/history/")
    page = text(response)
    assert "2025-09-01 1 Q3 2025 capital account statement (preliminary) Historical" in page
    assert "2025-08-15 1 USD 450,000.00 Completed" in page
    assertContains(response, "?compare=2025-09-01")

    narrowed = text(analyst_client.get("/documents/DOC001/history/", {"from": "2025-08-20", "to": "2025-09-30"}))
    assert "(preliminary)" in narrowed and "No superseded capital activity in this range" in narrowed
    empty = text(analyst_client.get("/documents/DOC001/history/", {"from": "2025-10-01"}))
    assert "No superseded document versions in this range" in empty


def test_history_compares_current_with_a_version(sample, analyst_client, django_assert_dynamodb_requests):
    # + the partition and its entry history (the amounts of both versions)
    with django_assert_dynamodb_requests(5, ["GetItem", "Query", "Query", "Query", "Query"]):
        response = analyst_client.get("/documents/DOC001/history/", {"compare": "2025-09-01", "from": "2025-01-01"})
    changed = [
        label.strip()
        for label in re.findall(r'data-changed="true">\s*<th scope="row">([^<]+)', response.content.decode())
    ]
    # The seed's copy keeps no status of its own (Status = Historical); its capital activity is
    # the one archived at its revision (450,000 Completed).
    assert changed == ["Title", "Status", "Revision", "Capital activity"]
    page = text(response)
    assert "Capital activity (changed) USD 500,000.00 Pending USD 450,000.00 Completed" in page
    assert "No position amount differs between the two versions." in page
    assert "Current vs version 2025-09-01" in page
    assert "Title (changed) Q3 2025 capital account statement Q3 2025 capital account statement (preliminary)" in page
    assertContains(response, "?from=2025-01-01&amp;compare=2025-09-01")  # the range is kept on compare links


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"from": "2025-10-01", "to": "2025-09-01"}, "date must be on or before the &#39;to&#39; date"),
        ({"from": "yesterday"}, "From: Enter a valid date."),
        ({"to": "2025-02-30"}, "To: Enter a valid date."),
        ({"compare": "DOCUMENT#2025-09-01"}, "Invalid version"),
    ],
)
def test_history_explains_bad_input(sample, analyst_client, params, message):
    response = analyst_client.get("/documents/DOC001/history/", params)
    assertContains(response, message, status_code=400)
    assertNotContains(response, "Document versions", status_code=400)


def test_history_of_unknown_version_is_404(sample, analyst_client):
    response = analyst_client.get("/documents/DOC001/history/", {"compare": "2020-01-01"})
    assertContains(response, "Document version &#39;DOC001 2020-01-01&#39; was not found", status_code=404)


# --- position across documents ---------------------------------------------------------------------------


def test_position_page_is_one_query_with_running_totals(sample, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/positions/POSITION_1/")
    page = text(response)
    # Headline figures first.
    assert page.index("Unfunded commitment (latest, 2025-09-30) USD 1,500,000.00") < page.index("DOC001 2025-09-30")
    assert "Paid-in (called) USD 1,250,000.00" in page
    assert "Distributed USD 195,000.00" in page
    assert "DPI 0.16x" in page
    # Documents in as-of date order, each with its amounts and the running totals.
    assert (
        "DOC001 2025-09-30 Q3 2025 capital account statement Capital account statement "
        "USD 500,000.00 Pending USD 75,000.00 Completed USD 1,500,000.00 Active — — "
        "USD 500,000.00 USD 75,000.00 0.15x"
    ) in page
    assert (
        "DOC002 2025-12-31 Q4 2025 capital call notice Capital call notice "
        "USD 750,000.00 Completed USD 120,000.00 Pending — — — USD 1,250,000.00 USD 195,000.00 0.16x"
    ) in page
    assert page.index("DOC001 2025-09-30") < page.index("DOC002 2025-12-31")
    assertContains(response, '<svg class="chart"')
    assertContains(response, 'href="/positions/POSITION_1/export.csv"')
    assertNotContains(response, "Next page")


def test_position_page_paginates_with_signed_cursors(sample, analyst_client, settings, django_assert_dynamodb_requests):
    settings.POSITION_PAGE_SIZE = 2  # the register, then 5 entries: calls, distributions, the unfunded commitment
    url, pages = "/positions/POSITION_1/", []
    while url:
        with django_assert_dynamodb_requests(1, ["Query"]):
            response = analyst_client.get(url)
        assert response.status_code == 200
        pages.append(response)
        match = re.search(r'href="(\?cursor=[^"]+)" rel="next"', response.content.decode())
        url = f"/positions/POSITION_1/{match.group(1)}" if match else None
    assert len(pages) == 3
    first, second, last = (text(p) for p in pages)
    # The first page leads with the register's headline figures (the whole position), then the
    # running figures through its one row (DOC001's call).
    assert "Paid-in (called) USD 1,250,000.00" in first and "Distributed USD 195,000.00" in first
    assert "Figures through page 1 Unfunded commitment (latest) — Paid-in (called) USD 500,000.00" in first
    assert "Carried from earlier pages (USD) USD 500,000.00 USD 0.00" in second
    assert "Distributed USD 75,000.00" in second and "Page 2" in second
    assert "Carried from earlier pages (USD) USD 1,250,000.00 USD 75,000.00" in last
    # Running totals ride in the cursor to the last page.
    assert "Paid-in (called) USD 1,250,000.00" in last and "Distributed USD 195,000.00" in last
    assert "Unfunded commitment (latest, 2025-09-30) USD 1,500,000.00" in last
    assert "DPI 0.16x" in last and "Page 3" in last
    # The way back: page 3 links to page 2 by cursor, page 2 to the first page.
    assert 'rel="prev">← Previous page' in pages[2].content.decode()
    assertContains(pages[1], 'href="?" rel="prev"')
    back = re.search(r'href="(\?cursor=[^"]+)" rel="prev"', pages[2].content.decode()).group(1)
    assert "Page 2" in text(analyst_client.get(f"/positions/POSITION_1/{back}"))


def test_position_csv_has_exact_decimals_and_the_same_rows(sample, analyst_client, django_assert_dynamodb_requests):
    # The position's entries (one Query), its fund's and investor's names (one BatchGetItem).
    with django_assert_dynamodb_requests(2, ["Query", "BatchGetItem"]):
        response = analyst_client.get("/positions/POSITION_1/export.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="position-POSITION_1.csv"' in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(r["document_id"], r["as_of_date"]) for r in rows] == [("DOC001", "2025-09-30"), ("DOC002", "2025-12-31")]
    assert [(r["capital_call"], r["distribution"], r["unfunded_commitment"]) for r in rows] == [
        ("500000.00", "75000.00", "1500000.00"),
        ("750000.00", "120000.00", ""),
    ]
    assert [(r["called_to_date"], r["distributed_to_date"], r["dpi_to_date"]) for r in rows] == [
        ("500000.00", "75000.00", "0.1500"),
        ("1250000.00", "195000.00", "0.1560"),  # unrounded (0.16x on the page)
    ]


def test_position_csv_reads_every_page(sample, analyst_client, settings, django_assert_dynamodb_requests):
    settings.POSITION_PAGE_SIZE = 2  # the page size does not limit the export
    with django_assert_dynamodb_requests(2, ["Query", "BatchGetItem"]):  # the entries; the names
        response = analyst_client.get("/positions/POSITION_2/export.csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(r["document_id"], r["capital_call"], r["called_to_date"]) for r in rows] == [
        ("DOC001", "300000.00", "300000.00"),
        ("DOC002", "400000.00", "700000.00"),
    ]


def test_position_page_states_how_figures_are_computed(sample, analyst_client):
    """The figures note is shown, and DPI (settled) counts settled entries only: POSITION_1's
    settled distributions 75,000 (DOC001) / settled calls 750,000 (DOC002) = 0.10x."""
    response = analyst_client.get("/positions/POSITION_1/")
    assertContains(response, 'class="muted figures-rules"', count=1)
    page = text(response)
    assert "How figures are computed: cancelled entries are shown but never counted." in page
    assert "DPI (settled) counts only settled (not pending) calls and distributions" in page
    assert "DPI 0.16x" in page and "DPI (settled) 0.10x" in page
    assert "Paid-in (called) USD 1,250,000.00 pending USD 500,000.00" in page
    assert "Distributed USD 195,000.00 pending USD 120,000.00" in page
    assertContains(response, '<div class="value" data-testid="dpi-settled">0.10x</div>', html=True)


def test_position_csv_has_the_settled_dpi_column(sample, analyst_client):
    rows = list(csv.DictReader(io.StringIO(analyst_client.get("/positions/POSITION_1/export.csv").content.decode())))
    assert [(r["currency"], r["dpi_settled_to_date"]) for r in rows] == [("USD", ""), ("USD", "0.1000")]


# --- rows, cells and links (were fast_urls / entry_cells) -------------------------------------------------


def test_document_rows_render_each_cell_and_link_where_they_should(sample, analyst_client):
    html = analyst_client.get("/documents/DOC001/").content.decode()
    rows = dict(re.findall(r'<tr data-position="(\w+)">(.*?)</tr>', html, re.S))
    assert list(rows) == ["POSITION_1", "POSITION_2"]
    row = rows["POSITION_1"]
    assert '<a href="/documents/DOC001/positions/POSITION_1/">POSITION_1</a>' in row
    assert '<a href="/positions/POSITION_1/">POSITION_1 history</a>' in row
    cells = re.findall(r'<td class="num[^"]*">(.*?)</td>', row, re.S)
    assert [text_of(c) for c in cells] == [
        "USD 500,000.00 Pending",
        "USD 75,000.00 Completed",
        "USD 1,500,000.00 Active",
        "—",  # no NAV statement in DOC001
        "0.15x",
    ]
    assert '<span class="status status-Pending">Pending</span>' in row
    assert "/edit/" not in html and "/delete/" not in html and ">Change<" not in html and ">Remove<" not in html


def test_missing_entry_is_a_dash_and_cancelled_is_marked_excluded(draft_sample, analyst_client):
    html = analyst_client.get("/positions/POSITION_1/").content.decode()
    doc002 = re.search(r'<tr data-document="DOC002">(.*?)</tr>', html, re.S).group(1)
    assert '<td class="num"><span class="muted">—</span></td>' in doc002  # no unfunded commitment in DOC002
    assert '<a href="/documents/DOC002/positions/POSITION_1/">DOC002</a>' in doc002

    from dataclasses import replace

    from documents import services
    from fundportal.domain.kinds import Kind

    call = draft_sample.repository.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_2")
    services.entry_put(entry=replace(call, status="Cancelled"), user="test")
    html = analyst_client.get("/documents/DOC001/").content.decode()
    row = re.search(r'<tr data-position="POSITION_2">(.*?)</tr>', html, re.S).group(1)
    assert (
        '<td class="num excluded">USD 300,000.00<br><span class="status status-Cancelled">Cancelled</span></td>' in row
    )
    assert "Document total USD 500,000.00 pending USD 500,000.00" in text_of(html)  # shown, never totalled


def test_editors_edit_a_row_on_the_document_page_and_each_entry_on_the_position_page(sample, client, django_user_model):
    from django.contrib.auth.models import Group

    from fundportal.models import EDITORS_GROUP

    editor = django_user_model.objects.create_user("editor", password="editor-pass-123")
    editor.groups.add(Group.objects.get(name=EDITORS_GROUP))
    client.force_login(editor)
    # The document page has one "Edit" link a row (to the position in the document,
    # where Change and Remove live), not Change/Remove in every cell.
    document = client.get("/documents/DOC001/")
    assertContains(document, ">Edit</a>", count=2)
    assertContains(document, 'class="edit-link" href="/documents/DOC001/positions/POSITION_2/"', count=1)
    assertNotContains(document, ">Change</a>")
    assertNotContains(document, ">Remove</a>")
    for url, count in [
        ("/documents/DOC001/positions/POSITION_1/", 3),
        ("/positions/POSITION_1/", 5),  # 5 entries across two documents
    ]:
        response = client.get(url)
        assertContains(response, ">Change</a>", count=count)
        assertContains(response, ">Remove</a>", count=count)
    response = client.get("/documents/DOC001/positions/POSITION_2/")
    for kind in ("capital_call", "distribution", "unfunded_commitment"):
        assertContains(response, f'href="/documents/DOC001/entries/{kind}/POSITION_2/edit/"', count=1)
        assertContains(response, f'href="/documents/DOC001/entries/{kind}/POSITION_2/delete/"', count=1)
    assertContains(response, 'aria-label="Remove Distribution of POSITION_2"')
    position = client.get("/positions/POSITION_1/")
    assertContains(position, 'href="/documents/DOC002/entries/distribution/POSITION_1/edit/"', count=1)


@pytest.mark.parametrize(
    "url", ["/documents/DOC001/", "/documents/DOC001/positions/POSITION_1/", "/positions/POSITION_1/"]
)
def test_viewers_see_no_change_or_remove_links(sample, analyst_client, url):
    response = analyst_client.get(url)
    assert response.status_code == 200
    assertNotContains(response, ">Change</a>")
    assertNotContains(response, ">Remove</a>")
    assertNotContains(response, ">Edit</a>")
    assertNotContains(response, "/entries/")


def text_of(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment)).strip()


# --- errors -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/documents/NOPE/",
        "/documents/NOPE/history/",
        "/documents/DOC001/positions/NOPE/",
        "/positions/NOPE/",
        "/positions/NOPE/export.csv",
    ],
)
def test_unknown_ids_are_404_pages(sample, analyst_client, url):
    response = analyst_client.get(url)
    assertContains(response, "Not found", status_code=404)
    assertContains(response, "NOPE", status_code=404)


@pytest.mark.parametrize(
    "url",
    [
        "/documents/bad%23id/",
        "/documents/bad%23id/history/",
        "/documents/DOC001/positions/bad%23id/",
        "/documents/bad%23id/positions/POSITION_1/",
        "/positions/bad%23id/",
        "/positions/bad%23id/export.csv",
        f"/positions/{'x' * 65}/",
        "/positions/POSITION_1/?cursor=not-a-cursor",
    ],
)
def test_malformed_ids_and_cursors_are_400_pages(sample, analyst_client, url):
    response = analyst_client.get(url)
    assert response.status_code == 400
    assertContains(response, "Bad request", status_code=400)
    assertNotContains(response, "Traceback", status_code=400)


def test_cursor_of_another_position_is_refused(sample, analyst_client, settings):
    settings.POSITION_PAGE_SIZE = 2
    page = analyst_client.get("/positions/POSITION_1/").content.decode()
    cursor = re.search(r'href="\?cursor=([^"]+)" rel="next"', page).group(1)
    response = analyst_client.get(f"/positions/POSITION_2/?cursor={cursor}")
    assertContains(response, "The page link is invalid or belongs to another query", status_code=400)


@pytest.mark.parametrize("url", PAGES)
def test_pages_say_503_when_dynamodb_is_unreachable(local_backend, analyst_client, settings, url):
    settings.DYNAMODB_ENDPOINT_URL = "http://127.0.0.1:9"  # nothing listens on the discard port
    response = analyst_client.get(url)
    assertContains(response, "Temporarily unavailable", status_code=503)
    assertNotContains(response, "cannot reach DynamoDB", status_code=503)  # the cause is for the log


# --- request footer -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("url", "count"), [(PAGES[0], 3), (PAGES[1], 1), (PAGES[2], 1), (PAGES[3], 3), (PAGES[4], 1)])
def test_staff_see_the_request_footer(sample, staff_client, url, count):
    page = text(staff_client.get(url))
    assert re.search(rf"DynamoDB: {count} requests? · [0-9.]+ RCU · [0-9.]+ ms", page), page[-300:]


def test_analysts_do_not_see_the_request_footer(sample, analyst_client):
    assertNotContains(analyst_client.get("/documents/DOC001/"), "dynamodb-footer")
