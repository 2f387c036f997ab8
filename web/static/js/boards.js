// The board for a game's public view: each game's renderer is its package's board.js (companion/games/<game>/),
// gathered by the page's server into /assets/games/boards.js from the game registry; a game without one gets its
// public fields as a list. What a renderer gets: web/static/js/board_kit.js.
import { h } from "./dom.js";
import { kv, seatChip, startFlips, usesSample } from "./board_kit.js";
import BOARDS from "../games/boards.js";

export { BOARDS, seatChip, startFlips, usesSample };

/** Any game without a renderer: its public fields as a list. */
function generic(view, ctx) {
  return h("div", { class: "board generic" }, kv(ctx.i18n,
    Object.entries(view).filter(([k]) => k !== "log").map(([k, v]) => [k, JSON.stringify(v)])));
}

/** The board for a game's public view. */
export function renderBoard(game, view, ctx) {
  return (BOARDS[game] || generic)(view, ctx);
}
