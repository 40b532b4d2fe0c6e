// Presence: who else has this map open, where their pointer is and what they have selected.
//
// This page sends `POST .../presence` with `{clientId, cursor, selection, leaving}` (authenticated
// like a write) when its pointer or selection changes, at most 10 times a second, plus a heartbeat
// every 10 s, and `leaving: true` on `pagehide`. It follows `GET .../presence` (server-sent events
// read with fetch: `presence` with one client's state, snapshot first; `left`) and shows the
// people in the header (name and colour dot), their cursors (an arrow and a name tag in their
// colour) and their selections (an outline in their colour) in the overlay. Its own clientId is
// ignored. A service whose OpenAPI document has no presence path gets no presence calls at all.
//
// Following: each announcement also carries the part of the map this page shows (`viewport`).
// A person's "Follow" button makes this page show what they show, fitted to this window, until
// this page's own view is moved (a drag or the wheel), Escape is pressed, or they close the
// map. "Bring everyone here" sends `summon: true` once: every other open map starts following
// this one (a map opened later is not summoned).
"use strict";

(() => {
  const M = window.canvasMap;
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  M.clientId = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const others = new Map(); // clientId → {name, colour, cursor, selection, at}
  const MIN_GAP = 100; // ms: at most 10 updates a second
  const HEARTBEAT = 10000;
  let cursor = null;
  let lastSent = 0;
  let trailing = null;
  let disabled = true; // until the service's document shows presence
  let abort = null;
  let following = null; // the clientId whose view this page shows, or null
  let applying = false; // this page is moving its view to a followed one

  // The part of the map this page shows, in map units (rounded: followers need no more).
  function viewport() {
    if (!M.view) return null;
    const w = (M.mapEl.clientWidth || 1) / M.view.zoom;
    const h = (M.mapEl.clientHeight || 1) / M.view.zoom;
    const r = (n) => Math.round(n * 100) / 100;
    return { x: r(M.view.cx - w / 2), y: r(M.view.cy - h / 2), width: r(w), height: r(h) };
  }

  function body(leaving, summon = false) {
    return { clientId: M.clientId, cursor, selection: [...M.selection], leaving, viewport: viewport(), summon };
  }

  async function send() {
    trailing = null;
    if (disabled || !M.view) return;
    lastSent = Date.now();
    const r = await M.request("POST", "/presence", { body: body(false) });
    if (r.status === 404 || r.status === 405 || r.status === 403) disabled = true;
  }

  // Sends now, or once the 100 ms since the last send have passed.
  function update() {
    if (disabled || trailing) return;
    const wait = Math.max(0, lastSent + MIN_GAP - Date.now());
    trailing = setTimeout(send, wait);
  }

  // "Bring everyone here": one announcement that asks every other open map to follow this one.
  async function summon() {
    if (disabled || !M.view) return;
    lastSent = Date.now();
    const r = await M.request("POST", "/presence", { body: body(false, true) });
    M.notice(r.ok ? "Everyone on this map now follows your view." : `Could not bring everyone here: ${r.detail}`, {
      kind: r.ok ? "info" : "error",
    });
  }

  // Shows what `who` shows (their viewport fitted to this window).
  function showView(who) {
    if (!who || !who.viewport) return;
    applying = true;
    try {
      M.fit(who.viewport, 1);
    } finally {
      applying = false;
    }
  }

  function followView(clientId) {
    following = clientId;
    document.body.dataset.following = clientId || "";
    const who = clientId && others.get(clientId);
    if (who) {
      showView(who);
      M.notice(`Following ${who.name || "someone"}: move the map or press Escape to stop.`);
    }
    list();
  }

  // This page's own move of its view ends following: a view change while its pointer is down on
  // the map or just after a wheel turn (a click that selects moves nothing; a followed view
  // arriving, a resize, a redraw are not the person's moves).
  let pointerDown = false;
  let wheelUntil = 0;
  function viewChanged() {
    if (following && !applying && (pointerDown || Date.now() < wheelUntil)) followView(null);
  }

  function leave() {
    if (disabled || !M.view) return;
    const headers = { ...M.writeHeaders(), "Content-Type": "application/json" };
    fetch(`${M.api}/presence`, { method: "POST", headers, body: JSON.stringify(body(true)), keepalive: true }).catch(() => {});
  }

  // ---- the people here ---------------------------------------------------------------------
  // The header's list, updated in place: an entry (and its Follow button) stays the same element
  // while its person is here, so a click is not lost to a redraw at their next cursor move.
  function list() {
    const ul = M.$("presence");
    const entries = new Map([...ul.children].map((li) => [li.dataset.clientId, li]));
    for (const [id, who] of others) {
      let li = entries.get(id);
      entries.delete(id);
      if (!li) {
        li = document.createElement("li");
        li.dataset.clientId = id;
        const dot = document.createElement("span");
        dot.className = "dot";
        dot.setAttribute("aria-hidden", "true");
        const name = document.createElement("span");
        name.className = "name";
        const button = document.createElement("button");
        button.type = "button";
        button.className = "follow";
        button.addEventListener("click", () => followView(following === id ? null : id));
        li.append(dot, name, button);
        ul.append(li);
      }
      const name = who.name || "someone";
      li.querySelector(".dot").style.background = who.colour;
      li.querySelector(".name").textContent = name;
      const button = li.querySelector("button.follow");
      const on = following === id;
      button.textContent = on ? "Following" : "Follow";
      button.setAttribute("aria-pressed", String(on));
      button.setAttribute("aria-label", `${on ? "Stop following" : "Follow"} ${name}`);
      button.disabled = !who.viewport;
    }
    for (const li of entries.values()) li.remove();
    const bring = M.$("summon");
    if (bring) bring.hidden = disabled || others.size === 0;
  }

  const svgEl = (name, attrs, parent) => {
    const el = document.createElementNS(M.NS, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    parent.append(el);
    return el;
  };

  function draw() {
    if (!M.layer || !M.view) return;
    const group = M.layer.querySelector(":scope > g.presence") || svgEl("g", { class: "presence" }, M.layer);
    group.textContent = "";
    const k = 1 / M.view.zoom;
    for (const [id, who] of others) {
      for (const itemId of who.selection || []) {
        const el = M.itemEl(itemId);
        if (!el) continue;
        const box = el.getBBox();
        const g = svgEl("g", el.hasAttribute("transform") ? { transform: el.getAttribute("transform") } : {}, group);
        const pad = 7 * k;
        const ring = svgEl("rect", { class: "their-selection", x: box.x - pad, y: box.y - pad, width: box.width + 2 * pad, height: box.height + 2 * pad,
          "vector-effect": "non-scaling-stroke" }, g);
        ring.style.stroke = who.colour;
        ring.dataset.clientId = id;
      }
      if (!who.cursor) continue;
      const g = svgEl("g", { class: "cursor", "data-client-id": id, transform: `translate(${who.cursor.x} ${who.cursor.y}) scale(${k})` }, group);
      const arrow = svgEl("path", { d: "M0 0 L0 17 L4.6 12.6 L8 20 L10.6 18.8 L7.3 11.6 L13 11.6 Z" }, g);
      arrow.style.fill = who.colour;
      const tag = svgEl("rect", { x: 12, y: 18, rx: 3, width: 8 + 7 * (who.name || "someone").length, height: 18 }, g);
      tag.style.fill = who.colour;
      const text = svgEl("text", { x: 16, y: 31 }, g);
      text.textContent = who.name || "someone";
    }
  }

  function onEvent(block) {
    const { type, data } = M.parseEvent(block);
    if (!data || data.clientId === M.clientId) return;
    if (type === "presence") others.set(data.clientId, { ...data, seen: Date.now() });
    else if (type === "left") others.delete(data.clientId);
    else return;
    if (type === "left" && following === data.clientId) followView(null);
    if (type === "presence" && data.summons && data.viewport) {
      followView(data.clientId);
      M.notice(`${data.name || "Someone"} brought everyone here: you follow their view. Move the map or press Escape to stop.`);
    } else if (type === "presence" && following === data.clientId) showView(data);
    list();
    draw();
  }

  async function followStream() {
    abort = new AbortController();
    let retry = 2000;
    try {
      const response = await fetch(`${M.api}/presence`, { headers: M.readHeaders(), signal: abort.signal });
      if (!response.ok) {
        // No presence on this service (yet): look again in a minute.
        retry = response.status === 404 || response.status === 405 ? 60000 : 5000;
        throw new Error(`presence ${response.status}`);
      }
      disabled = false;
      // For tools and tests: this page now sends its own presence and follows everyone's.
      document.body.dataset.presence = "live";
      await M.readEvents(response, onEvent);
    } catch (err) {
      if (err.name === "AbortError") return;
    }
    document.body.dataset.presence = "off";
    others.clear();
    list();
    draw();
    setTimeout(followStream, retry);
  }

  M.on("ready", async () => {
    // Only where the service documents presence: elsewhere nothing is sent and nobody is shown.
    const doc = await M.openapi();
    if (!doc || !doc.paths || !doc.paths["/api/v2/projects/{projectId}/presence"]) return;
    disabled = false;
    M.mapEl.addEventListener("pointermove", (e) => {
      if (!M.view) return;
      const p = M.toMap(e.clientX, e.clientY);
      cursor = { x: Math.round(p.x), y: Math.round(p.y) };
      update();
    });
    M.mapEl.addEventListener("pointerleave", () => {
      cursor = null;
      update();
    });
    setInterval(() => {
      if (Date.now() - lastSent >= HEARTBEAT - 50) send();
      // Someone silent for three heartbeats has gone without saying so.
      for (const [id, who] of others) if (Date.now() - who.seen > 3 * HEARTBEAT) others.delete(id);
    }, HEARTBEAT);
    send();
    followStream();
  });
  M.on("selection", update);
  M.on("view", draw);
  M.on("view", update);
  M.on("view", viewChanged);
  M.on("ready", () => {
    // A drag or the wheel on this page's map ends following; so does Escape.
    M.mapEl.addEventListener("pointerdown", () => (pointerDown = true), true);
    window.addEventListener("pointerup", () => (pointerDown = false), true);
    window.addEventListener("pointercancel", () => (pointerDown = false), true);
    M.mapEl.addEventListener("wheel", () => (wheelUntil = Date.now() + 300), { capture: true, passive: true });
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && following) followView(null);
    });
    const bring = M.$("summon");
    if (bring) bring.addEventListener("click", summon);
  });
  M.on("redrawn", draw);
  M.on("signed-out", () => abort && abort.abort());
  window.addEventListener("pagehide", leave);
  M.presence = { others, follow: (clientId) => followView(clientId), following: () => following };
})();
