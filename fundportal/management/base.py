"""Base class for the project's commands: data-layer errors become one clear line on stderr
and a non-zero exit (Django's CommandError), never a traceback."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from fundportal.dynamo.errors import DataLayerError


class DynamoCommand(BaseCommand):
    def execute(self, *args: Any, **options: Any) -> Any:
        try:
            return super().execute(*args, **options)
        except DataLayerError as error:
            raise CommandError(str(error)) from error
