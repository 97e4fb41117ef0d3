"""The one page layout (templates/jinja2/layout.html): every page extends it with Jinja2 blocks
and gets the same header, messages and footer."""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest
from django.contrib import messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.cache import SessionStore
from django.template import engines, loader
from django.test import RequestFactory
from django.views.defaults import server_error

from documents.views import DocumentDetailView
from fundportal.jinja2 import when

pytestmark = pytest.mark.django_db

PAGES = [
    "/documents/DOC001/",
    "/positions/POSITION_1/",
    "/documents/",
    "/documents/DOC001/positions/POSITION_1/",
    "/funds/",
]


def header(html: str) -> str:
    """The layout's header with the CSRF token (masked afresh on every page) blanked."""
    found = re.search(r"<header class=\"topbar\">.*?</header>", html, re.S)
    assert found, html[:500]
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken" value=""', found.group())


def test_every_page_shares_one_header(sample, staff_client):
    headers = {url: header(staff_client.get(url).content.decode()) for url in PAGES}
    assert len(set(headers.values())) == 1, headers
    only = next(iter(headers.values()))
    for link in ('href="/documents/"', 'href="/funds/"', 'href="/admin/"', 'action="/documents/search/"', "operator"):
        assert link in only


def test_the_layout_wraps_a_page_once_with_its_title(sample, analyst_client):
    html = analyst_client.get("/positions/POSITION_1/?q=%3Cb%3E").content.decode()
    assert html.startswith("<!doctype html>")
    assert html.count("<html") == 1 and html.count('class="topbar"') == 1 and html.count("<main") == 1
    assert "<title>POSITION_1 across documents · Fund portal</title>" in html
    assert 'value="&lt;b&gt;"' in html  # the search box keeps the query, escaped
    assert 'name="csrfmiddlewaretoken" value="' in html  # the sign-out form posts with a token
    assert 'href="/admin/"' not in html  # analysts are not staff


def test_the_document_page_title_and_stylesheet(sample, analyst_client):
    html = analyst_client.get("/documents/DOC001/").content.decode()
    assert re.search(r"<title>DOC001 — [^<]* · Fund portal</title>", html)
    assert re.search(r'<link rel="stylesheet" href="/static/css/portal[^"]*\.css">', html)


def test_messages_show_on_a_page(sample, analyst):
    request = RequestFactory().get("/documents/DOC001/")
    request.user = analyst
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    messages.success(request, "Saved <the> entry.")
    response = DocumentDetailView.as_view()(request, document_id="DOC001")
    html = response.render().content.decode()
    assert '<li class="message success" role="status">Saved &lt;the&gt; entry.</li>' in html


def test_the_500_page_renders_without_a_request_context():
    response = server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert html.startswith("<!doctype html>") and "</html>" in html
    assert "<nav" not in html and "dynamodb-footer" not in html


def test_a_page_overrides_the_layout_blocks():
    template = engines["jinja2"].from_string(
        '{% extends "layout.html" %}{% block title %}Mine · {{ super() }}{% endblock %}'
        "{% block head %}<meta name=x>{% endblock %}{% block content %}<p>{{ text }}</p>{% endblock %}"
        "{% block scripts %}<script src=/s.js></script>{% endblock %}"
    )
    html = template.render({"text": "<i>"})
    assert "<title>Mine · Fund portal · Fund portal</title>" in html
    assert "<meta name=x>\n</head>" in html
    assert '<main id="main">' in html and "<p>&lt;i&gt;</p>" in html
    assert html.rstrip().endswith("<script src=/s.js></script>\n</body>\n</html>")


@pytest.mark.parametrize(
    "name",
    [
        "layout.html",
        "documents/list.html",
        "documents/edit/entry_form.html",
        "funds/detail.html",
        "imports/preview.html",
        "exports/statement.html",
        "registration/login.html",
        "registration/locked_out.html",
        *(f"{code}.html" for code in (400, 403, 404, 409, 500, 503)),
    ],
)
def test_the_portals_pages_are_jinja2_templates(name):
    assert loader.get_template(name).backend is engines["jinja2"]


def test_the_admin_keeps_djangos_engine():
    assert loader.get_template("admin/dynamodb/index.html").backend is engines["django"]
    assert loader.get_template("admin/index.html").backend is engines["django"]


def test_when_writes_dates_like_strftime():
    assert when(date(2025, 9, 30)) == "2025-09-30" == date(2025, 9, 30).strftime("%Y-%m-%d")
    assert when(datetime(2025, 9, 30, 12, 5)) == "2025-09-30"
    assert when(date(2025, 9, 30), "%d/%m/%Y") == "30/09/2025"
    assert when(None) == "" and when("") == ""
