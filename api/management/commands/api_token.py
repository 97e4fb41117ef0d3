"""`manage.py api_token create --user U --name N [--days D]` prints a new token once;
`api_token revoke --user U --name N` (or `--id K`) revokes; `api_token list [--user U]`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from api import tokens
from api.models import ApiToken


class Command(BaseCommand):
    help = "Create (printed once), revoke or list personal API tokens, e.g. for service accounts."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=("create", "revoke", "list"))
        parser.add_argument("--user", help="username")
        parser.add_argument("--name", help="the token's name")
        parser.add_argument("--id", type=int, help="revoke: the token's id (`list` shows it)")
        parser.add_argument("--days", type=int, default=tokens.DEFAULT_DAYS, help="create: days it is valid")

    def handle(self, *args: Any, **options: Any) -> None:
        action = options["action"]
        if action == "list":
            found = ApiToken.objects.select_related("user")
            if options["user"]:
                found = found.filter(user__username=options["user"])
            for record in found:
                self.stdout.write(
                    f"{record.pk} {record.user.get_username()} {record.name!r} {record.prefix}… "
                    f"{record.state} expires {record.expires_at.date().isoformat()}"
                )
            return
        if action == "create":
            user = self._user(options["user"])
            if not options["name"]:
                raise CommandError("create needs --name N.")
            try:
                issued = tokens.issue(user, options["name"], options["days"])
            except ValueError as error:
                raise CommandError(str(error)) from None
            self.stdout.write(issued.token)  # the only time it is shown
            return
        record = self._record(options)
        if not tokens.revoke(record):
            raise CommandError(f"Token {record.pk} ({record.name!r}) was already revoked.")
        self.stdout.write(f"Revoked token {record.pk} ({record.name!r}) of {record.user.get_username()}.")

    def _user(self, username: str | None) -> Any:
        if not username:
            raise CommandError("Say whose: --user U.")
        try:
            return get_user_model().objects.get_by_natural_key(username)
        except get_user_model().DoesNotExist:
            raise CommandError(f"No user {username!r}.") from None

    def _record(self, options: dict[str, Any]) -> ApiToken:
        if options["id"] is not None:
            found = ApiToken.objects.filter(pk=options["id"])
        elif options["name"]:
            found = ApiToken.objects.filter(user=self._user(options["user"]), name=options["name"])
            found = found.filter(revoked_at__isnull=True) if found.count() > 1 else found
        else:
            raise CommandError("revoke needs --id K, or --user U --name N.")
        records = list(found[:2])
        if not records:
            raise CommandError("No such token.")
        if len(records) > 1:
            raise CommandError("Several tokens match: revoke one by --id (see `api_token list`).")
        return records[0]
