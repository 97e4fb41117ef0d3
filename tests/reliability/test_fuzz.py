"""Bad input never gives a 5xx: hypothesis-generated ids, query parameters, form fields and
cursors against every URL (enumerated from the resolver), on moto with the seed sample, and
bad command-line input exits with one line. 1,150 cases in all (see EXAMPLES)."""

from __future__ import annotations

import os
from urllib.parse import quote

import pytest
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command, get_commands
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from fundportal.store.repositories import PositionRepository
from tests.web.urlmap import DUMMY, analyst_routes

EXAMPLES = {"get": 550, "post": 350, "cursor": 150, "command": 100}
FUZZ = hypothesis_settings(
    deadline=None,
    derandomize=True,  # the same cases on every run, so a failure is reproducible in CI
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

ROUTES = [r for r in analyst_routes() if not r.template.startswith("/admin/")]
WRITE_ROUTES = [r for r in ROUTES if any(word in r.template for word in ("/new/", "/edit/", "/delete/", "/restate/"))]
# Ids near the valid ones, ids with every kind of wrong character, and arbitrary text.
ids = st.one_of(
    st.sampled_from(["DOC001", "DOC002", "POSITION_1", "POSITION_2", "capital_call", "distribution"]),
    st.sampled_from(["", "#", "DOC001#X", "DOCUMENT#LATEST", "CATALOG#MONTHS", "AUDIT#DOC001", "..", "a" * 65]),
    st.from_regex(r"[A-Za-z0-9_.\-]{1,70}", fullmatch=True),
    st.text(min_size=1, max_size=80),
)
values = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["2025-09", "2025-13", "0000-00", "2025-09-30", "-1", "1e309", "NaN", "1" * 400, "0.001"]),
    st.integers(-(10**20), 10**20).map(str),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
)
QUERY_NAMES = ["month", "cursor", "q", "from", "to", "compare", "kind", "start", "end", "page", "format", "document"]
FORM_NAMES = [
    "document_id",
    "title",
    "fund_id",
    "investor_id",
    "position_id",
    "as_of_date",
    "due_date",
    "currency",
    "status",
    "amount",
    "kind",
    "expected_revision",
    "activity_amount",
    "activity_status",
    "confirm",
]
query = st.dictionaries(st.sampled_from(QUERY_NAMES), values, max_size=4)
form = st.dictionaries(st.sampled_from(FORM_NAMES), values | ids, max_size=10)


@pytest.fixture
def seeded(moto_backend):
    call_command("seed_demo", sample=True, stdout=open(os.devnull, "w"))
    return moto_backend


@pytest.fixture
def editor_client(client, django_user_model):
    user = django_user_model.objects.create_user("fuzz_editor", password="editor-pass-123", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="edit_fund_data"))
    client.force_login(user)
    return client


def path_for(route, data) -> str:
    return route.build({name: quote(data.draw(ids), safe="") for name in route.params})


def check(response, what: str) -> None:
    assert response.status_code < 500, f"{what} -> {response.status_code}"


def test_get_every_url_with_bad_ids_and_query_parameters(editor_client, seeded):
    @hypothesis_settings(FUZZ, max_examples=EXAMPLES["get"])
    @given(data=st.data(), route=st.sampled_from(ROUTES), params=query)
    def run(data, route, params):
        path = path_for(route, data)
        check(editor_client.get(path, params), f"GET {path} {params!r}")

    run()


def test_post_every_write_url_with_bad_form_fields(editor_client, seeded):
    assert len(WRITE_ROUTES) >= 5

    @hypothesis_settings(FUZZ, max_examples=EXAMPLES["post"])
    @given(data=st.data(), route=st.sampled_from(WRITE_ROUTES), fields=form)
    def run(data, route, fields):
        path = route.build() if data.draw(st.booleans()) else path_for(route, data)
        check(editor_client.post(path, fields), f"POST {path} {fields!r}")

    run()


def test_bad_cursors_are_a_400_never_a_5xx(analyst_client, seeded, settings):
    settings.POSITION_PAGE_SIZE = 1
    valid = PositionRepository().page("POSITION_1", limit=1).next_cursor()
    assert valid

    @hypothesis_settings(FUZZ, max_examples=EXAMPLES["cursor"])
    @given(
        cursor=st.one_of(
            st.text(min_size=1, max_size=300),
            st.tuples(st.integers(0, len(valid) - 1), st.characters()).map(
                lambda change: valid[: change[0]] + change[1] + valid[change[0] + 1 :]
            ),
            st.integers(1, len(valid) - 1).map(lambda n: valid[:n]),
        ),
        position=st.sampled_from(["POSITION_1", "POSITION_2"]),
    )
    def run(cursor, position):
        response = analyst_client.get(f"/positions/{position}/", {"cursor": cursor})
        check(response, f"cursor {cursor!r}")
        if cursor.strip() and cursor != valid:
            assert response.status_code in (200, 400)

    run()


COMMAND_ARGUMENTS = {
    "document_history": lambda i, v: [i, "--from", v],
    "position_report": lambda i, v: [i],
    "access_patterns": lambda i, v: ["--document", i, "--position", v],
    "create_table": lambda i, v: ["--table", i],
}


def test_command_line_bad_input_exits_with_one_line(seeded):
    commands = sorted(set(COMMAND_ARGUMENTS) & set(get_commands()))
    assert "document_history" in commands

    @hypothesis_settings(FUZZ, max_examples=EXAMPLES["command"])
    @given(name=st.sampled_from(commands), identifier=ids, value=values)
    def run(name, identifier, value):
        try:
            call_command(
                name,
                *COMMAND_ARGUMENTS[name](identifier, value),
                stdout=open(os.devnull, "w"),
                stderr=open(os.devnull, "w"),
            )
        except CommandError as error:
            assert "\n" not in str(error).strip(), f"{name}: {error!r}"
            assert "Traceback" not in str(error)

    run()


def test_the_fuzz_budget_is_at_least_1000_cases():
    assert sum(EXAMPLES.values()) >= 1000
    assert set(DUMMY) >= {"document_id", "position_id", "kind"}
