// The style panel of the selection (Editors): fill, stroke and text colour and font size, under
// the property name each type uses (spec tables); for connectors the line type and the start and
// end decorators. Each change is one PATCH per selected item that has the property (If-Match),
// undoable as one entry; a refusal is a notice at the item. Also "Arrange selected" (the
// arrange endpoint, `POST .../items/arrange`), undoable as the positions it replaced.
"use strict";

(() => {
  const M = window.canvasMap;
  const TEXT_TYPES = new Set(["label", "sticky-note"]);

  // field → (item → the property it sets, or null when the item has none)
  const FIELDS = {
    fill: (item) => (item.itemType === "shape" || item.itemType === "frame" ? "fillColor" : TEXT_TYPES.has(item.itemType) ? "backgroundColor" : null),
    stroke: (item) => (item.itemType === "shape" || item.itemType === "connector" ? "strokeColor" : null),
    text: (item) => (TEXT_TYPES.has(item.itemType) ? "textColor" : null),
    font: (item) => (TEXT_TYPES.has(item.itemType) ? "fontSize" : null),
    line: (item) => (item.itemType === "connector" ? "type" : null),
  };
  const INPUTS = { fill: "style-fill", stroke: "style-stroke", text: "style-text", font: "style-font" };

  // Any colour the service stores → `#rrggbb` for <input type=color>.
  function hex(colour) {
    const c = String(colour || "").trim();
    let m = /^#([0-9a-f]{3})$/i.exec(c);
    if (m) return `#${[...m[1]].map((d) => d + d).join("")}`.toLowerCase();
    m = /^#(?:[0-9a-f]{2})?([0-9a-f]{6})$/i.exec(c);
    if (m) return `#${m[1]}`.toLowerCase();
    m = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/i.exec(c);
    if (m) return `#${[m[1], m[2], m[3]].map((n) => Number(n).toString(16).padStart(2, "0")).join("")}`;
    return "#000000";
  }

  const selected = () => [...M.selection].map((id) => M.items.get(id)).filter(Boolean);

  function show() {
    const panel = M.$("style-panel");
    const items = selected();
    panel.hidden = !M.canEdit || !items.length;
    if (panel.hidden) return;
    for (const [field, prop] of Object.entries(FIELDS)) {
      const owner = items.find((item) => prop(item));
      for (const row of panel.querySelectorAll(`[data-style="${field}"]`)) row.hidden = !owner;
      if (!owner) continue;
      const value = owner[prop(owner)];
      if (field === "font") M.$(INPUTS.font).value = value != null ? value : 15;
      else if (field === "line") {
        M.$("style-line").value = value || "Straight";
        M.$("style-start").value = (owner.startPoint && owner.startPoint.decorator) || "None";
        M.$("style-end").value = (owner.endPoint && owner.endPoint.decorator) || "ArrowLine";
      } else if (document.activeElement !== M.$(INPUTS[field])) M.$(INPUTS[field]).value = hex(value);
    }
  }

  function setField(field, value, label) {
    const changes = selected()
      .filter((item) => FIELDS[field](item))
      .map((item) => ({ id: item.itemId, props: { [FIELDS[field](item)]: value } }));
    if (changes.length) M.patch(changes, label);
  }

  function setDecorator(end, value) {
    const changes = selected()
      .filter((item) => item.itemType === "connector")
      .map((item) => ({ id: item.itemId, props: { [end]: { ...M.endPoint(item[end]), decorator: value } } }));
    if (changes.length) M.patch(changes, "Change line end");
  }

  // Arranges the selection with the service's layouts; undo puts each item back.
  M.arrange = async (style) => {
    await Promise.all([...M.selection].map((id) => M.ensureItem(id)));
    const ids = [...M.selection].filter((id) => M.items.has(id));
    if (!ids.length) return M.notice("Select the items to arrange first");
    const before = new Map(ids.map((id) => [id, { ...(M.items.get(id).position || { x: 0, y: 0 }) }]));
    const prior = new Map(ids.map((id) => [id, M.versions.get(id)]));
    const r = await M.request("POST", "/items/arrange", { body: { itemIds: ids, style } });
    if (!r.ok) return M.notice(`Not arranged: ${r.detail}`, { kind: "error" });
    const steps = [];
    for (const { itemId, version } of r.body.items || []) {
      const item = M.items.get(itemId);
      if (!item || item.itemType === "connector") continue;
      M.versions.set(itemId, version);
      steps.push({ id: itemId, type: item.itemType, prior: prior.get(itemId), ready: version, undo: { patch: { position: before.get(itemId) } },
        redo: null });
    }
    M.history.push(`Arrange (${style})`, steps);
    M.emit("wrote", ids);
  };

  M.on("ready", () => {
    if (!M.canEdit) return;
    M.$("style-fill").addEventListener("change", (e) => setField("fill", e.target.value.toUpperCase(), "Change fill colour"));
    M.$("style-stroke").addEventListener("change", (e) => setField("stroke", e.target.value.toUpperCase(), "Change stroke colour"));
    M.$("style-text").addEventListener("change", (e) => setField("text", e.target.value.toUpperCase(), "Change text colour"));
    M.$("style-font").addEventListener("change", (e) => {
      const size = Number(e.target.value);
      if (size >= 1) setField("font", size, "Change font size");
    });
    M.$("style-line").addEventListener("change", (e) => setField("line", e.target.value, "Change line type"));
    M.$("style-start").addEventListener("change", (e) => setDecorator("startPoint", e.target.value));
    M.$("style-end").addEventListener("change", (e) => setDecorator("endPoint", e.target.value));
    M.$("arrange").addEventListener("click", () => M.arrange(M.$("arrange-style").value));
    M.$("select-mode").addEventListener("click", (e) => {
      M.selectMode = !M.selectMode;
      e.currentTarget.setAttribute("aria-pressed", String(M.selectMode));
      M.mapEl.classList.toggle("select-mode", M.selectMode);
    });
    M.$("snap").addEventListener("click", (e) => {
      M.snap = !M.snap;
      e.currentTarget.setAttribute("aria-pressed", String(M.snap));
    });
    M.$("undo").addEventListener("click", () => M.history.undo());
    M.$("redo").addEventListener("click", () => M.history.redo());
    M.$("delete").addEventListener("click", () => M.selection.size && M.remove([...M.selection]));
    M.$("duplicate").addEventListener("click", () => M.duplicate());
  });
  M.on("selection", show);
  M.on("redrawn", show);
  // Reads the version of what is selected now, so the next write has it (and, before the listing
  // is in, the item itself: the panel shows once it is read).
  M.on("selection", () => {
    const reads = [...M.selection].filter((id) => !M.versions.has(id)).map((id) => M.fetchItem(id));
    if (reads.length) Promise.all(reads).then(show);
  });
})();
