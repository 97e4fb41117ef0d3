"""Reads only the API lists (no page lists them): the investors the scope sees."""

from __future__ import annotations

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.store.repositories.register import RegisterRepository


def investor_ids(*, scope: AccessScope = OPERATOR, repository: RegisterRepository | None = None) -> list[str]:
    """The investors of the covered funds' positions: the funds catalog (one Query) and each
    covered fund's slim register copies (one Query a fund), as the funds list reads them. An LP user: their
    own investors, without a request."""
    if scope.is_investor:
        return sorted(scope.investors)
    if not (scope.all_funds or scope.funds):
        return []
    repository = repository or RegisterRepository()
    found = {
        register.investor_id
        for fund_id in repository.funds()
        if scope.covers_fund(fund_id)
        for register in repository.fund_slim_positions(fund_id)
    }
    return sorted(found)
