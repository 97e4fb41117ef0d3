"""Base class for the project's commands: data-layer errors become one clear line on stderr
and a non-zero exit (Django's CommandError), never a traceback."""

from __future__ import annotations

import logging
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from fundportal.domain.errors import DomainError
from fundportal.messages import describe
from fundportal.store.errors import DataLayerError

# The data layer logs failures for the web site's operators; a command reports them itself,
# as its one error line, so its own log records would only repeat that line on stderr.
_DATA_LAYER_LOGGER = logging.getLogger("fundportal.dynamodb")


class DynamoCommand(BaseCommand):
    def execute(self, *args: Any, **options: Any) -> Any:
        previous = _DATA_LAYER_LOGGER.level
        _DATA_LAYER_LOGGER.setLevel(logging.CRITICAL)
        try:
            return super().execute(*args, **options)
        except (DomainError, DataLayerError) as error:
            raise CommandError(describe(error)) from error
        finally:
            _DATA_LAYER_LOGGER.setLevel(previous)
