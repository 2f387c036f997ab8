// The venue dashboard's words: everything a game says goes through the table page's own translations
// (games.<game>.title, .phases, .outcomes, .values...), so a raw id or key is never drawn: a word with no
// translation is left out rather than shown as its id.
import { postJSON } from "./dom.js";

/** A game's name, or null when the translations do not know it (then the card says "a game"). */
export function gameName(i18n, game) {
  return game ? i18n.raw(`games.${game}.title`) ?? i18n.t("venue.a_game") : null;
}

/** A phase in words, or null. */
export function phaseName(i18n, game, phase) {
  return game && phase ? i18n.raw(`games.${game}.phases.${phase}`) ?? null : null;
}

/** A progress counter's label (the board's own words, else the field's), or null: it is then not shown. */
export function progressLabel(i18n, game, key) {
  for (const k of [`games.${game}.board.${key}`, `games.${game}.fields.${key}`, `fields.${key}`, `ui.${key}`]) {
    const text = i18n.raw(k);
    if (text !== undefined && !text.includes("{")) return text;
  }
  return null;
}

/** A side (team or role) in words, or null. */
export function sideName(i18n, game, side) {
  return i18n.raw(`games.${game}.values.${side}`) ?? i18n.raw(`values.${side}`) ?? null;
}

/** An outcome reason in words, or the generic "the game ended". */
export function reasonName(i18n, game, reason) {
  return i18n.raw(`games.${game}.outcomes.${reason}`) ?? i18n.t("venue.ended");
}

/** A seat of a table's game: the name it was given at the table, else "Seat N". */
export function seatName(i18n, names, seat) {
  const name = names && names[seat];
  return name || i18n.t("ui.seat_n", { n: Number(seat) + 1 });
}

/** A table by its id (the venue's own name for it). */
export function tableName(i18n, id) { return i18n.t("venue.table_n", { name: id }); }

/** A clock time in this language (HH:MM). */
export function clock(i18n, t) {
  return t ? new Date(t * 1000).toLocaleTimeString(i18n.lang === "ko" ? "ko-KR" : "en-GB", { hour: "2-digit", minute: "2-digit" }) : "—";
}

/** Minutes as "12 min" / "12분". */
export function minutes(i18n, seconds) { return i18n.t("venue.minutes", { n: Math.max(0, Math.floor(seconds / 60)) }); }

/** Wire the logout button. */
export function wireLogout() {
  const btn = document.getElementById("logout");
  if (btn) btn.addEventListener("click", async () => { try { await postJSON("/api/venue/logout", {}); } finally { location.href = "/login"; } });
}
