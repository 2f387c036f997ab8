// A phone as one seat's private terminal: secrets behind a tap, prompts with a confirm step.
import { byId, fetchJSON, h, postJSON, replace } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";
import { follow, statusPill } from "./live.js";
import { renderBoard, startFlips } from "./boards.js";
import { renderLog } from "./log.js";
import { renderPrompt } from "./prompt.js";
import { normalize, normalizeSeat } from "./state.js";

const PRIVATE = ["role", "party", "known", "hand", "peek", "investigations", "chip_values", "elite_demands",
  "private_demands", "patrol_seen", "peeked", "seen", "demand_cards"];
const PER_SEAT = new Set(["known", "investigations"]);
const NOT_SECRETS = new Set(["log", "seat", "card_info"]);  // the page's own seat, the cards' catalogue
const HIDE_AFTER_MS = 20000;
const REFUSAL_MS = 10000;

let i18n = await loadI18n(initialLang());
i18n.fullCards = true;  // the seat's own cards, named in full on its phone
let current = null;
let gameFacts = {};
let seats = [];  // the table's configured seats (names, colours), from the public snapshot
let bots = new Set();  // the seats a bot plays now, from the public snapshot
let hideTimer = null;
let refusalSeen = null;  // the number of the last refusal this page has shown (or found on its first load)
let refusalTimer = null;
let shownRefusal = null;
const ui = {};
const body = document.body.dataset;

/** The seat's private facts: the table's `info` (what its view adds to the public one), else known keys. */
export function privateFields(s) {
  const keys = s.info ? Object.keys(s.info).filter((k) => !NOT_SECRETS.has(k)) : PRIVATE.filter((k) => k in s.view);
  const rank = (k) => (PRIVATE.includes(k) ? PRIVATE.indexOf(k) : PRIVATE.length);
  return keys.sort((a, b) => rank(a) - rank(b));
}

/** Whether a value is a list of cards the view's catalogue names (a Boss's Wallet hand): listed one a line. */
function isCardList(v) {
  const cards = i18n.cards;
  return Boolean(cards) && Array.isArray(v) && v.length > 0 && v.every((c) => typeof c === "string" && cards[c]);
}

function secretValue(field, v) {
  if (isCardList(v)) return h("ul", { class: "cards" }, v.map((c) => h("li", { dataset: { card: c } }, i18n.value(field, c))));
  if (PER_SEAT.has(field) && Array.isArray(v)) {
    const items = v.map((x, s) => (x === null ? null : h("li", {}, `${i18n.seat(s)}: ${i18n.value(field, x)}`))).filter(Boolean);
    return items.length ? h("ul", {}, items) : "—";
  }
  if (field === "role" || field === "party") return h("span", { class: `role-${v}`, dataset: { secret: field } }, i18n.value(field, v));
  if (Array.isArray(v) && v.length === 0) return "—";
  return i18n.value(field, v);
}

function drawSecret() {
  const s = current;
  const shown = !byId("secret-body").hidden;
  if (!shown || !s) { replace(byId("secret-body")); return; }
  const view = s.view;
  const facts = s.info || view;
  replace(byId("secret-body"),
    h("div", { class: "kv", id: "private" }, privateFields(s).flatMap((k) => {
      const wide = isCardList(facts[k]) ? " wide" : "";  // a list of cards takes the panel's width
      return [h("span", { class: `muted${wide}` }, i18n.field(k)), h("span", { class: wide.trim(), dataset: { field: k } }, secretValue(k, facts[k]))];
    })),
    h("h3", {}, i18n.t("ui.your_log")), (() => { const ol = h("ol", { class: "log" }); renderLog(ol, i18n, view.log); return ol; })());
}

function setSecret(show) {
  byId("secret-body").hidden = !show;
  byId("secret-toggle").textContent = i18n.t(show ? "ui.tap_to_hide" : "ui.tap_to_show");
  clearTimeout(hideTimer);
  if (show) hideTimer = setTimeout(() => setSecret(false), HIDE_AFTER_MS);
  drawSecret();
}

async function send(action) {
  return postJSON(body.action, { token: body.token, action });
}

let appliedLang = null;

function draw() {
  if (appliedLang !== i18n.lang) { i18n.apply(); appliedLang = i18n.lang; }  // static texts: once per language
  const s = current;
  if (!s) return;
  i18n.setView(s.game, s.view);
  i18n.seats = seats;
  i18n.bots = bots;
  i18n.facts = gameFacts;
  byId("seat-name").textContent = s.seat !== null ? i18n.seat(s.seat) : "";
  byId("game-title").textContent = s.game ? i18n.t(`games.${s.game}.title`, {}, s.game) : "";
  byId("phase").textContent = s.phase ? i18n.phase(s.phase) : "";
  byId("secret-toggle").textContent = i18n.t(byId("secret-body").hidden ? "ui.tap_to_show" : "ui.tap_to_hide");
  if (s.bot) replace(byId("prompt"), h("p", { class: "notice", id: "bot-plays" }, i18n.t("ui.bot_plays_seat")));
  else renderPrompt(byId("prompt"), i18n, s.legal, send, ui, s.version);
  drawRefusal(s.refused);
  drawSecret();
  replace(byId("board"), s.game ? renderBoard(s.game, s.view, { i18n, prev: null, toAct: new Set(), facts: gameFacts }) : "");
  startFlips(byId("board"));
  document.body.dataset.version = s.version;
}

/** This seat's last refused input (a tap at its reader, a choice on its terminal), with the reason the table
 * page leaves out when it would tell others a secret: shown once, for a while, when it is new. */
function drawRefusal(refused) {
  if (refused && refusalSeen !== null && refused.n > refusalSeen) {
    shownRefusal = refused;
    clearTimeout(refusalTimer);
    refusalTimer = setTimeout(() => { shownRefusal = null; byId("seat-refusal").hidden = true; }, REFUSAL_MS);
  }
  if (refusalSeen === null || (refused && refused.n > refusalSeen)) refusalSeen = refused ? refused.n : 0;
  const el = byId("seat-refusal");
  el.hidden = !shownRefusal;
  if (shownRefusal) {
    el.textContent = `${i18n.t("ui.refused")}: ${i18n.code(shownRefusal.code, shownRefusal.message)}`;
    el.dataset.code = shownRefusal.code;
  }
}

/** Game id and action count of a version ("<game id>.<actions>"); versions of one game are ordered. */
function parseVersion(v) {
  const at = String(v || "").lastIndexOf(".");
  return at < 0 ? null : { game: v.slice(0, at), n: Number(v.slice(at + 1)) };
}

/** Whether version `a` is older than `b` (same game, fewer actions). */
export function olderThan(a, b) {
  const x = parseVersion(a);
  const y = parseVersion(b);
  return Boolean(x && y && x.game === y.game && x.n < y.n);
}

let newest = "";  // the newest version this page has seen, from its own state or the public stream

function onState(data) {
  const next = normalizeSeat(data);
  if (olderThan(next.version, newest)) return false;  // an answer overtaken by a newer state: never drawn
  newest = next.version;
  current = next;
  draw();
  return true;
}

/** The seat's token is no longer valid (the host started another game): the old view and secrets go at once. */
function wipe() {
  current = null;
  clearTimeout(hideTimer);
  clearTimeout(refusalTimer);
  shownRefusal = null;
  byId("seat-refusal").hidden = true;
  byId("secret-body").hidden = true;
  replace(byId("secret-body"));
  replace(byId("board"));
  byId("phase").textContent = "";
  byId("secret-toggle").hidden = true;
  ui.key = null; ui.pending = null; ui.error = null;
  replace(byId("prompt"), h("p", { class: "notice", role: "alert", id: "game-changed" }, i18n.t("ui.game_changed")));
  document.body.dataset.version = "";
  document.body.dataset.gone = "1";
}

byId("secret-toggle").addEventListener("click", () => setSecret(byId("secret-body").hidden));
document.addEventListener("visibilitychange", () => { if (document.hidden) setSecret(false); });
wireLangSwitch((next) => {
  i18n = next;
  i18n.fullCards = true;
  if (document.body.dataset.gone) { appliedLang = null; i18n.apply(); wipe(); } else draw();
});
/** The public stream says something changed; this seat's own view comes from its token's endpoint. */
let loading = null;
let again = false;

/** One fetch at a time, so answers arrive in the order the table changed; an event during a fetch asks for
 * one more. */
async function reload() {
  if (loading) { again = true; return loading; }
  loading = (async () => {
    do {
      again = false;
      try {
        if (!onState(await fetchJSON(body.state))) again = true;
      } catch (e) {
        if (e.status === 401 || e.code === "unauthorised") { wipe(); again = false; } else {
          replace(byId("prompt"), h("p", { class: "error", role: "alert" }, e.code ? i18n.code(e.code, e.message) : e.message));
        }
      }
    } while (again && !document.body.dataset.gone);
    loading = null;
  })();
  return loading;
}

/** A public state event: its version is the newest the table has (this seat's own view follows). */
function onPublic(data) {
  takeSeats(data);
  const g = data && data.game;
  if (g && typeof g === "object" && g.id !== undefined && !olderThan(`${g.id}.${g.actions}`, newest)) newest = `${g.id}.${g.actions}`;
  return reload();
}

/** The seats' names and colours and the game's fixed facts from a public snapshot (the table's, the same for
 * every seat; the seat's own state does not carry them). */
function takeSeats(snapshot) {
  const s = normalize(snapshot);
  seats = s.seatInfo;
  bots = s.bots;
  gameFacts = s.facts;
}

try { takeSeats(await fetchJSON(body.public)); } catch (_) { /* no names yet: "Seat N" until the stream brings them */ }
await reload();
follow(body.events, { onState: onPublic, onEvent: reload, onStatus: statusPill(byId("status"), () => i18n) });
