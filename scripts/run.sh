#!/usr/bin/env bash
# make run: DynamoDB Local (data on disk under var/dynamodb), Django's database, the table,
# the seed sample when empty, an account to sign in with, static files, the background job
# worker (web imports), gunicorn on 127.0.0.1:$PORT (default 8000). Ctrl-C stops everything it
# started.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-fundportal.settings.local}"
PORT="${PORT:-8000}"
DDB_PORT="${DYNAMODB_LOCAL_PORT:-8100}"
export DYNAMODB_ENDPOINT_URL="${DYNAMODB_ENDPOINT_URL:-http://127.0.0.1:$DDB_PORT}"
# gunicorn kills a worker after --timeout s; the DynamoDB budget of a request
# (DYNAMODB_REQUEST_BUDGET, default 25 s) ends it earlier with the 503 page.
BUDGET="${DYNAMODB_REQUEST_BUDGET:-25}"
TIMEOUT=$(( ${BUDGET%.*} + 10 ))
mkdir -p var

pids=()
cleanup() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  echo "Stopped."
}
trap cleanup INT TERM EXIT

if ! command -v java >/dev/null; then
  echo "error: Java 17+ is required for DynamoDB Local: install a JRE (e.g. apt-get install openjdk-17-jre-headless)" >&2
  exit 1
fi
$PY -m fundportal.dynamodb_local serve --port "$DDB_PORT" --db-path var/dynamodb &
pids+=($!)
echo "Waiting for DynamoDB Local on 127.0.0.1:$DDB_PORT..."
for i in $(seq 1 600); do
  if (echo >"/dev/tcp/127.0.0.1/$DDB_PORT") 2>/dev/null; then break; fi
  if ! kill -0 "${pids[0]}" 2>/dev/null; then echo "error: DynamoDB Local did not start" >&2; exit 1; fi
  if [ "$i" = 600 ]; then echo "error: DynamoDB Local did not answer within 120 s" >&2; exit 1; fi
  sleep 0.2
done

$PY manage.py migrate --noinput
$PY manage.py createcachetable
# Also upgrades an existing table: builds missing indexes and new versions of changed ones, drops
# the earlier versions, and rebuilds an index made from an older definition under the same name
# (nothing reads this local table before the server starts; never do that to a live table).
$PY manage.py create_table --drop-retired --rebuild-in-place
$PY manage.py seed_demo --sample --if-empty
$PY manage.py verify_positions --repair -v 0 || echo "warning: verify_positions found differences it could not repair (see above)" >&2
$PY manage.py ensure_analyst
$PY manage.py collectstatic --noinput --verbosity 0

# The worker that runs web imports (queued in Django's database by the confirm page).
$PY manage.py db_worker &
pids+=($!)

echo "Serving on http://127.0.0.1:$PORT/ (Ctrl-C stops)"
.venv/bin/gunicorn fundportal.wsgi --bind "127.0.0.1:$PORT" --workers 2 --timeout "$TIMEOUT" --access-logfile - &
pids+=($!)
wait -n "${pids[@]}"
