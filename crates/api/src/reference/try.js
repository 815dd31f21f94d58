// The /docs page's own script: the sidebar's search, and the "try it" forms, which send their
// operation's request to this same origin with the key pasted in the sidebar (kept only in
// this tab's sessionStorage) and show the answer as it came.
"use strict";

const keyInput = document.getElementById("api-key");
keyInput.value = sessionStorage.getItem("marketlens-key") ?? "";
keyInput.addEventListener("input", () => sessionStorage.setItem("marketlens-key", keyInput.value.trim()));

document.getElementById("filter").addEventListener("input", (event) => {
  const words = event.target.value.toLowerCase().split(/\s+/).filter(Boolean);
  for (const item of document.querySelectorAll("nav li")) {
    item.hidden = !words.every((word) => item.dataset.search.includes(word));
  }
});

for (const form of document.querySelectorAll("form.try")) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = form.querySelector("pre.answer");
    let path = form.dataset.path;
    const query = new URLSearchParams();
    const headers = {};
    for (const input of form.querySelectorAll("input[data-in]")) {
      const value = input.value.trim();
      if (value === "") continue;
      if (input.dataset.in === "path") {
        path = path.replace(`{${input.name}}`, encodeURIComponent(value));
      } else if (input.dataset.in === "header") {
        headers[input.name] = value;
      } else {
        query.append(input.name, value);
      }
    }
    const credential = form.dataset.access === "admin" ? form.querySelector("input.token").value.trim()
      : form.dataset.access === "key" ? keyInput.value.trim() : "";
    if (credential) headers.Authorization = `Bearer ${credential}`;
    const init = { method: form.dataset.method.toUpperCase(), headers };
    const body = form.querySelector("textarea");
    if (body && body.value.trim() !== "") {
      headers["Content-Type"] = "application/json";
      init.body = body.value;
    }
    answer.hidden = false;
    answer.textContent = "Sending…";
    delete answer.dataset.status;
    try {
      const response = await fetch(path + (query.size > 0 ? `?${query}` : ""), init);
      const text = await response.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON (the metrics): shown as it came.
      }
      answer.dataset.status = String(response.status);
      answer.textContent = `${response.status} ${response.statusText}\n${shown}`;
    } catch (error) {
      answer.textContent = `The request failed: ${error}`;
    }
  });
}
