from django.apps import AppConfig


class PositionsConfig(AppConfig):
    name = "positions"
    verbose_name = "Positions"
