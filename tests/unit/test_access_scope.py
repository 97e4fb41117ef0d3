"""The access scope's rules (a plain value of the domain): what a fund analyst, a head of
operations, an LP user and a user without coverage may see and change."""

from __future__ import annotations

import pytest

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import NotFound, NotPermitted

ANALYST = AccessScope(funds=frozenset({"FUND_A", "FUND_C"}), edit_funds=frozenset({"FUND_A"}))
LP = AccessScope.investor(["INVESTOR_1"])


def test_an_analyst_covers_their_funds_only():
    assert ANALYST.covers_fund("FUND_A") and ANALYST.covers_fund("FUND_C")
    assert not ANALYST.covers_fund("FUND_B")
    assert ANALYST.covers_position("FUND_A", "ANYONE")
    assert not ANALYST.covers_position("FUND_B", "ANYONE")


def test_per_fund_edit_rights_and_the_global_edit_permission_on_covered_funds():
    assert ANALYST.can_edit("FUND_A") and not ANALYST.can_edit("FUND_C")
    everywhere = AccessScope(funds=frozenset({"FUND_A"}), edit_everywhere=True)
    assert everywhere.can_edit("FUND_A")
    assert not everywhere.can_edit("FUND_B")  # the global permission edits covered funds only


def test_a_write_outside_the_scope_is_not_found_and_in_a_read_only_fund_not_permitted():
    with pytest.raises(NotFound):
        ANALYST.require_edit("FUND_B", "Document", "DOC9")
    with pytest.raises(NotPermitted):
        ANALYST.require_edit("FUND_C", "Document", "DOC9")
    ANALYST.require_edit("FUND_A", "Document", "DOC9")


def test_an_lp_user_sees_only_their_own_positions_and_no_fund():
    assert LP.is_investor and not LP.sees_fund_totals
    assert LP.covers_position("FUND_A", "INVESTOR_1")
    assert LP.covers_position("FUND_Z", "INVESTOR_1")
    assert not LP.covers_position("FUND_A", "INVESTOR_2")
    with pytest.raises(NotFound):
        LP.require_fund("FUND_A", "Fund", "FUND_A")
    assert LP.covers_investor("INVESTOR_1") and not LP.covers_investor("INVESTOR_2")


def test_an_lp_user_changes_nothing():
    lp_editor = AccessScope(investors=frozenset({"INVESTOR_1"}), edit_everywhere=True)
    assert not lp_editor.can_edit("FUND_A")
    assert not lp_editor.may_edit_somewhere


def test_no_coverage_sees_nothing_and_the_operator_everything():
    nothing = AccessScope.nothing()
    assert not nothing.covers_fund("FUND_A") and not nothing.may_edit_somewhere
    assert OPERATOR.covers_fund("ANY") and OPERATOR.can_edit("ANY") and OPERATOR.can_approve("ANY")


def test_approve_rights_are_per_fund():
    scope = AccessScope(funds=frozenset({"FUND_A", "FUND_B"}), approve_funds=frozenset({"FUND_B"}))
    assert scope.can_approve("FUND_B") and not scope.can_approve("FUND_A")
