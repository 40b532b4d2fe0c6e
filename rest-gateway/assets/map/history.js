// Undo and redo of this person's own changes (Ctrl/Cmd+Z, Ctrl/Cmd+Y or Ctrl/Cmd+Shift+Z).
//
// An entry is one action of this page (a move of several items is one entry) made of steps, one
// per item: the item id, `ready` (the version the item must still be at for the step to apply:
// the ETag the page's own write got back), `prior` (the version before that write) and the
// action that takes it back: a PATCH of the previous values, a DELETE (undoing a create), a
// create (undoing a delete, with a new id, which the remaining entries then use) or an upload
// (redoing a dropped image: the same file sent again, a new id too). A step whose redo is not
// known when it is made (Arrange: the service chose the new positions) reads it from the item, at
// the version it must still be at, just before it is undone.
//
// Every undo and redo sends `If-Match: ready`. A 412 means someone else changed the item since:
// that step is not applied, the notice says "changed by someone else since — not undone" and
// the entry is dropped; nothing is ever overwritten silently. After a step applies, the entry
// below it that produced `prior` is moved on to the new version, so several own changes of one
// item undo one after the other.
"use strict";

(() => {
  const M = window.canvasMap;
  const undoStack = [];
  const redoStack = [];
  const LIMIT = 100;
  let queue = Promise.resolve();

  function refreshButtons() {
    const undo = M.$("undo");
    const redo = M.$("redo");
    if (undo) undo.disabled = !undoStack.length;
    if (redo) redo.disabled = !redoStack.length;
    if (undo) undo.title = undoStack.length ? `Undo ${undoStack[undoStack.length - 1].label} (Ctrl+Z)` : "Nothing to undo";
    if (redo) redo.title = redoStack.length ? `Redo ${redoStack[redoStack.length - 1].label} (Ctrl+Y)` : "Nothing to redo";
  }

  // steps: [{id, type, ready, prior, undo: action, redo: action | null}], action: {patch: {...}} |
  // {delete: true} | {create: {type, props}} | {upload: {type, props, file}}.
  M.history = {
    push(label, steps) {
      if (!steps.length) return;
      undoStack.push({ label, steps });
      if (undoStack.length > LIMIT) undoStack.shift();
      redoStack.length = 0;
      refreshButtons();
    },
    // One at a time, in the order asked: a key pressed while one is on its way waits its turn.
    undo: () => (queue = queue.then(() => replay(undoStack, redoStack, "undo"))),
    redo: () => (queue = queue.then(() => replay(redoStack, undoStack, "redo"))),
    sizes: () => ({ undo: undoStack.length, redo: redoStack.length }),
  };

  // Renames an item in every entry (an undone delete or a redone create gets a new id).
  function rename(from, to) {
    for (const entry of [...undoStack, ...redoStack]) for (const step of entry.steps) if (step.id === from) step.id = to;
  }

  // After a step moved `id` from `prior` to `now`, the entry that had left it at `prior` now
  // finds it at `now`.
  function advance(stack, id, prior, now) {
    for (const entry of stack) {
      for (const step of entry.steps) if (step.id === id && step.ready === prior) step.ready = now;
    }
  }

  // Applies one action to one item; {ok, version, id, status, detail}.
  async function apply(step, action) {
    const type = step.type;
    if (action.patch) {
      const body = type === "connector" ? { properties: action.patch } : action.patch;
      const r = await M.request("PATCH", `/item/${type}/${encodeURIComponent(step.id)}`, { body, version: step.ready });
      return { ...r, id: step.id };
    }
    if (action.delete) {
      const r = await M.request("DELETE", `/item/${encodeURIComponent(step.id)}`, { version: step.ready });
      return { ...r, id: step.id };
    }
    if (action.upload) {
      const form = new FormData();
      form.append("dataobject", JSON.stringify(action.upload.props));
      form.append("binary", action.upload.file, action.upload.file.name);
      const r = await M.request("POST", `/item/panel/${action.upload.type}/file`, { form });
      return { ...r, id: r.ok ? r.body.itemId : step.id };
    }
    const r = await M.request("POST", `/item/panel/${action.create.type}`, { body: action.create.props });
    return { ...r, id: r.ok ? r.body.itemId : step.id };
  }

  // The values `patch` sets, as the item holds them at version `ready` (null when it is no longer
  // at that version: the undo is then refused by If-Match anyway).
  async function valuesAt(step, patch) {
    const r = await M.request("GET", `/item/${encodeURIComponent(step.id)}`);
    if (!r.ok || r.version !== step.ready) return null;
    const values = {};
    for (const key of Object.keys(patch)) if (r.body[key] !== undefined) values[key] = r.body[key];
    return { patch: values };
  }

  async function replay(from, to, word) {
    if (!from.length) return;
    const entry = from.pop();
    const done = [];
    const refused = [];
    for (const step of entry.steps) {
      if (word === "undo" && !step.redo && step.undo.patch) step.redo = await valuesAt(step, step.undo.patch);
      const action = step[word];
      if (!action) {
        refused.push({ step, r: { status: 0, detail: "the page cannot redo this change" } });
        continue;
      }
      const r = await apply(step, action);
      if (!r.ok) {
        refused.push({ step, r });
        continue;
      }
      const oldId = step.id;
      const inverse = word === "undo" ? "redo" : "undo";
      const next = { ...step, id: r.id, prior: step.ready, ready: action.delete ? null : r.version };
      next[word] = step[word];
      next[inverse] = step[inverse];
      if (action.create || action.upload) rename(oldId, r.id);
      if (!action.delete) {
        M.versions.set(r.id, r.version);
        advance(from, r.id, step.prior, r.version);
      }
      done.push(next);
      M.emit("wrote", [r.id]);
    }
    if (done.length) {
      to.push({ label: entry.label, steps: done });
      if (to.length > LIMIT) to.shift();
    }
    for (const { step, r } of refused) {
      const text =
        r.status === 412 || r.status === 404
          ? `${entry.label}: ${M.typeWords(step.type)} changed by someone else since — not ${word === "undo" ? "undone" : "redone"}`
          : `${entry.label} was not ${word === "undo" ? "undone" : "redone"}: ${r.detail}`;
      M.notice(text, { itemId: step.id, kind: "error" });
    }
    const created = done.filter((s) => s[word].create || s[word].upload).length;
    if (created) M.notice(`${entry.label} ${word === "undo" ? "undone" : "redone"}: re-created as new item${created > 1 ? "s" : ""} (new id)`);
    M.$("status").dataset.history = `${undoStack.length}/${redoStack.length}`;
    refreshButtons();
  }

  M.on("ready", refreshButtons);
})();
