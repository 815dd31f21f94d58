# Sourced by the benchmarks: the stores they share, made once and kept in target/bench/ for
# later runs of the same size and seed.

# synthetic_store BIN MARKETS SEED: prints the path of the SQLite store of MARKETS synthetic
# markets, seeding (and matching) it first if it is missing.
synthetic_store() {
  local bin=$1 markets=$2 seed=$3
  local store="target/bench/synthetic-$markets-seed$seed.db"
  mkdir -p target/bench
  if [ ! -f "$store.seeded" ]; then
    rm -f "$store" "$store-wal" "$store-shm"
    MARKETLENS_DATABASE_URL="sqlite://$store" "$bin" seed --synthetic "$markets" --seed "$seed" >&2
    touch "$store.seeded"
  fi
  echo "$store"
}

# postgres_copy BIN SQLITE_STORE SERVER_URL: prints the URL of a PostgreSQL database on
# SERVER_URL holding a copy of SQLITE_STORE (`marketlens copy`), made first if it is missing.
postgres_copy() {
  local bin=$1 store=$2 server_url=$3
  local database
  database="marketlens_bench_$(basename "$store" .db | tr -c 'a-z0-9\n' '_')"
  if [ ! -f "target/bench/$database.copied" ]; then
    psql "$server_url/postgres" -qc "DROP DATABASE IF EXISTS $database" -c "CREATE DATABASE $database" >&2
    local started
    started=$(date +%s)
    "$bin" copy --from "sqlite://$store" --to "$server_url/$database" >&2
    echo "bench: copied into PostgreSQL in $(($(date +%s) - started)) s" >&2
    touch "target/bench/$database.copied"
  fi
  echo "$server_url/$database"
}
