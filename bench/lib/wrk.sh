# Sourced by the benchmarks: wrk's `--latency` report on standard input reduced to one line,
# "NAME|req/s|p50 ms|p99 ms|non-2xx", so that every benchmark reads wrk the same way.
# Usage: wrk ... --latency URL 2>&1 | wrk_summary NAME
wrk_summary() {
    python3 -c '
import re, sys
text = sys.stdin.read()
def ms(label):
    match = re.search(r"^\s*" + label + r"%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    value, unit = float(match.group(1)), match.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
print("%s|%.0f|%.2f|%.2f|%s" % (sys.argv[1], rps, ms("50"), ms("99"), errors.group(1) if errors else "0"))
' "$1"
}

# One summary line as a table row, the name padded to WIDTH characters.
# Usage: ... | wrk_summary NAME | wrk_row WIDTH
wrk_row() {
    awk -F'|' -v width="$1" '{ printf "%-*s %10s %9s %9s %8s\n", width, $1, $2, $3, $4, $5 }'
}
