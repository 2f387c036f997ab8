// Secret Hitler's board on the page, drawn from the public view only (web/static/js/board_kit.js: what a renderer gets).
import { h } from "../../js/dom.js";
import { seatChip, range, panel, board, winnerBadge, kv, chosenBadge } from "../../js/board_kit.js";

function secretHitler(view, ctx) {
  const { i18n, prev, toAct } = ctx;
  const facts = ctx.facts || {};
  const powers = facts.power_track || [];
  const liberal = facts.liberal_track || 0;
  const lib = h("div", { class: "track liberal", dataset: { track: "liberal" } },
    range(liberal).map((i) => h("div", { class: `slot ${i < view.liberal_policies ? "filled" : ""}` },
      i === liberal - 1 ? i18n.t("games.secret_hitler.board.liberal_win") : "")));
  const fas = h("div", { class: "track fascist", dataset: { track: "fascist" } },
    powers.map((p, i) => h("div", { class: `slot ${i < view.fascist_policies ? "filled" : ""}` },
      p ? i18n.t(`games.secret_hitler.board.power_${p}`) : "")));
  const tracker = h("div", { class: "track election", dataset: { track: "election" } },
    range(facts.election_track || 0).map((i) => h("div", { class: `slot ${i < view.election_tracker ? "filled" : ""}` },
      String(i + 1))));
  const revealNow = Array.isArray(view.votes) && view.votes.some((v) => v) &&
    !(prev && Array.isArray(prev.votes) && prev.votes.some((v) => v));
  const seatEls = (view.alive || []).map((alive, s) => {
    const vote = Array.isArray(view.votes) ? view.votes[s] : null;
    const card = h("div", { class: "vote-card", dataset: { seat: s, vote: vote || "" } },
      h("div", { class: "inner" },
        h("div", { class: "face back" }, "?"),
        h("div", { class: `face front ${vote || ""}` }, vote ? i18n.word(vote) : "")));
    if (vote) {
      if (revealNow) card.dataset.flip = "";  // turned over by startFlips once it is in the page
      else card.classList.add("revealed");
    }
    const showCard = vote || (Array.isArray(view.voted) && view.voted[s]);
    const role = Array.isArray(view.roles) ? view.roles[s] : null;  // every role, once the game is over
    return h("div", { class: `seat ${toAct.has(s) ? "acting" : ""}`, dataset: { seat: s } },
      h("div", { class: "name seat-name" }, seatChip(i18n, s), " ", i18n.seat(s)),
      role ? h("span", { class: `badge role role-${role}`, dataset: { role } }, i18n.word(role)) : null,
      winnerBadge(i18n, ctx.winners, s),
      s === view.president ? h("span", { class: "badge president" }, i18n.word("president")) : null,
      s === view.chancellor ? h("span", { class: "badge chancellor" }, i18n.word("chancellor")) : null,
      !alive ? h("span", { class: "badge dead" }, i18n.t("ui.dead")) : null,
      !role && (view.term_limited || []).includes(s) ? h("span", { class: "badge limited" }, i18n.t("games.secret_hitler.board.term_limited")) : null,
      toAct.has(s) ? h("span", { class: "badge turn" }, i18n.t("ui.to_act")) : null,
      vote ? null : chosenBadge(i18n, view.voted, s),
      showCard ? card : null);
  });
  return board("sh", [
    panel("games.secret_hitler.board.liberal_track", i18n, lib),
    panel("games.secret_hitler.board.fascist_track", i18n, fas,
      view.veto_unlocked ? h("p", { class: "badge" }, i18n.t("games.secret_hitler.board.veto_unlocked")) : null),
    panel("games.secret_hitler.board.election_tracker", i18n, h("div", { class: "row election-row" }, tracker,
      kv(i18n, [["games.secret_hitler.board.draw_pile", String(view.draw_pile ?? "—")],
        ["games.secret_hitler.board.discard_pile", String(view.discard_pile ?? "—")]])))],
  panel("ui.seats", i18n, h("div", { class: "seats", dataset: { count: seatEls.length } }, seatEls)));
}

export default secretHitler;
