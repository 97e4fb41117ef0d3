# Fund portal. `make run` serves the portal on http://127.0.0.1:8000 with DynamoDB Local;
# `make test` installs what the tests need and runs them; `make bench` runs the benchmarks.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench lint typecheck venv dynamodb-local chromium pdf-libs check-deploy checkov clean

$(STAMP): requirements.txt requirements-dev.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $(STAMP)

venv: $(STAMP)

dynamodb-local: $(STAMP)
	$(PY) -m fundportal.dynamodb_local install

# checkov in its own venv: it pins older boto3/botocore than the portal (requirements-checkov.txt).
CHECKOV_STAMP := var/checkov/.installed
$(CHECKOV_STAMP): requirements-checkov.txt
	@test -x var/checkov/bin/python || $(PYTHON) -m venv var/checkov
	var/checkov/bin/python -m pip install --quiet -r requirements-checkov.txt
	@touch $(CHECKOV_STAMP)

checkov: $(CHECKOV_STAMP)

chromium:
	@bash scripts/ensure_chromium.sh

# Debian's Pango/HarfBuzz and fonts for WeasyPrint (statement PDFs).
pdf-libs:
	@bash scripts/ensure_pdf_libs.sh

run: $(STAMP) dynamodb-local pdf-libs
	@bash scripts/run.sh

# The typed floors: the domain, the store and the services (mypy.ini; django-stubs, boto3-stubs).
MYPY_TARGETS := fundportal/domain fundportal/store fundportal/perf fundportal/access fundportal/ops/iam.py fundportal/ops/cloudformation.py fundportal/ops/abandoned_imports.py fundportal/ops/register_repair.py documents/services.py documents/entry_writes.py documents/audit_fields.py documents/spellings.py positions/services.py imports/services.py imports/writing.py imports/reader.py imports/validation.py imports/validation_values.py imports/row_parsing.py imports/jobs.py imports/models.py imports/uploads.py bench/load_model.py documents/approval.py imports/guards.py imports/totals.py positions/merging.py positions/merge_selectors.py api/models.py api/tokens.py api/paging.py api/schemas.py api/parameters.py api/problems.py api/selectors.py api/token_views.py imports/fund_calls.py imports/fund_call_writes.py exports/notice.py documents/restatement.py documents/version_compare.py imports/publishing.py imports/pacing.py funds/investor_pages.py fundportal/web/paging.py fundportal/web/time_travel.py positions/as_of.py funds/as_of.py funds/known_at.py documents/time_travel.py funds/record_services.py funds/record_selectors.py exports/tables.py exports/writers.py exports/capital_account.py exports/capital_account_files.py exports/statement_jobs.py exports/statement_zip.py exports/models.py funds/line_sorting.py funds/lines.py exports/notice_zip.py positions/document_filters.py fundportal/charts.py fundportal/ops/document_copies.py documents/entry_copies.py

test: $(STAMP) dynamodb-local chromium pdf-libs checkov lint typecheck
	DJANGO_SETTINGS_MODULE=fundportal.settings.production DJANGO_SECRET_KEY=$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(64))') \
		$(PY) manage.py check --deploy --fail-level WARNING
	$(PY) -m pytest $(PYTEST_ARGS)
	# The plain path: the web and contract tests again with every speed trick off (fundportal/perf/).
	FUNDPORTAL_SPEED_TRICKS=off $(PY) -m pytest -q -m "not slow" tests/web tests/contract

bench: $(STAMP) dynamodb-local
	$(PY) -m bench $(BENCH_ARGS)

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: $(STAMP)
	$(PY) -m mypy $(MYPY_TARGETS)

clean:
	rm -rf $(VENV) var/static .pytest_cache
