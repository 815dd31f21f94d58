// The /docs page's "try it" form in headless Chromium, driven by Playwright as a reader would:
// paste the key, send "list markets", and see a 200 with markets; a screenshot of the answer
// is saved. scripts/clients runs it against the demo server.
// Usage: node docs-try-it.mjs BASE_URL API_KEY SCREENSHOT.png
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const [baseUrl, apiKey, screenshot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.MARKETLENS_TEST_CHROMIUM ?? "/usr/bin/chromium",
  // Without these Chromium calls its own services at start, which this closed network refuses.
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const refused = [];
  page.on("console", (message) => message.type() === "error" && refused.push(message.text()));
  await page.goto(`${baseUrl}/`);
  assert.match(page.url(), /\/docs$/, "/ leads to /docs");
  await page.fill("#api-key", apiKey);
  await page.fill("#filter", "list markets");
  const form = page.locator("#get-apiv1markets form.try");
  await form.locator("input[name=limit]").fill("3");
  await form.getByRole("button", { name: "Send" }).click();
  const answer = form.locator("pre.answer");
  await answer.and(page.locator("[data-status]")).waitFor({ timeout: 10_000 });
  assert.equal(await answer.getAttribute("data-status"), "200", await answer.textContent());
  const body = JSON.parse((await answer.textContent()).split("\n").slice(1).join("\n"));
  assert.equal(body.data.length, 3);
  assert.equal(body.pagination.limit, 3);
  await answer.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshot });
  assert.deepEqual(refused, [], "the page's console reported errors (a CSP refusal?)");
  console.log(`docs: try-it answered 200 with ${body.data.length} markets; screenshot in ${screenshot}`);
} finally {
  await browser.close();
}
