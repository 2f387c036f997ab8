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

/**
 * Make `live` look like `next` in place: attributes, texts and children are patched, and nodes that did not
 * change are left alone, so the browser redoes style, layout and paint only where the table changed (a
 * full re-render cost every connected screen a whole-board layout per tap). Listeners are not carried
 * over: use it for drawings without handlers.
 */
export function morph(live, next) {
  if (live.nodeType !== next.nodeType || live.nodeName !== next.nodeName) {
    live.replaceWith(next);
    return;
  }
  if (live.nodeType === Node.TEXT_NODE) {
    if (live.data !== next.data) live.data = next.data;
    return;
  }
  if (live.isEqualNode(next)) return;  // a native deep compare: whole unchanged panels cost next to nothing
  for (const attr of [...live.attributes]) if (!next.hasAttribute(attr.name)) live.removeAttribute(attr.name);
  for (const attr of next.attributes) {
    if (live.getAttribute(attr.name) === attr.value) continue;
    // our CSP blocks a style attribute written with setAttribute (a seat chip or palace would lose its colour);
    // the CSSOM is allowed, and h() sets styles that way too
    if (attr.name === "style") live.style.cssText = next.style.cssText;
    else live.setAttribute(attr.name, attr.value);
  }
  const want = [...next.childNodes];
  const have = [...live.childNodes];
  for (let i = 0; i < want.length; i += 1) {
    if (i < have.length) morph(have[i], want[i]);
    else live.appendChild(want[i]);
  }
  for (let i = want.length; i < have.length; i += 1) have[i].remove();
}

/** Patch an element's children to be `children` (see morph). */
export function morphChildren(el, ...children) {
  const next = el.cloneNode(false);
  append(next, children);
  morph(el, next);
  return el;
}

/** Set an element's text only when it differs (an equal write still invalidates layout). */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
  return el;
}

/** The element with this id (throws when a template lost it, so the mistake is loud). */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el;
}

/** Text colour that reads on a #rrggbb background: near-black on light colours, white on dark ones. */
export function inkOn(colour) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 ? "#111" : "#fff";
}

/** Read JSON, raising an Error whose message is the server's refusal text when there is one. */
export async function fetchJSON(url, options = {}) {
  let res;
  try {
    res = await fetch(url, { credentials: "same-origin", ...options });
  } catch (e) {  // no answer at all (Wi-Fi lost, the table away): a code the pages put in words, never "Failed to fetch"
    const err = new Error("the table could not be reached");
    err.status = 0;
    err.code = "offline";
    throw err;
  }
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
