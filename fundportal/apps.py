from django.apps import AppConfig


class FundportalConfig(AppConfig):
    name = "fundportal"
    verbose_name = "Fund portal"

    def ready(self) -> None:
        from fundportal.auth_backend import connect_signals

        connect_signals()
