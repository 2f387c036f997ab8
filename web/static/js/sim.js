// The simulator (mock backend only): put virtual tags on readers, press buttons, answer terminals, and
// watch the LED strip — a whole game on one laptop.
import { byId, fetchJSON, h, postJSON, replace } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";
import { follow, statusPill } from "./live.js";

let i18n = await loadI18n(initialLang());
let readers = [];
let terminals = [];
let seq = Date.now() % 1e9;
const nextSeq = () => ++seq;

function fail(err) {
  const el = byId("sim-error");
  el.textContent = err ? `${i18n.t("ui.refused")}: ${err.code ? i18n.code(err.code, err.message) : err.message}` : "";
  el.hidden = !err;
}

async function act(url, body) {
  try { await postJSON(url, body); fail(null); } catch (err) { fail(err); }
  await refresh();
}

function colour(c) {
  if (typeof c === "string") return c.startsWith("#") ? c : `#${c}`;
  if (Array.isArray(c)) return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
  if (typeof c === "number") return `#${c.toString(16).padStart(6, "0")}`;
  return "#000";
}

function drawLeds(data) {
  const frame = data.frame || data.pixels || [];
  replace(byId("leds"), frame.map((c, i) => h("span", { class: "led", dataset: { index: i }, style: { background: colour(c) } })));
}

/** Zones are built once and then only their "on the reader" text changes, so typing survives live updates. */
function drawZones(rebuild = false) {
  const box = byId("zones");
  const ids = readers.map((r) => r.reader || r.id || r.name);
  if (rebuild || box.dataset.readers !== ids.join(",")) {
    box.dataset.readers = ids.join(",");
    replace(box, readers.map((r, i) => {
      const id = ids[i];
      const input = h("input", { list: "known-cards", placeholder: i18n.t("sim.uid"), dataset: { reader: id } });
      return h("div", { class: "zone", dataset: { reader: id } },
        h("div", { class: "name" }, `${r.zone || id}`),
        h("div", { class: "muted" }, `${i18n.t("sim.on_reader")}: `, h("span", { class: "uid" }, "—")),
        h("form", { class: "row", onsubmit: (ev) => { ev.preventDefault(); act("/api/sim/place", { reader: id, uid: input.value.trim() }); } },
          input, h("button", { type: "submit", class: "primary" }, i18n.t("sim.place"))),
        h("button", { type: "button", class: "remove", onclick: () => act("/api/sim/remove", { reader: id }) }, i18n.t("sim.remove")));
    }));
  }
  readers.forEach((r, i) => {
    box.querySelector(`.zone[data-reader="${CSS.escape(ids[i])}"] .uid`).textContent = r.tag || r.uid || "—";
  });
}

async function drawTerminals() {
  const boxes = [];
  for (const t of terminals) {
    let messages = [];
    try { messages = (await fetchJSON(`/api/sim/terminal/${encodeURIComponent(t)}`)).messages || []; } catch (_) { messages = []; }
    const last = messages[messages.length - 1];
    const prompt = last && last.type === "prompt" ? last : null;
    const options = prompt ? prompt.options || [] : [];
    boxes.push(h("div", { class: "zone", dataset: { terminal: t } }, h("div", { class: "name" }, t),
      h("div", { class: "row" },
        h("button", { type: "button", onclick: () => act("/api/sim/terminal", { terminal: t, op: "connect" }) }, i18n.t("sim.connect")),
        h("button", { type: "button", onclick: () => act("/api/sim/terminal", { terminal: t, op: "disconnect" }) }, i18n.t("sim.disconnect"))),
      h("div", { class: "prompt-list" }, options.map((o) => h("button", { type: "button", onclick: () =>
        act("/api/sim/terminal", { terminal: t, op: "choose", ballot: prompt.ballot, value: o.value, seq: nextSeq() }) },
        o.action ? i18n.action(o.action) : o.label)))));
  }
  replace(byId("terminals"), boxes);
}

async function refresh() {
  try {
    readers = (await fetchJSON("/api/sim/readers")).readers || [];
    drawLeds(await fetchJSON("/api/sim/leds"));
    const state = await fetchJSON("/api/state");
    i18n.game = state.game ? state.game.name : null;
    const connected = ((state.health || {}).terminals || {}).connected || [];
    terminals = [...new Set([...terminals, ...connected])].sort();
  } catch (err) { fail(err); }
  drawZones();
  await drawTerminals();
}

async function loadKnownCards() {
  try {
    const st = await fetchJSON("/api/host/state");
    const cards = Array.isArray(st.cards) ? st.cards : Object.entries(st.cards || {}).map(([uid, c]) => ({ uid, ...c }));
    replace(byId("known-cards"), cards.map((c) => h("option", { value: c.uid }, c.label || "")));
  } catch (_) { /* not logged in as host: type UIDs */ }
}

async function logIn(ev) {  // the simulator is the host's: the same PIN login as the host console
  ev.preventDefault();
  try {
    await postJSON("/api/host/login", { pin: byId("pin").value });
    location.reload();  // the page comes back with the session's CSRF token in its <meta>
  } catch (err) {
    const el = byId("sim-error");
    el.textContent = i18n.t(err.code === "pin_locked" ? "host.locked_out" : "host.wrong_pin");
    el.hidden = false;
  }
}

if (!document.body.dataset.loggedIn) {
  i18n.apply();
  wireLangSwitch((next) => { i18n = next; i18n.apply(); });
  byId("login-form").addEventListener("submit", logIn);
} else {
  byId("terminal-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const id = byId("terminal-id").value.trim();
    if (id && !terminals.includes(id)) terminals.push(id);
    act("/api/sim/terminal", { terminal: id, op: "connect" });
  });
  byId("press-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    act("/api/sim/press", { seat: Number(byId("press-seat").value) - 1, key: byId("press-key").value });
  });
  wireLangSwitch((next) => { i18n = next; i18n.apply(); drawZones(true); drawTerminals(); });
  i18n.apply();
  await loadKnownCards();
  await refresh();
  follow(document.body.dataset.events, { extra: ["terminal"], onState: () => refresh(), onEvent: () => refresh(), onStatus: statusPill(byId("status"), () => i18n) });
}
