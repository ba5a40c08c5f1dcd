// The memory page's few interactions: edit (a new version), delete one, delete everything.
// Calls the same REST API as applications, with the page token from the link.
(function () {
  "use strict";
  const token = new URLSearchParams(window.location.search).get("token") || "";
  const top = document.getElementById("top");
  if (!top) return;
  const user = top.dataset.user;
  const base = "/v1/users/" + encodeURIComponent(user);
  const status = document.getElementById("status");

  function say(text, bad) {
    status.textContent = text;
    status.className = "status" + (bad ? " bad" : " ok");
  }

  async function call(method, path, body) {
    const res = await fetch(base + path, {
      method: method,
      headers: Object.assign({ Authorization: "Bearer " + token }, body ? { "Content-Type": "application/json" } : {}),
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error((data.error && data.error.message) || "request failed (" + res.status + ")");
    return data;
  }

  function reloadSoon(text) {
    say(text, false);
    window.setTimeout(() => window.location.reload(), 400);
  }

  // Each audit entry in plain words; internal reasons (rule names, extraction counts) are not shown.
  const OPS = {
    ADD: "Remembered", UPDATE: "A new version replaced the old one", DELETE: "Set aside: something newer replaced it",
    PURGE: "Deleted", NOOP: "You mentioned it again", CONSOLIDATE: "Summed up with similar memories",
    EXPIRE: "Forgotten: it had expired", EVICT: "Let go: it had not come up for a long time", TOUCH: "Used in an answer",
  };
  const REASONS = {
    remember: "saved exactly as given", update: "you corrected it", delete: "you deleted it",
    forget: "you asked to forget it", import: "brought over from another copy",
  };

  // The audit trail of a memory, loaded when its "why" is first opened.
  async function loadTrail(id, list) {
    try {
      const h = await call("GET", "/memories/" + encodeURIComponent(id) + "/history");
      list.replaceChildren();
      h.audit.slice(-8).forEach((a) => {
        const li = document.createElement("li");
        li.className = "audit";
        const when = new Date(a.at).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
        const reason = REASONS[a.reason];
        li.textContent = when + ": " + (OPS[a.op] || "Changed") + (reason ? " (" + reason + ")" : "") + ".";
        list.appendChild(li);
      });
    } catch (err) {
      list.textContent = "";
    }
  }

  document.querySelectorAll("article.memory").forEach((card) => {
    const id = card.dataset.id;
    const why = card.querySelector("details.why");
    why.addEventListener("toggle", () => {
      const trail = why.querySelector("ul.trail");
      if (why.open && !trail.dataset.loaded) {
        trail.dataset.loaded = "1";
        loadTrail(id, trail);
      }
    });
    const form = card.querySelector("form.edit");
    const text = card.querySelector("p.text");
    const buttons = card.querySelector(".buttons");
    card.querySelector(".edit-btn").addEventListener("click", () => {
      form.hidden = false;
      text.hidden = true;
      buttons.hidden = true;
      form.querySelector("textarea").focus();
    });
    form.querySelector(".cancel").addEventListener("click", () => {
      form.hidden = true;
      text.hidden = false;
      buttons.hidden = false;
    });
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const value = form.querySelector("textarea").value.trim();
      if (!value) return say("A memory cannot be empty; delete it instead.", true);
      try {
        await call("PATCH", "/memories/" + encodeURIComponent(id), { text: value });
        reloadSoon("Saved. The old version is kept in the history.");
      } catch (err) {
        say(err.message, true);
      }
    });
    card.querySelector(".delete-btn").addEventListener("click", async () => {
      if (!window.confirm("Delete this memory, and anything built from it?")) return;
      try {
        const report = await call("DELETE", "/memories/" + encodeURIComponent(id));
        card.remove();
        reloadSoon("Deleted " + report.deleted.length + " record(s).");
      } catch (err) {
        say(err.message, true);
      }
    });
  });

  const all = document.getElementById("delete-all");
  if (all) {
    all.addEventListener("click", async () => {
      if (!window.confirm("Delete everything that is remembered about you? This cannot be undone.")) return;
      try {
        const out = await call("DELETE", "");
        reloadSoon("Deleted " + out.deleted + " memories.");
      } catch (err) {
        say(err.message, true);
      }
    });
  }
})();
