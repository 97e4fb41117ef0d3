"""Where a row naming a position, its fund and its investor links to: one definition for the
document, fund and investor tables' view models (templates of long tables build the same URLs
with `url_for`, once per table)."""

from __future__ import annotations

from django.urls import reverse


class PositionLinks:
    """A mixin for slotted view models with `position_id`, `fund_id` and `investor_id` fields."""

    __slots__ = ()

    position_id: str
    fund_id: str
    investor_id: str

    @property
    def position_url(self) -> str:
        """The position across documents."""
        return reverse("positions:detail", args=(self.position_id,))

    @property
    def fund_url(self) -> str:
        return reverse("funds:detail", args=(self.fund_id,))

    @property
    def investor_url(self) -> str:
        return reverse("investors:detail", args=(self.investor_id,))
