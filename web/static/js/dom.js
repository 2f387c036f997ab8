// Small DOM helpers: every text goes through textContent, never innerHTML (no markup injection).

/** Build an element: h("div", {class: "x", dataset: {k: "v"}, onclick: fn}, child, "text", [more]). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style") for (const [p, val] of Object.entries(v)) el.style.setProperty(p, val);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** Replace an element's children. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** The element with this id (throws when a template lost it, so the mistake is loud). */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el;
}

/** Colour of a seat's marker, stable per seat index. */
export const SEAT_COLOURS = ["#f2b233", "#5fb3f0", "#7ad17a", "#e58ae0", "#f08a5f", "#b9a4f5", "#6fe0d2",
  "#f5e36b", "#c9c9c9", "#ff9fb0"];
export function seatColour(seat) { return SEAT_COLOURS[seat % SEAT_COLOURS.length]; }

/** Read JSON, raising an Error whose message is the server's refusal text when there is one. */
export async function fetchJSON(url, options = {}) {
  const res = await fetch(url, { credentials: "same-origin", ...options });
  let body = null;
  try { body = await res.json(); } catch (_) { body = null; }
  if (!res.ok) {
    const err = new Error((body && (body.message || body.error)) || `HTTP ${res.status}`);
    err.status = res.status;
    err.code = body && (body.code || body.error);
    err.body = body;
    throw err;
  }
  return body;
}

/** POST JSON with the page's CSRF token (from <meta name="csrf-token">) when it has one. */
export function postJSON(url, payload) {
  const meta = document.querySelector('meta[name="csrf-token"]');
  const headers = { "Content-Type": "application/json" };
  if (meta && meta.content) headers["X-CSRF-Token"] = meta.content;
  return fetchJSON(url, { method: "POST", headers, body: JSON.stringify(payload ?? {}) });
}
