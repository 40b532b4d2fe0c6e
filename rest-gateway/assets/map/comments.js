// Comment threads on the live map (docs/COMMENTS.md "On the live map"): a pin per open thread,
// and the side panel's Comments section to read, reply, resolve, reopen and jump to a thread.
//
// - Data: every page of `GET .../comments?status=open` once the map is live; then map.js hands
//   each `comment.*` change of the stream to "comment-change", and the thread it names
//   (`threadId`) is read again (a 404: deleted). No polling. `version` only grows, so a late
//   answer never takes a thread back.
// - Pins live in an `<svg>` of their own above the drawing and its overlay, never inside an
//   item's `<g>`: an item's accessible name must contain the text drawn in it (axe's
//   label-content-name-mismatch). A thread on an item sits at the top-right corner of the item's
//   drawn box and follows it at each redraw; one on a point (or whose item was deleted) at its
//   point. Pins keep their size on screen (scaled by 1 / zoom).
// - Keyboard: pins are buttons after the drawn items in the Tab order; Enter or Space opens the
//   thread in the panel with the focus on it. What may hold the focus is updated in place, never
//   replaced, so a live change does not take the focus away.
// - Text (plain, or HTML under the label rule) is only ever shown as text, never parsed.
// - For tools and tests: `body[data-comments]` is "ready" once the first listing is in; pins, list
//   entries and the open thread carry `data-thread-id`, its comments `data-comment-id`.
"use strict";

(() => {
  const M = window.canvasMap;
  const { $ } = M;
  const enc = encodeURIComponent;
  const threads = new Map(); // threadId → thread (open ones, and resolved ones once read)
  const gone = new Set(); // deleted threads: a read answered late never brings one back
  const names = new Map(); // userId → name, as presence said it
  const pins = new Map(); // threadId → its pin `<g>`
  const entries = new Map(); // threadId → its list `<li>`
  const at = new Map(); // threadId → where its pin is drawn {x, y, nth}
  const corners = new Map(); // itemId → the last top-right corner seen
  let me = null; // this person's user id, from the first comment of theirs the service answers
  let current = null; // the thread open in the panel
  let target = null; // what a new thread goes on: {itemId} or {position}
  let showResolved = false;
  let listing = new Set(); // threads changed before or while the listing is read: read after it
  let loading = null;
  let refusal = 0;
  let pinSvg = null;

  // An element (`svg:…` in SVG) with attributes and children; a string child is a text node.
  function el(tag, attrs = {}, ...children) {
    const node = tag.startsWith("svg:") ? document.createElementNS(M.NS, tag.slice(4)) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    node.append(...children);
    return node;
  }

  // ---- words ------------------------------------------------------------------------------------
  const HTML = /<\/?(a|b|i|u|s|p|br|hr|em|strong|span|div|code|pre|ul|ol|li|h[1-6]|sub|sup|mark|small|del|ins|blockquote|font|table|tr|td|th|img)\b[^<>]*>|<!--|<!doctype/i;
  // Plain text as written (`a < b` is text), HTML by its words.
  const readable = (text) => (HTML.test(text || "") ? M.plainText(text) : String(text || "").trim());
  const short = (text, n) => {
    const flat = readable(text).replace(/\s+/g, " ");
    return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
  };
  const replies = (t) => (t.replyCount != null ? t.replyCount : (t.replies || []).length);
  const count = (n) => (n === 1 ? "1 reply" : `${n} replies`);
  const point = (p) => `(${Math.round(p.x)}, ${Math.round(p.y)})`;

  // Names come from presence (people who had this map open meanwhile): the page has no member
  // directory, so anyone else is the end of their id.
  function nameOf(userId) {
    if (!userId) return "someone";
    if (userId === me) return "you";
    for (const who of M.presence ? M.presence.others.values() : []) if (who.userId && who.name) names.set(who.userId, who.name);
    return names.get(userId) || `user …${String(userId).slice(-6)}`;
  }

  function itemWords(itemId) {
    const item = M.items.get(itemId);
    if (item) return `${M.typeWords(item.itemType)} “${short(M.itemName(item), 40)}”`;
    return (M.itemEl(itemId) && M.itemEl(itemId).getAttribute("aria-label")) || "an item";
  }

  function anchorWords(t) {
    if (t.itemId) return `On ${itemWords(t.itemId)}`;
    if (t.formerItemId && t.position) return `Where a deleted item was, ${point(t.position)}`;
    return t.position ? `On the map at ${point(t.position)}` : "On the map";
  }

  // ---- reading ----------------------------------------------------------------------------------
  // Every page of one status (`{threads, nextCursor}`, 200 a page); null when refused (its status
  // kept in `refusal`).
  async function readAll(status) {
    const found = [];
    let cursor = "";
    do {
      const r = await M.request("GET", `/comments?status=${status}&limit=200${cursor ? `&cursor=${enc(cursor)}` : ""}`);
      if (!r.ok) {
        refusal = r.status;
        return null;
      }
      const page = r.body || {};
      found.push(...(page.threads || page.elements || []));
      cursor = page.nextCursor || page.nextPageToken || "";
    } while (cursor);
    return found;
  }

  // Keeps `thread` unless the page holds a newer copy or it was deleted.
  function keep(thread) {
    if (!thread || !thread.threadId || gone.has(thread.threadId)) return;
    const known = threads.get(thread.threadId);
    if (!known || !(known.version > thread.version)) threads.set(thread.threadId, thread);
  }

  // The whole listing (open threads, and resolved ones when shown); once more if asked meanwhile.
  function load() {
    if (loading) return (loading.again = true);
    loading = { again: false };
    listing = listing || new Set();
    // A thread being read as the listing starts may be answered before it: read it after.
    for (const id of reading) listing.add(id);
    (async () => {
      const lists = await Promise.all([readAll("open"), showResolved ? readAll("resolved") : []]);
      const { again } = loading;
      const changed = [...listing];
      loading = listing = null;
      const read = lists.every(Boolean);
      if (read) {
        threads.clear();
        for (const t of lists.flat()) keep(t);
      } else if (refusal !== 404) M.notice(`The comments could not be read (${refusal})`, { kind: "error" });
      // "off": a service without comments (404), which the page then does not mention.
      document.body.dataset.comments = read ? "ready" : refusal === 404 ? "off" : "failed";
      render();
      for (const id of changed) reread(id);
      if (again) load();
    })();
  }

  // One read at a time per thread, and one more after it when a change came meanwhile: the last
  // read always starts after the last change.
  const reading = new Set();
  const dirty = new Set();
  async function reread(id) {
    if (listing) return void listing.add(id);
    if (reading.has(id)) return void dirty.add(id);
    reading.add(id);
    const r = await M.request("GET", `/comments/${enc(id)}`);
    reading.delete(id);
    const focused = current === id && $("comment-thread").contains(document.activeElement);
    if (r.status === 404) {
      gone.add(id);
      threads.delete(id);
      if (current === id) M.notice("The comment thread you had open was deleted");
    } else if (r.ok) keep(r.body);
    else if (r.status === 0 || r.status === 429 || r.status >= 500) setTimeout(() => reread(id), 1000);
    render();
    // The focus was in the thread now gone: it goes to the section's title, not the page.
    if (focused && !current) $("comments-title").focus();
    if (dirty.delete(id)) reread(id);
  }

  // A change without `threadId` cannot be placed: the listing is read again.
  M.on("comment-change", (change) => (change && change.threadId ? reread(change.threadId) : listing || load()));

  // ---- pins ------------------------------------------------------------------------------------
  // The top-right corner of an item's drawn box, turned with the item, in map units. A culled item
  // has no box: its last corner seen, else one from its data.
  function corner(itemId) {
    const g = M.itemEl(itemId);
    const b = g && !g.classList.contains("culled") ? g.getBBox() : null;
    if (b && (b.width || b.height)) {
      const t = M.parseTransform(g.getAttribute("transform"));
      const [cos, sin] = [Math.cos((t.angle * Math.PI) / 180), Math.sin((t.angle * Math.PI) / 180)];
      const ends = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
        .map(([x, y]) => [t.x + x * cos - y * sin, t.y + x * sin + y * cos]);
      corners.set(itemId, { x: Math.max(...ends.map((e) => e[0])), y: Math.min(...ends.map((e) => e[1])) });
    }
    if (corners.has(itemId)) return corners.get(itemId);
    const item = M.items.get(itemId);
    if (!item || !item.position) return null;
    const size = item.size || { width: 0, height: 0 };
    const s = item.scale || 1;
    return { x: item.position.x + (size.width * s) / 2, y: item.position.y - (size.height * s) / 2 };
  }

  // The pins' `<svg>`: above the overlay, which is hidden from assistive technology (pins are not).
  function layer() {
    if (!pinSvg && M.layer) {
      pinSvg = M.overlayBox("comment-box").svg;
      pinSvg.removeAttribute("aria-hidden");
      for (const [k, v] of [["class", "layer comment-pins"], ["role", "group"], ["aria-label", "Comment pins"]]) pinSvg.setAttribute(k, v);
    }
    return pinSvg;
  }

  function makePin(id) {
    // A speech bubble whose tail touches the anchor (0, 0), 26 px on screen.
    const g = el("svg:g", { class: "comment-pin", tabindex: "0", role: "button", "data-thread-id": id },
      el("svg:path", { class: "bubble", d: "M0 0 L4 -6 H21 Q26 -6 26 -11 V-21 Q26 -26 21 -26 H5 Q0 -26 0 -21 Z" }),
      el("svg:text", { x: 13, y: -12, "text-anchor": "middle" }));
    // The map's own gestures (pan, select, a double-click's new note) are not the pin's.
    g.addEventListener("pointerdown", (e) => e.stopPropagation());
    g.addEventListener("dblclick", (e) => e.stopPropagation());
    g.addEventListener("click", () => open(id));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        open(id);
      }
      // Arrows, Delete and Enter act on the selected items (keys.js), which a pin is not.
      if (e.key !== "Tab" && e.key !== "Escape" && !e.ctrlKey && !e.metaKey) e.stopPropagation();
    });
    return g;
  }

  function fillPin(g, t) {
    const n = replies(t);
    const where = t.itemId ? "" : t.formerItemId ? ", where a deleted item was" : ", on the map";
    g.setAttribute("aria-label", `Comment thread by ${nameOf(t.authorUserId)}: ${short(t.text, 60)}, ${count(n)}${where}`);
    // The number drawn is in the name too ("2 replies"); none is drawn for none.
    g.lastChild.textContent = n ? String(Math.min(n, 99)) : "";
    g.classList.toggle("current", current === t.threadId);
  }

  // Where each pin goes; pins at one place stand side by side.
  function locate() {
    at.clear();
    const here = new Map();
    for (const id of pins.keys()) {
      const t = threads.get(id);
      const p = t.itemId ? corner(t.itemId) : t.position;
      if (!p) continue;
      const key = t.itemId || point(p);
      here.set(key, (here.get(key) || 0) + 1);
      at.set(id, { x: p.x, y: p.y, nth: here.get(key) - 1 });
    }
    place();
  }

  // Follows the view: the overlay's viewBox, and each pin scaled to its size on screen.
  function place() {
    if (!pinSvg || !M.view || !M.layer) return;
    pinSvg.setAttribute("viewBox", M.layer.getAttribute("viewBox"));
    for (const [id, g] of pins) {
      const p = at.get(id);
      if (!p) g.setAttribute("display", "none");
      else {
        g.removeAttribute("display");
        g.setAttribute("transform", `translate(${p.x} ${p.y}) scale(${1 / M.view.zoom}) translate(${p.nth * 30} 0)`);
      }
    }
  }

  // ---- the panel -------------------------------------------------------------------------------
  function makeEntry(id) {
    const button = el("button", { type: "button", class: "thread-open" });
    button.addEventListener("click", () => open(id));
    return el("li", { "data-thread-id": id }, button);
  }

  // The entry's button keeps its identity (and the focus); only its words are new.
  function fillEntry(li, t) {
    const meta = [count(replies(t)), t.resolved ? "resolved" : "", t.itemId ? "" : "on the map"].filter(Boolean).join(" · ");
    li.firstChild.replaceChildren(el("span", { class: "author" }, nameOf(t.authorUserId)), el("span", { class: "words" }, short(t.text, 120)),
      el("span", { class: "meta" }, meta));
    li.classList.toggle("resolved", Boolean(t.resolved));
  }

  // One comment of the open thread: who, when, and its text.
  const comment = (c) =>
    el("li", { "data-comment-id": c.commentId || c.threadId },
      el("p", { class: "comment-head" }, el("span", { class: "author" }, nameOf(c.authorUserId)), " ",
        el("time", { datetime: c.createdAt || "" }, c.createdAt ? new Date(c.createdAt).toLocaleString() : ""), c.editedAt ? " (edited)" : ""),
      el("p", { class: "comment-text" }, readable(c.text)));

  function showThread() {
    const t = current && threads.get(current);
    $("comment-thread").hidden = !t;
    $("comment-threads").hidden = Boolean(t);
    if (!t) return void delete $("comment-thread").dataset.threadId;
    $("comment-thread").dataset.threadId = t.threadId;
    $("comment-thread-title").textContent = `Thread by ${nameOf(t.authorUserId)}${t.resolved ? " (resolved)" : ""}`;
    $("comment-thread-where").textContent = anchorWords(t);
    $("comment-list").replaceChildren(...[t, ...(t.replies || [])].map(comment));
    $("comment-resolve").textContent = t.resolved ? "Reopen" : "Resolve";
  }

  // Every view of the threads brought up to date: pins, list, the open thread.
  function render() {
    if (current && !threads.has(current)) current = null;
    const all = [...threads.values()];
    const unresolved = all.filter((t) => !t.resolved).map((t) => t.threadId);
    const listed = showResolved ? all.map((t) => t.threadId) : unresolved;
    if (layer()) sync(pinSvg, pins, unresolved, makePin, fillPin);
    sync($("comment-threads"), entries, listed, makeEntry, fillEntry);
    locate();
    $("comments-count").textContent = unresolved.length ? `(${unresolved.length} open)` : "";
    $("comments-empty").hidden = listed.length > 0 || Boolean(current);
    $("comments-empty").textContent = showResolved ? "No comment threads yet." : "No open comment threads.";
    showThread();
  }

  // Brings `parent`'s children (one per id, kept in `made`) to `ids` in id (creation) order. One
  // that stays is filled again, never moved or replaced: that would take the focus off it.
  function sync(parent, made, ids, make, fill) {
    const want = new Set(ids);
    for (const [id, node] of made) {
      if (want.has(id)) continue;
      node.remove();
      made.delete(id);
    }
    let next = null;
    for (const id of [...want].sort().reverse()) {
      if (!made.has(id)) made.set(id, parent.insertBefore(make(id), next));
      fill(made.get(id), threads.get(id));
      next = made.get(id);
    }
  }

  // Shows a thread in the panel with the focus on its title (the list it was picked from hides).
  function open(id) {
    if (!threads.has(id)) return;
    current = id;
    $("comment-new").hidden = true;
    render();
    $("comment-thread-title").focus();
  }

  function closeThread() {
    const entry = entries.get(current);
    current = null;
    render();
    (entry && entry.isConnected ? entry.firstChild : $("comments-title")).focus();
  }

  // "Show on map": the item selected and centred, or the point centred.
  function jump(t) {
    if (t.itemId && M.itemEl(t.itemId)) return M.select([t.itemId], true);
    const p = t.itemId ? corner(t.itemId) : t.position;
    if (!p || !M.view) return;
    Object.assign(M.view, { cx: p.x, cy: p.y });
    M.applyView();
  }

  // ---- writing ---------------------------------------------------------------------------------
  // One write (its button disabled meanwhile): the answer, or null with a notice saying why. The
  // first comment of this person's the service answers says who "you" is.
  async function write(button, method, path, body, failed) {
    button.disabled = true;
    const r = await M.request(method, path, { body });
    button.disabled = false;
    if (!r.ok) M.notice(`${failed}: ${r.detail}`, { kind: "error" });
    else if (method === "POST" && r.body && r.body.authorUserId) me = me || r.body.authorUserId;
    return r.ok ? r.body : null;
  }

  function startNew(on) {
    target = on;
    $("comment-new-label").textContent = on.itemId ? `Comment on ${itemWords(on.itemId)}` : `Comment on the map at ${point(on.position)}`;
    $("comment-new").hidden = false;
    $("comment-new-text").focus();
  }

  async function postThread() {
    const text = $("comment-new-text").value.trim();
    if (!text || !target) return $("comment-new-text").focus();
    const made = await write($("comment-new-send"), "POST", "/comments", { text, ...target }, "Comment not posted");
    if (!made) return;
    $("comment-new-text").value = "";
    keep(made);
    open(made.threadId);
  }

  async function postReply() {
    const id = current;
    const text = $("comment-reply-text").value.trim();
    if (!id || !text) return $("comment-reply-text").focus();
    const reply = await write($("comment-reply-send"), "POST", `/comments/${enc(id)}/replies`, { text }, "Reply not sent");
    const t = threads.get(id);
    if (!reply || !t) return;
    $("comment-reply-text").value = "";
    // Shown at once; the stream's change reads the whole thread again.
    if (!(t.replies || []).some((c) => c.commentId === reply.commentId)) {
      threads.set(id, { ...t, replies: [...(t.replies || []), reply], replyCount: replies(t) + 1 });
    }
    render();
  }

  async function toggleResolved(button) {
    const t = threads.get(current);
    if (!t) return;
    keep(await write(button, "PATCH", `/comments/${enc(t.threadId)}`, { resolved: !t.resolved }, "Not changed"));
    render();
  }

  function wire() {
    const on = (id, type, fn) => $(id).addEventListener(type, fn);
    on("comment-on-item", "click", () => M.selection.size === 1 && startNew({ itemId: [...M.selection][0] }));
    on("comment-on-point", "click", () => M.view && startNew({ position: { x: Math.round(M.view.cx), y: Math.round(M.view.cy) } }));
    on("comment-new-cancel", "click", () => {
      $("comment-new").hidden = true;
      $("comment-on-point").focus();
    });
    // Sent by fetch: the page's CSP forbids a form's own submission.
    for (const [form, area, send] of [["comment-new", "comment-new-text", postThread], ["comment-reply", "comment-reply-text", postReply]]) {
      on(form, "submit", (e) => {
        e.preventDefault();
        send();
      });
      // Ctrl+Enter (Cmd+Enter) sends; Escape leaves a new comment.
      on(area, "keydown", (e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          send();
        } else if (e.key === "Escape" && form === "comment-new") $("comment-new-cancel").click();
      });
    }
    on("comment-resolve", "click", (e) => toggleResolved(e.currentTarget));
    on("comment-show", "click", () => threads.has(current) && jump(threads.get(current)));
    on("comment-close", "click", closeThread);
    on("comments-resolved", "change", (e) => {
      showResolved = e.target.checked;
      // Resolved threads are read when shown; the stream keeps them current afterwards.
      if (showResolved) load();
      else render();
    });
  }

  M.on("selection", () => {
    const button = $("comment-on-item");
    button.disabled = M.selection.size !== 1;
    button.title = button.disabled ? "Select one item first" : "A thread on the selected item";
  });
  M.on("view", place);
  M.on("redrawn", locate);
  M.on("listed", locate);
  // Each start (and sign-in) reads the listing; so does a gap in the stream.
  M.on("started", load);
  M.on("changes-missed", load);
  M.on("signed-out", () => {
    threads.clear();
    current = null;
    listing = new Set();
    delete document.body.dataset.comments;
    render();
  });
  wire();
  M.comments = { threads, open, reread };
})();
