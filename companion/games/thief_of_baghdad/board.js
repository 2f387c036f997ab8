// Thief of Baghdad's board on the page, drawn from the public view only (web/static/js/board_kit.js: what a renderer gets).
import { h } from "../../js/dom.js";
import { seatChip, panel, board, winnerBadge, kv } from "../../js/board_kit.js";

function thief(view, ctx) {
  const { i18n, toAct } = ctx;
  const colours = (ctx.facts || {}).palace_colours || {};
  const palaces = (view.palaces || []).map((p) => h("div", {
    class: "palace", dataset: { palace: p.color }, style: { "--pc": colours[p.color] || "#888" } },
    h("div", { class: "name" }, i18n.word(p.color)),
    h("div", {}, h("span", { class: "muted" }, i18n.t("games.thief_of_baghdad.board.guards"), ": "),
      (p.guards || []).map((g) => seatChip(i18n, g))),
    h("div", {}, h("span", { class: "muted" }, i18n.t("games.thief_of_baghdad.board.thieves"), ": "),
      (p.thieves || []).map((n, s) => n ? h("span", { class: "thieves", dataset: { thieves: s }, title: i18n.seat(s) }, seatChip(i18n, s), `×${n}`) : null)),
    h("div", {}, h("span", { class: "muted" }, i18n.t("games.thief_of_baghdad.board.chests"), ": "),
      (p.chests || []).length ? p.chests.map((c, i) => h("span", { class: `badge ${i === 0 ? "turn" : ""}` }, String(c))) : "—")));
  const rows = (view.players || []).map((p, s) => h("tr", { dataset: { seat: s } },
    h("td", { class: "seat-name" }, seatChip(i18n, s), " ", i18n.seat(s), s === view.turn ? h("span", { class: "badge turn" }, i18n.t("ui.turn")) : null,
      toAct.has(s) && s !== view.turn ? h("span", { class: "badge turn" }, i18n.t("ui.to_act")) : null,
      winnerBadge(i18n, ctx.winners, s)),
    ["supply", "guards_unplaced", "chests", "hand_size"].map((k) =>
      h("td", { class: k === "chests" ? "big" : "" }, Array.isArray(p[k]) ? p[k].length + ` (${p[k].join(", ")})` : String(p[k] ?? 0)))));
  return board("tob", [
    kv(i18n, [["games.thief_of_baghdad.board.thief_moves", `${view.thief_moves ?? 0} / ${(ctx.facts || {}).thief_moves_per_turn ?? "—"}`],
      ["games.thief_of_baghdad.board.deck", String(view.deck ?? "—")],
      ["games.thief_of_baghdad.board.dancers", String(view.dancers ?? "—")],
      ["games.thief_of_baghdad.board.chests_to_win", String(view.chests_to_win ?? "—")]]),
    panel("games.thief_of_baghdad.board.palaces", i18n, h("div", { class: "palaces" }, palaces)),
    panel("ui.players", i18n, h("table", { class: "data" },
      h("thead", {}, h("tr", {}, ["ui.seat", "games.thief_of_baghdad.board.supply", "games.thief_of_baghdad.board.guards_unplaced",
        "games.thief_of_baghdad.board.chests", "games.thief_of_baghdad.board.hand_size"].map((k) => h("th", {}, i18n.t(k))))),
      h("tbody", {}, rows)))], []);
}

export default thief;
