// The host console: PIN login, new game, seats (QR) and terminals, enrollment, deck files, undo, resume,
// hardware health, end and export. Every POST carries the session's CSRF token (see dom.postJSON).
import { byId, fetchJSON, h, postJSON, replace } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";
import { follow, statusPill } from "./live.js";
import { seatChip } from "./boards.js";

let i18n = await loadI18n(initialLang());
let games = [];
let hostState = null;
let pendingConfirm = null;

function flash(key, params) {
  const el = byId("flash");
  el.textContent = i18n.t(key, params);
  el.hidden = false;
  byId("host-error").hidden = true;
}

function fail(err) {
  const el = byId("host-error");
  el.textContent = `${i18n.t("ui.refused")}: ${err.code ? i18n.code(err.code, err.message) : err.message}`;
  if (err.code && !i18n.has(`codes.${err.code}`) && err.message) el.textContent += ` (${err.message})`;
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

function optionInput(game, name, def) {
  const label = i18n.t(`games.${game}.options.${name}`, {}, name);
  if (typeof def === "boolean") {
    return h("label", { class: "check" }, h("input", { type: "checkbox", dataset: { option: name, kind: "bool" }, checked: def }), label);
  }
  if (typeof def === "number") {
    return h("label", {}, h("span", {}, `${label} (${i18n.t("host.default")} ${def})`),
      h("input", { type: "number", value: def, dataset: { option: name, kind: "number" } }));
  }
  return h("label", {}, h("span", {}, `${label} (${i18n.t("host.default")}: JSON)`),
    h("input", { type: "text", value: def === null ? "" : JSON.stringify(def), dataset: { option: name, kind: "json" } }));
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
  replace(byId("ng-options"), Object.entries(game.options).map(([k, v]) => optionInput(game.name, k, v)));
}

function readOptions(game) {
  const options = {};
  for (const el of byId("ng-options").querySelectorAll("[data-option]")) {
    const name = el.dataset.option;
    const def = game.options[name];
    let v;
    if (el.dataset.kind === "bool") v = el.checked;
    else if (el.dataset.kind === "number") v = Number(el.value);
    else if (el.value.trim() === "") v = null;
    else v = JSON.parse(el.value);
    if (JSON.stringify(v) !== JSON.stringify(def)) options[name] = v;
  }
  return options;
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
  const seatCount = Array.isArray(st.table_seats) ? st.table_seats.length : 0;
  const latest = terms.reduce((best, t) => (typeof t.last_input === "number" && (!best || t.last_input > best.last_input) ? t : best), null);
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
        h("td", { class: t.connected ? "verdict-innocent" : "muted" }, i18n.t(t.connected ? "host.plugged_in" : "host.unplugged")),
        h("td", {}, t.seat === null ? i18n.t("host.no_seat") : i18n.seat(t.seat),
          t.bound_by ? h("div", { class: "muted bound-by" }, `${i18n.t("host.bound_by")}: ${t.bound_by === "host" ? i18n.t("host.by_host") : i18n.t("host.by_config")}`) : null),
        h("td", {}, clock(t.last_seen)),
        h("td", {}, clock(t.last_input)),
        h("td", {}, h("div", { class: "row bind-row" }, select,
          h("button", { type: "button", class: "bind", onclick: () => bindTerminal(t.terminal, pick()) }, i18n.t("host.bind")),
          t.seat === null ? null : h("button", { type: "button", class: "unbind", onclick: () => bindTerminal(t.terminal, null) }, i18n.t("host.unbind")))));
    })));
}

function drawState() {
  const st = hostState || {};
  const game = st.game || {};
  i18n.game = game.name || null;
  i18n.seats = tableSeats(st, publicState);
  i18n.facts = ((publicState || {}).game || {}).table_info ? publicState.game.table_info.facts : {};
  byId("game-summary").textContent = game.name
    ? `${i18n.t(`games.${game.name}.title`, {}, game.name)} · ${seatsOf(st).length || game.seats || "?"} ${i18n.t("ui.seats")}`
    : i18n.t("host.no_game");
  replace(byId("seats"), seatsOf(st).map((s) => h("div", { class: "seat seat-qr", dataset: { seat: s.seat } },
    h("div", { class: "name" }, seatChip(i18n, s.seat), " ", i18n.seat(s.seat)),
    s.token ? h("span", { class: "qr" }, h("img", { src: `/host/qr/${s.seat}.svg`, alt: i18n.seat(s.seat), width: 160, height: 160 })) : null,
    s.token ? h("a", { href: `/seat/${s.token}`, target: "_blank", class: "seat-link", dataset: { seat: s.seat } }, i18n.t("host.seat_link")) : null,
    s.url ? h("code", { class: "seat-url", dataset: { seat: s.seat } }, s.url) : null,
    h("span", { class: "muted" }, `${i18n.t("host.terminal")}: ${s.terminal || i18n.t("host.unbound")}`))));
  replace(byId("terminals"), terminalsTable(st));
  byId("enroll-toggle").textContent = i18n.t(st.enrolling ? "host.enroll_off" : "host.enroll_on");
  byId("enroll-toggle").dataset.on = st.enrolling ? "1" : "";
  replace(byId("cards"), h("p", { id: "card-count" }, `${i18n.t("host.count")}: ${typeof st.cards === "number" ? st.cards : records(st.cards).length}`));
  replace(byId("health"), healthTable(health), recordTable(st.counters || {}, "counters-table"));
  const diffs = Array.isArray(st.expected_vs_seen) ? st.expected_vs_seen : [];
  replace(byId("check-body"), diffs.length
    ? h("table", { class: "data", id: "check-table" }, h("thead", {}, h("tr", {}, ["host.zone", "host.expected", "host.seen"].map((k) => h("th", {}, i18n.t(k))))),
      h("tbody", {}, diffs.map((d) => h("tr", {}, h("td", {}, i18n.zone(d.zone)), h("td", {}, cardsText(d.expected)), h("td", {}, cardsText(d.seen))))))
    : h("p", { class: "muted" }, i18n.t("host.check_ok")));
  byId("resume").disabled = st.status !== "resume_check";
  byId("undo").disabled = !game.name;
  byId("end-game").disabled = !game.name;
}

function cardsText(list) {
  return (list || []).map((c) => (Array.isArray(c) ? c.map((x) => i18n.word(String(x))).join(" ") : String(c))).join(", ") || "—";
}

/** Each reader, terminal and LED strip: ok / errors / last seen, from the table's public health. */
function healthTable(hw) {
  const rows = [];
  const add = (name, v) => {
    const o = v && typeof v === "object" ? v : { value: v };
    const ok = o.ok ?? o.alive ?? o.connected ?? null;
    const errors = o.errors ?? o.consecutive_errors ?? null;
    const seen = o.last_seen ?? o.last_error ?? o.polls ?? null;
    const rest = Object.entries(o).filter(([k]) => !["ok", "alive", "connected", "errors", "last_seen", "name"].includes(k))
      .map(([k, x]) => `${k}=${typeof x === "object" ? JSON.stringify(x) : x}`).join(" ");
    rows.push(h("tr", { dataset: { component: name } }, h("td", {}, name),
      h("td", { class: ok === false ? "verdict-guilty" : ok === true ? "verdict-innocent" : "" }, ok === null ? "—" : fmt(ok)),
      h("td", {}, errors === null ? "—" : String(errors)), h("td", {}, seen === null ? "—" : String(seen)),
      h("td", { class: "muted" }, rest)));
  };
  for (const [group, items] of Object.entries(hw || {})) {
    const nested = items && typeof items === "object" && !Array.isArray(items) &&
      Object.values(items).length > 0 && Object.values(items).every((v) => v && typeof v === "object");
    if (nested) for (const [name, v] of Object.entries(items)) add(`${group}: ${name}`, v);
    else if (Array.isArray(items)) items.forEach((v, i) => add(`${group}: ${(v && (v.name || v.id)) || i}`, v));
    else add(group, items);
  }
  return h("table", { class: "data", id: "health-table" },
    h("thead", {}, h("tr", {}, ["host.component", "host.state", "host.errors", "host.last_seen", "host.detail"].map((k) => h("th", {}, i18n.t(k))))),
    h("tbody", {}, rows));
}

let health = {};
let publicState = null;

async function refresh() {
  try {
    [hostState, publicState] = await Promise.all([fetchJSON("/api/host/state"), fetchJSON("/api/state")]);
    health = publicState.health || {};
    drawState();
  } catch (err) {
    if (err.status === 401) { byId("console").hidden = true; byId("login").hidden = false; } else fail(err);
  }
}

function draw() {
  i18n.apply();
  drawGameForm();
  if (hostState) drawState();
}

// --- wiring -----------------------------------------------------------------------------------------

byId("login-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    await postJSON("/api/host/login", { pin: byId("pin").value });
    location.reload();  // the page comes back with the session's CSRF token in its <meta>
  } catch (err) {
    const el = byId("host-error");
    el.textContent = i18n.t(err.code === "pin_locked" ? "host.locked_out" : "host.wrong_pin");
    el.hidden = false;
  }
});
byId("logout").addEventListener("click", async () => { await command("logout", {}); location.reload(); });
byId("ng-game").addEventListener("change", () => { byId("ng-seats").value = ""; drawGameForm(); });
byId("new-game-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const game = games.find((g) => g.name === byId("ng-game").value);
  let options;
  try { options = readOptions(game); } catch (err) { fail(err); return; }
  const components = document.querySelector('input[name="components"]:checked').value;
  await command("new_game", { game: game.name, seats: Number(byId("ng-seats").value), options,
    components }, "host.started");
});
byId("undo").addEventListener("click", () => {
  // the last public log line says in words what the last action did (the host sees no secret here)
  const log = (publicState && publicState.game && publicState.game.view && publicState.game.view.log) || [];
  const what = log.length ? i18n.log(log[log.length - 1]) : "—";
  askConfirm(i18n.t("host.undo_confirm", { what }), () => command("undo", {}, "host.undone"));
});
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
wireLangSwitch((next) => { i18n = next; draw(); });

try { games = (await fetchJSON("/host/games.json")).games; } catch (err) { fail(err); }
draw();
if (document.body.dataset.loggedIn) {
  await refresh();
  follow(document.body.dataset.events, {
    extra: ["terminal"],
    onState: () => refresh(),
    onEvent: (type, data) => {
      if (type === "enroll_seen") {
        byId("last-uid").textContent = data.uid;
        byId("last-known").textContent = `${i18n.zone(data.zone)} · ${data.known ? i18n.t("host.saved") : i18n.t("host.unknown_tag")}`;
      }
      refresh();
    },
    onStatus: statusPill(byId("status"), () => i18n),
  });
} else {
  byId("status").hidden = true;
}
