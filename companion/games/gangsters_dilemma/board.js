// Gangster's Dilemma's board on the page, drawn from the public view only (web/static/js/board_kit.js: what a renderer gets).
import { h } from "../../js/dom.js";
import { seatChip, panel, board, winnerBadge, kv, chosenBadge, chosenList } from "../../js/board_kit.js";

/** What the bank pays or takes since the previous view: money and loot per player and location. */
export function bankInstructions(prev, view, loot) {
  if (!prev || !Array.isArray(prev.players) || !Array.isArray(view.players)) return [];
  const out = [];
  view.players.forEach((p, s) => {
    const q = prev.players[s];
    if (!q) return;
    const delta = {};
    for (const k of ["money", ...loot]) if ((p[k] ?? 0) !== (q[k] ?? 0)) delta[k] = (p[k] ?? 0) - (q[k] ?? 0);
    if (Object.keys(delta).length) out.push({ seat: s, delta });
  });
  (view.locations || []).forEach((l, i) => {
    const m = prev.locations && prev.locations[i];
    if (m && (l.money ?? 0) !== (m.money ?? 0)) out.push({ location: l.id, delta: { money: l.money - m.money } });
  });
  return out;
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

function gangsters(view, ctx) {
  const { i18n, toAct, prev } = ctx;
  const loot = (ctx.facts || {}).loot || [];
  const chosen = ctx.winners ? null  // after the game nobody is choosing
    : view.phase === "respond" && Array.isArray(view.responded) ? view.responded : chosenList(view);
  const locs = (view.locations || []).map((l) => h("div", {
    class: `location ${l.closed ? "closed" : ""} ${view.resolving === l.id ? "acting" : ""}`, dataset: { location: l.id } },
    h("div", { class: "name" }, `${l.id}. `, l.name ? i18n.word(l.name) : i18n.t(`games.gangsters_dilemma.locations.${l.id}`, {}, String(l.id))),
    h("div", { class: "big" }, i18n.t("games.gangsters_dilemma.board.dollars", { n: l.money ?? 0 })),
    l.closed ? h("span", { class: "badge dead" }, i18n.word("closed")) : null,
    l.patrolled ? h("span", { class: "badge president" }, i18n.t("games.gangsters_dilemma.board.patrolled")) : null,
    h("div", {}, (l.visitors || []).map((s) => seatChip(i18n, s)))));
  const rows = (view.players || []).map((p, s) => h("tr", { class: toAct.has(s) ? "acting" : "", dataset: { seat: s } },
    h("td", { class: "seat-name" }, seatChip(i18n, s), " ", i18n.seat(s), s === view.police ? h("span", { class: "badge president" }, i18n.word("police")) : null,
      toAct.has(s) ? h("span", { class: "badge turn" }, i18n.t("ui.to_act")) : null, chosenBadge(i18n, chosen, s),
      winnerBadge(i18n, ctx.winners, s)),
    h("td", {}, p.character ? i18n.word(p.character) : "—"),
    h("td", {}, i18n.t("games.gangsters_dilemma.board.dollars", { n: p.money ?? 0 })),
    loot.map((k) => h("td", {}, String(p[k] ?? 0))),
    h("td", { class: "big" }, String(p.vp ?? 0)),
    h("td", {}, (p.demands || []).join(", "))));
  const cards = view.demand_cards || {};
  const demands = (view.demands || []).map((id) => {
    const c = cards[id] || {};
    return h("li", { dataset: { demand: id } },
      i18n.t("games.gangsters_dilemma.board.demand", { id, vp: c.vp ?? "?", needs: c.needs || {} }));
  });
  const bank = bankInstructions(prev, view, loot).map((b) => h("li", {},
    b.seat !== undefined ? i18n.seat(b.seat) : i18n.t(`games.gangsters_dilemma.locations.${b.location}`, {}, String(b.location)),
    ": ", Object.entries(b.delta).map(([k, d]) => k === "money" ? i18n.t("games.gangsters_dilemma.board.money_delta", { n: signed(d) })
      : i18n.t("games.gangsters_dilemma.board.loot_delta", { n: signed(d), item: i18n.word(k) })).join(", ")));
  return board("gd", [
    kv(i18n, [["ui.round", String(view.round ?? "—")], ["games.gangsters_dilemma.board.deck", String(view.deck ?? "—")]]),
    panel("games.gangsters_dilemma.board.locations", i18n, h("div", { class: "locations", dataset: { count: locs.length } }, locs)),
    panel("ui.players", i18n, h("table", { class: "data" },
      h("thead", {}, h("tr", {}, ["ui.seat", "games.gangsters_dilemma.board.character", "games.gangsters_dilemma.board.money"]
        .map((k) => h("th", {}, i18n.t(k))), loot.map((k) => h("th", {}, i18n.word(k))),
        h("th", {}, i18n.t("ui.vp")), h("th", {}, i18n.t("games.gangsters_dilemma.board.fulfilled")))),
      h("tbody", {}, rows)))], [
    h("section", { class: "panel bank" }, h("h2", {}, i18n.t("games.gangsters_dilemma.board.bank")),
      bank.length ? h("ul", { class: "bank-list" }, bank) : h("p", { class: "muted" }, i18n.t("games.gangsters_dilemma.board.bank_nothing"))),
    panel("games.gangsters_dilemma.board.demands", i18n, demands.length ? h("ul", {}, demands) : h("p", { class: "muted" }, "—"))]);
}

export default gangsters;
