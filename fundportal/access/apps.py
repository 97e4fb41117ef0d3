from django.apps import AppConfig


class AccessConfig(AppConfig):
    name = "fundportal.access"
    label = "access"
    verbose_name = "Fund coverage"
    default_auto_field = "django.db.models.BigAutoField"
