// The host console: PIN login, new game, seats (QR) and terminals, enrollment, deck files, undo, redo, resume,
// hardware health, end and export. Every POST carries the session's CSRF token (see dom.postJSON).
import { byId, fetchJSON, h, postJSON, replace } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";
import { follow, statusPill } from "./live.js";
import { seatChip } from "./boards.js";
import { wirePinLogin } from "./login.js";
import { botPicker, pickedBots, seatPlayer, timerForm, timersStatus } from "./host_bots.js";
import { showTimer } from "./timer.js";

let i18n = await loadI18n(initialLang());
let games = [];
let hostState = null;
let pendingConfirm = null;
let said = null;  // the last answer shown (a flash or a refusal), said again in the language switched to

function flash(key, params) {
  said = () => flash(key, params);
  const el = byId("flash");
  el.textContent = i18n.t(key, params);
  el.hidden = false;
  byId("host-error").hidden = true;
}

function fail(err) {
  said = () => fail(err);
  const el = byId("host-error");
  el.textContent = `${i18n.t("ui.refused")}: ${err.code ? i18n.code(err.code, err.message) : err.message}`;
  if (err.code && !i18n.has(`codes.${err.code}`) && err.message) el.textContent += ` (${err.message})`;
  const missing = err.body && err.body.params && err.body.params.missing;  // what a refusal names, in words
  if (missing) el.textContent += `: ${missing[i18n.lang] || missing.en}`;
  el.hidden = false;
}

async function command(name, body, okKey) {
  try {
    const res = await postJSON(`/api/host/${name}`, body);
    if (okKey) flash(okKey, res);
    await refresh();
    return res;
  } catch (err) { fail(err); return null; }
}

function askConfirm(text, action) {
  pendingConfirm = action;
  byId("confirm-text").textContent = text;
  byId("confirm-box").hidden = false;
}

// --- new game ------------------------------------------------------------------------------------

/** A house rule's declaration: the engine's `option_specs` entry, else what its default says it is. */
function specOf(game, name) {
  const def = game.options[name];
  const declared = (game.option_specs || {})[name];
  if (declared) return { default: def, ...declared };
  if (typeof def === "boolean") return { type: "bool", default: def };
  if (typeof def === "number" && Number.isInteger(def)) return { type: "int", default: def };
  return { type: "json", default: def };
}

function optionLabel(game, name) { return i18n.t(`games.${game}.options.${name}`, {}, name); }

/** One house rule as a form field of its type (checkbox, number with its range, a set of ids, JSON), with
 * its default and a place for its error. */
function optionInput(game, name, spec) {
  const label = optionLabel(game.name, name);
  const error = h("span", { class: "error field-error", role: "alert", dataset: { errorFor: name }, hidden: true });
  const data = { option: name, kind: spec.type };
  if (spec.type === "bool") {
    return h("div", { class: "option", dataset: { optionRow: name } },
      h("label", { class: "check" }, h("input", { type: "checkbox", dataset: data, checked: spec.default }), label), error);
  }
  if (spec.type === "int") {
    const range = spec.min !== undefined && spec.max !== undefined ? i18n.t("host.option_range", { min: spec.min, max: spec.max }) : "";
    const hint = spec.default === null || spec.default === undefined
      ? i18n.t("host.option_empty_default") : `${i18n.t("host.default")} ${spec.default}`;
    return h("div", { class: "option", dataset: { optionRow: name } },
      h("label", {}, h("span", {}, label), h("span", { class: "muted" }, [hint, range].filter(Boolean).join(" · ")),
        h("input", { type: "number", step: 1, min: spec.min, max: spec.max, value: spec.default ?? "", dataset: data })), error);
  }
  if (spec.type === "subset") {
    const chosen = new Set(spec.default || []);
    return h("fieldset", { class: "option", dataset: { optionRow: name, option: name, kind: "subset" } }, h("legend", {}, label),
      (spec.choices || []).map((c) => h("label", { class: "check" },
        h("input", { type: "checkbox", value: c, checked: chosen.has(c), dataset: { choice: c } }),
        i18n.raw(`games.${game.name}.values.${c}`) ?? i18n.word(c))), error);
  }
  return h("div", { class: "option", dataset: { optionRow: name } },
    h("label", {}, h("span", {}, label), h("span", { class: "muted" }, i18n.t(spec.default === null ? "host.option_json_sample" : "host.option_json")),
      h("textarea", { rows: 2, dataset: data }, spec.default === null ? "" : JSON.stringify(spec.default))), error);
}

function drawGameForm() {
  const sel = byId("ng-game");
  const chosen = sel.value || (games[0] && games[0].name);
  replace(sel, games.map((g) => h("option", { value: g.name, selected: g.name === chosen }, i18n.t(`games.${g.name}.title`, {}, g.title))));
  replace(byId("en-game"), games.map((g) => h("option", { value: g.name }, i18n.t(`games.${g.name}.title`, {}, g.title))));
  const game = games.find((g) => g.name === chosen);
  if (!game) return;
  const seatSel = byId("ng-seats");
  const seatsChosen = Number(seatSel.value) || game.min_seats;
  const counts = [];
  for (let n = game.min_seats; n <= game.max_seats; n++) counts.push(n);
  replace(seatSel, counts.map((n) => h("option", { value: n, selected: n === seatsChosen }, String(n))));
  replace(byId("ng-options"), Object.keys(game.options).map((k) => optionInput(game, k, specOf(game, k))));
  replace(byId("ng-bots"), botPicker(i18n, Number(seatSel.value)));
}

/** Show (or clear, with null) the error beside one house rule. */
function optionError(name, text) {
  const el = byId("ng-options").querySelector(`[data-error-for="${CSS.escape(name)}"]`);
  if (!el) return false;
  el.textContent = text || "";
  el.hidden = !text;
  return true;
}

/** The house rules that differ from their defaults, or the errors (rule -> words) that stop the form. */
function readOptions(game) {
  const options = {};
  const errors = {};
  for (const el of byId("ng-options").querySelectorAll("[data-option]")) {
    const name = el.dataset.option;
    const spec = specOf(game, name);
    let v;
    if (el.dataset.kind === "bool") v = el.checked;
    else if (el.dataset.kind === "subset") v = [...el.querySelectorAll("input[data-choice]:checked")].map((x) => x.value);
    else if (el.dataset.kind === "int") {
      if (el.value.trim() === "") v = null;
      else {
        v = Number(el.value);
        if (!Number.isInteger(v)) { errors[name] = i18n.t("host.option_not_integer"); continue; }
        if ((spec.min !== undefined && v < spec.min) || (spec.max !== undefined && v > spec.max)) {
          errors[name] = i18n.t("host.option_out_of_range", { min: spec.min, max: spec.max }); continue;
        }
      }
      if (v === null && spec.default !== null) { errors[name] = i18n.t("host.option_not_integer"); continue; }
    } else if (el.value.trim() === "") v = null;
    else {
      try { v = JSON.parse(el.value); } catch (_) { errors[name] = i18n.t("host.option_bad_json"); continue; }
    }
    if (JSON.stringify(v) !== JSON.stringify(spec.default)) options[name] = v;
  }
  return { options, errors };
}

// --- state -----------------------------------------------------------------------------------------

function records(x) {
  if (Array.isArray(x)) return x;
  if (x && typeof x === "object") return Object.entries(x).map(([k, v]) => (v && typeof v === "object" ? { name: k, ...v } : { name: k, value: v }));
  return [];
}

function recordTable(rows, id) {
  const list = records(rows);
  if (!list.length) return h("p", { class: "muted", id }, "—");
  const cols = [...new Set(list.flatMap((r) => Object.keys(r)))];
  return h("table", { class: "data", id }, h("thead", {}, h("tr", {}, cols.map((c) => h("th", {}, i18n.t(`host.${c}`, {}, c))))),
    h("tbody", {}, list.map((r) => h("tr", {}, cols.map((c) => h("td", {}, fmt(r[c])))))));
}

function fmt(v) {
  if (v === null || v === undefined) return "—";
  if (typeof v === "boolean") return i18n.t(v ? "host.ok" : "host.failing");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

function terminalsOf(st) {
  return Array.isArray(st.terminals) ? st.terminals : [];
}

function seatsOf(st) {
  const seats = (st.game && st.game.seat_tokens) || [];
  const terms = terminalsOf(st);
  return seats.map((e) => {
    const term = terms.find((t) => t.seat === e.seat);
    return { ...e, terminal: term ? term.terminal : null };
  });
}

/** Every configured seat as the page names it: names from the host state (all the table's seats), colours from
 * the public snapshot (the seats of the game running). */
function tableSeats(st, pub) {
  const names = Array.isArray(st.table_seats) ? st.table_seats : [];
  const playing = pub && Array.isArray(pub.seats) ? pub.seats : [];
  return names.map((name, i) => ({ name, colour: playing[i] ? playing[i].colour : undefined }));
}

function clock(t) {
  return typeof t === "number" ? new Date(t * 1000).toLocaleTimeString(i18n.lang) : i18n.t("host.never");
}

async function bindTerminal(terminal, seat) {
  try {
    await postJSON("/api/host/bind_terminal", { terminal, seat });
    flash(seat === null ? "host.unbound_done" : "host.bound_done", seat === null ? { terminal } : { terminal, seat });
    await refresh();
  } catch (err) { fail(err); }
}

/** Every terminal seen or bound: connection, seat (pick one and bind, or unbind), last seen; the one that
 * last sent a choice is highlighted, so pressing a button on a terminal tells the host which row it is. */
function terminalsTable(st) {
  const terms = terminalsOf(st);
  if (!terms.length) return h("p", { class: "muted", id: "terminal-table" }, i18n.t("host.no_terminals"));
  const tableSeats = Array.isArray(st.table_seats) ? st.table_seats.length : 0;
  const gameSeats = st.game && typeof st.game.seats === "number" ? st.game.seats : null;
  // while a game runs only its seats can be chosen; a terminal of a seat beyond them serves nobody now
  const seatCount = gameSeats === null ? tableSeats : Math.min(gameSeats, tableSeats || gameSeats);
  const inGame = (seat) => seat !== null && seat < seatCount;
  // ordered by the table's count of choices, never by clock times (a Pi's clock may be set back by NTP)
  const latest = terms.reduce((best, t) => (typeof t.input_seq === "number" && (!best || t.input_seq > best.input_seq) ? t : best), null);
  const head = ["host.terminal", "host.connection", "ui.seat", "host.last_seen", "host.last_input", "host.bind"];
  return h("table", { class: "data", id: "terminal-table" },
    h("thead", {}, h("tr", {}, head.map((k) => h("th", {}, i18n.t(k))))),
    h("tbody", {}, terms.map((t) => {
      const options = [h("option", { value: "", selected: t.seat === null }, i18n.t("host.no_seat"))];
      for (let n = 0; n < seatCount; n++) options.push(h("option", { value: String(n), selected: t.seat === n }, i18n.seat(n)));
      const select = h("select", { class: "bind-seat", "aria-label": `${t.terminal} ${i18n.t("ui.seat")}` }, options);
      const pick = () => (select.value === "" ? null : Number(select.value));
      return h("tr", { class: t === latest ? "latest" : null, dataset: { terminal: t.terminal, seat: t.seat === null ? "" : String(t.seat) } },
        h("td", { class: "uid" }, t.terminal),
        h("td", { class: t.connected ? "verdict-innocent" : "muted" }, i18n.t(t.connected ? "host.plugged_in" : "host.unplugged"),
          // a second device saying hello as this terminal on another port: refused, and the host should know
          (Array.isArray(t.clashes) ? t.clashes : []).map((port) => h("div", { class: "error clash", role: "alert" },
            i18n.t("host.clash", { port: String(port).split("/").pop(), terminal: t.terminal })))),
        h("td", {}, t.seat === null ? i18n.t("host.no_seat") : inGame(t.seat) ? i18n.seat(t.seat) : i18n.t("host.seat_not_in_game"),
          t.bound_by ? h("div", { class: "muted bound-by" }, `${i18n.t("host.bound_by")}: ${t.bound_by === "host" ? i18n.t("host.by_host") : i18n.t("host.by_config")}`) : null),
        h("td", {}, clock(t.last_seen)),
        h("td", {}, clock(t.last_input)),
        h("td", {}, h("div", { class: "row bind-row" }, select,
          h("button", { type: "button", class: "bind", onclick: () => bindTerminal(t.terminal, pick()) }, i18n.t("host.bind")),
          t.seat === null ? null : h("button", { type: "button", class: "unbind", onclick: () => bindTerminal(t.terminal, null) }, i18n.t("host.unbind")))));
    })));
}

/** The venue's announcement the TV shows now, with the button that takes it off the TV. */
function drawAnnouncement() {
  const a = ((publicState || {}).table || {}).announcement;
  byId("announcement-panel").hidden = !a;
  byId("announcement-text").textContent = a ? a.text : "";
}

function drawState() {
  drawAnnouncement();
  const st = hostState || {};
  const game = st.game || {};
  i18n.setView(game.name || null, ((publicState || {}).game || {}).view);  // the undo line names cards in words
  i18n.seats = tableSeats(st, publicState);
  i18n.facts = ((publicState || {}).game || {}).table_info ? publicState.game.table_info.facts : {};
  i18n.bots = new Set(Array.isArray(st.bots) ? st.bots : []);
  byId("game-summary").textContent = game.name
    ? `${i18n.t(`games.${game.name}.title`, {}, game.name)} · ${i18n.t("host.seats_n", { n: seatsOf(st).length || game.seats || "?" })}`
    : i18n.t("host.no_game");
  replace(byId("seats"), seatsOf(st).map((s) => h("div", { class: "seat seat-qr", dataset: { seat: s.seat } },
    h("div", { class: "name" }, seatChip(i18n, s.seat), " ", i18n.seat(s.seat)),
    // a bot's seat shows no QR code: its link would open the bot's secrets (handed back, it shows again)
    s.token && !i18n.bots.has(s.seat) ? h("span", { class: "qr" }, h("img", { src: `/host/qr/${s.seat}.svg`, alt: i18n.seat(s.seat), width: 160, height: 160 })) : null,
    s.token && !i18n.bots.has(s.seat) ? h("a", { href: `/seat/${s.token}`, target: "_blank", class: "seat-link", dataset: { seat: s.seat } }, i18n.t("host.seat_link")) : null,
    s.url && !i18n.bots.has(s.seat) ? h("code", { class: "seat-url", dataset: { seat: s.seat } }, s.url) : null,
    // a second phone on one seat sees that seat's secrets too: the host is told
    s.phones > 1 ? h("span", { class: "error phones", dataset: { seat: s.seat } }, i18n.t("flow.host_phones", { n: s.phones })) : null,
    h("span", { class: "muted" }, `${i18n.t("host.terminal")}: ${s.terminal || i18n.t("host.unbound")}`),
    seatPlayer(i18n, s.seat, i18n.bots, Boolean(game.name) && !game.ended, command))));
  const journal = st.journal || {};  // the database was removed or replaced under the running table
  byId("journal-warning").hidden = journal.problem !== "journal_gone";
  byId("journal-warning").textContent = journal.problem === "journal_gone"
    ? `${i18n.t("host.journal_gone")}${journal.path ? ` (${journal.path})` : ""}` : "";
  replace(byId("timers-body"), ...timersStatus(i18n, st, command));
  const phases = (st.timers && st.timers.phases) || [];
  const formKey = `${i18n.lang}|${game.name || ""}|${phases.join(",")}`;
  if (byId("timers-form").dataset.key !== formKey) {
    byId("timers-form").dataset.key = formKey;
    replace(byId("timers-form"), ...timerForm(i18n, phases, command));
  }
  const join = st.join || {};  // phones follow the QR codes: say so when they cannot reach this table
  const joinKey = { loopback_only: "host.join_loopback_only", not_served: "host.join_not_served" }[join.problem];
  byId("join-warning").hidden = !joinKey;
  byId("join-warning").textContent = joinKey
    ? i18n.t(joinKey, { listening: join.listening || "", url: join.seat_base_url || "" }) : "";
  replace(byId("terminals"), terminalsTable(st));
  byId("enroll-toggle").textContent = i18n.t(st.enrolling ? "host.enroll_off" : "host.enroll_on");
  byId("enroll-toggle").dataset.on = st.enrolling ? "1" : "";
  byId("enroll-holds").hidden = !(st.enrolling && game.name && !game.ended);
  replace(byId("cards"), h("p", { id: "card-count" }, `${i18n.t("host.count")}: ${typeof st.cards === "number" ? st.cards : records(st.cards).length}`));
  replace(byId("health"), healthTable({ ...health, counters: st.counters || {} }));
  const diffs = Array.isArray(st.expected_vs_seen) ? st.expected_vs_seen : [];
  replace(byId("check-body"), diffs.length
    ? h("table", { class: "data", id: "check-table" }, h("thead", {}, h("tr", {}, ["host.zone", "host.expected", "host.seen"].map((k) => h("th", {}, i18n.t(k))))),
      h("tbody", {}, diffs.map((d) => h("tr", {}, h("td", {}, i18n.zone(d.zone)), h("td", {}, cardsText(d.expected)), h("td", {}, cardsText(d.seen))))))
    : h("p", { class: "muted" }, i18n.t("host.check_ok")));
  byId("resume").disabled = st.status !== "resume_check";
  byId("undo").disabled = !game.name;
  byId("redo").disabled = !game.can_redo;  // only right after an undo, before any new action
  byId("end-game").disabled = !game.name;
}

/** Cards a reader should or does hold, in words: a [kind, value] pair by its value's word (the kind only where
 * the game has a word for it: "정책 카드: 파시즘 정책", never "policy 파시즘 정책"). */
function cardsText(list) {
  const named = (x) => { const w = i18n.word(String(x)); return w === String(x) ? null : w; };
  return (list || []).map((c) => {
    if (!Array.isArray(c)) return named(c) ?? String(c);
    const words = c.map(named).filter(Boolean);
    return words.length ? words.join(": ") : c.join(" ");
  }).join(", ") || "—";
}

/** A health detail in words: `host.hw.keys.<key>` with the value as {n} (a list or object by its size, a word
 * through `host.hw.values`); a key with no words, or a value that says nothing (null, empty), is left out. */
function healthDetail(k, x) {
  const label = i18n.raw(`host.hw.keys.${k}`);
  if (label === undefined || x === null || x === undefined || x === "") return null;
  const n = Array.isArray(x) ? x.length : typeof x === "object" ? Object.keys(x).length
    : typeof x === "boolean" ? i18n.t(x ? "ui.yes" : "ui.no") : typeof x === "string" ? i18n.raw(`host.hw.values.${x}`) ?? x : x;
  return i18n.fill(label, { n });
}

/** Each reader, terminal and LED strip: ok / errors / last seen / what else it reports, in words, from the table's
 * public health. */
function healthTable(hw) {
  const rows = [];
  const add = (group, name, v) => {
    const o = v && typeof v === "object" && !Array.isArray(v) ? v : { value: v };
    const ok = o.ok ?? o.alive ?? null;
    const errors = o.errors ?? null;
    const id = name === null ? group : `${group}: ${name}`;
    const seen = typeof o.last_seen === "number" ? o.last_seen : heard(id, o);
    const part = i18n.raw(`host.hw.parts.${group}`) ?? group;
    const detail = Object.entries(o).filter(([k]) => !["ok", "alive", "errors", "last_seen", "name"].includes(k))
      .map(([k, x]) => healthDetail(k, x)).filter(Boolean).join(" · ");
    rows.push(h("tr", { dataset: { component: id } }, h("td", {}, name === null ? part : `${part} ${i18n.zone(String(name))}`),
      h("td", { class: ok === false ? "verdict-guilty" : ok === true ? "verdict-innocent" : "" }, ok === null ? "—" : fmt(ok)),
      h("td", {}, errors === null ? "—" : String(errors)), h("td", { class: "last-seen" }, seen === null ? "—" : clock(seen)),
      h("td", { class: "muted detail" }, detail || "—")));
  };
  for (const [group, items] of Object.entries(hw || {})) {
    const nested = items && typeof items === "object" && !Array.isArray(items) &&
      Object.values(items).length > 0 && Object.values(items).every((v) => v && typeof v === "object");
    if (nested) for (const [name, v] of Object.entries(items)) add(group, name, v);
    else if (Array.isArray(items)) items.forEach((v, i) => add(group, (v && (v.name || v.id)) || i, v));
    else add(group, null, items);
  }
  return h("table", { class: "data", id: "health-table" },
    h("thead", {}, h("tr", {}, ["host.component", "host.state", "host.errors", "host.last_seen", "host.detail"].map((k) => h("th", {}, i18n.t(k))))),
    h("tbody", {}, rows));
}

let health = {};
const lastHeard = new Map();  // component -> [polls, time the page saw that count grow] (seconds)

/** When a component that reports only a poll count was last heard from: the time this page saw its count move
 * (the count alone means nothing to a host). */
function heard(name, o) {
  if (typeof o.polls !== "number") return null;
  const before = lastHeard.get(name);
  if (!before || before[0] !== o.polls) lastHeard.set(name, [o.polls, Date.now() / 1000]);
  return lastHeard.get(name)[1];
}
let publicState = null;

/** Fetch the host's state (and, with `withPublic`, the public one: later it comes with each live update)
 * and redraw. */
let hostStateAt = 0;  // when the host state arrived: the running timer counts down from it

async function refresh(withPublic = true) {
  try {
    const [host, pub] = await Promise.all([fetchJSON("/api/host/state"), withPublic ? fetchJSON("/api/state") : null]);
    hostState = host;
    hostStateAt = performance.now();
    if (pub) publicState = pub;
    health = hostState.health || {};
    drawState();
    document.dispatchEvent(new CustomEvent("host-state", { detail: hostState }));  // the guided enrollment panel
  } catch (err) {
    if (err.status === 401) { byId("console").hidden = true; byId("login").hidden = false; } else fail(err);
  }
}

// Every change at the table asks for the host's state once: a burst of events while one request is out makes
// one more request after it, not one each (each is a request the Pi serves).
const PHONES_EVERY_MS = 10000;
let refreshing = null;
let again = false;
function refreshSoon() {
  if (refreshing) { again = true; return; }
  refreshing = refresh(false).finally(() => {
    refreshing = null;
    if (again) { again = false; refreshSoon(); }
  });
}

function draw() {
  i18n.apply();
  drawGameForm();
  if (hostState) drawState();
}

/** The events only the host's stream carries (besides the public ones, which it carries with more said). */
const HOST_EVENTS = ["terminal", "card_enrolled", "enroll_seen", "guide", "health", "timer_expired", "players"];

/** The last refused input, with the reason the public stream leaves out when it would tell a secret. */
function showRefusal(data) {
  const el = byId("last-refusal");
  const where = i18n.zone(data.zone);
  const seat = data.seat === null || data.seat === undefined || data.zone === `seat:${data.seat}` ? "" : ` (${i18n.seat(data.seat)})`;
  el.textContent = i18n.t("ui.rejected_at", { zone: `${where}${seat}`, reason: i18n.code(data.code, data.message) });
  el.hidden = false;
}

// --- wiring -----------------------------------------------------------------------------------------

wirePinLogin("host-error", () => i18n);
byId("dismiss-announcement").addEventListener("click", () => command("dismiss_announcement", {}));
byId("logout").addEventListener("click", async () => { await command("logout", {}); location.reload(); });
byId("ng-game").addEventListener("change", () => { byId("ng-seats").value = ""; drawGameForm(); });
byId("ng-seats").addEventListener("change", () => replace(byId("ng-bots"), botPicker(i18n, Number(byId("ng-seats").value))));
/** Start the game in the form; a running game is replaced only after the host confirms it. */
async function startGame(replacing) {
  const game = games.find((g) => g.name === byId("ng-game").value);
  byId("flash").hidden = true;
  byId("host-error").hidden = true;
  said = null;
  for (const name of Object.keys(game.options)) optionError(name, null);
  const { options, errors } = readOptions(game);
  if (Object.keys(errors).length) {
    for (const [name, text] of Object.entries(errors)) optionError(name, text);
    return;
  }
  const components = document.querySelector('input[name="components"]:checked').value;
  const body = { game: game.name, seats: Number(byId("ng-seats").value), options, components };
  const bots = pickedBots();
  if (bots.length) body.bots = bots;
  if (replacing) body.replace = true;
  try {
    const res = await postJSON("/api/host/new_game", body);
    flash("host.started", res);
    await refresh();
  } catch (err) {
    if (err.code === "game_running" && !replacing) {
      askConfirm(i18n.t("host.replace_confirm"), () => startGame(true));
      return;
    }
    // a bad house rule names itself ("option 'first_hand' must be ..."): say so beside that field
    const named = /option '(\w+)'/.exec(err.message || "");
    if (err.code === "bad_setup" && named && optionError(named[1], `${i18n.code(err.code, err.message)} (${err.message})`)) return;
    fail(err);
  }
}

byId("new-game-form").addEventListener("submit", (ev) => { ev.preventDefault(); startGame(false); });
byId("undo").addEventListener("click", () => {
  // the last public log line says in words what the last action did (the host sees no secret here)
  const log = (publicState && publicState.game && publicState.game.view && publicState.game.view.log) || [];
  const what = log.length ? i18n.log(log[log.length - 1]).replace(/[.。]\s*$/, "") : "—";
  askConfirm(i18n.t("host.undo_confirm", { what }), () => command("undo", {}, "host.undone"));
});
byId("redo").addEventListener("click", () => command("redo", {}, "host.redone"));
byId("end-game").addEventListener("click", () => askConfirm(i18n.t("host.end_confirm"), () => command("end_game", {}, "host.ended")));
byId("confirm-ok").addEventListener("click", async () => {
  byId("confirm-box").hidden = true;
  const act = pendingConfirm; pendingConfirm = null;
  if (act) await act();
});
byId("confirm-cancel").addEventListener("click", () => { byId("confirm-box").hidden = true; pendingConfirm = null; });
byId("resume").addEventListener("click", () => command("resume", {}, "host.resumed"));
byId("enroll-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const uid = byId("last-uid").textContent;
  await command("enroll", { uid, game: byId("en-game").value, kind: byId("en-kind").value,
    value: byId("en-value").value, label: byId("en-label").value }, "host.saved");
});
byId("enroll-toggle").addEventListener("click", () => command("enroll_mode", { on: !byId("enroll-toggle").dataset.on }, null));
byId("import-file").addEventListener("change", async (ev) => {
  const file = ev.target.files[0];
  if (!file) return;
  let deck;
  try { deck = JSON.parse(await file.text()); } catch (err) { fail({ code: "bad_json", message: err.message }); return; }
  const res = await command("import_cards", { deck }, null);
  if (res) flash("host.imported", { n: res.imported ?? res.count ?? (Array.isArray(deck.cards) ? deck.cards.length : "?") });
  ev.target.value = "";
});
byId("export-record").addEventListener("click", async (ev) => {
  // a plain link would save the refusal as a file, or nothing: fetch first and say why when refused
  ev.preventDefault();
  const link = ev.currentTarget;
  try {
    const res = await fetch(link.href, { credentials: "same-origin" });
    if (!res.ok) {
      const body = await res.json().catch(() => ({ code: "bad_request", message: `HTTP ${res.status}` }));
      fail(body.code === "game_running" ? { code: "record_after_game", message: body.message } : body);
      return;
    }
    const named = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") || "");
    const url = URL.createObjectURL(await res.blob());
    const a = h("a", { href: url, download: named ? named[1] : "record.jsonl", hidden: true });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (err) { fail(err); }
});
wireLangSwitch((next) => { i18n = next; draw(); if (said) said(); });
// the running timer's time left (once it ran out, the choice in the timers panel says so instead)
showTimer(byId("host-timer"), () => {
  const running = hostState && hostState.timers ? hostState.timers.running : null;
  return { timer: running && !running.expired ? running : null, receivedAt: hostStateAt, i18n };
});

try { games = (await fetchJSON("/host/games.json")).games; } catch (err) { fail(err); }
draw();
if (document.body.dataset.loggedIn) {
  await refresh();
  // the host's stream: the public events with what only the host may know (a refusal's code, a tag's UID)
  follow(document.body.dataset.events, {
    extra: HOST_EVENTS,
    onState: (data) => { publicState = data; refreshSoon(); },
    onEvent: (type, data) => {
      if ((type === "enroll_seen" || type === "unknown_tag") && data.uid) {
        byId("last-uid").textContent = data.uid;
        byId("last-known").textContent = `${i18n.zone(data.zone)} · ${data.known ? i18n.t("host.saved") : i18n.t("host.unknown_tag")}`;
      }
      if (type === "rejected" && data.code) showRefusal(data);
      refreshSoon();
    },
    onStatus: statusPill(byId("status"), () => i18n),
  });
  // phones opening a seat change no table state: the host hears of a second phone on a seat within this time
  setInterval(() => { if (!byId("console").hidden) refreshSoon(); }, PHONES_EVERY_MS);
} else {
  byId("status").hidden = true;
}
