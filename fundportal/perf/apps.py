from django.apps import AppConfig
from django.conf import settings


class PerfConfig(AppConfig):
    """Installs each speed trick whose setting is on; the only place any of them is installed."""

    name = "fundportal.perf"
    label = "perf"
    verbose_name = "Speed tricks"

    def ready(self) -> None:
        from fundportal.jinja2 import add_environment_customizer
        from fundportal.store.client import add_client_customizer

        from . import (
            direct_json,
            escape_memo,
            fast_batch_get,
            fast_parse,
            filter_form_memo,
            gc_after_response,
            gc_tuning,
            raw_auth_reads,
            static_cache,
            unescaped_figures,
            url_cache,
        )

        if settings.DYNAMODB_FAST_QUERY_PARSE:
            add_client_customizer(fast_parse.install)
        if settings.DYNAMODB_FAST_BATCH_GET_PARSE:
            add_client_customizer(fast_batch_get.install)
        if settings.TEMPLATE_URL_CACHE:
            add_environment_customizer(url_cache.install)
        if settings.TEMPLATE_UNESCAPED_FIGURES:
            add_environment_customizer(unescaped_figures.install)
        if settings.TEMPLATE_STATIC_CACHE:
            add_environment_customizer(static_cache.install)
        if settings.API_DIRECT_JSON:
            direct_json.install()
        if settings.TEMPLATE_ESCAPE_MEMO:
            add_environment_customizer(escape_memo.install)
        if settings.AUTH_RAW_READS:
            from api import tokens

            tokens.use_reader(raw_auth_reads.read_token)
        if settings.FILTER_FORM_MEMO:
            filter_form_memo.install()
        if settings.GC_GEN0_THRESHOLD > 0:
            gc_tuning.tune_on_first_request()
            if settings.GC_AFTER_RESPONSE:
                gc_after_response.install(settings.GC_GEN0_THRESHOLD)
