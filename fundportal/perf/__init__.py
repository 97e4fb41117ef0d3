"""Speed tricks, each a part you can take out: on public APIs only, each behind its own setting,
all installed from one place (`fundportal.perf.apps.PerfConfig.ready`). With every one off
(`FUNDPORTAL_SPEED_TRICKS=off`) the portal is plain Django + boto3.

- `fast_parse`: a Query's Items taken straight from the JSON body (botocore's `before-parse`
  event, registered on each client through `fundportal.store.client.add_client_customizer`);
  setting `DYNAMODB_FAST_QUERY_PARSE`.
- `fast_batch_get`: a BatchGetItem's Responses taken straight from the JSON body (the same
  event and hook as `fast_parse`); setting `DYNAMODB_FAST_BATCH_GET_PARSE`.
- `url_cache`: the Jinja2 `url()` global through a process-wide cache of `reverse()` (through
  `fundportal.jinja2.add_environment_customizer`); setting `TEMPLATE_URL_CACHE`.
- `static_cache`: the Jinja2 `static()` global through a process-wide cache of Django's
  `static()` per script prefix, emptied on `setting_changed` (through
  `fundportal.jinja2.add_environment_customizer`); setting `TEMPLATE_STATIC_CACHE`.
- `unescaped_figures`: the row macros' formatted figures output without `escape()` (the
  `|figure` filter, through `fundportal.jinja2.add_environment_customizer`); setting
  `TEMPLATE_UNESCAPED_FIGURES`.
- `direct_json`: the read API's bodies serialised as built, without ninja's per-value check
  (through `fundportal.web.json_bodies.set_direct_sender`); setting `API_DIRECT_JSON`.
- `escape_memo`: the row macros' `|escaped` values (ids, links, statuses) escaped once per
  distinct text (through `fundportal.jinja2.add_environment_customizer`); setting
  `TEMPLATE_ESCAPE_MEMO`.
- `raw_auth_reads`: each request's session and user read by a fixed SQL statement (Django's
  `raw()`), chosen by the settings `SESSION_ENGINE` / `AUTHENTICATION_BACKENDS`; setting
  `AUTH_RAW_READS`.
- `csp_header`: the Content-Security-Policy header of the settings' policy built once per process
  (django-csp's middleware subclassed, chosen by the `MIDDLEWARE` setting); setting
  `CSP_HEADER_CACHE`.
- `filter_form_memo`: the position page's unasked document filter form drawn once per process for
  each set of document types (`positions.document_filters.draw_unasked_with`); setting
  `FILTER_FORM_MEMO`.
- `gc_tuning`: a serving process freezes what start-up loaded and collects young objects less
  often (Django's `request_started` signal, once); setting `GC_GEN0_THRESHOLD` (0 = off).
"""
