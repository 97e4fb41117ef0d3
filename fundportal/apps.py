from django.apps import AppConfig


class FundportalConfig(AppConfig):
    name = "fundportal"
    verbose_name = "Fund portal"

    def ready(self) -> None:
        from django.core.signals import request_finished

        from fundportal.store.instrumentation import page_log

        # The request log goes to the shared cache after a response has been sent, not while a
        # page is served (`PageLogBuffer`).
        request_finished.connect(page_log.flush_due, dispatch_uid="fundportal.page_log.flush_due")
