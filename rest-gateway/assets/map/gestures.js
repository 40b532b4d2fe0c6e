// Pointer gestures on the map and the overlay that shows the selection.
//
// Plain drag on empty map pans; Shift-drag (or drag in "Box select" mode) selects what the box
// touches; wheel and pinch zoom. On an item: click selects it, Shift-click adds or removes it,
// drag moves every selected item (Editors): the dragged `<g>`s go into the overlay `<svg>` for
// the drag, so the big drawing does not repaint each frame, and on drop each gets one PATCH of
// `position` with the version it had when the drag began. A single selected item shows handles:
// a corner to resize (PATCH `size`, with `position` so the opposite corner stays), a knob above
// it to rotate (PATCH `angle`; Shift: 15° steps), and four edge knobs to drag a connector onto
// another item. Frames (frames.js): moving one carries what it holds on screen (the service moves
// it); a dropped item whose centre lands in a frame goes into it, one dropped outside its frame
// out of it (the same PATCH, with `parent`); frames are resized but never turned.
"use strict";

(() => {
  const M = window.canvasMap;
  const RESIZABLE = new Set(["shape", "sticky-note", "label", "web", "image", "frame"]);
  const UNTURNED = new Set(["frame"]);
  const MIN_SIZE = 5;
  M.dragging = new Set();
  let gesture = null;

  const svgEl = (name, attrs, parent) => {
    const el = document.createElementNS(M.NS, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (parent) parent.append(el);
    return el;
  };
  const layerGroup = (cls) => M.layer.querySelector(`:scope > g.${cls}`) || svgEl("g", { class: cls }, M.layer);

  // The item's drawn box in its own coordinates (origin at its centre) and its transform.
  function frame(id) {
    const el = M.itemEl(id);
    if (!el) return null;
    const item = M.items.get(id) || {};
    const box = el.getBBox();
    const scale = item.scale || 1;
    const w = (item.size && item.size.width) * scale || box.width;
    const h = (item.size && item.size.height) * scale || box.height;
    const t = M.parseTransform(el.getAttribute("transform"));
    return { el, item, box, w, h, t, hasTransform: el.hasAttribute("transform") };
  }

  // ---- the overlay: selection outlines and handles ------------------------------------------
  M.drawOverlay = () => {
    if (!M.layer || !M.view) return;
    const group = layerGroup("selection");
    group.textContent = "";
    const px = 1 / M.view.zoom;
    for (const id of M.selection) {
      const f = frame(id);
      if (!f) continue;
      const g = svgEl("g", f.hasTransform ? { transform: f.el.getAttribute("transform") } : {}, group);
      const pad = 4 * px;
      svgEl("rect", { class: "highlight-ring", x: f.box.x - pad, y: f.box.y - pad, width: f.box.width + 2 * pad,
        height: f.box.height + 2 * pad, "vector-effect": "non-scaling-stroke" }, g);
      if (!M.canEdit || M.selection.size !== 1 || M.dragging.size) continue;
      const { box } = f;
      if (RESIZABLE.has(f.item.itemType)) {
        if (!UNTURNED.has(f.item.itemType)) {
          svgEl("line", { class: "handle-stem", x1: box.x + box.width / 2, y1: box.y, x2: box.x + box.width / 2, y2: box.y - 40 * px,
            "vector-effect": "non-scaling-stroke" }, g);
          svgEl("circle", { class: "handle", "data-handle": "rotate", cx: box.x + box.width / 2, cy: box.y - 40 * px, r: 6 * px }, g);
        }
        svgEl("rect", { class: "handle", "data-handle": "resize", x: box.x + box.width - 6 * px, y: box.y + box.height - 6 * px,
          width: 12 * px, height: 12 * px }, g);
      }
      if (f.item.itemType !== "connector") {
        const cx = box.x + box.width / 2;
        const cy = box.y + box.height / 2;
        const off = 14 * px;
        for (const [x, y] of [[cx, box.y - off], [box.x + box.width + off, cy], [cx, box.y + box.height + off], [box.x - off, cy]]) {
          svgEl("circle", { class: "handle connect", "data-handle": "connect", cx: x, cy: y, r: 5 * px }, g);
        }
      }
    }
    for (const box of document.querySelectorAll("#notices .notice.anchored")) M.placeNotice(box);
  };
  for (const name of ["selection", "view", "redrawn"]) M.on(name, () => M.drawOverlay());

  // ---- moving ------------------------------------------------------------------------------
  // The dragged items (and their selection outline) go into a box of their own above the map,
  // on a compositor layer, and follow the pointer by that box's CSS transform: each frame is a
  // compositor update only. Setting each item's SVG `transform` every frame made the browser
  // re-layerize the whole page per frame, and the page holds thousands of items on a big map
  // (about 40 ms a frame at 10,000 items). The items get their new `transform` on drop.
  let dragBox = null;
  function dragLayer() {
    if (!dragBox) ({ box: dragBox, svg: M.dragSvg } = M.overlayBox("drag-box"));
    M.dragSvg.setAttribute("viewBox", M.layer.getAttribute("viewBox"));
    return M.dragSvg;
  }

  // An item not read yet (the listing still loading) moves from where it is drawn: its transform's
  // translation is its position (the renderer's frame), and the drop reads its version.
  // A moved frame carries what it holds (frames.js `carried`, as the page knows it): those
  // `passengers` move on screen with it and are not written (the service moves them). In the
  // overlay as on the map, frames go first (under), then what they carry, then the other items,
  // each group in creation order. The other items show unclipped while dragged (class `lifted`).
  function beginMove(start) {
    const selected = [...M.selection].filter((id) => M.itemEl(id) && M.itemEl(id).dataset.itemType !== "connector");
    if (!selected.length) return null;
    const carried = M.frames.carried(selected);
    const byId = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
    const moving = selected.filter((id) => !carried.has(id)).sort(byId);
    const frames = moving.filter((id) => M.isFrameEl(M.itemEl(id)));
    const others = moving.filter((id) => !M.isFrameEl(M.itemEl(id)));
    const layer = dragLayer();
    const lift = (id) => {
      const el = M.itemEl(id);
      const mark = document.createComment("dragged");
      el.before(mark);
      layer.append(el);
      M.dragging.add(id);
      return { id, el, mark, t: M.parseTransform(el.getAttribute("transform")) };
    };
    const lead = (id) => {
      const part = lift(id);
      const item = M.items.get(id);
      part.pos = item ? { ...(item.position || { x: 0, y: 0 }) } : { x: part.t.x, y: part.t.y };
      part.version = M.versions.get(id);
      part.frame = M.isFrameEl(part.el);
      // Whether a drop may put it into a frame or take it out (not inside a shape, say).
      const parent = item ? item.parent || "panel" : "panel";
      part.free = !part.frame && (parent === "panel" || M.frames.isFrame(parent));
      if (!part.frame) part.el.classList.add("lifted");
      return part;
    };
    const frameParts = frames.map(lead);
    const carriers = new Map(frameParts.map((p) => [p.id, p]));
    const passengers = [...carried.keys()].filter((id) => M.itemEl(id)).sort(byId).map((id) => {
      const item = M.items.get(id);
      // As the page knows it now: a redraw that came meanwhile is not moved again at the drop.
      const was = { position: item && item.position ? { ...item.position } : null, version: M.versions.get(id) };
      return { ...lift(id), carrier: carriers.get(carried.get(id)), was };
    });
    const parts = [...frameParts, ...others.map(lead)];
    // The outline without handles (M.dragging is set), carried along with the items.
    M.drawOverlay();
    const outline = layerGroup("selection");
    layer.append(outline.cloneNode(true));
    outline.style.display = "none";
    M.mapEl.classList.add("moving");
    return { kind: "move", start, parts, passengers, moved: { x: 0, y: 0 }, outline, targets: M.frames.targets(frames) };
  }

  const snap = (value) => (M.snap ? Math.round(value / 10) * 10 : Math.round(value));

  // Where the dragged box is drawn: the first item's (snapped) offset, in screen pixels.
  function placeDragBox(g) {
    const lead = g.parts[0];
    const dx = lead.to ? lead.to.x - lead.pos.x : 0;
    const dy = lead.to ? lead.to.y - lead.pos.y : 0;
    dragBox.style.transform = `translate(${dx * M.view.zoom}px, ${dy * M.view.zoom}px)`;
  }

  function moveTo(g, p) {
    for (const part of g.parts) {
      part.to = { x: snap(part.pos.x + p.x - g.start.x), y: snap(part.pos.y + p.y - g.start.y) };
    }
    placeDragBox(g);
    // The frame the first item that may change frames would land in, outlined.
    const free = g.parts.find((part) => part.free);
    M.frames.showTarget(free ? M.frames.frameAt(g.targets, free.to) : null);
  }
  // A zoom or pan during a drag: the box follows the new view.
  M.on("view", () => {
    if (gesture && gesture.kind === "move" && dragBox) {
      M.dragSvg.setAttribute("viewBox", M.layer.getAttribute("viewBox"));
      placeDragBox(gesture);
    }
  });

  async function endMove(g) {
    for (const part of g.parts) {
      const to = part.to || part.pos;
      part.el.setAttribute("transform", M.transformOf(part.t.x + to.x - part.pos.x, part.t.y + to.y - part.pos.y, part.t.angle));
      part.el.classList.remove("lifted");
      part.mark.replaceWith(part.el);
    }
    // What a frame carried is shown where the service puts it (moved as the frame), until its
    // redraw comes on the stream.
    for (const part of g.passengers) {
      const c = part.carrier;
      const dx = c && c.to ? c.to.x - c.pos.x : 0;
      const dy = c && c.to ? c.to.y - c.pos.y : 0;
      part.el.setAttribute("transform", M.transformOf(part.t.x + dx, part.t.y + dy, part.t.angle));
      part.mark.replaceWith(part.el);
    }
    M.frames.showTarget(null);
    M.dragSvg.textContent = "";
    dragBox.style.transform = "";
    g.outline.style.display = "";
    M.dragging.clear();
    M.mapEl.classList.remove("moving");
    const changes = g.parts.filter((p) => p.to && (p.to.x !== p.pos.x || p.to.y !== p.pos.y))
      .map((p) => ({ id: p.id, props: { position: p.to }, version: p.version }));
    M.drawOverlay();
    if (!changes.length) return;
    // Into a frame, out of one, or neither (frames.js): the parent goes with the position.
    const moved = new Map(g.parts.filter((p) => p.frame && p.to).map((p) => [p.id, p.to]));
    await M.frames.reparent(changes, moved);
    const into = changes.filter((c) => c.props.parent).map((c) => c.props.parent);
    const label = changes.length > 1 ? `Move ${changes.length} items`
      : into.length ? (into[0] === "panel" ? "Move out of frame" : "Move into frame") : "Move";
    const ok = await M.patch(changes, label);
    if (!g.passengers.length) return;
    // A frame's move refused: what it carried is drawn where it still is.
    if (!ok) return void M.refresh(g.passengers.map((p) => p.id));
    // Done: the service moved what it carried, each to a new version. Until their redraws come on
    // the stream, the page holds them where they now are, and their next write reads the version
    // first (a drag right after would otherwise start from the old place and version: a 412).
    for (const part of g.passengers) {
      const item = M.items.get(part.id);
      const c = part.carrier;
      const p = item && item.position;
      if (p && part.was.position && p.x === part.was.position.x && p.y === part.was.position.y && c && c.to) {
        item.position = { x: p.x + c.to.x - c.pos.x, y: p.y + c.to.y - c.pos.y };
      }
      if (M.versions.get(part.id) === part.was.version) M.versions.delete(part.id);
    }
  }

  // ---- resizing, rotating, connecting ---------------------------------------------------------
  function resizeTo(g, p) {
    const { f } = g;
    const a = (f.t.angle * Math.PI) / 180;
    const dx = p.x - f.t.x;
    const dy = p.y - f.t.y;
    const lx = dx * Math.cos(a) + dy * Math.sin(a);
    const ly = -dx * Math.sin(a) + dy * Math.cos(a);
    const scale = f.item.scale || 1;
    const w = Math.max(MIN_SIZE * scale, lx + f.w / 2);
    const h = Math.max(MIN_SIZE * scale, ly + f.h / 2);
    const cl = { x: (w - f.w) / 2, y: (h - f.h) / 2 };
    g.to = { w, h, x: f.t.x + cl.x * Math.cos(a) - cl.y * Math.sin(a), y: f.t.y + cl.x * Math.sin(a) + cl.y * Math.cos(a) };
    f.el.setAttribute("transform", M.transformOf(g.to.x, g.to.y, f.t.angle, w / f.w, h / f.h));
    M.drawOverlay();
  }

  M.resizeProps = (item, w, h, x, y) => {
    const scale = item.scale || 1;
    const props = { size: { width: Math.round(w / scale), height: Math.round(h / scale) }, position: { x: Math.round(x), y: Math.round(y) } };
    if (item.isAutoSizeWidth) props.isAutoSizeWidth = false;
    if (item.isAutoSizeHeight) props.isAutoSizeHeight = false;
    if (item.itemType === "shape" && item.cornerRadius != null) props.cornerRadius = item.cornerRadius;
    return props;
  };

  function rotateTo(g, p, shift) {
    let angle = (Math.atan2(p.y - g.f.t.y, p.x - g.f.t.x) * 180) / Math.PI + 90;
    angle = ((angle % 360) + 360) % 360;
    angle = shift ? Math.round(angle / 15) * 15 % 360 : Math.round(angle);
    g.to = angle;
    g.f.el.setAttribute("transform", M.transformOf(g.f.t.x, g.f.t.y, angle));
    M.drawOverlay();
  }

  const itemAt = (x, y, except) =>
    document.elementsFromPoint(x, y).map((el) => el.closest && el.closest(".drawing .item"))
      .find((g) => g && g.dataset.itemId !== except && g.dataset.itemType !== "connector");

  M.connect = (from, to) =>
    M.create("connector", { startPoint: { itemId: from, position: { x: 0, y: 0 } }, endPoint: { itemId: to, position: { x: 0, y: 0 } } }, "Connect");

  // ---- pointers ---------------------------------------------------------------------------------
  const pointers = new Map();
  let pinch = null;

  M.mapEl.addEventListener("pointerdown", (e) => {
    if (!M.view || (e.pointerType === "mouse" && e.button !== 0)) return;
    M.mapEl.setPointerCapture(e.pointerId);
    M.pointerBusy = true;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, startX: e.clientX, startY: e.clientY });
    if (pointers.size === 2) {
      const [p, q] = [...pointers.values()];
      pinch = Math.hypot(p.x - q.x, p.y - q.y);
      gesture = { kind: "pan" };
      return;
    }
    const start = M.toMap(e.clientX, e.clientY);
    const handle = e.target.closest && e.target.closest("[data-handle]");
    const group = e.target.closest && e.target.closest(".drawing .item");
    if (handle && M.canEdit && M.selection.size === 1) {
      const id = [...M.selection][0];
      const f = frame(id);
      const kind = handle.dataset.handle;
      gesture = { kind, f, id, start, version: M.versions.get(id) };
      if (kind === "connect") {
        const r = handle.getBoundingClientRect();
        const from = M.toMap(r.left + r.width / 2, r.top + r.height / 2);
        gesture.line = svgEl("line", { class: "rubber", x1: from.x, y1: from.y, x2: from.x, y2: from.y, "vector-effect": "non-scaling-stroke" }, M.layer);
      }
      M.mapEl.classList.add("moving");
    } else if (group && !(M.canEdit && M.selectMode && M.isFrameEl(group))) {
      // (In "Box select" mode a box may start on a frame, as on the empty map.)
      const id = group.dataset.itemId;
      if (e.shiftKey) {
        const next = new Set(M.selection);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        M.select([...next]);
        gesture = { kind: "none" };
      } else {
        if (!M.selection.has(id)) M.select([id]);
        gesture = { kind: M.canEdit ? "press" : "pan", id, start };
      }
    } else if (M.canEdit && (e.shiftKey || M.selectMode)) {
      gesture = { kind: "box", start, add: e.shiftKey, rect: svgEl("rect", { class: "box", "vector-effect": "non-scaling-stroke" }, M.layer) };
    } else {
      gesture = { kind: "pan", empty: true };
    }
    if (gesture.kind === "pan") M.mapEl.classList.add("dragging");
  });

  M.mapEl.addEventListener("pointermove", (e) => {
    const p = pointers.get(e.pointerId);
    if (!p || !M.view) return;
    const far = Math.hypot(e.clientX - p.startX, e.clientY - p.startY) >= 4;
    const at = M.toMap(e.clientX, e.clientY);
    if (pointers.size === 2 && pinch) {
      p.x = e.clientX;
      p.y = e.clientY;
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      M.zoomAt((a.x + b.x) / 2, (a.y + b.y) / 2, distance / pinch);
      pinch = distance;
      return;
    }
    if (gesture && gesture.kind === "press" && far) gesture = beginMove(gesture.start) || { kind: "none" };
    if (!gesture) return;
    if (gesture.kind === "pan") {
      M.view.cx -= (e.clientX - p.x) / M.view.zoom;
      M.view.cy -= (e.clientY - p.y) / M.view.zoom;
      M.applyView();
    } else if (gesture.kind === "move") moveTo(gesture, at);
    else if (gesture.kind === "resize") resizeTo(gesture, at);
    else if (gesture.kind === "rotate") rotateTo(gesture, at, e.shiftKey);
    else if (gesture.kind === "connect") {
      gesture.line.setAttribute("x2", at.x);
      gesture.line.setAttribute("y2", at.y);
    } else if (gesture.kind === "box") {
      const s = gesture.start;
      for (const [k, v] of Object.entries({ x: Math.min(s.x, at.x), y: Math.min(s.y, at.y), width: Math.abs(at.x - s.x), height: Math.abs(at.y - s.y) })) {
        gesture.rect.setAttribute(k, v);
      }
    }
    p.x = e.clientX;
    p.y = e.clientY;
  });

  async function release(e) {
    const p = pointers.get(e.pointerId);
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size > 0) return;
    M.mapEl.classList.remove("dragging", "moving");
    M.pointerBusy = false;
    const g = gesture;
    gesture = null;
    if (!g || !p) return;
    const click = e.type === "pointerup" && Math.hypot(e.clientX - p.startX, e.clientY - p.startY) < 4;
    const cancelled = e.type !== "pointerup";
    if (g.kind === "press" && click) M.select([g.id]);
    else if (g.kind === "pan" && g.empty && click) M.select([]);
    else if (g.kind === "move") await endMove(g);
    else if (g.kind === "resize" && g.to && !cancelled) {
      await M.patch([{ id: g.id, props: M.resizeProps(g.f.item, g.to.w, g.to.h, g.to.x, g.to.y), version: g.version }], "Resize");
    } else if (g.kind === "rotate" && g.to != null && !cancelled) await M.patch([{ id: g.id, props: { angle: g.to }, version: g.version }], "Rotate");
    else if (g.kind === "connect") {
      g.line.remove();
      const target = !cancelled && itemAt(e.clientX, e.clientY, g.id);
      if (target) await M.connect(g.id, target.dataset.itemId);
    } else if (g.kind === "box") {
      const box = g.rect.getBoundingClientRect();
      g.rect.remove();
      const hit = [...M.svg.querySelectorAll(":scope > .item:not(.culled)")].filter((el) => {
        const r = el.getBoundingClientRect();
        // A frame only when the box holds all of it (a box drawn inside a frame selects what it holds).
        if (M.isFrameEl(el)) return r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom;
        return r.right >= box.left && r.left <= box.right && r.bottom >= box.top && r.top <= box.bottom;
      }).map((el) => el.dataset.itemId);
      M.select(g.add ? [...new Set([...M.selection, ...hit])] : hit);
    }
    if ((g.kind === "resize" || g.kind === "rotate") && (cancelled || g.to == null)) M.refresh([g.id]);
  }
  M.mapEl.addEventListener("pointerup", release);
  M.mapEl.addEventListener("pointercancel", release);
  M.mapEl.addEventListener(
    "wheel",
    (e) => {
      e.preventDefault();
      if (M.view) M.zoomAt(e.clientX, e.clientY, Math.exp(-e.deltaY * 0.0015));
    },
    { passive: false },
  );
})();
