from django.apps import AppConfig


class FundportalConfig(AppConfig):
    name = "fundportal"
    verbose_name = "Fund portal"
