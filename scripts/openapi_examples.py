"""Calls every operation of a running demo server once and writes each request with its real
answer, keyed by operationId (see scripts/openapi-examples, which starts the server).

Usage: openapi_examples.py BASE_URL API_KEY ADMIN_TOKEN OUTPUT.json
"""

import json
import sys
import urllib.parse
import urllib.request

base, key, admin_token, output = sys.argv[1:5]


def call(method, path, token, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request) as response:
        text = response.read().decode()
        is_json = response.headers.get_content_type() == "application/json"
        return response.status, json.loads(text) if is_json else text


examples = {}


def record(operation, method, path, token=None, body=None, shorten=None):
    status, answer = call(method, path, token, body)
    if shorten:
        answer = shorten(answer)
    example = {"method": method, "path": path, "status": status, "response": answer}
    if body is not None:
        example["body"] = body
    examples[operation] = example
    return answer


api = key
markets = record("listMarkets", "GET", "/api/v1/markets?limit=2&sortBy=volume&status=OPEN", api)
spreads = record("listSpreads", "GET", "/api/v1/spreads?limit=2", api)
# The market shown is one with a match when the demo has one: what no single exchange shows.
if spreads["data"]:
    market_id = spreads["data"][0]["polymarket"]["id"]
else:
    market_id = markets["data"][0]["id"]
market = record("getMarket", "GET", f"/api/v1/markets/{market_id}", api)
record("getMarketHistory", "GET", f"/api/v1/markets/{market_id}/history?interval=1d&limit=3", api)

events = call("GET", "/api/v1/events?limit=50", api)[1]["data"]
small = min(events, key=lambda event: (event["marketCount"] < 2, event["marketCount"]))
record("listEvents", "GET", "/api/v1/events?limit=2", api)
record("getEvent", "GET", f"/api/v1/events/{small['id']}", api)

# A market the demo's news speaks of in its own time (February 2025), so the example shows key factors.
query = "Israel withdraws from Gaza"
explained = record("explainMarket", "GET", "/api/v1/explain?" + urllib.parse.urlencode({"query": query}), api)
record("explainMarketByBody", "POST", "/api/v1/explain", api, body={"query": query})
url = explained["data"]["market"]["url"]
record("lookupMarket", "GET", "/api/v1/markets/lookup?" + urllib.parse.urlencode({"url": url}), api)
record("getAccount", "GET", "/api/v1/account", api)


# Depth: markets the demo holds recordings for (demo-data/depth/SOURCES.md).
def market_by_external_id(external_id):
    path = "/api/v1/markets?" + urllib.parse.urlencode({"externalMarketId": external_id})
    return call("GET", path, api)[1]["data"][0]["id"]


def top_levels(book):
    """The book with its three best levels a side: the example shows the shape, not the depth."""
    for outcome in book["outcomes"]:
        outcome["bids"], outcome["asks"] = outcome["bids"][:3], outcome["asks"][:3]
    return book


elon = market_by_external_id("KXELONMARS-99")
oprah = market_by_external_id("559687")
record(
    "getOrderBook",
    "GET",
    f"/api/v1/markets/{elon}/orderbook",
    api,
    shorten=lambda answer: {"data": top_levels(answer["data"])},
)
record(
    "listOrderBooks",
    "GET",
    f"/api/v1/orderbooks?ids={elon},{oprah}",
    api,
    shorten=lambda answer: {"data": [top_levels(book) for book in answer["data"]]},
)
record("listTrades", "GET", f"/api/v1/markets/{elon}/trades?limit=2", api)

record(
    "getOpenApiDocument",
    "GET",
    "/api/v1/openapi.json",
    # The whole document is this document: the example shows its start.
    shorten=lambda document: {name: document[name] for name in ("openapi", "info")},
)
record("checkLiveness", "GET", "/healthz")
record("checkReadiness", "GET", "/readyz")
record(
    "getMetrics",
    "GET",
    "/metrics",
    shorten=lambda text: "\n".join(line for line in text.splitlines() if "marketlens_store_markets" in line) + "\n",
)

admin = admin_token
created = record(
    "adminCreateAccount",
    "POST",
    "/admin/v1/accounts",
    admin,
    body={"tier": "starter", "credits": 5000, "label": "Research desk"},
)
account_id = created["data"]["account"]["id"]
record("adminListAccounts", "GET", "/admin/v1/accounts", admin)
record("adminGetAccount", "GET", f"/admin/v1/accounts/{account_id}", admin)
record("adminUpdateAccount", "PATCH", f"/admin/v1/accounts/{account_id}", admin, body={"tier": "pro"})
record("adminAddCredits", "POST", f"/admin/v1/accounts/{account_id}/credits", admin, body={"credits": 2500})
new_key = record("adminCreateKey", "POST", f"/admin/v1/accounts/{account_id}/keys", admin)
record("adminListKeys", "GET", f"/admin/v1/accounts/{account_id}/keys", admin)
record("adminRevokeKey", "DELETE", f"/admin/v1/keys/{new_key['data']['id']}", admin)
record("adminGetLedger", "GET", f"/admin/v1/accounts/{account_id}/ledger", admin)

with open(output, "w") as file:
    json.dump(examples, file, indent=2, ensure_ascii=False)
    file.write("\n")
print(f"openapi-examples: {len(examples)} operations recorded in {output}", file=sys.stderr)
