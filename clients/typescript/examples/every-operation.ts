// Calls every operation of a running Marketlens server through the typed client and checks
// the answers: ids that must agree, and credits that move by exactly what the calls charged
// (`X-Credits-Used`). scripts/clients runs it against the demo.
// Usage: node dist/examples/every-operation.js BASE_URL API_KEY ADMIN_TOKEN
import assert from "node:assert/strict";

import { connect, items } from "../src/index.js";

const [baseUrl = "", apiKey = "", adminToken = ""] = process.argv.slice(2);
const api = connect(baseUrl, apiKey);
let charged = 0;

/** The answer's data, checked to be a success; counts what it charged. */
function answered<Data>(result: { data?: Data; error?: unknown; response: Response }, status = 200): Data {
  assert.equal(result.response.status, status, JSON.stringify(result.error));
  assert.ok(result.data !== undefined);
  charged += Number(result.response.headers.get("X-Credits-Used") ?? 0);
  return result.data;
}

const before = answered(await api.GET("/api/v1/account")).data.credits.remaining;
charged = 0;

const markets = answered(await api.GET("/api/v1/markets", { params: { query: { limit: 3, sortBy: "volume", status: "OPEN" } } }));
const first = markets.data[0];
assert.ok(first && markets.data.every((market) => market.status === "OPEN"));
const market = answered(await api.GET("/api/v1/markets/{id}", { params: { path: { id: first.id } } })).data;
assert.equal(market.id, first.id);
const history = answered(await api.GET("/api/v1/markets/{id}/history", { params: { path: { id: market.id }, query: { interval: "1d" } } }));
assert.equal(history.data.marketId, market.id);
const spreads = answered(await api.GET("/api/v1/spreads"));
assert.ok(spreads.data.every((spread) => spread.spread >= 0 && spread.spread <= 1));
const events = answered(await api.GET("/api/v1/events", { params: { query: { limit: 2 } } }));
const eventId = events.data[0]?.id ?? "";
assert.equal(answered(await api.GET("/api/v1/events/{id}", { params: { path: { id: eventId } } })).data.id, eventId);
const explained = answered(await api.GET("/api/v1/explain", { params: { query: { query: market.question } } }));
assert.equal(explained.data.meta.marketId, market.id);
const byBody = answered(await api.POST("/api/v1/explain", { body: { query: market.question } }));
assert.equal(byBody.data.meta.marketId, market.id);
const lookedUp = answered(await api.GET("/api/v1/markets/lookup", { params: { query: { url: explained.data.market.url } } }));
assert.equal(lookedUp.data.id, market.id);

// Depth: a demo market with a recorded book and trades (demo-data/depth/SOURCES.md).
const recorded = answered(await api.GET("/api/v1/markets", { params: { query: { externalMarketId: "KXELONMARS-99" } } })).data[0]?.id ?? "";
const book = answered(await api.GET("/api/v1/markets/{id}/orderbook", { params: { path: { id: recorded } } })).data;
const yes = book.outcomes[0];
assert.ok(yes && (yes.bids[0]?.price ?? 1) < (yes.asks[0]?.price ?? 0));
const books = answered(await api.GET("/api/v1/orderbooks", { params: { query: { ids: `${recorded},${recorded}` } } }));
assert.deepEqual(books.data.map((item) => item.marketId), [recorded]);
const tradeIds: string[] = [];
let cursor: string | undefined;
for (;;) {
  const page = answered(await api.GET("/api/v1/markets/{id}/trades", { params: { path: { id: recorded }, query: { limit: 2, cursor } } }));
  tradeIds.push(...page.data.trades.map((trade) => trade.id));
  if (!page.pagination.hasMore) break;
  cursor = page.pagination.nextCursor ?? undefined;
}
assert.equal(new Set(tradeIds).size, 5);

const after = answered(await api.GET("/api/v1/account")).data.credits.remaining;
assert.equal(before - after, charged, `credits went from ${before} to ${after}, but the calls charged ${charged}`);
console.log(`typescript: ${charged} credits charged by the calls, ${before - after} taken from the account`);

let every = 0;
for await (const _ of items((page) => api.GET("/api/v1/markets", { params: { query: { ...page, status: "OPEN" } } }))) {
  every++;
}
const total = answered(await api.GET("/api/v1/markets", { params: { query: { limit: 1, status: "OPEN" } } })).pagination.total;
assert.equal(every, total);

const anonymous = connect(baseUrl);
for (const path of ["/healthz", "/readyz", "/api/v1/openapi.json"] as const) {
  assert.equal((await anonymous.GET(path)).response.status, 200, path);
}
const metrics = await anonymous.GET("/metrics", { parseAs: "text" });
assert.ok(metrics.data?.includes("marketlens_"));

const admin = connect(baseUrl, adminToken);
const created = answered(await admin.POST("/admin/v1/accounts", { body: { tier: "starter", credits: 100 } }), 201).data;
const id = created.account.id;
assert.ok(created.key.apiKey.startsWith("pm_live_"));
assert.ok(answered(await admin.GET("/admin/v1/accounts")).data.some((account) => account.id === id));
answered(await admin.GET("/admin/v1/accounts/{id}", { params: { path: { id } } }));
assert.equal(answered(await admin.PATCH("/admin/v1/accounts/{id}", { params: { path: { id } }, body: { tier: "pro" } })).data.tier, "pro");
const topped = answered(await admin.POST("/admin/v1/accounts/{id}/credits", { params: { path: { id } }, body: { credits: 50 } })).data;
assert.equal(topped.credits.remaining, 150);
const key = answered(await admin.POST("/admin/v1/accounts/{id}/keys", { params: { path: { id } } }), 201).data;
assert.ok(answered(await admin.GET("/admin/v1/accounts/{id}/keys", { params: { path: { id } } })).data.some((listed) => listed.id === key.id));
assert.ok(answered(await admin.DELETE("/admin/v1/keys/{id}", { params: { path: { id: key.id } } })).data.revokedAt);
const ledger = answered(await admin.GET("/admin/v1/accounts/{id}/ledger", { params: { path: { id } } }));
assert.deepEqual(ledger.data.map((line) => line.credits), [100, 50]);
console.log("typescript: every operation answered as documented");
