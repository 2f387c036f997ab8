// Mafia's board on the page, drawn from the public view only (web/static/js/board_kit.js: what a renderer gets).
import { h } from "../../js/dom.js";
import { seatChip, panel, board, winnerBadge, kv } from "../../js/board_kit.js";

/** Mafia: every seat with what everyone may know (out and its role, chosen or voted, whom it voted for, the
 * votes it has), the night or day with what it takes, the mafia left. Who is still to act at night is every
 * living seat that has not chosen, whatever its role. */
function mafia(view, ctx) {
  const { i18n, toAct } = ctx;
  const alive = Array.isArray(view.alive) ? view.alive : [];
  const night = view.phase === "night";
  const day = view.phase === "day";
  const votes = day && Array.isArray(view.votes) ? view.votes : [];
  const acted = Array.isArray(view.acted) ? view.acted : [];
  const counts = {};
  votes.forEach((t) => { if (Number.isInteger(t)) counts[t] = (counts[t] || 0) + 1; });
  const word = (k) => i18n.t(`games.mafia.board.${k}`);
  const seatEls = alive.map((isAlive, s) => {
    const role = Array.isArray(view.roles) ? view.roles[s] : null;
    const vote = votes[s];
    let state = null;
    if (isAlive && night) state = acted[s] ? "chose" : "choosing";
    if (isAlive && day) state = !acted[s] ? "voting" : (Number.isInteger(vote) ? null : "abstained");
    return h("div", { class: `seat ${toAct.has(s) ? "acting" : ""} ${isAlive ? "" : "out"}`, dataset: { seat: s } },
      h("div", { class: "name seat-name" }, seatChip(i18n, s), " ", i18n.seat(s)),
      role ? h("span", { class: `badge role role-${role}`, dataset: { role } }, i18n.word(role)) : null,
      winnerBadge(i18n, ctx.winners, s),
      !isAlive ? h("span", { class: "badge dead" }, word("out")) : null,
      state ? h("span", { class: `badge ${acted[s] ? "chosen" : "turn"}`, dataset: { state } }, word(state)) : null,
      Number.isInteger(vote) ? h("span", { class: "vote-for", dataset: { vote } }, "→ ", seatChip(i18n, vote)) : null,
      counts[s] ? h("span", { class: "badge votes", dataset: { votes: counts[s] } }, `${word("votes")} ${counts[s]}`) : null);
  });
  const living = alive.filter(Boolean).length;
  const round = view.round || 1;
  const title = day ? word("day_of").replace("{round}", round) : word("night_of").replace("{round}", round);
  const facts = [["games.mafia.board.mafia_left", `${view.mafia_left ?? "—"} / ${view.mafia ?? "—"}`],
    ["games.mafia.board.victim", Number.isInteger(view.victim) ? i18n.seat(view.victim) : word("nobody_yet")]];
  if (day) facts.push(["games.mafia.board.needed", String(Math.floor(living / 2) + 1)]);
  return board(`mafia ${night ? "night" : day ? "day" : ""}`,
    [panel("ui.seats", i18n, h("div", { class: "seats", dataset: { count: seatEls.length } }, seatEls))],
    [h("section", { class: "panel round", dataset: { part: "round" } },
      h("h2", {}, night || day ? title : i18n.t(`games.mafia.phases.${view.phase}`)),
      night || day ? h("p", { class: "how" }, word(night ? "how_night" : "how_day")) : null,
      kv(i18n, facts))]);
}

export default mafia;
