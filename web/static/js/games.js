// The host console's Games panel: every finished game (replay, download, share link) and the history across
// games. Its own module so host.js stays as it is; it refreshes when the console's game summary changes.
import { byId, fetchJSON, h, postJSON, replace } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";

let i18n = await loadI18n(initialLang());
let listing = null;
let history = null;
let note = null;  // {key, url}: the last share answer, shown under the list

function seatName(names, s) {
  return (names && names[s]) || i18n.t("ui.seat_n", { n: Number(s) + 1 });
}

function result(game, names) {
  if (!game.outcome) return i18n.t(`replay.ended.${game.end_reason}`, {}, i18n.t("replay.ended.ended_by_host"));
  const winners = game.outcome.winners.map((s) => seatName(names, s)).join(", ");
  return i18n.t("replay.won_by", { winners, reason: i18n.t(`games.${game.game}.outcomes.${game.outcome.reason}`, {}, "—") });
}

async function share(id, revoke) {
  try {
    const res = await postJSON(`/api/host/games/${id}/${revoke ? "unshare" : "share"}`, {});
    note = revoke ? { key: "replay.unshared" } : { key: "replay.shared", url: new URL(res.url, location.href).href };
  } catch (err) {
    note = { key: "ui.refused", error: err.code ? i18n.code(err.code, err.message) : err.message };
  }
  draw();
}

function row(game, names) {
  const when = new Date(game.started * 1000).toLocaleString(i18n.lang);
  return h("tr", { dataset: { game: game.id } },
    h("td", {}, when),
    h("td", {}, i18n.t(`games.${game.game}.title`, {}, game.game)),
    h("td", {}, String(game.seats)),
    h("td", {}, result(game, names)),
    h("td", {}, String(game.actions)),
    h("td", { class: "game-actions" }, h("div", { class: "row" },
      h("a", { class: "button", href: `/replay/${game.id}` }, i18n.t("replay.open")),
      h("a", { class: "button", href: `/host/export/record.json?game=${game.id}`, download: "" }, i18n.t("replay.download")),
      h("button", { type: "button", dataset: { share: game.id } }, i18n.t("replay.share")),
      h("button", { type: "button", dataset: { unshare: game.id } }, i18n.t("replay.unshare")))));
}

function counts(obj, name) {
  const entries = Object.entries(obj || {});
  return entries.length ? entries.map(([k, n]) => `${name(k)} ${i18n.t("replay.wins", { n })}`).join(", ") : "—";
}

function historyTable() {
  const heads = ["replay.game", "replay.played", "replay.abandoned", "replay.average", "replay.wins_side",
    "replay.wins_seat", "replay.wins_reason"];
  return h("table", { class: "data history" },
    h("thead", {}, h("tr", {}, heads.map((k) => h("th", {}, i18n.t(k))))),
    h("tbody", {}, (history || []).map((s) => h("tr", { dataset: { game: s.game } },
      h("td", {}, i18n.t(`games.${s.game}.title`, {}, s.game)),
      h("td", {}, String(s.played)),
      h("td", {}, String(s.abandoned)),
      h("td", {}, i18n.t("replay.length", { moves: s.average_actions, minutes: s.average_minutes })),
      h("td", {}, counts(s.wins_by_side, (k) => i18n.raw(`games.${s.game}.values.side_${k}`) ?? i18n.t(`games.${s.game}.values.${k}`, {}, k))),
      h("td", {}, counts(s.wins_by_seat, (k) => seatName(listing.table_seats, Number(k)))),
      h("td", {}, counts(s.wins_by_reason, (k) => i18n.t(`games.${s.game}.outcomes.${k}`, {}, k)))))));
}

function draw() {
  const body = byId("games-body");
  if (!body || !listing) return;
  i18n.apply(byId("games-panel"));
  const names = listing.table_seats || [];
  const games = listing.games || [];
  const parts = [games.length ? h("table", { class: "data games" },
    h("thead", {}, h("tr", {}, ["replay.when", "replay.game", "replay.seats", "replay.result", "replay.moves", "replay.open"]
      .map((k) => h("th", {}, i18n.t(k))))),
    h("tbody", {}, games.map((g) => row(g, names)))) : h("p", { class: "muted" }, i18n.t("replay.none"))];
  if (note) {
    parts.push(h("p", { class: note.error ? "error" : "notice", id: "games-note" },
      note.error ? `${i18n.t(note.key)}: ${note.error}` : i18n.t(note.key),
      note.url ? h("input", { type: "text", readonly: "", id: "share-url", value: note.url }) : ""));
  }
  replace(body, ...parts);
  replace(byId("history-body"), history && history.length ? historyTable() : h("p", { class: "muted" }, i18n.t("replay.none")));
}

async function refresh() {
  if (!document.body.dataset.loggedIn) return;
  try {
    [listing, history] = await Promise.all([fetchJSON("/api/host/games"),
      fetchJSON("/api/host/games/stats").then((r) => r.stats)]);
  } catch (err) {
    listing = { games: [] };
    note = { key: "ui.refused", error: err.code ? i18n.code(err.code, err.message) : err.message };
  }
  draw();
}

byId("games-panel").addEventListener("click", (ev) => {
  const btn = ev.target.closest("button[data-share], button[data-unshare]");
  if (btn) share(btn.dataset.share || btn.dataset.unshare, Boolean(btn.dataset.unshare));
  if (ev.target.closest("#games-refresh")) refresh();
});
wireLangSwitch((next) => { i18n = next; draw(); });
// The list may have grown when another game began (the console's summary line says another game) or when the
// host scrolls back to the panel; never on every redraw of the console, which comes with every tap.
let timer = null;
let summary = byId("game-summary").textContent;
const later = () => { clearTimeout(timer); timer = setTimeout(refresh, 300); };
new MutationObserver(() => {
  const now = byId("game-summary").textContent;
  if (now !== summary) { summary = now; later(); }
}).observe(byId("game-summary"), { childList: true, characterData: true, subtree: true });
new IntersectionObserver((seen) => { if (seen.some((e) => e.isIntersecting)) later(); }).observe(byId("games-panel"));
refresh();
