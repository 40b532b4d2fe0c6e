// Presence: who else has this map open, where their pointer is and what they have selected.
//
// This page sends `POST .../presence` with `{clientId, cursor, selection, leaving}` (authenticated
// like a write) when its pointer or selection changes, at most 10 times a second, plus a heartbeat
// every 10 s, and `leaving: true` on `pagehide`. It follows `GET .../presence` (server-sent events
// read with fetch: `presence` with one client's state, snapshot first; `left`) and shows the
// people in the header (name and colour dot), their cursors (an arrow and a name tag in their
// colour) and their selections (an outline in their colour) in the overlay. Its own clientId is
// ignored. A service whose OpenAPI document has no presence path gets no presence calls at all.
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

  function body(leaving) {
    return { clientId: M.clientId, cursor, selection: [...M.selection], leaving };
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

  function leave() {
    if (disabled || !M.view) return;
    const headers = { ...M.writeHeaders(), "Content-Type": "application/json" };
    fetch(`${M.api}/presence`, { method: "POST", headers, body: JSON.stringify(body(true)), keepalive: true }).catch(() => {});
  }

  // ---- the people here ---------------------------------------------------------------------
  function list() {
    const ul = M.$("presence");
    ul.textContent = "";
    for (const [id, who] of others) {
      const li = document.createElement("li");
      li.dataset.clientId = id;
      const dot = document.createElement("span");
      dot.className = "dot";
      dot.style.background = who.colour;
      dot.setAttribute("aria-hidden", "true");
      const name = document.createElement("span");
      name.textContent = who.name || "someone";
      li.append(dot, name);
      ul.append(li);
    }
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
    list();
    draw();
  }

  async function follow() {
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
    setTimeout(follow, retry);
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
    follow();
  });
  M.on("selection", update);
  M.on("view", draw);
  M.on("redrawn", draw);
  M.on("signed-out", () => abort && abort.abort());
  window.addEventListener("pagehide", leave);
  M.presence = { others };
})();
