// The simulator (mock backend only): put virtual tags on readers, press buttons, answer terminals, and
// watch the LED strip — a whole game on one laptop.
import { byId, fetchJSON, h, postJSON, replace } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";
import { follow, statusPill } from "./live.js";
import { wirePinLogin } from "./login.js";
import { seatChip } from "./boards.js";
import { normalize } from "./state.js";

let i18n = await loadI18n(initialLang());
let readers = [];
let terminals = [];
let deck = null;  // the enrolled cards (the host's deck export), null until read; suggestions are the current game's
let suggested = null;
const KEY_TEXTS = "sim.keys";  // sim.keys.<key>: a button's key in words
let buttons = [];  // the configured buttons [{seat, key}]
let seatCount = null;  // the running game's seats (null between games: every configured seat)
let plugged = new Set();
const servesSeat = new Map();  // terminal -> seat it serves (host state), when known
let lastTapped = null;  // the UID this page last tapped (the "tap again" buttons tap it once more)
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

/** Tap a tag on a reader (put it down and take it off): a new tag's when `uid` is null, so enrolling a whole
 * deck needs no typing; the page remembers it for "tap again". */
async function tapTag(reader, uid) {
  try {
    const res = await postJSON("/api/sim/tap", uid ? { reader, uid } : { reader });
    lastTapped = res.uid;
    fail(null);
  } catch (err) { fail(err); await refresh(); }
  // the tag is off the reader again: nothing here changed unless the table says so (its events redraw)
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
  const key = JSON.stringify([ids, i18n.seats]);  // seat names and colours come with a game
  if (rebuild || box.dataset.readers !== key) {
    box.dataset.readers = key;
    replace(box, readers.map((r, i) => {
      const id = ids[i];
      const zone = r.zone || id;
      const shown = i18n.zone(zone);
      const input = h("input", { list: "known-cards", placeholder: i18n.t("sim.uid"), dataset: { reader: id } });
      return h("div", { class: "zone", dataset: { reader: id } },
        h("div", { class: "name", dataset: { zone } }, seatZoneChip(zone), shown,
          h("span", { class: "muted" }, id === zone ? "" : ` · ${i18n.t("sim.reader", { reader: id })}`)),
        h("div", { class: "muted" }, `${i18n.t("sim.on_reader")}: `, h("span", { class: "uid" }, "—")),
        h("form", { class: "row", onsubmit: (ev) => { ev.preventDefault(); act("/api/sim/place", { reader: id, uid: input.value.trim() }); } },
          input, h("button", { type: "submit", class: "primary" }, i18n.t("sim.place"))),
        h("div", { class: "row" },
          h("button", { type: "button", class: "remove", onclick: () => act("/api/sim/remove", { reader: id }) }, i18n.t("sim.remove")),
          h("button", { type: "button", class: "tap-new", onclick: () => tapTag(id, null) }, i18n.t("sim.tap_new")),
          h("button", { type: "button", class: "tap-again", onclick: () => (lastTapped ? tapTag(id, lastTapped) : null) }, i18n.t("sim.tap_again"))));
    }));
  }
  readers.forEach((r, i) => {
    box.querySelector(`.zone[data-reader="${CSS.escape(ids[i])}"] .uid`).textContent = r.tag || r.uid || "—";
  });
}

/** Tap a tag at a terminal's own reader (a new tag's when `uid` is empty); remembered for "tap again". */
async function tapAtTerminal(terminal, uid) {
  try {
    const res = await postJSON("/api/sim/terminal", uid ? { terminal, op: "tap", uid } : { terminal, op: "tap" });
    lastTapped = res.uid;
    fail(null);
  } catch (err) { fail(err); }
  await refresh();
}

async function drawTerminals() {
  const screens = [];
  for (const t of terminals) {
    try { screens.push((await fetchJSON(`/api/sim/terminal/${encodeURIComponent(t)}`)).messages || []); } catch (_) { screens.push([]); }
  }
  const box = byId("terminals");
  // the boxes are rebuilt on every change: what is being typed into a UID field survives it (read after the
  // fetches, so a draw that began before the typing cannot wipe it)
  const typed = new Map([...box.querySelectorAll("input[data-terminal]")].map((i) => [i.dataset.terminal, i.value]));
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.terminal : undefined;
  const boxes = terminals.map((t, i) => {
    const messages = screens[i];
    const last = messages[messages.length - 1];
    const prompt = last && last.type === "prompt" ? last : null;
    const options = prompt ? prompt.options || [] : [];
    const seat = servesSeat.get(t);
    return h("div", { class: "zone", dataset: { terminal: t, plugged: plugged.has(t) ? "1" : "" } },
      h("div", { class: "name" }, t, h("span", { class: "muted" }, ` · ${i18n.t(plugged.has(t) ? "host.plugged_in" : "host.unplugged")}`,
        seat === null || seat === undefined ? "" : ` · ${i18n.seat(seat)}`)),
      h("div", { class: "row" },
        h("button", { type: "button", onclick: () => act("/api/sim/terminal", { terminal: t, op: "connect" }) }, i18n.t("sim.connect")),
        h("button", { type: "button", onclick: () => act("/api/sim/terminal", { terminal: t, op: "disconnect" }) }, i18n.t("sim.disconnect"))),
      h("div", { class: "prompt-list" }, options.map((o) => h("button", { type: "button", onclick: () =>
        act("/api/sim/terminal", { terminal: t, op: "choose", ballot: prompt.ballot, value: o.value, seq: nextSeq() }) },
        o.action ? i18n.action(o.action) : o.label))),
      terminalTagForm(t, typed.get(t) || ""));
  });
  replace(box, boxes);
  if (focused !== undefined) {
    const input = box.querySelector(`input[data-terminal="${CSS.escape(focused)}"]`);
    if (input) input.focus();
  }
}

/** A terminal's own reader: tap a typed UID (a new tag's when empty) or the last tag tapped again. */
function terminalTagForm(t, value) {
  const input = h("input", { list: "known-cards", placeholder: i18n.t("sim.uid"), dataset: { terminal: t } });
  input.value = value;
  return h("form", { class: "row terminal-tag", onsubmit: (ev) => { ev.preventDefault(); tapAtTerminal(t, input.value.trim()); } },
    input, h("button", { type: "submit", class: "tap-here" }, i18n.t("sim.tap_here")),
    h("button", { type: "button", class: "tap-again", onclick: () => (lastTapped ? tapAtTerminal(t, lastTapped) : null) },
      i18n.t("sim.tap_again")));
}

let refreshing = null;  // the refresh under way, and whether another was asked for meanwhile
let refreshAgain = false;

/** Redraw from the table; calls while one runs fold into a single next one (a tap brings several events). */
async function refresh() {
  if (refreshing) { refreshAgain = true; return refreshing; }
  refreshing = (async () => {
    do { refreshAgain = false; await readAndDraw(); } while (refreshAgain);
  })();
  try { await refreshing; } finally { refreshing = null; }
}

async function readAndDraw() {
  try {
    readers = (await fetchJSON("/api/sim/readers")).readers || [];
    drawLeds(await fetchJSON("/api/sim/leds"));
    const state = await fetchJSON("/api/state");
    const s = normalize(state);
    i18n.setView(s.game, s.view);
    i18n.seats = s.seatInfo;
    i18n.facts = s.facts;
    seatCount = s.running ? s.seats : null;
    const connected = ((state.health || {}).terminals || {}).connected || [];
    plugged = new Set(connected);
    let known = [];
    try { known = ((await fetchJSON("/api/host/state")).terminals || []); } catch (_) { known = []; /* not host */ }
    for (const t of known) servesSeat.set(t.terminal, t.seat);
    for (const t of known) if (t.connected) plugged.add(t.terminal);
    // a terminal stays listed after it is unplugged (marked so): plugging it back in is one tap away
    terminals = [...new Set([...terminals, ...connected, ...known.map((t) => t.terminal)])].sort();
  } catch (err) { fail(err); }
  drawZones();
  drawButtons();
  suggestCards();
  await drawTerminals();
}

/** A key in words: what it means in the game running (a vote, a move), else its name from the texts. */
function keyLabel(key) {
  // a game may name a key apart from the value of the same id (GD's "pass" key is 넘기기, not 체포당하기)
  const game = i18n.game && (i18n.raw(`games.${i18n.game}.button_keys.${key}`) ?? i18n.raw(`games.${i18n.game}.values.${key}`));
  return game ?? i18n.t(`${KEY_TEXTS}.${key}`, {}, key);
}

/** Each seat's configured buttons, pressed with one tap (only the seats of the game running). */
function drawButtons() {
  const bySeat = new Map();
  for (const b of buttons) if (seatCount === null || b.seat < seatCount) bySeat.set(b.seat, [...(bySeat.get(b.seat) || []), b.key]);
  const key = JSON.stringify([[...bySeat], i18n.lang, i18n.game, i18n.seats]);
  const box = byId("buttons");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  replace(box, bySeat.size ? [...bySeat].map(([seat, keys]) => h("div", { class: "zone", dataset: { seat } },
    h("div", { class: "name" }, seatZoneChip(`seat:${seat}`), i18n.seat(seat)),
    h("div", { class: "row" }, keys.map((k) => h("button", { type: "button", class: "press", dataset: { key: k, seat },
      onclick: () => act("/api/sim/press", { seat, key: k }) }, keyLabel(k))))))
    : h("p", { class: "muted" }, i18n.t("sim.no_buttons")));
}

/** The configured buttons (the keys each seat has). */
async function loadButtons() {
  try { buttons = (await fetchJSON("/api/sim/buttons")).buttons || []; } catch (err) { buttons = []; fail(err); }
}

/** The reader boxes' suggestions: the enrolled cards of the game running (every enrolled card between games). */
function suggestCards() {
  const cards = ((deck && deck.cards) || []).filter((c) => !i18n.game || c.game === i18n.game);
  const key = JSON.stringify([i18n.lang, cards.map((c) => [c.uid, c.label])]);
  if (key === suggested) return;  // rebuilt only when the list or the language changed (an open box stays open)
  suggested = key;
  replace(byId("known-cards"), cards.map((c) => h("option", { value: c.uid }, cardWords(c))));
}

/** An enrolled card in the page's language: its game's words for its value (and kind), else its printed label. */
function cardWords(c) {
  const game = `games.${c.game}`;
  const value = i18n.raw(`${game}.values.${c.value}`);
  const kind = i18n.raw(`${game}.values.${c.kind}`) ?? i18n.raw(`${game}.kinds.${c.kind}`);
  if (value !== undefined) return kind !== undefined && kind !== value ? `${kind}: ${value}` : value;
  if (kind !== undefined) return `${kind} ${c.value}`;
  return c.label || `${c.kind} ${c.value}`;
}

/** Read the card registry (the host's deck export: the simulator suggests cards only to a logged-in host). */
async function loadKnownCards() {
  try { deck = (await fetchJSON("/api/host/cards")).deck; } catch (_) { deck = null; /* not host: type UIDs */ }
  suggestCards();
}

/** A seat zone's colour chip (shared zones have none). */
function seatZoneChip(zone) {
  const m = /^seat:(\d+)$/.exec(zone || "");
  return m ? [seatChip(i18n, Number(m[1])), " "] : null;
}

if (!document.body.dataset.loggedIn) {
  i18n.apply();
  wireLangSwitch((next) => { i18n = next; i18n.apply(); });
  wirePinLogin("sim-error", () => i18n);  // the simulator is the host's: the host console's PIN login
} else {
  byId("terminal-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const id = byId("terminal-id").value.trim();
    if (id && !terminals.includes(id)) terminals.push(id);
    act("/api/sim/terminal", { terminal: id, op: "connect" });
  });
  wireLangSwitch((next) => {
    next.game = i18n.game; next.seats = i18n.seats; next.facts = i18n.facts;  // the new language names the same table
    next.cards = i18n.cards; next.phaseNow = i18n.phaseNow;
    i18n = next; i18n.apply(); drawZones(true); drawButtons(); drawTerminals();
  });
  i18n.apply();
  // Follow the stream before the first reads, and read the cards again each time it (re)opens: a card enrolled
  // before the server subscribed this page comes with no event, so only a read after the subscription sees it.
  const pill = statusPill(byId("status"), () => i18n);
  // the host's stream (the simulator is the host's): terminals, enrollment and reader faults come on it too
  follow(document.body.dataset.events, { extra: ["terminal", "card_enrolled", "enroll_seen", "guide", "health"],
    onState: () => refresh(),
    // a card enrolled changes only the suggestions; the guide's progress is the host console's
    onEvent: (type) => (type === "card_enrolled" ? loadKnownCards() : type === "guide" ? null : refresh()),
    onStatus: (up) => { pill(up); if (up) loadKnownCards(); } });
  await loadKnownCards();
  await loadButtons();
  await refresh();
}
