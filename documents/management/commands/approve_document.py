"""Approve a submitted document as user U (four eyes: U must not be who last changed it), or
submit a draft with --submit: the document page's Approve and Submit buttons, for operators.
Prints one line; a refusal is one line on stderr and exit 1, nothing written."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from documents import approval
from fundportal.domain.kinds import validate_id
from fundportal.management.base import DynamoCommand


class Command(DynamoCommand):
    help = "Approve a submitted document (four eyes), or submit a draft with --submit."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("document_id", metavar="DOC")
        parser.add_argument("--user", required=True, metavar="U", help="who approves (or submits)")
        parser.add_argument("--submit", action="store_true", help="submit a draft for approval instead")

    def handle(self, *args: Any, **options: Any) -> None:
        document_id = options["document_id"]
        validate_id(document_id, "document id")
        if options["submit"]:
            document = approval.document_submit(document_id=document_id, user=options["user"])
            self.stdout.write(f"{document_id} submitted for approval by {options['user']}")
            return
        document = approval.document_approve(document_id=document_id, user=options["user"])
        self.stdout.write(f"{document_id} approved by {document.approval_by} (revision {document.revision})")
