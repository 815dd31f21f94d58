#!/usr/bin/env bash
# Marketlens against what a self-hoster would run instead over the same rows (issue 23):
# Datasette, installed from PyPI, serving the SQLite store bench/run.sh seeds; and PostgreSQL
# answering the list by a prepared query (pgbench: no HTTP, no total, nothing charged) on the
# copy bench/postgres.sh makes. Marketlens and Datasette are driven by wrk the same way, one
# after the other in the same run, and the table gives Marketlens's rate as a multiple of each
# peer's.
#
# Usage: bench/peers.sh [MARKETS] [SECONDS] [CONCURRENCY]     (defaults: 100000, 10, 32)
# Needs: wrk, curl, python3 with venv and pip (Datasette is installed into target/bench/),
# PostgreSQL's pgbench and psql (scripts/services starts PostgreSQL).
#
# Every server and the load generator share this machine's cores, so every figure is a floor.
set -euo pipefail
markets=${1:-100000}
duration=${2:-10}
concurrency=${3:-32}
seed=${MARKETLENS_BENCH_SEED:-1}
port=${MARKETLENS_BENCH_PORT:-18095}
datasette_port=$((port + 1))
datasette_version=0.65.5
cd "$(dirname "$0")/.."
. bench/lib/wrk.sh

while IFS='=' read -r name value; do
  export "$name=$value"
done < <(scripts/services)
for tool in wrk pgbench psql; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing" >&2; exit 1; }
done
cargo build --release --locked --quiet --bin marketlens
bin=target/release/marketlens
export RUST_LOG=warn MARKETLENS_TIER_LIMITS="bench=1000000000"
. bench/lib/stores.sh
store=$(synthetic_store "$bin" "$markets" "$seed")
database_url=$(postgres_copy "$bin" "$store" "${MARKETLENS_TEST_DATABASE_URL%/*}")

venv=target/bench/datasette-$datasette_version
if [ ! -x "$venv/bin/datasette" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "datasette==$datasette_version"
fi
workdir=$(mktemp -d)
servers=()
cleanup() { for server in "${servers[@]}"; do kill "$server" 2>/dev/null || true; done; rm -rf "$workdir"; }
trap cleanup EXIT

export MARKETLENS_DATABASE_URL="sqlite://$store"
key=$("$bin" accounts create --tier bench --credits 1000000000 --label bench | awk '/^api key/ {print $3}')
"$bin" serve --no-sync --bind "127.0.0.1:$port" &
servers+=($!)
# Datasette serves the live file, as Marketlens does (not `--immutable`: Marketlens writes to it,
# every call being charged). Its default time limit (1 s) would leave a count of a million rows
# out of its answer (Marketlens counts every page); its suggested facets (on by default: several
# queries more per page, 0.7 s a page at 10,000 markets) are off, as for an API.
"$venv/bin/datasette" serve "$store" --port "$datasette_port" \
  --setting sql_time_limit_ms 20000 --setting default_page_size 50 --setting suggest_facets off >"$workdir/datasette.log" 2>&1 &
servers+=($!)
base="http://127.0.0.1:$port"
until curl -sf "$base/readyz" | python3 -c 'import json, sys; sys.exit(0 if json.load(sys.stdin)["catalog"]["inMemory"] else 1)' 2>/dev/null; do
  kill -0 "${servers[0]}" 2>/dev/null || { echo "bench: the server stopped" >&2; exit 1; }
  sleep 0.5
done
table="http://127.0.0.1:$datasette_port/$(basename "$store" .db)/markets.json"
until curl -sf "$table?_size=1" >/dev/null; do
  kill -0 "${servers[1]}" 2>/dev/null || { echo "bench: Datasette stopped:" >&2; cat "$workdir/datasette.log" >&2; exit 1; }
  sleep 0.5
done

# Datasette finds an external-content FTS table only when its SQL names the content table in
# double quotes or brackets (ours: 'markets'), and without one ignores `_search`: the table is
# named, and a search that matched every row would be a plain list.
searched=$(curl -sf "$table?_search=will%20trump%20win&_fts_table=markets_fts&_size=0" | python3 -c 'import json, sys; print(json.load(sys.stdin)["filtered_table_rows_count"])')
[ "$searched" -lt "$markets" ] || { echo "bench: Datasette's search matched all $searched markets" >&2; exit 1; }

# Random market ids, the same for both servers.
python3 -c 'import random, sqlite3, sys
ids = [row[0] for row in sqlite3.connect(sys.argv[1]).execute("SELECT id FROM markets")]
random.seed(7)
print("\n".join(random.sample(ids, min(2000, len(ids)))))' "$store" >"$workdir/ids.txt"
sed 's/^/?_shape=objects\&id=/' "$workdir/ids.txt" >"$workdir/datasette-ids.txt"
measure() { # name url [items-file]: prints "name|rps|p50|p99|errors"; a slow peer gets 60 s an answer
  wrk_measure "$1" "$2" "${3:-}" "$concurrency" "$duration" "Authorization: Bearer $key" 60s
}
# Waits until the process PID has used no CPU for a second (at most two minutes): Datasette
# goes on answering the requests wrk left in flight, which would slow the next measurement.
until_idle() { # pid
  local before after waited=0
  after=$(awk '{print $14 + $15}' "/proc/$1/stat")
  while [ "$waited" -lt 120 ]; do
    before=$after
    sleep 1
    after=$(awk '{print $14 + $15}' "/proc/$1/stat")
    [ "$after" != "$before" ] || return 0
    waited=$((waited + 1))
  done
}
# pgbench with one prepared query: prints "tps|mean latency ms".
prepared() { # sql
  echo "$1" >"$workdir/query.sql"
  pgbench -n -M prepared -c "$concurrency" -j 2 -T "$duration" -f "$workdir/query.sql" "$database_url" 2>&1 |
    python3 -c 'import re, sys
text = sys.stdin.read()
print("%.0f|%.2f" % (float(re.search(r"tps = ([\d.]+)", text).group(1)), float(re.search(r"latency average = ([\d.]+) ms", text).group(1))))'
}
columns="id, exchange, external_id, event_id, question, status, category, volume, volume_24h, liquidity, end_date, outcomes, url, image_url"
filters="exchange=POLYMARKET&status=OPEN"

# Each call: Marketlens's path, Datasette's query (the same rows, all columns, with its count of
# them), and for the lists PostgreSQL's prepared query.
calls=(
  "list markets (default: 50 by volume24h desc)|/api/v1/markets|?_sort_desc=volume_24h&_size=50|SELECT $columns FROM markets ORDER BY volume_24h DESC, id LIMIT 50"
  "list, exchange + status + category, liquidity desc|/api/v1/markets?$filters&category=politics&sortBy=liquidity|?$filters&category=Politics&_sort_desc=liquidity&_size=50|SELECT $columns FROM markets WHERE exchange = 'POLYMARKET' AND status = 'OPEN' AND category = 'Politics' ORDER BY liquidity DESC, id LIMIT 50"
  "search, one word (will)|/api/v1/markets?search=will|?_search=will&_fts_table=markets_fts&_sort_desc=volume_24h&_size=50|"
  "search, three words (will trump win)|/api/v1/markets?search=will%20trump%20win|?_search=will%20trump%20win&_fts_table=markets_fts&_sort_desc=volume_24h&_size=50|"
  "get market (random ids)|/api/v1/markets/|ids|"
)
rows=()
for call in "${calls[@]}"; do
  IFS='|' read -r name ours theirs sql <<<"$call"
  if [ "$theirs" = ids ]; then
    mine=$(measure "$name" "$base$ours" "$workdir/ids.txt")
    datasette=$(measure "$name" "$table" "$workdir/datasette-ids.txt")
  else
    mine=$(measure "$name" "$base$ours")
    datasette=$(measure "$name" "$table$theirs")
  fi
  until_idle "${servers[1]}"
  postgres="|"
  [ -z "$sql" ] || postgres=$(prepared "$sql")
  rows+=("$mine|$datasette|$postgres")
done

echo
echo "Marketlens and its peers: $markets synthetic markets (seed $seed), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)),"
echo "wrk or pgbench with $concurrency connections for ${duration}s per call; Datasette $datasette_version, PostgreSQL $(psql "$database_url" -Atc 'SHOW server_version' | cut -d' ' -f1) by prepared query."
echo
echo "| call | Marketlens req/s · p99 ms | Datasette req/s · p99 ms | Marketlens / Datasette | PostgreSQL prepared query, tps · mean ms | Marketlens / PostgreSQL |"
echo "|---|---:|---:|---:|---:|---:|"
failed=0
for row in "${rows[@]}"; do
  IFS='|' read -r name rps _ p99 errors _ d_rps _ d_p99 d_errors pg_tps pg_ms <<<"$row"
  # A peer that answered nothing within the run has no rate to divide by.
  ratio=$(python3 -c "print('%.0fx' % ($rps / $d_rps) if $d_rps else 'none answered in ${duration} s')")
  pg="-" pg_ratio="-"
  if [ -n "$pg_tps" ]; then
    pg="$pg_tps · $pg_ms"
    pg_ratio=$(python3 -c "print('%.2fx' % ($rps / max($pg_tps, 1)))")
  fi
  echo "| $name | $rps · $p99 | $d_rps · $d_p99 | $ratio | $pg | $pg_ratio |"
  if [ "$errors" != 0 ] || [ "$d_errors" != 0 ]; then failed=1; fi
done
if [ "$failed" = 1 ]; then
  echo "bench: some calls were answered with errors" >&2
  exit 1
fi
