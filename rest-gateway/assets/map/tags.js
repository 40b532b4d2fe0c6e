// Tags on the map (docs/ITEMS.md "Tags"): the project's tags are read when the map starts and
// again whenever an item names a tag this page does not know (a tag made since; renames made by
// others show at the next start, as tags have no events). Each tagged item's list entry shows its
// tags as named chips, its drawing gets small coloured pills, and its accessible name says them.
"use strict";

(() => {
  const M = window.canvasMap;
  M.tags = new Map(); // tagId → {name, color}
  let reading = null;

  async function readTags() {
    const r = await M.request("GET", "/tags?jsonCasing=camel");
    if (!r.ok) return false;
    M.tags.clear();
    for (const tag of r.body.tags || []) M.tags.set(tag.tagId, { name: tag.name, color: tag.color });
    return true;
  }

  // The tags of `item` this page knows, in the item's order; reads the tags again (once at a
  // time) when the item names one it does not know.
  function known(item) {
    const ids = (item && Array.isArray(item.tags) && item.tags) || [];
    if (ids.some((id) => !M.tags.has(id)) && !reading) {
      reading = readTags().then((ok) => {
        reading = null;
        if (ok) M.emit("tags");
      });
    }
    return ids.filter((id) => M.tags.has(id)).map((id) => M.tags.get(id));
  }

  // "tagged Urgent, later", or "" for an item without tags (appended to accessible names).
  M.tagWords = (item) => {
    const tags = known(item);
    return tags.length ? `tagged ${tags.map((t) => t.name).join(", ")}` : "";
  };

  // The chips of a list entry (an empty span when the item has no tags).
  M.tagChips = (item) => {
    const span = document.createElement("span");
    span.className = "tags";
    for (const tag of known(item)) {
      const chip = document.createElement("span");
      chip.className = "tag";
      chip.textContent = tag.name;
      chip.style.background = css(tag.color);
      chip.style.color = ink(tag.color);
      span.append(chip);
    }
    return span;
  };

  // A tag's hex colour as CSS reads it: the service's `#AARRGGBB` has its alpha first, CSS's last.
  function css(color) {
    const c = String(color || "");
    return /^#[0-9a-f]{8}$/i.test(c) ? `#${c.slice(3)}${c.slice(1, 3)}` : c;
  }

  // Black or white, whichever reads better on `color` (WCAG relative luminance).
  function ink(color) {
    let c = String(color || "").replace("#", "");
    if (c.length === 3) c = [...c].map((d) => d + d).join("");
    if (c.length === 8) c = c.slice(2);
    const [r, g, b] = [0, 2, 4].map((i) => {
      const v = parseInt(c.slice(i, i + 2), 16) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    const light = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    return (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) ? "#000000" : "#ffffff";
  }

  const SVG = "http://www.w3.org/2000/svg";
  // Small coloured pills along the bottom of a drawn item's box, inside it (where Miro shows a
  // card's tags; Trello's collapsed labels are colour alone too), in map units and inside its
  // group, so they move, hide and are replaced with it and the item's box (which centring,
  // selection and hit tests use) does not grow. As many as fit; none on a box too small to hold
  // one. Each names its tag in a hover title; they hold no text, so the drawn item's visible text
  // stays its own (its accessible name, which says the tags, must contain what it shows).
  M.drawTags = (g, item) => {
    const old = g.querySelector(":scope > .tag-chips");
    if (old) old.remove();
    const tags = known(item);
    if (!tags.length || typeof g.getBBox !== "function") return;
    const box = g.getBBox();
    const height = Math.min(10, box.height - 4);
    if (height < 4) return;
    const width = height * 2.5;
    const chips = document.createElementNS(SVG, "g");
    chips.setAttribute("class", "tag-chips");
    chips.setAttribute("aria-hidden", "true");
    const top = box.y + box.height - height - 2;
    let x = box.x + 2;
    for (const tag of tags) {
      if (x + width > box.x + box.width - 2) break;
      const pill = document.createElementNS(SVG, "rect");
      for (const [k, v] of [["x", x], ["y", top], ["width", width], ["height", height], ["rx", height / 2]]) pill.setAttribute(k, v);
      pill.setAttribute("fill", css(tag.color));
      pill.setAttribute("stroke", ink(tag.color));
      pill.setAttribute("stroke-width", height / 10);
      const title = document.createElementNS(SVG, "title");
      title.textContent = tag.name;
      pill.append(title);
      chips.append(pill);
      x += width + height / 2;
    }
    g.append(chips);
  };

  M.on("ready", readTags);
  // Tags read after the items were drawn and listed: draw and list them again.
  M.on("tags", () => M.emit("tags-known"));
})();
