# Sourced by the scripts that test against a live demo server (schemathesis, clients, mcp,
# openapi-examples): builds the binary, starts `marketlens demo` on a free port with a fresh
# store and an admin token, waits until it is ready, and sets
#   work, port, base_url, key (the demo's API key), admin_token
# The server and the work folder go when the sourcing script exits. Extra environment for the
# server can be given in demo_env (e.g. demo_env="MARKETLENS_FAILED_AUTH_PER_MINUTE=0").

cargo build --locked --quiet --bin marketlens
work=$(mktemp -d)
admin_token=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base_url="http://127.0.0.1:$port"
# shellcheck disable=SC2086 # demo_env is a list of NAME=VALUE words
env ${demo_env:-} MARKETLENS_ADMIN_TOKEN="$admin_token" target/debug/marketlens demo --bind "127.0.0.1:$port" \
    --database-url "sqlite://$work/demo.db" >"$work/demo.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

for _ in $(seq 1 120); do
    curl -sf "$base_url/readyz" >/dev/null && break
    sleep 1
done
key=$(grep -o -m1 'pm_live_[0-9a-f]\{40\}' "$work/demo.log" || true)
if [ -z "$key" ]; then
    echo "$(basename "$0"): the demo server did not start:" >&2
    cat "$work/demo.log" >&2
    exit 1
fi
