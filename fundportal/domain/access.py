"""Who may see and change which fund: the access scope of one request, as a plain value.

A scope is resolved once per request from Django's database (`fundportal.access.scope`) and
passed down, explicitly, to selectors (which filter what they read) and services (which refuse
what they would write). Every check here works on data the page has already read (each
document, entry and register carries its fund and investor id), so coverage costs no DynamoDB
request. Something outside the scope is `NotFound`: a 403 would confirm that it exists.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fundportal.domain.errors import NotFound, NotPermitted


@dataclass(frozen=True, slots=True)
class AccessScope:
    """What one user may see and change.

    - `all_funds`: every fund is covered (heads of operations; commands in operator mode).
    - `funds`: the funds covered one by one; `edit_funds` / `approve_funds` those of them the user
      may change or approve (`edit_everywhere`: every covered fund, the global edit permission).
    - `investors`: an LP user's own investors. An LP sees only positions of those investors,
      never a fund's totals, and changes nothing.
    """

    all_funds: bool = False
    funds: frozenset[str] = frozenset()
    edit_funds: frozenset[str] = frozenset()
    approve_funds: frozenset[str] = frozenset()
    edit_everywhere: bool = False
    approve_everywhere: bool = False
    investors: frozenset[str] = frozenset()

    @classmethod
    def operator(cls) -> AccessScope:
        """Every fund, every right: management commands in `--all-funds` mode and scripts."""
        return cls(all_funds=True, edit_everywhere=True, approve_everywhere=True)

    @classmethod
    def nothing(cls) -> AccessScope:
        return cls()

    @classmethod
    def investor(cls, investors: Iterable[str]) -> AccessScope:
        return cls(investors=frozenset(investors))

    @property
    def is_investor(self) -> bool:
        """A read-only LP view: linked to investors and covering no fund."""
        return bool(self.investors) and not self.all_funds and not self.funds

    @property
    def sees_fund_totals(self) -> bool:
        return not self.is_investor

    def covers_fund(self, fund_id: str) -> bool:
        return self.all_funds or fund_id in self.funds

    def covers_position(self, fund_id: str, investor_id: str) -> bool:
        """A fund analyst sees the covered funds' positions; an LP only their own investors'."""
        if self.is_investor:
            return investor_id in self.investors
        return self.covers_fund(fund_id)

    def covers_investor(self, investor_id: str) -> bool:
        """An investor page opens for analysts (who see its covered funds' lines) and for the LP it is."""
        return not self.is_investor or investor_id in self.investors

    def can_edit(self, fund_id: str) -> bool:
        if self.is_investor or not self.covers_fund(fund_id):
            return False
        return self.edit_everywhere or fund_id in self.edit_funds

    def can_approve(self, fund_id: str) -> bool:
        if self.is_investor or not self.covers_fund(fund_id):
            return False
        return self.approve_everywhere or fund_id in self.approve_funds

    @property
    def may_edit_somewhere(self) -> bool:
        return not self.is_investor and (self.edit_everywhere or bool(self.edit_funds))

    def require_fund(self, fund_id: str, what: str, key: str) -> None:
        """NotFound (never "forbidden": that would confirm it exists) outside the covered funds."""
        if self.is_investor or not self.covers_fund(fund_id):
            raise NotFound(what, key)

    def require_position(self, fund_id: str, investor_id: str, what: str, key: str) -> None:
        if not self.covers_position(fund_id, investor_id):
            raise NotFound(what, key)

    def require_investor(self, investor_id: str) -> None:
        if not self.covers_investor(investor_id):
            raise NotFound("Investor", investor_id)

    def require_edit(self, fund_id: str, what: str, key: str) -> None:
        """A write: NotFound outside the covered funds, NotPermitted in a covered fund the user
        may only read."""
        self.require_fund(fund_id, what, key)
        if not self.can_edit(fund_id):
            raise NotPermitted("edit", fund_id)


OPERATOR = AccessScope.operator()
