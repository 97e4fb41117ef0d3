"""Remove a position with no entries, or merge a mistyped position into the right one: the
position page's Remove and Merge actions, for operators. Prints one line; a refusal is one line
on stderr and exit 1, nothing written."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from fundportal.access.commands import add_scope_arguments, scope_from_options
from fundportal.management.base import DynamoCommand
from positions.merging import position_merge, position_remove


class Command(DynamoCommand):
    help = (
        "position remove POS: delete a position with no entries. "
        "position merge POS --into TARGET: move POS's entries to TARGET (same fund, investor and "
        "currency) and remove POS. Both audited; refused with nothing written otherwise."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="{remove,merge}")
        remove = actions.add_parser("remove", help="delete a position that has no entries")
        remove.add_argument("position_id", metavar="POS")
        merge = actions.add_parser("merge", help="merge a mistyped position into the right one")
        merge.add_argument("position_id", metavar="POS", help="the mistyped position (removed)")
        merge.add_argument("--into", required=True, metavar="TARGET", help="the right position (kept)")
        for sub in (remove, merge):
            sub.add_argument("--user", default="manage.py position", metavar="U", help="who the audit trail names")
            add_scope_arguments(sub)

    def handle(self, *args: Any, **options: Any) -> None:
        scope = scope_from_options(options)
        position_id = options["position_id"]
        if options["action"] == "remove":
            removed = position_remove(position_id=position_id, user=options["user"], scope=scope)
            self.stdout.write(f"{position_id} removed (fund {removed.fund_id}, investor {removed.investor_id})")
            return
        result = position_merge(source=position_id, target=options["into"], user=options["user"], scope=scope)
        self.stdout.write(
            f"{position_id} merged into {result.target}: {result.moved} entries moved in "
            f"{result.transactions} transactions; {position_id} removed"
        )
