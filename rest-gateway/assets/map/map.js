// The live web map: /map/{projectId}?node={itemId} (loaded last; it starts the page).
//
// Editing the map (issue 24). Decisions:
// - The look is the server renderer's, never re-implemented here. First paint is `render.svg`
//   (the whole map); afterwards each change re-fetches only the changed items' fragments,
//   `render.svg?itemIds=a,b,c`, and swaps those `<g>` in place: a deleted item's `<g>` is removed,
//   a created one inserted in the listing's order (creation order: ids are UUIDv7, so id order).
//   A fragment whose transform changed (someone moved or turned it) animates into place (200 ms).
// - The open, in this order: the change stream (its `ready` is the point from which every change
//   is delivered), then the drawing, fitted, decorated and inserted in one go (one style, layout
//   and paint of the whole map); the page is live and editable from the drawing alone. The item
//   listing (`GET .../items`, ten pages on a 10,000-item map) is read behind it: until it is in,
//   an item is read by id when it is first selected, dragged, edited or nudged (`M.ensureItem`),
//   connectors name their ends from the drawing (`data-start-id`/`data-end-id`), and the list
//   beside the map says it is loading (`body[data-listed]` turns "true" when it is in). Changes
//   that arrive before the drawing wait for it; a change seen while the listing is read is read
//   again after it, so the listing's older copy never wins.
// - Item data then comes from `GET .../item/{id}` per changed item; its ETag is the version every
//   write sends as `If-Match` (editor.js, history.js).
// - Writes: with an API token `Authorization: Bearer`; signed in with the account site's cookie,
//   `X-Canvas-CSRF` with the value of `<meta name="canvas-csrf">` (core.js).
// - The role decides the tools: `GET /api/v2/projects/{projectId}` answers the caller's role;
//   Viewers get the read-only map (the service refuses their writes anyway).
// - Presence (presence.js): who is here, their cursors and selections.
// - Comments (comments.js): pins and the panel's threads; the stream's `comment.*` changes go
//   there ("comment-change"), not to the item redraws.
// - Frames (frames.js): drawn under every other item (`place` keeps that for new fragments); a
//   moved frame carries what it holds, a drop puts items into or out of frames.
//
// Pans and zooms by changing the SVG viewBox (mouse drag, wheel, one- and two-finger touch;
// gestures.js), centres and highlights the `node` item, and follows changes through the
// server-sent event stream at /api/v2/projects/{projectId}/changes, read with fetch() so the
// Authorization header can be sent (EventSource cannot).
"use strict";

(() => {
  const M = window.canvasMap;
  const { $ } = M;
  let node = new URLSearchParams(location.search).get("node");
  let lastSeq = 0;
  let streamAbort = null;
  let started = false;

  const mapLink = (id) => `${location.origin}/map/${encodeURIComponent(M.projectId)}?node=${encodeURIComponent(id)}`;

  function setStatus(text, live) {
    $("status").textContent = text;
    $("status").classList.toggle("live", !!live);
    document.body.dataset.live = live ? "true" : "false";
  }

  // ---- signing in and problems ------------------------------------------------------------
  function showSignIn(message) {
    $("problem").hidden = true;
    $("sign-in").hidden = false;
    $("sign-in-error").hidden = !message;
    $("sign-in-error").textContent = message || "";
    $("token").focus();
  }

  function showProblem(status, detail) {
    const titles = { 403: "You have no access to this project", 404: "This project does not exist" };
    $("problem-title").textContent = titles[status] || `The map could not be loaded (${status})`;
    const hints = {
      403: "The token you signed in with belongs to a user who is not a member of this project. Ask a project admin to add you, or use another token.",
      404: `There is no project '${M.projectId}', or the link is mistyped. Check the link you followed.`,
    };
    $("problem-detail").textContent = hints[status] ? `${hints[status]} (${detail})` : detail;
    $("problem").hidden = false;
    document.body.dataset.problem = String(status);
    setStatus(`error ${status}`, false);
  }

  // Handles a failed read. Returns true when handled.
  function handleFailure(r) {
    if (r.ok) return false;
    if (r.status === 401) {
      const sent = M.token();
      M.setToken(null);
      showSignIn(sent ? `The token was not accepted: ${r.detail}` : "");
    } else showProblem(r.status, r.detail);
    return true;
  }

  // ---- items: the list beside the map, and each drawn item's attributes ---------------------
  function listEntry(item) {
    const li = document.createElement("li");
    li.dataset.itemId = item.itemId;
    const name = document.createElement("button");
    name.type = "button";
    name.className = "name";
    name.textContent = M.itemName(item);
    name.title = item.itemId;
    name.addEventListener("click", () => M.select([item.itemId], true));
    const type = document.createElement("span");
    type.className = "type";
    type.textContent = item.itemType;
    li.append(name, type, M.tagChips(item), copyButton(item.itemId));
    return li;
  }

  // The list holds one entry per item outside the inbox, in id (creation) order. It shows the
  // first LIST_STEP entries and adds more as it is scrolled to its end: on a 10,000-item map,
  // 10,000 entries cost the browser about 15 ms of every frame (pre-paint), a drag included.
  // After the first build it is kept in step entry by entry.
  const LIST_STEP = 200;
  const listed = new Map(); // itemId → <li>, for the entries shown
  let listIds = []; // every listed item's id, sorted
  let more = null; // the marker below the list whose coming into view shows more
  const listable = (item) => item && item.parent !== "inbox";

  function showMore() {
    if (document.body.dataset.listed !== "true") return;
    const fragment = document.createDocumentFragment();
    const end = Math.min(listIds.length, listed.size + LIST_STEP);
    for (let i = listed.size; i < end; i += 1) {
      const li = listEntry(M.items.get(listIds[i]));
      li.classList.toggle("selected", M.selection.has(listIds[i]));
      listed.set(listIds[i], li);
      fragment.append(li);
    }
    $("items").append(fragment);
    more.hidden = listed.size >= listIds.length;
  }

  function listMarker(text) {
    if (!more) {
      more = document.createElement("p");
      more.className = "list-more";
      $("items").after(more);
      new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && showMore(), { root: $("panel") }).observe(more);
    }
    more.textContent = text;
  }

  function renderList() {
    listMarker("More items…");
    $("items").removeAttribute("aria-busy");
    $("items").textContent = "";
    listed.clear();
    listIds = [...M.items.keys()].filter((id) => listable(M.items.get(id))).sort();
    showMore();
    marked = new Set();
    markSelected();
  }

  // The first index in `listIds` whose id is not below `id`.
  function listIndex(id) {
    let lo = 0;
    let hi = listIds.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (listIds[mid] < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // Brings the entries of `ids` up to date (new, renamed, gone or moved to the inbox).
  function updateList(ids) {
    for (const id of ids) {
      const at = listIndex(id);
      const known = listIds[at] === id;
      const old = listed.get(id);
      if (!listable(M.items.get(id))) {
        if (known) listIds.splice(at, 1);
        if (old) old.remove();
        listed.delete(id);
        continue;
      }
      // Every entry shown so far: a new one at the end is shown too.
      const whole = listed.size >= listIds.length;
      if (!known) listIds.splice(at, 0, id);
      // An entry past those shown appears when the list is scrolled there.
      if (!old && at >= listed.size && !whole) continue;
      const li = listEntry(M.items.get(id));
      li.classList.toggle("selected", M.selection.has(id));
      listed.set(id, li);
      if (old) old.replaceWith(li);
      else $("items").insertBefore(li, listed.get(listIds[at + 1]) || null);
    }
    if (more) more.hidden = listed.size >= listIds.length;
  }

  // The words of a drawn item: its text lines (the drawing's `<tspan>`s), one space between.
  function drawnName(g) {
    const lines = g.getElementsByTagName("tspan");
    if (!lines.length) return g.textContent.trim();
    let words = "";
    for (const line of lines) words += (words ? " " : "") + line.textContent;
    return words;
  }

  // Keyboard and screen-reader access to each drawn item (named from its data once the listing
  // or a read has it, else from its drawn text). Connectors carry their ends as the renderer
  // drew them (`data-start-id`/`data-end-id`); the item data, when the page has it, is the same.
  function decorate(g) {
    const id = g.dataset.itemId;
    const item = M.items.get(id);
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    const what = M.typeWords(g.dataset.itemType);
    const name = item ? M.itemName(item) : drawnName(g);
    const tagged = item ? M.tagWords(item) : "";
    g.setAttribute("aria-label", (name ? `${what}: ${name}` : what) + (tagged ? `, ${tagged}` : ""));
    if (item) M.drawTags(g, item);
    if (item && item.itemType === "connector") {
      if (item.startPoint && item.startPoint.itemId) g.dataset.startId = item.startPoint.itemId;
      if (item.endPoint && item.endPoint.itemId) g.dataset.endId = item.endPoint.itemId;
    }
    M.textDetail(g);
    if (M.selection.has(id)) g.classList.add("highlighted");
    else if (g.classList.contains("highlighted")) g.classList.remove("highlighted");
  }

  // Ids changed (per the change stream) while the listing is being read: read again after it.
  let changedDuringListing = null;

  // Reads every item; answers true, or the failed answer (for the caller to show, once). An item
  // the page has read by id meanwhile (it has a version) keeps that copy: the change stream keeps
  // it current, and a listing page read before a change may arrive after it.
  async function loadItems() {
    changedDuringListing = new Set();
    const items = [];
    let cursor = null;
    do {
      const r = await M.request("GET", `/items?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      if (!r.ok) {
        changedDuringListing = null;
        return r;
      }
      items.push(...(r.body.items || []));
      cursor = r.body.nextCursor;
    } while (cursor);
    performance.mark("canvas:items-read");
    const fresh = new Map();
    for (const item of items) fresh.set(item.itemId, M.versions.has(item.itemId) && M.items.has(item.itemId) ? M.items.get(item.itemId) : item);
    for (const [id, item] of M.items) if (!fresh.has(id) && M.versions.has(id)) fresh.set(id, item);
    M.items.clear();
    for (const [id, item] of fresh) M.items.set(id, item);
    const again = [...changedDuringListing];
    changedDuringListing = null;
    document.body.dataset.listed = "true";
    renderList();
    performance.mark("canvas:list-built");
    if (again.length) M.refresh(again);
    M.emit("listed");
    return true;
  }

  // ---- selection ------------------------------------------------------------------------------
  // What is marked now, so that a new selection touches only what changed (not every item).
  let marked = new Set();
  function markSelected() {
    const changedIds = [...marked].filter((id) => !M.selection.has(id)).concat([...M.selection].filter((id) => !marked.has(id)));
    for (const id of changedIds) {
      const on = M.selection.has(id);
      const g = M.itemEl(id);
      if (g) g.classList.toggle("highlighted", on);
      const li = listed.get(id);
      if (li) li.classList.toggle("selected", on);
    }
    marked = new Set(M.selection);
  }

  // Selects exactly `ids` (centred when asked); the single selected item is the URL's `node`.
  M.select = (ids, centre = false) => {
    M.selection = new Set(ids.filter((id) => M.items.has(id) || M.itemEl(id)));
    for (const id of M.selection) M.reveal(M.itemEl(id));
    markSelected();
    const sel = $("selection");
    if (M.selection.size === 1) {
      node = [...M.selection][0];
      const params = new URLSearchParams(location.search);
      params.set("node", node);
      history.replaceState(null, "", `${location.pathname}?${params}`);
      sel.hidden = false;
      sel.textContent = "";
      const link = document.createElement("span");
      link.textContent = `${mapLink(node)} `;
      sel.append(link, copyButton(node));
      const el = M.itemEl(node);
      if (centre && el) M.fit(M.itemRect(el), 0.4);
    } else {
      sel.hidden = M.selection.size === 0;
      sel.textContent = `${M.selection.size} items selected`;
    }
    M.emit("selection");
  };

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

  // ---- drawing: the whole map once, then fragments -------------------------------------------
  // The drawing's text is parsed by the HTML parser (an SVG in a `<template>`: nothing in it runs
  // or loads) and adopted, not copied, into the page: for a 10,000-item drawing (4.5 MB) about
  // half the time of DOMParser's XML parser. The renderer's only camel-case attributes,
  // `viewBox` and `preserveAspectRatio`, are among those the HTML parser restores for SVG.
  const parseSvg = (text) => {
    const template = document.createElement("template");
    template.innerHTML = text;
    return document.adoptNode(template.content.firstElementChild);
  };

  // Reads and places the whole drawing. The view is set and every item decorated before the
  // drawing enters the page, so the browser styles, lays out and paints it once.
  async function render() {
    const response = await fetch(`${M.api}/render.svg`, { headers: M.readHeaders() }).catch(() => null);
    if (!response || !response.ok) {
      let detail = response ? response.statusText : "the service did not answer";
      try {
        detail = (await response.json()).detail || detail;
      } catch {
        /* not JSON */
      }
      handleFailure({ ok: false, status: response ? response.status : 0, detail });
      return false;
    }
    const text = await response.text();
    performance.mark("canvas:svg-read");
    const fresh = parseSvg(text);
    performance.mark("canvas:svg-parsed");
    const box = fresh.getAttribute("viewBox").split(/\s+/).map(Number);
    const first = !M.svg;
    M.region = { x: box[0], y: box[1], width: box[2], height: box[3] };
    fresh.removeAttribute("width");
    fresh.removeAttribute("height");
    fresh.classList.add("drawing");
    fresh.setAttribute("aria-hidden", "false");
    const old = M.svg;
    M.svg = fresh;
    if (first) M.fit(M.region, 0.95);
    else M.applyView();
    for (const g of fresh.querySelectorAll(":scope > .item")) decorate(g);
    marked = new Set(M.selection);
    performance.mark("canvas:svg-decorated");
    // The item a keyboard user is on keeps the focus across a whole new drawing (a reload after
    // a gap in the stream), as it does across one item's redraw (`place`).
    const focusedId = old && old.contains(document.activeElement) ? document.activeElement.dataset.itemId : null;
    if (old) old.replaceWith(fresh);
    else M.mapEl.prepend(fresh);
    if (focusedId) M.itemEl(focusedId)?.focus({ preventScroll: true });
    drawnOnce();
    if (!M.layer) {
      // The overlay: its own <svg> (in a box of its own) above the drawing, same viewBox.
      M.layer = M.overlayBox("layer-box").svg;
      M.applyView();
    }
    performance.mark("canvas:svg-placed");
    document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
    return true;
  }

  // Names every drawn item from the item data (once the listing is in).
  function renameAll() {
    for (const g of M.svg.querySelectorAll(":scope > .item")) {
      const item = M.items.get(g.dataset.itemId);
      if (!item) continue;
      const tagged = M.tagWords(item);
      const label = `${M.typeWords(g.dataset.itemType)}: ${M.itemName(item)}` + (tagged ? `, ${tagged}` : "");
      if (g.getAttribute("aria-label") !== label) g.setAttribute("aria-label", label);
      if (tagged || g.querySelector(":scope > .tag-chips")) M.drawTags(g, item);
    }
  }

  // Puts a fresh fragment `<g>` in place of the drawn one, or in creation order when new. Frames
  // are the bottom layer (as the renderer draws them): a new frame goes before every other item,
  // after the frames made before it; any other new item after every frame (frames.js).
  function place(fresh) {
    const id = fresh.dataset.itemId;
    // Being dragged here: the drop writes it and draws it again.
    if (M.dragging.has(id)) return;
    const old = M.svg.querySelector(`#item-${CSS.escape(id)}`);
    decorate(fresh);
    if (old) {
      const from = old.getAttribute("transform");
      const to = fresh.getAttribute("transform");
      const focused = document.activeElement === old;
      old.replaceWith(fresh);
      if (focused) fresh.focus({ preventScroll: true });
      if (from && to && from !== to) {
        fresh.animate([{ transform: M.cssTransform(from) }, { transform: M.cssTransform(to) }], { duration: 200, easing: "ease-out" });
      }
      return;
    }
    const frame = M.isFrameEl(fresh);
    const after = [...M.svg.querySelectorAll(":scope > .item")].find((g) =>
      frame ? !M.isFrameEl(g) || g.dataset.itemId > id : !M.isFrameEl(g) && g.dataset.itemId > id);
    if (after) after.before(fresh);
    else M.svg.append(fresh);
  }

  // Re-reads `ids` (and the connectors attached to them) and redraws their fragments.
  // How long to wait before reading a drawing again: the answer's Retry-After (seconds), else 1 s,
  // at most 10 s.
  const retryAfterMs = (response) => {
    const seconds = Number(response && response.headers.get("Retry-After"));
    return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 10) * 1000 : 1000;
  };

  // Redraws wait for the first whole drawing: an item created (and to be focused) while the
  // page is still reading it is placed into that drawing, not into none, nor replaced by it.
  let drawnOnce;
  const firstDrawing = new Promise((resolve) => (drawnOnce = resolve));
  let queue = firstDrawing;
  M.refresh = (ids) => (queue = queue.then(() => redraw(ids)).catch((err) => console.error(err)));
  async function redraw(ids) {
    const wanted = new Set(ids);
    for (const [id, item] of M.items) {
      if (item.itemType !== "connector") continue;
      if (wanted.has(item.startPoint && item.startPoint.itemId) || wanted.has(item.endPoint && item.endPoint.itemId)) wanted.add(id);
    }
    // The drawing names each connector's ends too (before the listing is in, it is all there is).
    for (const id of ids) {
      const end = CSS.escape(id);
      for (const c of M.svg.querySelectorAll(`:scope > [data-start-id="${end}"], :scope > [data-end-id="${end}"]`)) wanted.add(c.dataset.itemId);
    }
    const all = [...wanted];
    // The item data and the drawings at once: the renderer leaves out what is gone or in the inbox.
    const query = all.map(encodeURIComponent).join(",");
    const [, response] = await Promise.all([
      Promise.all(all.map((id) => M.fetchItem(id))),
      fetch(`${M.api}/render.svg?itemIds=${query}`, { headers: M.readHeaders() }).catch(() => null),
    ]);
    if (!response || !response.ok) {
      // A drawing not read (the network, a 429 or a 503) says nothing about what is gone: the
      // fragments drawn stay (removing them lost the item, and a keyboard user's focus, until
      // its next change) and are read again shortly. A refusal of access is the stream's to show.
      const status = response ? response.status : 0;
      if (status === 0 || status === 429 || status >= 500) setTimeout(() => M.refresh(all), retryAfterMs(response));
      return;
    }
    const seen = new Set();
    for (const g of parseSvg(await response.text()).querySelectorAll(":scope > .item")) {
      seen.add(g.dataset.itemId);
      place(g);
    }
    for (const id of all) {
      if (seen.has(id) || M.dragging.has(id)) continue;
      const old = M.svg.querySelector(`#item-${CSS.escape(id)}`);
      if (old) old.remove();
    }
    const gone = all.filter((id) => !M.items.has(id));
    if (gone.some((id) => M.selection.has(id))) M.select([...M.selection].filter((id) => !gone.includes(id)));
    updateList(all);
    // A fresh fragment is drawn until the next culling pass says otherwise.
    M.cull();
    M.emit("redrawn", all);
    document.body.dataset.redraws = String(Number(document.body.dataset.redraws || 0) + 1);
  }

  // ---- live changes ---------------------------------------------------------------------------
  // Changes arriving before the drawing is in place wait for it (`pending`).
  let pending = new Set();
  let timer = null;
  function changed(id) {
    pending.add(id);
    if (changedDuringListing) changedDuringListing.add(id);
    if (!M.svg) return;
    clearTimeout(timer);
    timer = setTimeout(flush, 30);
  }
  function flush() {
    const ids = [...pending];
    pending = new Set();
    if (ids.length) M.refresh(ids);
  }

  // The stream answers `ready` once the service delivers every later change: the open waits for
  // it before reading the drawing, so nothing changed in between is missed.
  let streamReady = null;
  let readyNow = () => {};
  function follow() {
    streamReady = new Promise((resolve) => (readyNow = resolve));
    (async () => {
      const abort = (streamAbort = new AbortController());
      try {
        const query = lastSeq > 0 ? `?after=${lastSeq}` : "";
        const response = await fetch(`${M.api}/changes${query}`, { headers: M.readHeaders(), signal: abort.signal });
        if (!response.ok) {
          // Before the drawing, the open reports what is wrong (once).
          readyNow(response);
          if (M.svg) handleFailure({ ok: false, status: response.status, detail: response.statusText });
          return;
        }
        await M.readEvents(response, onEvent);
      } catch (err) {
        if (err.name === "AbortError") return;
        readyNow(null);
      }
      if (abort !== streamAbort) return;
      setStatus("reconnecting…", false);
      setTimeout(() => abort === streamAbort && follow(), 1000);
    })();
    return streamReady;
  }

  function onEvent(block) {
    const { type, data } = M.parseEvent(block);
    if (!data) return;
    if (type === "ready") {
      // Missed changes while away: read everything again (comments.js its threads).
      if (lastSeq > 0 && data.seq !== lastSeq && M.svg) {
        reloadAll();
        M.emit("changes-missed");
      }
      lastSeq = Math.max(lastSeq, data.seq);
      readyNow(true);
      if (M.svg) setStatus("live", true);
    } else if (type === "change") {
      lastSeq = Math.max(lastSeq, data.seq);
      // A comment's change names the comment, not an item: comments.js reads its thread again. A
      // member's (`user`) changes nothing drawn.
      if (data.itemType === "comment" || String(data.kind).startsWith("comment.")) M.emit("comment-change", data);
      else if (data.itemType !== "user") changed(data.itemId);
    } else if (type === "error") showProblem(data.status, data.detail);
  }

  async function reloadAll() {
    const [drawn, loaded] = await Promise.all([render(), loadItems()]);
    if (drawn && loaded !== true) handleFailure(loaded);
    if (drawn && loaded === true) {
      renameAll();
      markSelected();
      M.emit("redrawn", []);
    }
  }

  async function readRole() {
    const r = await M.request("GET", "");
    M.role = r.ok ? r.body.role : "Viewer";
    M.canEdit = ["Editor", "Manager", "Admin"].includes(M.role);
    document.body.dataset.role = M.role;
    document.body.classList.toggle("can-edit", M.canEdit);
    $("toolbar").hidden = !M.canEdit;
    // The toolbar took room from the map: fit the drawing to the map's new size.
    M.applyView();
  }

  // The item listing, behind the drawing; a refusal is shown (once).
  async function listItems() {
    const loaded = await loadItems();
    if (loaded !== true) return void handleFailure(loaded);
    renameAll();
  }

  async function start() {
    $("sign-in").hidden = true;
    $("sign-out").hidden = false;
    setStatus("loading…", false);
    document.body.dataset.listed = "false";
    listMarker("Loading the item list…");
    more.hidden = false;
    $("items").setAttribute("aria-busy", "true");
    if (streamAbort) streamAbort.abort();
    lastSeq = 0;
    // The stream and the role at once (the role decides the toolbar, and so the map's size); the
    // drawing once the stream is ready.
    const [ready] = await Promise.all([follow(), readRole()]);
    performance.mark("canvas:stream-ready");
    if (ready !== true && ready !== null) {
      // The stream was refused: the same access problem the drawing would have (401, 403, 404).
      let detail = ready.statusText;
      try {
        detail = (await ready.json()).detail || detail;
      } catch {
        /* not JSON */
      }
      return void handleFailure({ ok: false, status: ready.status, detail });
    }
    const drawn = await render();
    // A refused drawing was shown by render().
    if (!drawn) return;
    if (ready === true) setStatus("live", true);
    performance.mark("canvas:live");
    if (node) {
      if (M.itemEl(node)) M.select([node], true);
      else setStatus(`live; item ${node} is not on this map`, true);
    }
    if (!started) M.emit("ready");
    started = true;
    // Every start, the first and each after signing in again (comments.js reads its listing).
    M.emit("started");
    flush();
    // The listing after the drawing's first frame (painted: the mark), so that it does not
    // compete with it.
    requestAnimationFrame(() =>
      setTimeout(() => {
        performance.mark("canvas:painted");
        listItems();
      }, 0),
    );
  }

  $("sign-in-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const value = $("token").value.trim();
    if (!value) return;
    M.setToken(value);
    $("token").value = "";
    start();
  });
  const signOut = () => {
    M.setToken(null);
    if (streamAbort) streamAbort.abort();
    M.emit("signed-out");
    showSignIn();
  };
  $("sign-out").addEventListener("click", signOut);
  $("problem-token").addEventListener("click", signOut);
  $("fit").addEventListener("click", () => M.region && M.fit(M.region, 0.95));
  // Whatever changes the map's size (the window, the toolbar wrapping) keeps the view's centre.
  new ResizeObserver(() => M.applyView()).observe(M.mapEl);
  M.on("wrote", (ids) => M.refresh(ids));
  // Tags read after items were listed (a tag made since the start): list and name them again.
  M.on("tags-known", () => {
    renderList();
    renameAll();
  });

  if (!M.projectId) showProblem(404, "the link names no project");
  else start(); // with the stored token, else with the session cookie; a 401 asks for a token
})();
