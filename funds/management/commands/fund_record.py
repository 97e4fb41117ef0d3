"""Set a fund's record (operators: every fund): the options given replace those fields, the
others keep what is stored. Prints one line; a refusal is one line on stderr and exit 1."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.core.management.base import CommandParser

from fundportal.domain.kinds import validate_id
from fundportal.domain.money import CURRENCIES
from fundportal.domain.records import FundRecord
from fundportal.management.base import DynamoCommand
from fundportal.store.repositories.records import RecordRepository
from funds.record_services import fund_record_set

OPTIONS = ("name", "legal_name", "vintage", "currency", "gp")


class Command(DynamoCommand):
    help = "Set a fund's record: name, legal name, vintage, currency, GP."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("fund_id", metavar="FUND")
        parser.add_argument("--name")
        parser.add_argument("--legal-name", dest="legal_name")
        parser.add_argument("--vintage", type=int, metavar="YEAR")
        parser.add_argument("--currency", choices=CURRENCIES)
        parser.add_argument("--gp", help="the general partner")
        parser.add_argument("--user", required=True, metavar="U", help="who makes the change (audited)")

    def handle(self, *args: Any, **options: Any) -> None:
        fund_id = validate_id(options["fund_id"], "fund id")
        stored = RecordRepository().fund(fund_id, consistent=True)
        given = {name: options[name] for name in OPTIONS if options[name] is not None}
        wanted = replace(stored, **given) if stored else FundRecord(fund_id, **{"name": "", **given})
        saved = fund_record_set(wanted, expected_revision=stored.revision if stored else 0, user=options["user"])
        vintage = f", vintage {saved.vintage}" if saved.vintage else ""
        self.stdout.write(f"{fund_id} record saved: {saved.name}{vintage} (revision {saved.revision})")
