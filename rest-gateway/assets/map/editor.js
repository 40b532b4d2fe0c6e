// Writing: updates, creates and deletes with the version the page holds (`If-Match`), each
// recorded for undo (history.js); a 412 conflict re-reads the item and offers "Apply mine";
// a 400 refusal is a notice next to the item with the service's `detail`. Also editing text in
// place, the toolbar's create buttons, a double-click on empty map (a sticky note there) and
// dropping an image file on the map (the upload endpoint, `.../item/panel/image/file`).
"use strict";

(() => {
  const M = window.canvasMap;

  // The properties a create takes, per type (the spec's tables): what a copy, a paste and an
  // undone delete send. Connector ends keep only what a create accepts.
  const COMMON = ["position", "size", "scale", "angle"];
  const TEXT = ["text", "fontSize", "fontFamily", "textColor", "backgroundColor", "isAutoSizeWidth", "isAutoSizeHeight",
    "horizontalTextAlignment", "verticalTextAlignment"];
  const WRITABLE = {
    label: [...COMMON, ...TEXT],
    "sticky-note": [...COMMON, ...TEXT],
    shape: [...COMMON, "type", "fillColor", "strokeColor", "strokeThickness", "adjustmentValues"],
    connector: ["type", "strokeColor", "strokeThickness", "cornerPoints", "radius", "startPoint", "endPoint"],
    web: [...COMMON, "url"],
    // A copy of a frame (or its undone delete) is the frame alone, without what it held.
    frame: ["position", "size", "title", "fillColor"],
  };
  M.copyable = (type) => Boolean(WRITABLE[type]);
  M.endPoint = (point) => {
    const out = { position: { ...(point && point.position ? point.position : { x: 0, y: 0 }) } };
    for (const key of ["itemId", "edge", "decorator"]) if (point && point[key] != null) out[key] = point[key];
    return out;
  };
  // The item as a create body.
  M.createBody = (item) => {
    const body = {};
    for (const key of WRITABLE[item.itemType] || []) {
      if (item[key] === undefined || item[key] === null) continue;
      body[key] = key === "startPoint" || key === "endPoint" ? M.endPoint(item[key]) : JSON.parse(JSON.stringify(item[key]));
    }
    return body;
  };

  // The current values of `props`' keys, for the inverse of a PATCH.
  function previous(item, props) {
    const out = {};
    for (const key of Object.keys(props)) {
      const value = item[key];
      if (key === "startPoint" || key === "endPoint") out[key] = M.endPoint(value);
      else out[key] = value === undefined ? null : JSON.parse(JSON.stringify(value));
    }
    return out;
  }

  const words = (value) => (typeof value === "string" ? M.plainText(value) : JSON.stringify(value));
  const describe = (props) => Object.entries(props).map(([k, v]) => `${k} ${words(v)}`).join(", ");

  // A refused write: 412 → re-read and offer "Apply mine"; 400 → the detail next to the item.
  async function refused(id, props, r) {
    if (r.status === 412) {
      const theirs = await M.fetchItem(id);
      M.emit("wrote", [id]);
      if (!theirs) return M.notice("Someone else deleted this item meanwhile; your change was not applied", { itemId: id, kind: "error" });
      const mine = describe(props);
      const now = describe(previous(theirs, props));
      M.notice(`Changed by someone else meanwhile — kept theirs (${now}); yours was ${mine}`, {
        itemId: id,
        kind: "conflict",
        actions: [{ label: "Apply mine", run: () => M.patch([{ id, props }], "Apply mine") }],
      });
    } else {
      M.notice(r.status === 400 ? r.detail : `Not saved (${r.status}): ${r.detail}`, { itemId: id, kind: "error" });
      M.emit("wrote", [id]);
    }
  }

  // PATCHes several items, each with its own If-Match (`version` given, else the page's): one
  // undo entry for all that applied.
  M.patch = async (changes, label = "Change", record = true) => {
    const steps = [];
    await Promise.all(
      changes.map(async ({ id, props, version }) => {
        const item = await M.ensureItem(id);
        if (!item) return;
        const ready = version != null ? version : await M.versionOf(id);
        const before = previous(item, props);
        const body = item.itemType === "connector" ? { properties: props } : props;
        const r = await M.request("PATCH", `/item/${item.itemType}/${encodeURIComponent(id)}`, { body, version: ready });
        if (!r.ok) return refused(id, props, r);
        M.versions.set(id, r.version);
        // The item as the page holds it now (a read may have replaced the object meanwhile).
        Object.assign(M.items.get(id) || item, props);
        steps.push({ id, type: item.itemType, prior: ready, ready: r.version, undo: { patch: before }, redo: { patch: props } });
      }),
    );
    if (record) M.history.push(label, steps);
    if (steps.length) M.emit("wrote", steps.map((s) => s.id));
    return steps.length === changes.length;
  };

  // Creates one item on the map; its id, or null (the refusal is a notice).
  M.create = async (type, props, label = `Add ${M.typeWords(type)}`) => {
    const r = await M.request("POST", `/item/panel/${type}`, { body: props });
    if (!r.ok) {
      M.notice(`Not created: ${r.detail}`, { kind: "error" });
      return null;
    }
    const id = r.body.itemId;
    M.versions.set(id, r.version);
    M.history.push(label, [{ id, type, prior: null, ready: r.version, undo: { delete: true }, redo: { create: { type, props } } }]);
    M.emit("wrote", [id]);
    return id;
  };

  // Deletes items, each with If-Match; undo re-creates them (with new ids).
  M.remove = async (ids, label = "Delete") => {
    const steps = [];
    await Promise.all(
      ids.map(async (id) => {
        const item = await M.ensureItem(id);
        if (!item) return;
        const ready = await M.versionOf(id);
        const r = await M.request("DELETE", `/item/${encodeURIComponent(id)}`, { version: ready });
        if (!r.ok) return refused(id, {}, r);
        const create = M.copyable(item.itemType) ? { type: item.itemType, props: M.createBody(item) } : null;
        if (create) steps.push({ id, type: item.itemType, prior: ready, ready: null, undo: { create }, redo: { delete: true } });
      }),
    );
    M.history.push(label, steps);
    M.emit("wrote", ids);
  };

  // ---- text in place ----------------------------------------------------------------------
  // A frame's text is its title (plain text, at most one line); every other item's its `text`.
  let editing = null;
  const textKey = (item) => (item.itemType === "frame" ? "title" : "text");
  M.canEditText = (id) => {
    const item = M.items.get(id);
    return Boolean(M.canEdit && item && typeof item[textKey(item)] === "string");
  };
  M.editText = async (id) => {
    if (!M.canEdit || editing) return;
    await M.ensureItem(id);
    if (!M.canEditText(id) || editing) return;
    const item = M.items.get(id);
    const el = M.itemEl(id);
    if (!el) return;
    const version = await M.versionOf(id); // the version this edit starts from
    const r = el.getBoundingClientRect();
    const key = textKey(item);
    const area = document.createElement("textarea");
    area.className = "text-editor";
    area.setAttribute("aria-label", key === "title" ? "Title of the frame (Enter saves, Escape cancels)"
      : `Text of the ${M.typeWords(item.itemType)} (Enter saves, Shift+Enter new line, Escape cancels)`);
    const original = key === "title" ? item.title : M.plainText(item.text);
    area.value = original;
    area.style.left = `${r.left}px`;
    area.style.top = `${r.top}px`;
    area.style.width = `${Math.max(r.width, 160)}px`;
    area.style.height = `${Math.max(r.height, 48)}px`;
    area.style.fontSize = `${Math.max(10, Math.min(40, (item.fontSize || 15) * M.view.zoom))}px`;
    document.body.append(area);
    editing = { id, area };
    area.focus();
    area.select();
    let done = false;
    const finish = async (save) => {
      if (done) return;
      done = true;
      editing = null;
      area.remove();
      const focusTarget = M.itemEl(id);
      if (focusTarget) focusTarget.focus({ preventScroll: true });
      if (save && area.value !== original) await M.patch([{ id, props: { [key]: area.value }, version }], key === "title" ? "Edit title" : "Edit text");
    };
    area.addEventListener("keydown", (e) => {
      e.stopPropagation();
      if (e.key === "Escape") finish(false);
      else if (e.key === "Enter" && (!e.shiftKey || key === "title")) {
        e.preventDefault();
        finish(true);
      }
    });
    area.addEventListener("blur", () => finish(true));
  };
  M.isEditingText = () => Boolean(editing);

  // ---- creating from the toolbar -------------------------------------------------------------
  // Where a new item goes: the given point, else the centre of the view.
  const here = (point) => {
    const p = point || { x: M.view.cx, y: M.view.cy };
    return { x: Math.round(p.x), y: Math.round(p.y) };
  };
  const createAndSelect = async (type, props) => {
    const id = await M.create(type, props);
    if (id) M.afterCreate(id);
    return id;
  };
  M.afterCreate = async (id) => {
    await M.refresh([id]);
    M.select([id]);
    const el = M.itemEl(id);
    if (el) el.focus({ preventScroll: true });
  };
  M.addSticky = (point) => createAndSelect("sticky-note", { text: "New note", position: here(point) });
  M.addLabel = (point) => createAndSelect("label", { text: "New label", position: here(point) });
  M.addShape = (point) =>
    createAndSelect("shape", { type: M.$("shape-type").value || "Rectangle", size: { width: 160, height: 100 }, position: here(point),
      fillColor: "#1D4ED8" });
  M.addWeb = () => {
    const url = prompt("Address of the web page (http or https):", "https://");
    if (url && url !== "https://") createAndSelect("web", { url, position: here() });
  };

  // Shape types: the served OpenAPI document's enum of the shape `type`; the spec's list if it
  // cannot be read.
  const FALLBACK_SHAPES = ["Rectangle", "Ellipse", "RoundedRectangle", "Triangle", "Diamond", "Hexagon", "Star5"];
  async function shapeTypes() {
    try {
      const doc = await M.openapi();
      const found = [];
      const walk = (node, depth) => {
        if (!node || typeof node !== "object" || depth > 12 || found.length) return;
        if (Array.isArray(node.enum) && node.enum.includes("Rectangle") && node.enum.includes("Ellipse")) return found.push(...node.enum);
        for (const value of Object.values(node)) walk(value, depth + 1);
      };
      walk(doc.components && doc.components.schemas, 0);
      return found.length ? found : FALLBACK_SHAPES;
    } catch {
      return FALLBACK_SHAPES;
    }
  }

  // ---- images: dropped on the map or picked with "Add image" ----------------------------------
  async function upload(file, point) {
    if (!/^image\/(png|jpeg|gif|webp)$/.test(file.type)) return M.notice(`${file.name}: only PNG, JPEG, GIF and WebP images can be added`, { kind: "error" });
    const size = await new Promise((resolve) => {
      const img = new Image();
      img.onload = () => resolve({ width: Math.max(5, img.naturalWidth), height: Math.max(5, img.naturalHeight) });
      img.onerror = () => resolve({ width: 320, height: 240 });
      img.src = URL.createObjectURL(file);
    });
    const scale = Math.min(1, 480 / Math.max(size.width, size.height));
    const props = { position: here(point), size: { width: Math.round(size.width * scale), height: Math.round(size.height * scale) } };
    const form = new FormData();
    form.append("dataobject", JSON.stringify(props));
    form.append("binary", file, file.name);
    const r = await M.request("POST", "/item/panel/image/file", { form });
    if (!r.ok) return M.notice(`${file.name} was not added: ${r.detail}`, { kind: "error" });
    M.versions.set(r.body.itemId, r.version);
    // Redo sends the same file again (the page keeps the File, not a copy of its bytes).
    const redo = { upload: { type: "image", props, file } };
    M.history.push("Add image", [{ id: r.body.itemId, type: "image", prior: null, ready: r.version, undo: { delete: true }, redo }]);
    M.emit("wrote", [r.body.itemId]);
    M.afterCreate(r.body.itemId);
  }

  M.on("ready", async () => {
    if (!M.canEdit) return;
    const select = M.$("shape-type");
    for (const type of await shapeTypes()) select.append(new Option(type, type));
    M.$("add-sticky").addEventListener("click", () => M.addSticky());
    M.$("add-label").addEventListener("click", () => M.addLabel());
    M.$("add-shape").addEventListener("click", () => M.addShape());
    M.$("add-web").addEventListener("click", () => M.addWeb());
    M.$("add-image").addEventListener("click", () => M.$("image-file").click());
    M.$("image-file").addEventListener("change", (e) => {
      for (const file of e.target.files) upload(file);
      e.target.value = "";
    });
    M.mapEl.addEventListener("dragover", (e) => e.preventDefault());
    M.mapEl.addEventListener("drop", (e) => {
      e.preventDefault();
      const point = M.toMap(e.clientX, e.clientY);
      for (const file of e.dataTransfer.files) upload(file, point);
    });
    M.mapEl.addEventListener("dblclick", (e) => {
      // The map captures the pointer, so the event's target is the map: look at what is there.
      const hit = document.elementFromPoint(e.clientX, e.clientY);
      if (!hit || hit.closest("[data-handle]")) return;
      const group = hit.closest(".drawing .item");
      if (group) M.editText(group.dataset.itemId);
      else if (M.mapEl.contains(hit)) M.addSticky(M.toMap(e.clientX, e.clientY));
    });
  });
})();
