"""`manage.py coverage grant|revoke|list [--user U | --group G] [--fund F ... | --all-funds]
[--investor I ...]`: who covers which fund (the admin edits the same rows)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError, CommandParser

from fundportal.access import grants
from fundportal.domain.errors import InvalidId
from fundportal.messages import describe


class Command(BaseCommand):
    help = (
        "Grant, revoke or list fund coverage: --fund F (repeatable) or --all-funds for a user or a group; "
        "--investor I links an LP user (read-only, their own positions)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=("grant", "revoke", "list"))
        holder = parser.add_mutually_exclusive_group()
        holder.add_argument("--user", help="username")
        holder.add_argument("--group", help="group name")
        what = parser.add_mutually_exclusive_group()
        what.add_argument("--fund", action="append", default=[], metavar="F", help="a fund id (repeatable)")
        what.add_argument("--all-funds", action="store_true", help="every fund (heads of operations)")
        parser.add_argument("--investor", action="append", default=[], metavar="I", help="an investor id (LP user)")
        parser.add_argument("--edit", action="store_true", help="grant: may also edit the funds given")
        parser.add_argument("--approve", action="store_true", help="grant: may also approve in the funds given")

    def handle(self, *args: Any, **options: Any) -> None:
        user, group = self._holder(options)
        if options["action"] == "list":
            for line in grants.coverage_lines(user=user, group=group):
                self.stdout.write(str(line))
            return
        funds, all_funds, investors = options["fund"], options["all_funds"], options["investor"]
        if user is None and group is None:
            raise CommandError("grant and revoke need --user U or --group G.")
        if not (funds or all_funds or investors):
            raise CommandError("Say what: --fund F (repeatable), --all-funds or --investor I.")
        if investors and user is None:
            raise CommandError("--investor links a user (an LP user), not a group.")
        try:
            done = (
                self._grant(user, group, options)
                if options["action"] == "grant"
                else self._revoke(user, group, options)
            )
        except InvalidId as error:
            raise CommandError(describe(error)) from None
        holder = f"user {user.get_username()}" if user is not None else f"group {group.name if group else ''}"
        verb = "Granted" if options["action"] == "grant" else "Revoked"
        self.stdout.write(f"{verb} for {holder}: {', '.join(done)}.")

    def _holder(self, options: dict[str, Any]) -> tuple[Any, Group | None]:
        if options["user"]:
            try:
                return get_user_model().objects.get_by_natural_key(options["user"]), None
            except get_user_model().DoesNotExist:
                raise CommandError(f"No user '{options['user']}'.") from None
        if options["group"]:
            try:
                return None, Group.objects.get(name=options["group"])
            except Group.DoesNotExist:
                raise CommandError(f"No group '{options['group']}'.") from None
        return None, None

    def _grant(self, user: Any, group: Group | None, options: dict[str, Any]) -> list[str]:
        done = []
        if options["all_funds"]:
            grants.grant_all_funds(user=user, group=group)
            done.append("all funds")
        if options["fund"]:
            grants.grant_funds(
                funds=options["fund"], user=user, group=group, can_edit=options["edit"], can_approve=options["approve"]
            )
            rights = " (edit)" if options["edit"] else ""
            done.extend(f"fund {fund}{rights}" for fund in options["fund"])
        if options["investor"]:
            grants.link_investors(user=user, investors=options["investor"])
            done.extend(f"investor {investor}" for investor in options["investor"])
        return done

    def _revoke(self, user: Any, group: Group | None, options: dict[str, Any]) -> list[str]:
        done = []
        if options["all_funds"]:
            grants.revoke_all_funds(user=user, group=group)
            done.append("all funds")
        if options["fund"]:
            grants.revoke_funds(funds=options["fund"], user=user, group=group)
            done.extend(f"fund {fund}" for fund in options["fund"])
        if options["investor"]:
            grants.unlink_investors(user=user, investors=options["investor"])
            done.extend(f"investor {investor}" for investor in options["investor"])
        return done
