"""The position page's Remove and Merge actions for editors: a mistyped position merged into
the right one from the page, a refusal shown on the page with nothing written, removal of an
empty position, and readers refused."""

from __future__ import annotations

from decimal import Decimal

import pytest

from documents import services
from fundportal.domain.kinds import Kind
from fundportal.domain.position_entries import NetAssetValue
from fundportal.ops.register_repair import verify_positions
from fundportal.store.repositories.positions import PositionRepository
from fundportal.store.repositories.register import RegisterRepository
from tests.web.coverage_data import covering

pytestmark = pytest.mark.django_db


def _typo(investor_id: str = "INVESTOR_1") -> None:
    entry = NetAssetValue(
        document_id="DOC001",
        position_id="POSITON_1",
        fund_id="FUND_A",
        investor_id=investor_id,
        amount=Decimal(900_000),
        status="Active",
    )
    services.entry_record(entry=entry, user="typist")


def test_the_position_page_offers_merge_and_remove_to_editors_only(draft_sample, editor_client, analyst_client):
    _typo()
    html = editor_client.get("/positions/POSITON_1/").content.decode()
    assert 'href="/positions/POSITON_1/merge/"' in html and 'href="/positions/POSITON_1/remove/"' in html
    html = analyst_client.get("/positions/POSITON_1/").content.decode()
    assert "/merge/" not in html and "/remove/" not in html
    assert analyst_client.get("/positions/POSITON_1/merge/").status_code == 403


def test_an_editor_merges_the_typo_into_position_1_from_the_page(draft_sample, editor_client):
    _typo()
    page = editor_client.get("/positions/POSITON_1/merge/")
    assert page.status_code == 200 and 'data-testid="merge-candidates"' in page.content.decode()
    assert "POSITION_1" in page.content.decode()
    done = editor_client.post("/positions/POSITON_1/merge/", {"target": "POSITION_1"}, follow=True)
    assert done.redirect_chain[-1][0] == "/positions/POSITION_1/"
    assert "POSITON_1 merged into POSITION_1: 1 entries moved" in done.content.decode()
    assert RegisterRepository().get("POSITON_1", consistent=True) is None
    assert ("DOC001", Kind.NAV) in {(e.document_id, e.kind) for e in PositionRepository().entries("POSITION_1")}
    assert verify_positions().differences == []


def test_a_merge_into_another_investors_position_is_refused_on_the_page(draft_sample, editor_client):
    _typo()
    response = editor_client.post("/positions/POSITON_1/merge/", {"target": "POSITION_2"})
    html = response.content.decode()
    assert response.status_code == 409
    assert "POSITON_1 (investor INVESTOR_1) and POSITION_2 (investor INVESTOR_2)" in html
    assert "Nothing was changed." in html
    assert RegisterRepository().get("POSITON_1", consistent=True) is not None


def test_a_merge_into_an_unknown_position_says_so(draft_sample, editor_client):
    _typo()
    response = editor_client.post("/positions/POSITON_1/merge/", {"target": "NOPE"})
    assert response.status_code == 400 and "NOPE" in response.content.decode()


def test_removing_a_position_with_entries_is_refused_on_the_page(draft_sample, editor_client):
    _typo()
    response = editor_client.post("/positions/POSITON_1/remove/")
    assert response.status_code == 409
    assert "POSITON_1 still has 1 entries" in response.content.decode()
    assert RegisterRepository().get("POSITON_1", consistent=True) is not None


def test_an_editor_removes_an_empty_position(draft_sample, editor_client):
    _typo(investor_id="INVESTOR_9")
    services.entry_remove(document_id="DOC001", kind=Kind.NAV, position_id="POSITON_1", user="typist")
    assert editor_client.get("/positions/POSITON_1/remove/").status_code == 200
    done = editor_client.post("/positions/POSITON_1/remove/", follow=True)
    assert done.redirect_chain[-1][0] == "/funds/FUND_A/"
    assert "Position POSITON_1 removed" in done.content.decode()
    assert RegisterRepository().get("POSITON_1", consistent=True) is None
    assert verify_positions().differences == []


@pytest.mark.coverage_as_granted
def test_readers_and_other_funds_editors_may_not_merge_or_remove(draft_sample):
    _typo()
    reader = covering("reader", "FUND_A", can_edit=False)
    other = covering("other", "FUND_B")
    assert reader.get("/positions/POSITON_1/merge/").status_code == 403  # may edit nowhere
    assert other.get("/positions/POSITON_1/merge/").status_code == 404  # FUND_A not covered
    assert other.post("/positions/POSITON_1/merge/", {"target": "POSITION_1"}).status_code == 404
    assert other.post("/positions/POSITON_1/remove/").status_code == 404
    assert RegisterRepository().get("POSITON_1", consistent=True) is not None
