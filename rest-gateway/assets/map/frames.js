// Frames on the live map (docs/MAP.md "Frames"): titled areas that hold items and move them.
//
// - Layer: frames are drawn under every other item (the renderer's order, kept by map.js `place`
//   for a frame created or drawn later: before every non-frame `<g>`).
// - Creating: the toolbar's "Add frame" makes a 640 × 400 frame titled "Frame" at the view's
//   centre.
// - Moving a frame carries, on screen, everything it holds (at any depth, as the page knows it:
//   the item listing; before it is in, a selected frame's `GET .../items?frame=`) in the drag's
//   overlay (gestures.js asks `carried`);
//   the drop writes the frame's position only. The service moves what it holds in the same
//   transaction, and their redraws come on the change stream.
// - Dropping items: an item whose centre lands in a frame (the topmost whose rectangle holds it)
//   is written with `parent` that frame when it was elsewhere; one dropped outside every frame
//   while in a frame goes back to the `panel`. Items inside a non-frame item (a label in a shape)
//   keep their parent. The write is the move's PATCH itself, so undo restores the parent too.
// - A frame whose size changed (on the stream, or this page's resize) has the items it holds
//   drawn again: each one's clip is the frame's box.
// - Keyboard and screen readers: a frame's `<g>` is an item as any other ("frame: Sprint 1").
"use strict";

(() => {
  const M = window.canvasMap;
  const FRAME = "frame";
  const NEW_FRAME = { size: { width: 640, height: 400 }, title: "Frame" };

  M.isFrameEl = (g) => Boolean(g && g.dataset && g.dataset.itemType === FRAME);
  const isFrame = (id) => {
    const item = M.items.get(id);
    return item ? item.itemType === FRAME : M.isFrameEl(M.itemEl(id));
  };

  // parent id → the ids of the items it holds, as the page knows them now.
  function holders() {
    const held = new Map();
    for (const [id, item] of M.items) {
      const parent = item && item.parent;
      if (!parent || parent === "panel" || parent === "inbox") continue;
      if (!held.has(parent)) held.set(parent, []);
      held.get(parent).push(id);
    }
    return held;
  }

  // Every item `frameId` holds, at any depth.
  function heldBy(frameId, held = holders()) {
    const out = [];
    const todo = [frameId];
    const seen = new Set(todo);
    while (todo.length) {
      for (const id of held.get(todo.pop()) || []) {
        if (seen.has(id)) continue;
        seen.add(id);
        out.push(id);
        todo.push(id);
      }
    }
    return out;
  }

  // The frame's rectangle in map units: its centre is its transform's translation (frames are
  // never turned nor scaled), its size the item's (else the drawn rectangle's).
  function frameRect(g) {
    const t = M.parseTransform(g.getAttribute("transform"));
    const item = M.items.get(g.dataset.itemId);
    let width = item && item.size ? Number(item.size.width) : NaN;
    let height = item && item.size ? Number(item.size.height) : NaN;
    if (!(width > 0 && height > 0)) {
      const body = g.querySelector("rect");
      width = body ? Number(body.getAttribute("width")) : 0;
      height = body ? Number(body.getAttribute("height")) : 0;
    }
    return { id: g.dataset.itemId, x: t.x - width / 2, y: t.y - height / 2, width, height };
  }

  // The frames of the drawing, topmost last (drawing order), except `skip`'s.
  function frameRects(skip = new Set()) {
    if (!M.svg) return [];
    return [...M.svg.querySelectorAll(':scope > .item[data-item-type="frame"]')]
      .filter((g) => !skip.has(g.dataset.itemId))
      .map(frameRect);
  }

  const inside = (r, p) => p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;
  // The topmost frame of `rects` whose rectangle holds the point, or null.
  const frameAt = (rects, p) => {
    for (let i = rects.length - 1; i >= 0; i -= 1) if (inside(rects[i], p)) return rects[i];
    return null;
  };

  M.frames = {
    isFrame,
    heldBy,

    // For a move of `ids` (the selection): the items carried along on screen, each with the
    // moved frame that carries it (a selected item inside a moved frame is carried, not written:
    // the service moves it with its frame).
    carried(ids) {
      const out = new Map();
      const frames = ids.filter(isFrame);
      if (!frames.length) return out;
      const held = holders();
      for (const frameId of frames) for (const id of heldBy(frameId, held)) if (!out.has(id)) out.set(id, frameId);
      return out;
    },

    // The frames an item dropped now could land in (not those being moved): read once per drag.
    targets: (moving) => frameRects(new Set(moving)),
    frameAt,

    // Adds `parent` to the move writes `changes` ({id, props: {position}}) whose item's centre
    // lands in another frame than the one it is in, or outside the frame it was in. `moved`:
    // frameId → its new position, for frames moved by the same drop.
    async reparent(changes, moved = new Map()) {
      const rects = frameRects(new Set(moved.keys()));
      for (const [id, position] of moved) {
        const g = M.itemEl(id);
        if (!g) continue;
        const r = frameRect(g);
        rects.push({ ...r, x: position.x - r.width / 2, y: position.y - r.height / 2 });
      }
      await Promise.all(changes.map((c) => M.ensureItem(c.id)));
      for (const change of changes) {
        const item = M.items.get(change.id);
        if (!item || item.itemType === FRAME || item.itemType === "connector" || !change.props.position) continue;
        const parent = item.parent || "panel";
        // Inside a non-frame item (a label in a shape): it stays there.
        if (parent !== "panel" && !isFrame(parent)) continue;
        const target = frameAt(rects, change.props.position);
        const wanted = target ? target.id : "panel";
        if (wanted !== parent) change.props = { ...change.props, parent: wanted };
      }
      return changes;
    },

    // Shows which frame a drop would land in (an outline in the overlay), or none.
    showTarget(rect) {
      if (!M.layer) return;
      let outline = M.layer.querySelector(":scope > rect.drop-target");
      if (!rect) return outline && outline.remove();
      if (!outline) {
        outline = document.createElementNS(M.NS, "rect");
        outline.setAttribute("class", "drop-target");
        outline.setAttribute("vector-effect", "non-scaling-stroke");
        M.layer.append(outline);
      }
      if (outline.dataset.frameId === rect.id) return;
      outline.dataset.frameId = rect.id;
      for (const key of ["x", "y", "width", "height"]) outline.setAttribute(key, rect[key]);
    },
  };

  // ---- before the listing is in: what a selected frame holds -----------------------------------
  // The listing names every item's parent; until it is in, a frame selected (so perhaps about to
  // be dragged) has what it holds read (`GET .../items?frame=`, any depth). Those copies carry no
  // version, so the listing replaces them (map.js `loadItems`).
  const asked = new Set();
  async function readHeld(frameId) {
    let cursor = null;
    do {
      const r = await M.request("GET", `/items?frame=${encodeURIComponent(frameId)}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      if (!r.ok || document.body.dataset.listed === "true") return;
      for (const item of r.body.items || []) if (!M.items.has(item.itemId)) M.items.set(item.itemId, item);
      cursor = r.body.nextCursor;
    } while (cursor);
  }
  M.on("selection", () => {
    if (document.body.dataset.listed === "true") return;
    for (const id of M.selection) {
      if (asked.has(id) || !isFrame(id)) continue;
      asked.add(id);
      readHeld(id);
    }
  });

  // ---- creating -------------------------------------------------------------------------------
  M.addFrame = async () => {
    const position = { x: Math.round(M.view.cx), y: Math.round(M.view.cy) };
    const id = await M.create(FRAME, { position, ...JSON.parse(JSON.stringify(NEW_FRAME)) }, "Add frame");
    if (id) M.afterCreate(id);
    return id;
  };
  M.on("ready", () => {
    if (M.canEdit) M.$("add-frame").addEventListener("click", () => M.addFrame());
  });

  // ---- a frame's size changed: what it holds is drawn again (its clip is the frame's box) -----
  const sizes = new Map(); // frameId → [width, height] last drawn
  function sizeOf(id) {
    const item = M.items.get(id);
    if (item && item.size) return [Number(item.size.width), Number(item.size.height)];
    const g = M.svg && M.svg.querySelector(`:scope > #item-${CSS.escape(id)}`);
    const body = g && g.querySelector("rect");
    return body ? [Number(body.getAttribute("width")), Number(body.getAttribute("height"))] : null;
  }
  function rememberAll() {
    sizes.clear();
    if (!M.svg) return;
    for (const g of M.svg.querySelectorAll(':scope > .item[data-item-type="frame"]')) {
      const size = sizeOf(g.dataset.itemId);
      if (size) sizes.set(g.dataset.itemId, size);
    }
  }
  M.on("started", rememberAll);
  M.on("listed", rememberAll);
  M.on("redrawn", (ids) => {
    // A whole new drawing (after a gap in the stream): every frame's size as drawn now.
    if (!ids.length) return rememberAll();
    const again = new Set();
    const held = holders();
    for (const id of ids) {
      if (!isFrame(id) || !M.items.has(id)) {
        sizes.delete(id);
        continue;
      }
      const now = sizeOf(id);
      const before = sizes.get(id);
      if (now) sizes.set(id, now);
      if (before && now && (before[0] !== now[0] || before[1] !== now[1])) for (const child of heldBy(id, held)) again.add(child);
    }
    // Not those redrawn just now (their fragments already have the new clip).
    for (const id of ids) again.delete(id);
    if (again.size) M.refresh([...again]);
  });
})();
