// The reveal after a game, in words: "what really happened" lines and each seat's secrets. Used by the table
// page at game over (/api/reveal, only then) and by the replay page (/replay/<id>, host or share link).
import { h } from "./dom.js";

/** Fields of a seat's own part that say nothing secret (the seat itself, the card catalogue). */
const NOT_SECRET = new Set(["seat", "card_info"]);

/** Params worded through a game's own table of that name (Boss's Wallet's `reasons`), else as values. */
function worded(i18n, game, params) {
  const out = {};
  for (const [k, v] of Object.entries(params || {})) {
    const own = (id) => i18n.raw(`games.${game}.${k}.${id}`);
    if (Array.isArray(v) && v.length && v.every((x) => typeof x === "string" && own(x) !== undefined)) {
      out[k] = v.map(own).join(", ");
    } else if (typeof v === "string" && own(v) !== undefined) {
      out[k] = own(v);
    } else {
      out[k] = v;
    }
  }
  return out;
}

/** One reveal line ({code, params}) in words. */
export function revealText(i18n, game, line) {
  return i18n.t(`replay.lines.${game}.${line.code}`, worded(i18n, game, line.params), i18n.t("replay.line_unknown"));
}

/** A value of a seat's secret part in words: a list with one entry per seat names each seat. */
function secretValue(i18n, field, value, seats) {
  const listed = (kind) => Boolean(i18n.fields[kind] && i18n.fields[kind].has(field));
  if (Array.isArray(value) && value.length === seats && !listed("seatList") && !listed("perSeat")) {
    return value.map((x, s) => (x === null || x === false ? null : `${i18n.seat(s)}: ${i18n.value(field.replace(/s$/, ""), x)}`))
      .filter(Boolean).join(", ");
  }
  return i18n.value(field, value, false);  // a seat's own values (its chips), never listed as other seats' scores
}

function empty(v) {
  return v === null || v === undefined || v === false || (Array.isArray(v) && (v.length === 0 || v.every((x) => x === null)));
}

/** Each seat's secrets (the fields its own view adds to the public one), as one row per seat. */
export function secretsTable(i18n, parts, seats) {
  const rows = (parts || []).map((part, s) => {
    const cells = Object.entries(part || {}).filter(([k, v]) => !NOT_SECRET.has(k) && !empty(v))
      .map(([k, v]) => h("div", { class: "secret-field", dataset: { field: k } },
        h("span", { class: "muted" }, `${i18n.field(k)}: `), secretValue(i18n, k, v, seats)));
    return h("li", { dataset: { seat: s } }, h("strong", {}, i18n.seat(s)), cells.length ? cells
      : h("div", { class: "muted" }, i18n.t("replay.no_secret")));
  });
  return h("ul", { class: "secrets" }, rows);
}

/** The reveal lines as a list (a line to say there are none). */
export function revealList(i18n, game, lines) {
  const items = (lines || []).map((line) => h("li", { dataset: { code: line.code } }, revealText(i18n, game, line)));
  return h("ol", { class: "reveal-lines" }, items.length ? items : [h("li", { class: "muted" }, i18n.t("replay.nothing_hidden"))]);
}
