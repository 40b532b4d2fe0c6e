// The live web map: /map/{projectId}?node={itemId}.
//
// Draws the project with the server's renderer (render.svg), pans and zooms
// by changing the SVG viewBox (mouse drag, wheel, one- and two-finger touch),
// centres and highlights the `node` item, and follows changes through the
// server-sent event stream at /api/v2/projects/{projectId}/changes, read with
// fetch() so the Authorization header can be sent (EventSource cannot).
// Signed in to the account site, the reads go without a token: the session
// cookie rides along. Otherwise (or with ?auth=token) it asks for an API token,
// which lives in sessionStorage only.
"use strict";

(() => {
  const TOKEN_KEY = "canvas.map.token";
  const projectId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const api = `/api/v2/projects/${encodeURIComponent(projectId)}`;
  const $ = (id) => document.getElementById(id);
  const mapEl = $("map");

  let node = new URLSearchParams(location.search).get("node");
  let view = null; // {cx, cy, zoom}: map point at the centre, pixels per map unit
  let region = null; // the drawn region of the last render
  let svg = null;
  let lastSeq = 0;
  let streamAbort = null;
  let reloadTimer = null;

  const token = () => sessionStorage.getItem(TOKEN_KEY);
  // No token: no header, so the account site's session cookie authenticates the reads.
  const authHeaders = () => (token() ? { Authorization: `Bearer ${token()}` } : {});
  const mapLink = (id) => `${location.origin}/map/${encodeURIComponent(projectId)}?node=${encodeURIComponent(id)}`;

  function setStatus(text, live) {
    $("status").textContent = text;
    $("status").classList.toggle("live", !!live);
    document.body.dataset.live = live ? "true" : "false";
  }

  // ---- signing in and problems ------------------------------------------------

  function showSignIn(message) {
    $("problem").hidden = true;
    $("sign-in").hidden = false;
    $("sign-in-error").hidden = !message;
    $("sign-in-error").textContent = message || "";
    $("token").focus();
  }

  function showProblem(status, detail) {
    const titles = {
      403: "You have no access to this project",
      404: "This project does not exist",
    };
    $("problem-title").textContent = titles[status] || `The map could not be loaded (${status})`;
    const hints = {
      403: "The token you signed in with belongs to a user who is not a member of this project. Ask a project admin to add you, or use another token.",
      404: `There is no project '${projectId}', or the link is mistyped. Check the link you followed.`,
    };
    $("problem-detail").textContent = hints[status] ? `${hints[status]} (${detail})` : detail;
    $("problem").hidden = false;
    document.body.dataset.problem = String(status);
    setStatus(`error ${status}`, false);
  }

  async function problemDetail(response) {
    try {
      const body = await response.json();
      return body.detail || body.Detail || response.statusText;
    } catch {
      return response.statusText;
    }
  }

  // Handles an API answer that is not 2xx. Returns true when handled.
  async function handleFailure(response) {
    if (response.ok) return false;
    const detail = await problemDetail(response);
    if (response.status === 401) {
      // Without a token this was the session cookie (or nothing): just ask for a token.
      const sent = token();
      sessionStorage.removeItem(TOKEN_KEY);
      showSignIn(sent ? `The token was not accepted: ${detail}` : "");
    } else {
      showProblem(response.status, detail);
    }
    return true;
  }

  // ---- view -------------------------------------------------------------------

  function applyView() {
    if (!svg || !view) return;
    const w = mapEl.clientWidth || 1;
    const h = mapEl.clientHeight || 1;
    const vw = w / view.zoom;
    const vh = h / view.zoom;
    svg.setAttribute("viewBox", `${view.cx - vw / 2} ${view.cy - vh / 2} ${vw} ${vh}`);
  }

  function fit(rect, fill) {
    const w = mapEl.clientWidth || 1;
    const h = mapEl.clientHeight || 1;
    const zoom = Math.min((w * fill) / Math.max(rect.width, 1), (h * fill) / Math.max(rect.height, 1));
    view = { cx: rect.x + rect.width / 2, cy: rect.y + rect.height / 2, zoom: Math.min(Math.max(zoom, 0.02), 4) };
    applyView();
  }

  // Client pixel → map point.
  function toMap(clientX, clientY) {
    const box = mapEl.getBoundingClientRect();
    return {
      x: view.cx + (clientX - box.left - box.width / 2) / view.zoom,
      y: view.cy + (clientY - box.top - box.height / 2) / view.zoom,
    };
  }

  // The item's bounds in map units, from its on-screen box.
  function itemRect(el) {
    const r = el.getBoundingClientRect();
    const a = toMap(r.left, r.top);
    const b = toMap(r.right, r.bottom);
    return { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y };
  }

  function zoomAt(clientX, clientY, factor) {
    const before = toMap(clientX, clientY);
    view.zoom = Math.min(Math.max(view.zoom * factor, 0.02), 16);
    const after = toMap(clientX, clientY);
    view.cx += before.x - after.x;
    view.cy += before.y - after.y;
    applyView();
  }

  function installGestures() {
    const pointers = new Map();
    let pinch = null;
    mapEl.addEventListener("pointerdown", (e) => {
      mapEl.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, startX: e.clientX, startY: e.clientY });
      mapEl.classList.add("dragging");
      if (pointers.size === 2) {
        const [p, q] = [...pointers.values()];
        pinch = Math.hypot(p.x - q.x, p.y - q.y);
      }
    });
    mapEl.addEventListener("pointermove", (e) => {
      const p = pointers.get(e.pointerId);
      if (!p || !view) return;
      if (pointers.size === 1) {
        view.cx -= (e.clientX - p.x) / view.zoom;
        view.cy -= (e.clientY - p.y) / view.zoom;
        applyView();
      }
      p.x = e.clientX;
      p.y = e.clientY;
      if (pointers.size === 2 && pinch) {
        const [a, b] = [...pointers.values()];
        const distance = Math.hypot(a.x - b.x, a.y - b.y);
        zoomAt((a.x + b.x) / 2, (a.y + b.y) / 2, distance / pinch);
        pinch = distance;
      }
    });
    const release = (e) => {
      const p = pointers.get(e.pointerId);
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 0) mapEl.classList.remove("dragging");
      // A press that did not move is a click: select the item under it.
      if (p && e.type === "pointerup" && Math.hypot(e.clientX - p.startX, e.clientY - p.startY) < 4) {
        const hit = document.elementFromPoint(e.clientX, e.clientY);
        const group = hit && hit.closest(".item");
        if (group) select(group.dataset.itemId, false);
      }
    };
    mapEl.addEventListener("pointerup", release);
    mapEl.addEventListener("pointercancel", release);
    mapEl.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        if (view) zoomAt(e.clientX, e.clientY, Math.exp(-e.deltaY * 0.0015));
      },
      { passive: false },
    );
    window.addEventListener("resize", applyView);
    $("fit").addEventListener("click", () => region && fit(region, 0.95));
  }

  // ---- selection and links ----------------------------------------------------

  function highlight() {
    if (!svg) return;
    svg.querySelectorAll(".item.highlighted").forEach((el) => el.classList.remove("highlighted"));
    svg.querySelectorAll(".highlight-ring").forEach((el) => el.remove());
    document.querySelectorAll("#items li.selected").forEach((li) => li.classList.remove("selected"));
    if (!node) return null;
    const el = svg.getElementById(`item-${node}`);
    if (!el) return null;
    el.classList.add("highlighted");
    const r = itemRect(el);
    const pad = 8 / view.zoom;
    const ring = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    ring.setAttribute("class", "highlight-ring");
    ring.setAttribute("x", r.x - pad);
    ring.setAttribute("y", r.y - pad);
    ring.setAttribute("width", r.width + 2 * pad);
    ring.setAttribute("height", r.height + 2 * pad);
    ring.setAttribute("vector-effect", "non-scaling-stroke");
    svg.appendChild(ring);
    const li = document.querySelector(`#items li[data-item-id="${CSS.escape(node)}"]`);
    if (li) li.classList.add("selected");
    return r;
  }

  function select(id, centre) {
    node = id;
    history.replaceState(null, "", `${location.pathname}?node=${encodeURIComponent(id)}`);
    const rect = highlight();
    if (centre && rect) fit(rect, 0.4);
    const sel = $("selection");
    sel.hidden = false;
    sel.textContent = "";
    const link = document.createElement("span");
    link.textContent = mapLink(id) + " ";
    const copy = copyButton(id);
    sel.append(link, copy);
  }

  async function copyText(text) {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const area = document.createElement("textarea");
      area.value = text;
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
  }

  function copyButton(id) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy-link";
    button.textContent = "Copy map link";
    button.title = mapLink(id);
    button.addEventListener("click", async (e) => {
      e.stopPropagation();
      await copyText(mapLink(id));
      button.textContent = "Copied";
      setTimeout(() => (button.textContent = "Copy map link"), 1500);
    });
    return button;
  }

  function itemName(item) {
    const text = item.text || item.url || item.fileName || item.type || "";
    const plain = String(text).replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
    return plain || item.itemId;
  }

  async function loadItems() {
    const items = [];
    let cursor = null;
    do {
      const query = `?jsonCasing=camel&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const response = await fetch(`${api}/items${query}`, { headers: authHeaders() });
      if (await handleFailure(response)) return;
      const page = await response.json();
      items.push(...(page.items || []));
      cursor = page.nextCursor;
    } while (cursor);
    const list = $("items");
    list.textContent = "";
    for (const item of items) {
      const li = document.createElement("li");
      li.dataset.itemId = item.itemId;
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = itemName(item);
      name.title = item.itemId;
      name.addEventListener("click", () => select(item.itemId, true));
      const type = document.createElement("span");
      type.className = "type";
      type.textContent = item.itemType;
      li.append(name, type, copyButton(item.itemId));
      list.appendChild(li);
    }
    highlight();
  }

  // ---- drawing and live changes -------------------------------------------------

  async function render() {
    const response = await fetch(`${api}/render.svg`, { headers: authHeaders() });
    if (await handleFailure(response)) return false;
    const text = await response.text();
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const fresh = document.importNode(doc.documentElement, true);
    const box = fresh.getAttribute("viewBox").split(/\s+/).map(Number);
    region = { x: box[0], y: box[1], width: box[2], height: box[3] };
    fresh.removeAttribute("width");
    fresh.removeAttribute("height");
    if (svg) svg.replaceWith(fresh);
    else mapEl.appendChild(fresh);
    svg = fresh;
    document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
    return true;
  }

  function scheduleReload() {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(async () => {
      if (await render()) {
        applyView();
        // The fresh drawing has no highlight yet: put it back at once rather than after the
        // item list's fetch, so the selected item never flickers (and a change that lands
        // while the list loads does not show the map without it).
        highlight();
        await loadItems();
      }
    }, 150);
  }

  async function follow() {
    streamAbort = new AbortController();
    try {
      const query = lastSeq > 0 ? `?after=${lastSeq}` : "";
      const response = await fetch(`${api}/changes${query}`, { headers: authHeaders(), signal: streamAbort.signal });
      if (await handleFailure(response)) return;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          onEvent(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch (err) {
      if (err.name === "AbortError") return;
    }
    setStatus("reconnecting…", false);
    setTimeout(follow, 1000);
  }

  function onEvent(block) {
    let type = "message";
    let data = "";
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) type = line.slice(6).trim();
      else if (line.startsWith("data:")) data += line.slice(5).trim();
    }
    if (!data) return;
    const payload = JSON.parse(data);
    if (type === "ready") {
      if (lastSeq > 0 && payload.seq !== lastSeq) scheduleReload();
      lastSeq = Math.max(lastSeq, payload.seq);
      setStatus("live", true);
    } else if (type === "change") {
      lastSeq = Math.max(lastSeq, payload.seq);
      scheduleReload();
    } else if (type === "error") {
      showProblem(payload.status, payload.detail);
    }
  }

  async function start() {
    $("sign-in").hidden = true;
    $("sign-out").hidden = false;
    setStatus("loading…", false);
    if (!(await render())) return;
    fit(region, 0.95);
    await loadItems();
    if (node) {
      const rect = highlight();
      if (rect) select(node, true);
      else setStatus(`item ${node} is not on this map`, false);
    }
    follow();
  }

  $("sign-in-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const value = $("token").value.trim();
    if (!value) return;
    sessionStorage.setItem(TOKEN_KEY, value);
    $("token").value = "";
    start();
  });
  const signOut = () => {
    sessionStorage.removeItem(TOKEN_KEY);
    if (streamAbort) streamAbort.abort();
    showSignIn();
  };
  $("sign-out").addEventListener("click", signOut);
  $("problem-token").addEventListener("click", signOut);

  installGestures();
  if (!projectId) showProblem(404, "the link names no project");
  else start(); // with the stored token, else with the session cookie; a 401 asks for a token
})();
