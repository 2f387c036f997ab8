// Boss's Wallet's board on the page, drawn from the public view only (web/static/js/board_kit.js: what a renderer gets).
import { h } from "../../js/dom.js";
import { seatChip, panel, board, winnerBadge, kv, chosenBadge, chosenList } from "../../js/board_kit.js";

/** A small hourglass drawn as SVG (no icon font: nothing comes from outside). */
function hourglassIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 10 16");
  svg.setAttribute("width", "18");
  svg.setAttribute("height", "28");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M1 1h8M1 15h8M2 1c0 5 6 5 6 7s-6 2-6 7M8 1c0 5-6 5-6 7s6 2 6 7");
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", "1.2");
  svg.appendChild(path);
  return svg;
}

function cu(cents) { return (Number(cents) / 100).toFixed(2); }

/** A seat's victory chips at game over: "1 + 3 + 2 = 6", the total set apart. */
function chipTotal(values) {
  const list = Array.isArray(values) ? values : [];
  const total = String(list.reduce((a, b) => a + b, 0));
  return [list.length ? h("span", { class: "chip-sum" }, `${list.join(" + ")} = `) : null, h("b", { class: "chip-total" }, total)];
}

/** A judged seat's verdict in words: verdict, identity, confiscation. */
function verdictCell(i18n, p) {
  return h("td", { class: p.verdict ? `verdict-${p.verdict}` : "", dataset: { verdict: p.verdict || "" } },
    p.verdict ? i18n.word(p.verdict) : "—", p.identity ? h("span", { class: "identity" }, ` (${i18n.word(p.identity)})`) : "",
    p.on_duty ? h("span", { class: "badge" }, i18n.t("games.boss_wallet.board.on_duty")) : null,
    p.confiscated_by !== null && p.confiscated_by !== undefined
      ? h("div", { class: "muted" }, i18n.t("games.boss_wallet.board.confiscated", { confiscated_by: p.confiscated_by, amount: cu(p.confiscated_cents || 0) })) : null);
}

function reasonsCell(i18n, p) {
  return h("td", {}, h("ul", {}, (p.reasons || []).map((r) => h("li", { dataset: { reason: r } },
    i18n.t(`games.boss_wallet.reasons.${r}`, {}, r)))));
}

function handCell(i18n, p, info) {
  return h("td", {}, Array.isArray(p.hand) ? p.hand.map((c) => i18n.card(String(c), info)).join(", ") : "—");
}

/** The latest judged round as it was shown (`last_round`): kept on the board through the next round, since
 * a digital table deals the next round in the same step that ends this one. Per-seat rows only while the
 * players table is not itself showing verdicts. */
function lastRound(view, i18n, withPlayers) {
  const last = view.last_round;
  if (!last) return null;
  const players = withPlayers ? h("table", { class: "data", dataset: { lastRound: last.round } },
    h("thead", {}, h("tr", {}, ["ui.seat", "games.boss_wallet.board.wealth", "games.boss_wallet.board.verdict",
      "games.boss_wallet.board.reasons", "games.boss_wallet.board.hand"].map((k) => h("th", {}, i18n.t(k))))),
    h("tbody", {}, (last.players || []).map((p) => h("tr", { dataset: { seat: p.seat } },
      h("td", {}, seatChip(i18n, p.seat), " ", i18n.seat(p.seat)),
      h("td", {}, p.wealth_cents !== undefined ? cu(p.wealth_cents) : "—"),
      verdictCell(i18n, p), reasonsCell(i18n, p), handCell(i18n, p, view.card_info))))) : null;
  const investigations = (last.investigations || []).map((x) => h("li", { dataset: { investigation: x.target } },
    i18n.t("games.boss_wallet.board.investigation_result", { seat: x.seat, target: x.target, verdict: x.guilty ? "guilty" : "innocent" })));
  return h("section", { class: "panel last-round", dataset: { round: last.round } },
    h("h2", {}, i18n.t("games.boss_wallet.board.last_round", { round: last.round })),
    players,
    investigations.length ? h("ul", {}, investigations) : null,
    kv(i18n, [["games.boss_wallet.board.award_order", (last.ranking || []).length ? i18n.value("seats", last.ranking) : "—"],
      ["games.boss_wallet.board.awards", (last.awards || []).length
        ? last.awards.map((a) => i18n.t("games.boss_wallet.board.award", { seat: a.seat, chips: a.chips })).join(", ")
        : "—"]]));
}

function bossWallet(view, ctx) {
  const { i18n, toAct } = ctx;
  const chosen = ctx.winners ? null : chosenList(view);  // after the game nobody is choosing
  const glasses = h("div", { class: "hourglasses", dataset: { flipped: view.hourglasses ?? 0 } },
    Array.from({ length: view.hourglasses_total ?? 6 }, (_, i) => i).map((i) => h("div", {
      class: `hourglass ${i < (view.hourglasses ?? 0) ? "flipped" : ""}` }, hourglassIcon())));
  const verdicts = (view.players || []).some((p) => p.verdict);
  const over = (view.players || []).some((p) => Array.isArray(p.chip_values));  // the values show at game over
  const rows = (view.players || []).map((p, s) => h("tr", { dataset: { seat: s } },
    h("td", { class: "seat-name" }, seatChip(i18n, s), " ", i18n.seat(s),
      s === view.turn ? h("span", { class: "badge turn" }, i18n.t("ui.turn")) : null,
      s === view.start_seat ? h("span", { class: "badge" }, i18n.t("games.boss_wallet.board.start_seat")) : null,
      toAct.has(s) && s !== view.turn ? h("span", { class: "badge turn" }, i18n.t("ui.to_act")) : null,
      chosenBadge(i18n, chosen, s), winnerBadge(i18n, ctx.winners, s)),
    h("td", { class: "big" }, String(p.chips ?? 0)),
    over ? h("td", { class: "chip-values", dataset: { chipValues: (p.chip_values || []).join(",") } }, chipTotal(p.chip_values)) : null,
    h("td", {}, String(p.hand_size ?? "—"), p.scanned && !verdicts ? h("span", { class: "badge chosen" }, i18n.t("games.boss_wallet.board.scanned")) : null),
    verdicts ? [
      h("td", {}, p.wealth_cents !== undefined ? cu(p.wealth_cents) : "—"),
      verdictCell(i18n, p), reasonsCell(i18n, p), handCell(i18n, p, view.card_info)] : null));
  const players = panel("ui.players", i18n, h("table", { class: "data" },
    h("thead", {}, h("tr", {}, h("th", {}, i18n.t("ui.seat")), h("th", {}, i18n.t("games.boss_wallet.board.chips")),
      over ? h("th", {}, i18n.t("games.boss_wallet.board.chip_values")) : null,
      h("th", {}, i18n.t("games.boss_wallet.board.hand_size")),
      verdicts ? ["games.boss_wallet.board.wealth", "games.boss_wallet.board.verdict", "games.boss_wallet.board.reasons",
        "games.boss_wallet.board.hand"].map((k) => h("th", {}, i18n.t(k))) : null)),
    h("tbody", {}, rows)));
  const investigations = (view.investigations || []).length ? panel("games.boss_wallet.board.investigations", i18n, h("ul", {},
    view.investigations.map((x) => h("li", {}, i18n.t("games.boss_wallet.board.investigated", { seat: x.seat, target: x.target }))))) : null;
  // the wide table (verdicts now, else the last round's) takes the main column, the narrow one the side
  const counts = kv(i18n, [["ui.round", `${view.round ?? "—"} / ${view.rounds ?? 3}`],
    ["games.boss_wallet.board.wallet", String(view.wallet ?? "—")]]);
  const hourglasses = panel("games.boss_wallet.board.hourglasses", i18n, glasses);
  if (verdicts) return board("bw verdicts", [h("div", { class: "row bw-top" }, counts, hourglasses, lastRound(view, i18n, false)), players], [investigations]);
  return board("bw", [counts, lastRound(view, i18n, true)], [hourglasses, players, investigations]);
}

export default bossWallet;
