// The keyboard, and copying: the map is usable without a mouse. Tab and Shift+Tab go through the
// drawn items (each `<g>` has tabindex, role and a label; focusing one selects it) and the side
// list; arrows move the selection by 10 map units (Shift: 1); Enter edits the text; Delete or
// Backspace deletes; Escape clears the selection; Ctrl/Cmd+Z undoes, Ctrl/Cmd+Y and
// Ctrl/Cmd+Shift+Z redo; Ctrl/Cmd+C copies, Ctrl/Cmd+V pastes, Ctrl/Cmd+D duplicates.
//
// Copies are the items' create bodies in localStorage under one key (`canvas.map.clipboard`),
// so a paste works within and across maps of this origin. A paste is one bulk create
// (`POST .../items/bulk`): a connector between two copied items is re-wired to the copies with
// `ref:` references; one whose other end was not copied keeps that end on the same map and is
// left out on another map. Each paste and duplicate lands 20 units further right and down.
"use strict";

(() => {
  const M = window.canvasMap;
  const CLIPBOARD = "canvas.map.clipboard";
  const OFFSET = 20;
  let pastes = 0;

  // The selection (and the connectors joining two selected items) as bulk-create entries; the
  // connectors are known once the listing is in.
  async function copies() {
    await M.whenListed();
    await Promise.all([...M.selection].map((id) => M.ensureItem(id)));
    const ids = new Set([...M.selection].filter((id) => M.items.has(id)));
    for (const [id, item] of M.items) {
      if (item.itemType !== "connector") continue;
      const a = item.startPoint && item.startPoint.itemId;
      const b = item.endPoint && item.endPoint.itemId;
      if (a && b && ids.has(a) && ids.has(b)) ids.add(id);
    }
    const items = [...ids].map((id) => M.items.get(id)).filter((item) => M.copyable(item.itemType));
    items.sort((a, b) => (a.itemType === "connector") - (b.itemType === "connector"));
    return items.map((item) => ({ ref: `c${item.itemId.replace(/[^A-Za-z0-9]/g, "")}`.slice(0, 64), id: item.itemId, type: item.itemType,
      properties: M.createBody(item) }));
  }

  // Creates `entries` (from `copies`) shifted by `shift`; the new items are selected.
  async function createCopies(entries, shift, fromProject) {
    const refs = new Map(entries.map((e) => [e.id, e.ref]));
    const move = (p) => ({ x: p.x + shift, y: p.y + shift });
    const items = [];
    for (const entry of entries) {
      const props = JSON.parse(JSON.stringify(entry.properties));
      if (props.position) props.position = move(props.position);
      if (Array.isArray(props.cornerPoints)) props.cornerPoints = props.cornerPoints.map(move);
      let keep = true;
      for (const end of ["startPoint", "endPoint"]) {
        const point = props[end];
        if (!point) continue;
        if (point.itemId && refs.has(point.itemId)) point.itemId = `ref:${refs.get(point.itemId)}`;
        else if (point.itemId && fromProject !== M.projectId) keep = false;
        else if (!point.itemId) point.position = move(point.position);
      }
      if (keep) items.push({ ref: entry.ref, type: entry.type, parent: "panel", properties: props });
    }
    if (!items.length) return M.notice("Nothing to paste that this map can hold");
    const r = await M.request("POST", "/items/bulk", { body: { items } });
    if (!r.ok) return M.notice(`Not pasted: ${r.detail}`, { kind: "error" });
    const created = r.body.items.map((x) => x.itemId);
    const steps = created.map((id, i) => ({ id, type: items[i].type, prior: null, ready: 1,
      undo: { delete: true }, redo: { create: { type: items[i].type, props: items[i].properties } } }));
    // Undo deletes connectors first (deleting their ends first would take them along).
    steps.sort((a, b) => (b.type === "connector") - (a.type === "connector"));
    for (const id of created) M.versions.set(id, 1);
    M.history.push(created.length > 1 ? `Paste ${created.length} items` : "Paste", steps);
    await M.refresh(created);
    M.select(created);
  }

  M.copy = async () => {
    const entries = await copies();
    if (!entries.length) return M.notice("Select something to copy");
    localStorage.setItem(CLIPBOARD, JSON.stringify({ project: M.projectId, items: entries }));
    pastes = 0;
    M.notice(`Copied ${entries.length} item${entries.length > 1 ? "s" : ""}`, { timeout: 2000 });
  };
  M.paste = () => {
    let clip = null;
    try {
      clip = JSON.parse(localStorage.getItem(CLIPBOARD));
    } catch {
      clip = null;
    }
    if (!clip || !Array.isArray(clip.items) || !clip.items.length) return M.notice("Nothing copied yet");
    pastes += 1;
    return createCopies(clip.items, OFFSET * pastes, clip.project);
  };
  M.duplicate = async () => {
    const entries = await copies();
    if (!entries.length) return M.notice("Select something to duplicate");
    return createCopies(entries, OFFSET, M.projectId);
  };

  // Keyboard moves go one after the other, so each sends the version the previous one got.
  let moves = Promise.resolve();
  function nudge(dx, dy) {
    const selected = [...M.selection];
    moves = moves.then(async () => {
      await Promise.all(selected.map((id) => M.ensureItem(id)));
      const ids = selected.filter((id) => M.items.has(id) && M.items.get(id).itemType !== "connector");
      if (!ids.length) return;
      const changes = ids.map((id) => {
        const p = M.items.get(id).position || { x: 0, y: 0 };
        return { id, props: { position: { x: p.x + dx, y: p.y + dy } } };
      });
      return M.patch(changes, "Move");
    });
  }

  const typing = (el) => el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);

  document.addEventListener("keydown", (e) => {
    if (!M.view || typing(e.target) || M.isEditingText()) return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (key === "Escape") {
      M.select([]);
      return;
    }
    if (!M.canEdit) return;
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const onButton = e.target.tagName === "BUTTON";
    let handled = true;
    if (mod && key === "z" && !e.shiftKey) M.history.undo();
    else if (mod && (key === "y" || (key === "z" && e.shiftKey))) M.history.redo();
    else if (mod && key === "c" && M.selection.size) M.copy();
    else if (mod && key === "v") M.paste();
    else if (mod && key === "d") M.duplicate();
    else if (mod) handled = false;
    else if ((key === "Delete" || key === "Backspace") && M.selection.size) M.remove([...M.selection]);
    else if (arrows[key] && M.selection.size && !onButton) {
      const step = e.shiftKey ? 1 : 10;
      nudge(arrows[key][0] * step, arrows[key][1] * step);
    } else if (key === "Enter" && !onButton && M.selection.size === 1) M.editText([...M.selection][0]);
    else handled = false;
    if (handled) e.preventDefault();
  });

  // Tab and Shift+Tab from a drawn item go to the next or previous item in the drawing's order,
  // culled ones included (core.js): it is drawn again, brought into view when outside it, and
  // focused. From the last item (or before the first) Tab leaves the map as usual.
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Tab" || e.ctrlKey || e.metaKey || e.altKey || !M.svg) return;
    const here = e.target.closest && e.target.closest(".drawing .item");
    if (!here || here.parentNode !== M.svg) return;
    let next = e.shiftKey ? here.previousElementSibling : here.nextElementSibling;
    while (next && !next.classList.contains("item")) next = e.shiftKey ? next.previousElementSibling : next.nextElementSibling;
    if (!next) return;
    e.preventDefault();
    M.reveal(next);
    const r = next.getBoundingClientRect();
    const map = M.mapEl.getBoundingClientRect();
    if (r.right < map.left || r.left > map.right || r.bottom < map.top || r.top > map.bottom) {
      const p = M.toMap(r.left + r.width / 2, r.top + r.height / 2);
      M.view.cx = p.x;
      M.view.cy = p.y;
      M.applyView();
    }
    next.focus({ preventScroll: true });
  });

  // Focusing a drawn item (Tab) selects it; a click selects on its own (gestures.js).
  document.addEventListener("focusin", (e) => {
    const group = e.target.closest && e.target.closest(".drawing .item");
    if (!group || M.pointerBusy) return;
    if (!(M.selection.size === 1 && M.selection.has(group.dataset.itemId))) M.select([group.dataset.itemId]);
  });
})();
