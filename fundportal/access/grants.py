"""Granting and revoking coverage (the `coverage` command, tests and scripts; the admin edits the
same rows). Every change is in Django's database and counts from the holder's next request."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db import transaction

from fundportal.domain.kinds import validate_id

from .models import FundCoverage, InvestorLink

ALL_FUNDS_CODENAME = "cover_all_funds"


def _all_funds_permission() -> Permission:
    return Permission.objects.get(codename=ALL_FUNDS_CODENAME, content_type__app_label="access")


def _holder(user: Any = None, group: Group | None = None) -> dict[str, Any]:
    if (user is None) == (group is None):
        raise ValueError("give exactly one of user and group")
    return {"user": user} if user is not None else {"group": group}


def grant_all_funds(*, user: Any = None, group: Group | None = None) -> None:
    """The "all funds" permission: every fund, present and future, is covered."""
    holder = _holder(user, group)
    permissions = holder["user"].user_permissions if user is not None else holder["group"].permissions
    permissions.add(_all_funds_permission())


def revoke_all_funds(*, user: Any = None, group: Group | None = None) -> None:
    holder = _holder(user, group)
    permissions = holder["user"].user_permissions if user is not None else holder["group"].permissions
    permissions.remove(_all_funds_permission())


@transaction.atomic
def grant_funds(
    *,
    funds: Iterable[str],
    user: Any = None,
    group: Group | None = None,
    can_edit: bool = False,
    can_approve: bool = False,
) -> list[FundCoverage]:
    """Cover each fund (rights replaced by the ones given, for a fund already covered)."""
    holder = _holder(user, group)
    return [
        FundCoverage.objects.update_or_create(
            fund_id=validate_id(fund, "fund id"), **holder, defaults={"can_edit": can_edit, "can_approve": can_approve}
        )[0]
        for fund in funds
    ]


def revoke_funds(*, funds: Iterable[str], user: Any = None, group: Group | None = None) -> int:
    holder = _holder(user, group)
    return FundCoverage.objects.filter(fund_id__in=list(funds), **holder).delete()[0]


@transaction.atomic
def link_investors(*, user: Any, investors: Iterable[str]) -> list[InvestorLink]:
    """Make `user` an LP user of each investor (read-only, their own positions only)."""
    return [
        InvestorLink.objects.get_or_create(user=user, investor_id=validate_id(investor, "investor id"))[0]
        for investor in investors
    ]


def unlink_investors(*, user: Any, investors: Iterable[str]) -> int:
    return InvestorLink.objects.filter(user=user, investor_id__in=list(investors)).delete()[0]


@dataclass(frozen=True, slots=True)
class CoverageLine:
    """One line of `coverage list`: who, what, and the rights on it."""

    holder: str  # "user alice" / "group Fund editors"
    what: str  # "all funds", "fund FUND_A", "investor INVESTOR_1"
    rights: str  # "read", "read, edit", ...

    def __str__(self) -> str:
        return f"{self.holder}: {self.what} ({self.rights})"


def coverage_lines(*, user: Any = None, group: Group | None = None) -> list[CoverageLine]:
    """Who covers what: every grant, or only those of one user (their own and their groups')
    or one group."""
    rows = FundCoverage.objects.select_related("user", "group")
    links = InvestorLink.objects.select_related("user")
    permission = _all_funds_permission()
    everyone_all = [f"group {g.name}" for g in permission.group_set.order_by("name")]
    everyone_all += [f"user {u.get_username()}" for u in permission.user_set.order_by("username")]
    if user is not None:
        groups = list(user.groups.all())
        rows = rows.filter(user=user) | rows.filter(group__in=groups)
        links = links.filter(user=user)
        mine = {f"user {user.get_username()}", *(f"group {g.name}" for g in groups)}
        everyone_all = [h for h in everyone_all if h in mine]
    elif group is not None:
        rows, links = rows.filter(group=group), links.none()
        everyone_all = [h for h in everyone_all if h == f"group {group.name}"]
    lines = [CoverageLine(holder, "all funds", "read") for holder in everyone_all]
    for row in rows.order_by("fund_id", "group__name", "user__username"):
        rights = ", ".join(["read", *(["edit"] if row.can_edit else []), *(["approve"] if row.can_approve else [])])
        lines.append(CoverageLine(row.holder, f"fund {row.fund_id}", rights))
    for link in links.order_by("user__username", "investor_id"):
        lines.append(CoverageLine(f"user {link.user.get_username()}", f"investor {link.investor_id}", "read own"))
    return lines
