from django.apps import AppConfig


class FundsConfig(AppConfig):
    name = "funds"
    verbose_name = "Funds and investors"
