// What every game's board renderer (companion/games/<game>/board.js) builds with: seat chips, panels, the two-column
// board, badges. A renderer gets (view, ctx) with ctx = {i18n, prev, toAct: Set, seats, facts, winners} and returns
// one element, drawn from the PUBLIC view only (docs/ARCHITECTURE.md "Views never leak"); `facts` are the game's
// fixed facts as its binding exports them (snapshot game.table_info.facts); `winners` the outcome's seats once the
// game is over, else null. Each seat's name carries the class `seat-name` and each panel a `data-part` (panel()):
// the layout tests find them there, in every game.
import { h, inkOn } from "./dom.js";

/** True when a view says it uses a sample deck or catalogue (any truthy top-level "sample" field). */
export function usesSample(view) {
  return Object.entries(view || {}).some(([k, v]) => k.includes("sample") && Boolean(v) &&
    !(Array.isArray(v) && v.length === 0));
}

/** Turn over the cards a renderer marked to flip now, after the page has painted them face down (so the
 * flip animates, and every card of a reveal turns in the same frame). */
export function startFlips(root) {
  const cards = [...root.querySelectorAll("[data-flip]")];
  for (const card of cards) card.removeAttribute("data-flip");
  if (cards.length) requestAnimationFrame(() => requestAnimationFrame(() => cards.forEach((c) => c.classList.add("revealed"))));
}

export function seatChip(i18n, seat, extra = "") {
  if (seat === "neutral") return h("span", { class: "chip-seat neutral", title: i18n.word("neutral") }, "N");
  const colour = i18n.seatColour(seat);  // the table config's colour; none configured: the stylesheet's grey
  return h("span", { class: `chip-seat ${extra}`, style: colour ? { "--sc": colour, "--sc-ink": inkOn(colour) } : {},
    title: i18n.seat(seat) },
    String(Number(seat) + 1));
}

/** 0..n-1. */
export function range(n) {
  return Array.from({ length: n }, (_, i) => i);
}

export function panel(titleKey, i18n, ...children) {
  return h("section", { class: "panel", dataset: { part: titleKey.split(".").pop() } }, h("h2", {}, i18n.t(titleKey)), ...children);
}

/** A board in two groups, so the table screen can lay each out in its own column (see app.css, the table screen). */
export function board(cls, main, side) {
  return h("div", { class: `board ${cls}` }, h("div", { class: "board-main" }, main), h("div", { class: "board-side" }, side));
}

/** The "winner" badge for a seat once the game is over. */
export function winnerBadge(i18n, winners, seat) {
  return Array.isArray(winners) && winners.includes(seat) ? h("span", { class: "badge winner", dataset: { winner: seat } }, i18n.t("ui.winner")) : null;
}

export function kv(i18n, pairs) {
  return h("div", { class: "kv" }, pairs.flatMap(([k, v]) => [h("span", { class: "muted" }, i18n.t(k)), h("span", {}, v)]));
}

/** "has chosen" badges from a per-seat list of booleans (voted / chosen / ...). */
export function chosenBadge(i18n, list, seat) {
  return Array.isArray(list) && list[seat] ? h("span", { class: "badge chosen", dataset: { chosen: seat } }, i18n.t("ui.has_chosen")) : null;
}

/** Who has made the hidden choice being collected now (never what they chose): the first of `keys` the view has. */
export function chosenList(view, keys = ["voted", "chosen", "has_chosen", "committed"]) {
  for (const k of keys) if (Array.isArray(view[k])) return view[k];
  return null;
}
