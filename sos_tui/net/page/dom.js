// Elements made with the DOM API: text is always a text node (never parsed as HTML).

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key in node && !key.startsWith("aria") && key !== "role") node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false)
    .map((child) => (child instanceof Node ? child : document.createTextNode(String(child)))));
  return node;
}

export function svg(tag, attributes = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

const said = () => document.getElementById("said");

// Say `text` in the live region (a screen reader reads it; the page shows the last few).
export function say(text) {
  const log = said();
  log.append(el("p", {}, text));
  while (log.childElementCount > 6) log.firstElementChild.remove();
}

// Replace the children of `root` with `children`, keeping what a person was doing: the values of
// its fields (by id) and the focus (an element with the same id, data-key or data-cell).
export function redraw(root, children) {
  const active = document.activeElement;
  const mark = active && root.contains(active)
    ? (active.id ? `#${CSS.escape(active.id)}` : active.dataset.key ? `[data-key="${CSS.escape(active.dataset.key)}"]`
      : active.dataset.cell ? `[data-cell="${CSS.escape(active.dataset.cell)}"]` : null) : null;
  const values = {};
  for (const field of root.querySelectorAll("input[id], select[id]")) {
    values[field.id] = field.type === "checkbox" ? field.checked : field.value;
  }
  root.replaceChildren(...children.filter(Boolean));
  for (const [id, value] of Object.entries(values)) {
    const field = document.getElementById(id);
    if (!field || field.readOnly) continue;
    if (field.type === "checkbox") field.checked = value;
    else field.value = value;
  }
  if (mark) root.querySelector(mark)?.focus();
}
