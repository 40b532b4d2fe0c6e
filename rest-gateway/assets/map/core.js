// The web map's shared core (loaded first): the namespace every other file of the page adds to
// (`window.canvasMap`, called M), the state they share, the API calls with their credentials,
// notices, and the view's arithmetic. See map.js for the page as a whole.
//
// Credentials: with an API token (`?auth=token`, kept in sessionStorage) every call sends
// `Authorization: Bearer`. Signed in to the account site, reads go with the session cookie
// alone, and writes also send `X-Canvas-CSRF` with the value the server put in
// `<meta name="canvas-csrf">` (never in a URL).
"use strict";

(() => {
  const M = (window.canvasMap = window.canvasMap || {});
  const TOKEN_KEY = "canvas.map.token";
  const $ = (id) => document.getElementById(id);
  M.$ = $;
  M.NS = "http://www.w3.org/2000/svg";
  M.projectId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  M.api = `/api/v2/projects/${encodeURIComponent(M.projectId)}`;
  M.mapEl = $("map");

  // ---- shared state -----------------------------------------------------------------
  M.items = new Map(); // itemId → the item as `GET .../item/{id}` answers it (camelCase)
  M.versions = new Map(); // itemId → version (the ETag of the last read or own write)
  M.selection = new Set();
  M.view = null; // {cx, cy, zoom}: map point at the centre, pixels per map unit
  M.region = null; // the drawn region of the first render
  M.svg = null; // the drawing (render.svg)
  M.layer = null; // the overlay <svg> above it: selection, handles, dragged items, presence
  M.canEdit = false; // Editor role or above
  M.role = null;
  M.snap = false;
  M.selectMode = false;

  // ---- hooks: one file tells the others something happened ----------------------------
  const hooks = new Map();
  M.on = (name, fn) => hooks.set(name, [...(hooks.get(name) || []), fn]);
  M.emit = (name, ...args) => (hooks.get(name) || []).forEach((fn) => fn(...args));

  // ---- credentials and requests ---------------------------------------------------------
  M.token = () => sessionStorage.getItem(TOKEN_KEY);
  M.setToken = (value) => (value ? sessionStorage.setItem(TOKEN_KEY, value) : sessionStorage.removeItem(TOKEN_KEY));
  const csrfMeta = document.querySelector('meta[name="canvas-csrf"]');
  M.csrf = csrfMeta ? csrfMeta.getAttribute("content") : null;
  // No token: no header, so the account site's session cookie authenticates the reads.
  M.readHeaders = () => (M.token() ? { Authorization: `Bearer ${M.token()}` } : {});
  M.writeHeaders = () => {
    if (M.token()) return { Authorization: `Bearer ${M.token()}` };
    return M.csrf ? { "X-Canvas-CSRF": M.csrf } : {};
  };

  // One API call under the project: `{ok, status, body, version, detail}`; never throws.
  // `version` goes as If-Match; `form` is a multipart body.
  M.request = async (method, path, { body, version, form } = {}) => {
    const read = method === "GET";
    const headers = read ? M.readHeaders() : M.writeHeaders();
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (version != null) headers["If-Match"] = `"${version}"`;
    const url = `${M.api}${path}${path.includes("?") ? "&" : "?"}jsonCasing=camel`;
    let response;
    try {
      response = await fetch(url, { method, headers, body: form || (body === undefined ? undefined : JSON.stringify(body)) });
    } catch (err) {
      return { ok: false, status: 0, body: null, version: null, detail: `the service did not answer (${err.message})` };
    }
    const tag = response.headers.get("ETag");
    const text = await response.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    const detail = (data && (data.detail || data.Detail)) || response.statusText;
    return { ok: response.ok, status: response.status, body: data, version: tag ? Number(tag.replace(/\D/g, "")) : null, detail };
  };

  // Reads one item (and its version); null when it is gone.
  M.fetchItem = async (id) => {
    const r = await M.request("GET", `/item/${encodeURIComponent(id)}`);
    if (!r.ok) {
      if (r.status === 404) {
        M.items.delete(id);
        M.versions.delete(id);
      }
      return null;
    }
    // Versions only grow: a read answered before one of this page's own writes, arriving after
    // it, must not take the page back to the older version.
    const known = M.versions.get(id);
    if (known != null && r.version != null && r.version < known) return M.items.get(id);
    M.items.set(id, r.body);
    if (r.version != null) M.versions.set(id, r.version);
    return r.body;
  };

  // The item as this page holds it, read first if unknown (before the listing is in, the page
  // knows only what the drawing shows); null when it is gone.
  M.ensureItem = async (id) => M.items.get(id) || M.fetchItem(id);

  // Resolves once the item listing is in (map.js emits "listed").
  M.whenListed = () => new Promise((resolve) => (document.body.dataset.listed === "true" ? resolve() : M.on("listed", resolve)));

  // The version of the item as this page holds it, read first if unknown.
  M.versionOf = async (id) => {
    if (!M.versions.has(id)) await M.fetchItem(id);
    return M.versions.get(id);
  };

  // The served OpenAPI document (once): the shape types, and whether the service has presence.
  let openapi = null;
  M.openapi = () => (openapi = openapi || fetch("/api/openapi.json").then((r) => r.json()).catch(() => null));

  // ---- server-sent events, read with fetch() (EventSource cannot send Authorization) ---------
  M.parseEvent = (block) => {
    let type = "message";
    let data = "";
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) type = line.slice(6).trim();
      else if (line.startsWith("data:")) data += line.slice(5).trim();
    }
    return { type, data: data ? JSON.parse(data) : null };
  };
  // Calls `onBlock` with each event block of the stream until it ends.
  M.readEvents = async (response, onBlock) => {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        onBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  };

  // ---- notices: small messages next to an item (or at the top), read out by screen readers --
  M.notice = (text, { itemId, actions = [], timeout = 8000, kind = "info" } = {}) => {
    const box = document.createElement("div");
    box.className = `notice ${kind}`;
    box.setAttribute("role", kind === "error" ? "alert" : "status");
    if (itemId) box.dataset.itemId = itemId;
    const words = document.createElement("span");
    words.textContent = text;
    box.append(words);
    for (const action of actions) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = action.label;
      button.addEventListener("click", () => {
        box.remove();
        action.run();
      });
      box.append(button);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "close";
    close.textContent = "×";
    close.setAttribute("aria-label", "Dismiss notice");
    close.addEventListener("click", () => box.remove());
    box.append(close);
    $("notices").append(box);
    M.placeNotice(box);
    if (timeout && !actions.length) setTimeout(() => box.remove(), timeout);
    return box;
  };

  // A notice about an item sits just below the item on screen.
  M.placeNotice = (box) => {
    const el = box.dataset.itemId && M.itemEl(box.dataset.itemId);
    if (!el) return box.classList.remove("anchored");
    const r = el.getBoundingClientRect();
    box.classList.add("anchored");
    box.style.left = `${Math.max(4, Math.min(r.left, innerWidth - 320))}px`;
    box.style.top = `${Math.max(4, Math.min(r.bottom + 6, innerHeight - 60))}px`;
  };

  // ---- the view ---------------------------------------------------------------------------
  // A box above the drawing (class `className`, its own compositor layer) holding an overlay
  // `<svg>` that takes the drawing's viewBox: the selection overlay, and the dragged items.
  M.overlayBox = (className) => {
    const box = document.createElement("div");
    box.className = className;
    const svg = document.createElementNS(M.NS, "svg");
    svg.setAttribute("class", "layer");
    svg.setAttribute("aria-hidden", "true");
    box.append(svg);
    M.mapEl.append(box);
    return { box, svg };
  };

  M.itemEl = (id) => {
    const selector = `#item-${CSS.escape(id)}`;
    for (const root of [M.svg, M.dragSvg, M.layer]) {
      const el = root && root.querySelector(selector);
      if (el) return el;
    }
    return null;
  };

  // Level of detail: text under 2 px on screen is not drawn. It cannot be read, and on a big map
  // fitted to the screen (10,000 notes, their text about 1 px) laying it out and painting it is
  // most of a frame. Each drawn `<text>` gets the class of its font-size band (`fs0`: at most 4
  // map units, `fs1`: 8, … `fs4`: 64; larger text is always drawn); the map's `data-hide` says
  // how many bands are hidden at this zoom (map.css).
  const BANDS = [4, 8, 16, 32, 64];
  const MIN_TEXT_PX = 2;
  M.textDetail = (g) => {
    for (const t of g.getElementsByTagName("text")) {
      const size = Number(t.getAttribute("font-size")) || 16;
      const band = BANDS.findIndex((b) => size <= b);
      if (band >= 0) t.setAttribute("class", `fs${band}`);
    }
  };
  function hideText() {
    const hidden = String(BANDS.filter((b) => b * M.view.zoom < MIN_TEXT_PX).length);
    if (M.mapEl.dataset.hide !== hidden) M.mapEl.dataset.hide = hidden;
  }

  M.applyView = () => {
    if (!M.svg || !M.view) return;
    hideText();
    const w = M.mapEl.clientWidth || 1;
    const h = M.mapEl.clientHeight || 1;
    const vw = w / M.view.zoom;
    const vh = h / M.view.zoom;
    const box = `${M.view.cx - vw / 2} ${M.view.cy - vh / 2} ${vw} ${vh}`;
    M.svg.setAttribute("viewBox", box);
    if (M.layer) M.layer.setAttribute("viewBox", box);
    M.cull();
    M.emit("view");
  };

  // ---- view culling ---------------------------------------------------------------------------
  // Items well outside the view are not drawn (class `culled`: display none), so the browser keeps
  // no paint for them: on a 10,000-item map zoomed in on a few hundred, a drag's frame no longer
  // walks 10,000 items' paint. A pass runs 100 ms after the view changes (never in a drag's
  // frames; at most every 100 ms while the view moves), keeps a margin of half a view around it, and never culls the selection,
  // the focused item, or the first and last item (Tab enters the map there; keys.js moves Tab
  // through culled items and shows each). An item's box is read once while it is drawn (its
  // own coordinates; the transform is read each pass, so a move needs no new read).
  const boxes = new WeakMap(); // <g> → its getBBox() in its own coordinates
  let cullTimer = null;
  M.cull = () => {
    if (cullTimer) return;
    cullTimer = setTimeout(() => {
      cullTimer = null;
      cullNow();
    }, 100);
  };
  function cullNow() {
    if (!M.svg || !M.view || !M.svg.isConnected) return;
    const w = (M.mapEl.clientWidth || 1) / M.view.zoom;
    const h = (M.mapEl.clientHeight || 1) / M.view.zoom;
    const left = M.view.cx - w;
    const right = M.view.cx + w;
    const top = M.view.cy - h;
    const bottom = M.view.cy + h;
    const items = M.svg.children;
    const first = M.svg.querySelector(":scope > .item");
    const last = M.svg.lastElementChild;
    const changes = [];
    for (const g of items) {
      if (!g.classList.contains("item")) continue;
      let box = boxes.get(g);
      if (!box) {
        if (g.classList.contains("culled")) continue;
        const b = g.getBBox();
        box = { x: b.x, y: b.y, width: b.width, height: b.height };
        boxes.set(g, box);
      }
      let inView;
      const transform = g.getAttribute("transform");
      if (transform) {
        // Turned or not: a circle around the centre that holds the whole box.
        const t = M.parseTransform(transform);
        const r = Math.hypot(Math.max(Math.abs(box.x), Math.abs(box.x + box.width)), Math.max(Math.abs(box.y), Math.abs(box.y + box.height)));
        inView = t.x + r >= left && t.x - r <= right && t.y + r >= top && t.y - r <= bottom;
      } else {
        inView = box.x + box.width >= left && box.x <= right && box.y + box.height >= top && box.y <= bottom;
      }
      const keep = inView || g === first || g === last || g === document.activeElement || M.selection.has(g.dataset.itemId);
      if (keep === g.classList.contains("culled")) changes.push([g, !keep]);
    }
    for (const [g, culled] of changes) g.classList.toggle("culled", culled);
    M.svg.dataset.culled = String(M.svg.querySelectorAll(":scope > .culled").length);
  }
  // Draws a culled item again (Tab reached it, or it was selected).
  M.reveal = (g) => g && g.classList.remove("culled");

  M.fit = (rect, fill) => {
    const w = M.mapEl.clientWidth || 1;
    const h = M.mapEl.clientHeight || 1;
    const zoom = Math.min((w * fill) / Math.max(rect.width, 1), (h * fill) / Math.max(rect.height, 1));
    M.view = { cx: rect.x + rect.width / 2, cy: rect.y + rect.height / 2, zoom: Math.min(Math.max(zoom, 0.02), 4) };
    M.applyView();
  };

  // Client pixel → map point.
  M.toMap = (clientX, clientY) => {
    const box = M.mapEl.getBoundingClientRect();
    return {
      x: M.view.cx + (clientX - box.left - box.width / 2) / M.view.zoom,
      y: M.view.cy + (clientY - box.top - box.height / 2) / M.view.zoom,
    };
  };

  // Map point → client pixel.
  M.toScreen = (x, y) => {
    const box = M.mapEl.getBoundingClientRect();
    return { x: box.left + box.width / 2 + (x - M.view.cx) * M.view.zoom, y: box.top + box.height / 2 + (y - M.view.cy) * M.view.zoom };
  };

  // The item's bounds in map units, from its on-screen box.
  M.itemRect = (el) => {
    const r = el.getBoundingClientRect();
    const a = M.toMap(r.left, r.top);
    const b = M.toMap(r.right, r.bottom);
    return { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y };
  };

  M.zoomAt = (clientX, clientY, factor) => {
    const before = M.toMap(clientX, clientY);
    M.view.zoom = Math.min(Math.max(M.view.zoom * factor, 0.02), 16);
    const after = M.toMap(clientX, clientY);
    M.view.cx += before.x - after.x;
    M.view.cy += before.y - after.y;
    M.applyView();
  };

  // "translate(x y) rotate(a)" (the renderer's item transform) → {x, y, angle}.
  M.parseTransform = (text) => {
    const t = /translate\(\s*([-\d.e+]+)[\s,]+([-\d.e+]+)\s*\)/.exec(text || "");
    const r = /rotate\(\s*([-\d.e+]+)/.exec(text || "");
    return { x: t ? Number(t[1]) : 0, y: t ? Number(t[2]) : 0, angle: r ? Number(r[1]) : 0 };
  };
  M.transformOf = (x, y, angle, sx = 1, sy = 1) =>
    `translate(${x} ${y})${angle ? ` rotate(${angle})` : ""}${sx !== 1 || sy !== 1 ? ` scale(${sx} ${sy})` : ""}`;
  M.cssTransform = (text) => {
    const t = M.parseTransform(text);
    return `translate(${t.x}px, ${t.y}px) rotate(${t.angle}deg)`;
  };

  // ---- item words ---------------------------------------------------------------------------
  M.plainText = (text) =>
    String(text || "")
      .replace(/<(br|\/p|\/div|\/li)[^>]*>/gi, "\n")
      .replace(/<[^>]*>/g, "")
      .replace(/&nbsp;/g, " ")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&")
      .trim();
  M.itemName = (item) => {
    // A frame's name is its title: plain text, shown as written (never read as HTML).
    if (item.itemType === "frame" && typeof item.title === "string") return item.title.replace(/\s+/g, " ").trim() || item.itemId;
    const text = item.text || item.url || item.fileName || item.type || "";
    const plain = M.plainText(text).replace(/\s+/g, " ").trim();
    return plain || item.itemId;
  };
  M.typeWords = (type) => String(type || "item").replace("-", " ");
})();
