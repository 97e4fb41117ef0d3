"""A position register as it stood at a moment T (`?known_at=` on the fund and investor pages).

Every write of a register keeps the state it replaced as a `RegisterVersion` (in the same
transaction), with when it was replaced and what the write added to its fund's summary (the
summary delta, `summary.delta(before, after)`). So, for a moment T:

- a register replaced after T stood at T as the `before` of its earliest version replaced after
  T (a version whose `before` is None registered the position: it did not exist at T);
- a register with no version replaced after T stood at T as it is now;
- a fund's summary at T is its summary now less the deltas of every write after T (a summary
  is the sum of its registers' contributions, so the deltas telescope).

Positions registered together (an import's new positions) may keep their registration as ONE
`Registrations` of their fund instead of a version each: the positions, the moment, and what
they added to the fund's summary together; each register then carries that moment itself
(`PositionRegister.registered_at`). A register registered after T did not exist at T, whatever
versions it has since, so the rule above is kept on the fund page (the fund's versions, its
registrations read as versions registering each position: `as_versions`) and on the investor
page (the registers and the states the versions hold say when they were registered).

Only what the portal showed counts: a register holds approved figures apart from what awaits
approval, and an approval rewrites it, so the register at T is the figures as shown at T.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from . import summary as rule
from .position_register import PositionRegister


@dataclass(frozen=True, slots=True)
class RegisterVersion:
    """The register of `position_id` as it stood until `replaced_at` (`before`; None: the write
    at `replaced_at` registered the position), and what that write added to its fund's summary."""

    position_id: str
    fund_id: str
    investor_id: str
    replaced_at: datetime
    before: PositionRegister | None = None
    delta: Mapping[rule.Measure, Decimal] = field(default_factory=dict)
    revision: int = 0  # the replaced register's revision (0: none)


@dataclass(frozen=True, slots=True)
class Registrations:
    """Positions of `fund_id` registered by one write at `replaced_at`, and what that write added
    to the fund's summary (the sum of the new registers' contributions)."""

    fund_id: str
    replaced_at: datetime
    position_ids: tuple[str, ...]
    delta: Mapping[rule.Measure, Decimal] = field(default_factory=dict)

    def as_versions(self) -> list[RegisterVersion]:
        """A version registering each position (None before it), the summary delta on the first."""
        return [
            RegisterVersion(p, self.fund_id, "", self.replaced_at, None, self.delta if n == 0 else {})
            for n, p in enumerate(self.position_ids)
        ]


def registered_by(register: PositionRegister, at: datetime) -> bool:
    """Whether `register`'s position was registered at `at` (unknown when the register does not
    keep its registration: its versions say)."""
    return register.registered_at is None or register.registered_at <= at


def changed_after(versions: Iterable[RegisterVersion], at: datetime) -> dict[str, RegisterVersion]:
    """Per position, its earliest version replaced after `at` (the one holding it as it stood at `at`)."""
    found: dict[str, RegisterVersion] = {}
    for version in sorted(versions, key=lambda v: v.replaced_at):
        if version.replaced_at > at:
            found.setdefault(version.position_id, version)
    return found


def registers_known_at(
    current: Iterable[PositionRegister],
    versions: Iterable[RegisterVersion],
    at: datetime,
    *,
    with_removed: bool = False,
) -> list[PositionRegister]:
    """`current` as they stood at `at`, in `current`'s order: one changed since is its state then,
    one registered since is left out. `with_removed`: positions removed since (a version names
    them, `current` does not) are added, after the others."""
    changed = changed_after(versions, at)
    found: list[PositionRegister] = []
    seen: set[str] = set()
    for register in current:
        seen.add(register.position_id)
        version = changed.get(register.position_id)
        held = register if version is None else version.before
        if held is not None and registered_by(held, at):
            found.append(held)
    if with_removed:
        found += [
            v.before
            for p, v in sorted(changed.items())
            if p not in seen and v.before is not None and registered_by(v.before, at)
        ]
    return found


def summary_known_at(
    summary: Mapping[rule.Measure, Decimal], versions: Iterable[RegisterVersion], at: datetime
) -> rule.Vector:
    """A fund's summary as it stood at `at`: today's less what every write after `at` added."""
    return rule.add(summary, *(rule.negate(v.delta) for v in versions if v.replaced_at > at))
