"""The request's access scope, resolved once from Django's database (no cache between requests,
so a revoked coverage counts on the next request on every worker)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.http import HttpRequest

from fundportal.domain.access import AccessScope
from fundportal.models import EDIT_PERMISSION

from .models import ALL_FUNDS_PERMISSION, APPROVE_PERMISSION, FundCoverage, InvestorLink

_ATTRIBUTE = "_access_scope"


def resolve_scope(user: Any) -> AccessScope:
    """The scope of `user`: coverage rows of the user and the user's groups, the "all funds"
    permission, the global edit permission (edit on every covered fund), and investor links."""
    if user is None or not user.is_authenticated or not user.is_active:
        return AccessScope.nothing()
    all_funds = user.has_perm(ALL_FUNDS_PERMISSION)
    edit_everywhere = user.has_perm(EDIT_PERMISSION)
    approve_everywhere = user.has_perm(APPROVE_PERMISSION)
    rows: list[tuple[str, bool, bool]] = []
    if not (all_funds and edit_everywhere and approve_everywhere):  # else no row can add a right
        rows = list(
            FundCoverage.objects.filter(Q(user=user) | Q(group__in=user.groups.all())).values_list(
                "fund_id", "can_edit", "can_approve"
            )
        )
    return AccessScope(
        all_funds=all_funds,
        funds=frozenset(fund for fund, _, _ in rows),
        edit_funds=frozenset(fund for fund, edit, _ in rows if edit),
        approve_funds=frozenset(fund for fund, _, approve in rows if approve),
        edit_everywhere=edit_everywhere,
        approve_everywhere=approve_everywhere,
        # Investor links only narrow a scope that covers no fund (the LP view): none for all funds.
        investors=frozenset()
        if all_funds
        else frozenset(InvestorLink.objects.filter(user=user).values_list("investor_id", flat=True)),
    )


def request_scope(request: HttpRequest) -> AccessScope:
    """The scope of the request's user, resolved on first use and kept for this request only."""
    scope = getattr(request, _ATTRIBUTE, None)
    if scope is None:
        scope = resolve_scope(getattr(request, "user", None))
        setattr(request, _ATTRIBUTE, scope)
    return scope
