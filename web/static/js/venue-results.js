// The venue's results: standings per game (wins by side and by seat name) and the recent results, in words.
import { byId, fetchJSON, h, replace, setText } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";
import { clock, gameName, minutes, reasonName, seatName, sideName, tableName, wireLogout } from "./venue-words.js";

let i18n = await loadI18n(initialLang());
let data = null;

function draw() {
  i18n.apply();
  if (!data) return;
  byId("no-results").hidden = data.results.length > 0;
  replace(byId("standings"), ...data.standings.map((g) => {
    const sides = g.by_side.map((s) => [sideName(i18n, g.game, s.side), s.wins]).filter(([n]) => n);
    return h("div", { class: "panel" },
      h("h3", {}, `${gameName(i18n, g.game)} · ${i18n.t("venue.played", { n: g.played })}`),
      sides.length ? h("p", {}, i18n.t("venue.by_side"), " ", sides.map(([n, w]) => `${n} ${w}`).join(" · ")) : "",
      h("ol", {}, ...g.by_name.slice(0, 10).map((e) => h("li", {},
        `${e.name || `${tableName(i18n, e.table)} ${seatName(i18n, [], e.seat)}`} — ${i18n.t("venue.wins", { n: e.wins })}`))));
  }));
  replace(byId("results"), ...data.results.map((r) => h("tr", {},
    h("td", {}, tableName(i18n, r.table)), h("td", {}, gameName(i18n, r.game)),
    h("td", {}, r.winners.map((s) => seatName(i18n, r.seat_names, s)).join(", ") || "—"),
    h("td", {}, reasonName(i18n, r.game, r.reason)), h("td", {}, clock(i18n, r.ended)),
    h("td", {}, minutes(i18n, r.ended - r.started)))));
}

async function load() {
  try { data = await fetchJSON("/api/venue/results"); draw(); setText(byId("status"), i18n.t("ui.connected")); }
  catch (e) { if (e.status === 401) location.href = "/login"; }
}

wireLangSwitch((next) => { i18n = next; draw(); });
wireLogout();
i18n.apply();
await load();
setInterval(load, 15000);
