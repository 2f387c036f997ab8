// The venue dashboard's grid: every table's card (status and since when, game, phase, whose turn, elapsed,
// progress), the alerts, the announcement. Live: one EventSource on /api/venue/events (`grid` first, then a
// `row` per changed table and `venue` for the venue's own facts); each card is patched in place.
import { byId, h, morph, postJSON, replace, setText } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";
import { clock, gameName, minutes, phaseName, progressLabel, seatName, tableName, wireLogout } from "./venue-words.js";

let i18n = await loadI18n(initialLang());
const rows = new Map();
let facts = { link: { connected: false }, announcement: null, refused: 0, refusals: [] };
let skew = 0;  // the server's clock minus ours, so elapsed times read the same on a phone with a wrong clock

function now() { return Date.now() / 1000 + skew; }

function alertText(table, a) {
  const name = tableName(i18n, table);
  switch (a.code) {
    case "offline": return a.since ? i18n.t("venue.alert_offline", { table: name, time: clock(i18n, a.since) })
      : i18n.t("venue.alert_never", { table: name });
    case "reader_faulted": return i18n.t("venue.alert_reader", { table: name, reader: i18n.zone(a.device) });
    case "terminal_faulted": return i18n.t("venue.alert_terminal", { table: name, terminal: a.device });
    case "terminal_gone": return i18n.t("venue.alert_terminal_gone", { table: name, terminal: a.device });
    case "long_game": return i18n.t("venue.alert_long", { table: name, minutes: minutes(i18n, a.minutes * 60) });
    case "idle": return i18n.t("venue.alert_idle", { table: name, minutes: minutes(i18n, a.minutes * 60) });
    default: return i18n.t("venue.alert_other", { table: name });
  }
}

function card(row) {
  const s = row.summary, st = row.status;
  const online = st && st.state === "online";
  const alerting = row.alerts.length > 0;
  const kids = [h("h3", {}, h("span", {}, tableName(i18n, row.table)),
    h("span", { class: "state" }, online ? i18n.t("venue.online_since", { time: clock(i18n, st.since) })
      : st ? i18n.t("venue.offline_since", { time: clock(i18n, st.since) }) : i18n.t("venue.never_seen")))];
  if (s && s.game) {
    i18n.setView(s.game, { phase: s.phase });
    kids.push(h("div", { class: "game" }, gameName(i18n, s.game)));
    const phase = phaseName(i18n, s.game, s.phase);
    if (s.outcome) {
      const winners = s.outcome.winners.map((w) => seatName(i18n, s.seat_names, w)).join(", ");
      kids.push(h("div", { class: "line" }, i18n.t("venue.won", { winners: winners || "—" })));
    } else {
      if (phase) kids.push(h("div", { class: "line phase" }, phase));
      const turn = s.to_act.map((w) => seatName(i18n, s.seat_names, w)).join(", ");
      kids.push(h("div", { class: "line" }, turn ? i18n.t("venue.turn", { seats: turn })
        : s.chance ? i18n.t("ui.waiting_for_table") : ""));
    }
    if (s.started) kids.push(h("div", { class: "line elapsed" }, i18n.t("venue.elapsed", {
      minutes: minutes(i18n, now() - s.started), actions: s.actions })));
    const chips = Object.entries(s.progress || {}).map(([k, v]) => [progressLabel(i18n, s.game, k), v])
      .filter(([label]) => label).map(([label, v]) => h("span", { class: "chip" }, `${label} ${v}`));
    if (chips.length) kids.push(h("div", { class: "chips" }, ...chips));
  } else if (online) {
    kids.push(h("div", { class: "line" }, i18n.t("venue.no_game")));
  }
  for (const a of row.alerts) {
    if (a.code !== "offline") kids.push(h("div", { class: "alert" }, alertText(row.table, a)));
  }
  return h("article", { class: `venue-card${online ? "" : " offline"}${alerting ? " alerting" : ""}`,
    id: `table-${row.table}`, "data-table": row.table, "data-actions": s ? String(s.actions) : "" }, ...kids);
}

function drawRow(row) {
  rows.set(row.table, row);
  const el = document.getElementById(`table-${row.table}`);
  const next = card(row);
  if (el) morph(el, next); else byId("tables").append(next);
}

function drawAlerts() {
  const items = [];
  for (const row of [...rows.values()].sort((a, b) => a.table.localeCompare(b.table))) {
    for (const a of row.alerts) {
      items.push(h("li", { class: a.code === "idle" || a.code === "long_game" ? "warn" : "", "data-code": a.code },
        alertText(row.table, a)));
    }
  }
  if (!facts.link.connected) items.unshift(h("li", { "data-code": "link" }, i18n.t("venue.link_down")));
  replace(byId("alerts"), ...items);
  byId("no-alerts").hidden = items.length > 0;
  const refused = byId("refused");
  refused.hidden = !facts.refused;
  if (facts.refused) setText(refused, i18n.t("venue.refused", { n: facts.refused }));
}

function drawVenue() {
  const a = facts.announcement;
  const now = byId("announcement-now");
  now.hidden = !a;
  if (a) setText(now, i18n.t("venue.showing", { text: a.text, time: clock(i18n, a.at) }));
  byId("announce-clear").hidden = !a;
  drawAlerts();
}

function drawAll() {
  i18n.apply();
  replace(byId("tables"));
  for (const row of [...rows.values()].sort((a, b) => a.table.localeCompare(b.table))) drawRow(row);
  drawVenue();
}

function onGrid(grid) {
  skew = grid.at - Date.now() / 1000;
  rows.clear();
  for (const row of grid.tables) rows.set(row.table, row);
  facts = grid;
  drawAll();
}

function status(up) {
  const el = byId("status");
  el.classList.toggle("live", up);
  el.classList.toggle("down", !up);
  el.dataset.i18n = up ? "ui.connected" : "ui.reconnecting";
  setText(el, i18n.t(el.dataset.i18n));
}

function follow() {
  const es = new EventSource("/api/venue/events");
  const parse = (fn) => (e) => { let d; try { d = JSON.parse(e.data); } catch (_) { return; } fn(d); };
  es.addEventListener("grid", parse(onGrid));
  es.addEventListener("row", parse((row) => { drawRow(row); drawAlerts(); document.body.dataset.seen = String(Date.now()); }));
  es.addEventListener("venue", parse((v) => { facts = { ...facts, ...v }; drawVenue(); }));
  es.onopen = () => status(true);
  es.onerror = () => { status(false); if (es.readyState === EventSource.CLOSED) location.href = "/login"; };
}

byId("announce-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const err = byId("announce-error");
  err.hidden = true;
  try {
    await postJSON("/api/venue/announce", { text: byId("announce-text").value });
    byId("announce-text").value = "";
  } catch (e) {
    setText(err, i18n.code(e.code, i18n.t("venue.announce_failed")));
    err.hidden = false;
  }
});
byId("announce-clear").addEventListener("click", async () => {
  try { await postJSON("/api/venue/announce/clear", {}); } catch (_) { /* the stream shows what is true */ }
});
byId("announce-form").querySelector("button[type=submit]").disabled = false;
wireLangSwitch((next) => { i18n = next; drawAll(); });
wireLogout();
setInterval(() => { for (const row of rows.values()) drawRow(row); }, 30000);  // elapsed minutes tick
i18n.apply();
follow();
