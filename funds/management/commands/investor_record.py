"""Set an investor's record (operators): name and type; an option not given keeps what is
stored. Prints one line; a refusal is one line on stderr and exit 1."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.core.management.base import CommandParser

from fundportal.domain.kinds import validate_id
from fundportal.domain.records import INVESTOR_TYPES, InvestorRecord
from fundportal.management.base import DynamoCommand
from fundportal.store.repositories.records import RecordRepository
from funds.record_services import investor_record_set


class Command(DynamoCommand):
    help = "Set an investor's record: name and type."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("investor_id", metavar="INVESTOR")
        parser.add_argument("--name")
        parser.add_argument("--type", dest="investor_type", choices=list(INVESTOR_TYPES))
        parser.add_argument("--user", required=True, metavar="U", help="who makes the change (audited)")

    def handle(self, *args: Any, **options: Any) -> None:
        investor_id = validate_id(options["investor_id"], "investor id")
        stored = RecordRepository().investor(investor_id, consistent=True)
        given = {name: options[name] for name in ("name", "investor_type") if options[name] is not None}
        wanted = replace(stored, **given) if stored else InvestorRecord(investor_id, **{"name": "", **given})
        saved = investor_record_set(wanted, expected_revision=stored.revision if stored else 0, user=options["user"])
        self.stdout.write(f"{investor_id} record saved: {saved.name} ({saved.type_label}, revision {saved.revision})")
