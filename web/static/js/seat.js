// A phone as one seat's private terminal: secrets behind a tap, prompts with a confirm step.
import { byId, fetchJSON, h, postJSON, replace } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";
import { follow, statusPill } from "./live.js";
import { renderBoard, startFlips } from "./boards.js";
import { renderLog } from "./log.js";
import { renderPrompt } from "./prompt.js";
import { privateFields, secretLines, secretText } from "./secrets.js";
import { normalize, normalizeSeat } from "./state.js";
import { outcomeText, readingText, readingsFor } from "./flow.js";

const HIDE_AFTER_MS = 20000;
const REFUSAL_MS = 10000;

let i18n = await loadI18n(initialLang());
i18n.fullCards = true;  // the seat's own cards, named in full on its phone
let current = null;
let gameFacts = {};
let seats = [];  // the table's configured seats (names, colours), from the public snapshot
let bots = new Set();  // the seats a bot plays now, from the public snapshot
let table = normalize(null);  // the newest public snapshot: enrollment, the reads the table waits for
let offline = false;  // the last request to the table failed: the page says so and tries again by itself
let retryTimer = null;
const RETRY_MS = 2000;
const KEEPALIVE_MS = 15000;  // asks for its state now and then, so the table knows this phone holds the seat
// names this browser to the table (its tabs share it), so two phones on one seat are told of each other
const phoneId = localStorage.getItem("phone-id") || (() => {
  const id = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
  localStorage.setItem("phone-id", id);
  return id;
})();
let hideTimer = null;
let refusalSeen = null;  // the number of the last refusal this page has shown (or found on its first load)
let refusalTimer = null;
let shownRefusal = null;
const ui = {};
const body = document.body.dataset;

/** Whether a value is a list of cards the view's catalogue names (a Boss's Wallet hand): listed one a line. */
function isCardList(v) {
  const cards = i18n.cards;
  return Boolean(cards) && Array.isArray(v) && v.length > 0 && v.every((c) => typeof c === "string" && cards[c]);
}

function secretValue(field, v) {
  if (isCardList(v)) return h("ul", { class: "cards" }, v.map((c) => h("li", { dataset: { card: c } }, i18n.value(field, c))));
  const lines = secretLines(i18n, field, v);
  if (lines) return lines.length ? h("ul", {}, lines.map((line) => h("li", {}, line))) : "—";
  if (field === "role" || field === "party") return h("span", { class: `role-${v}`, dataset: { secret: field } }, i18n.value(field, v));
  return secretText(i18n, field, v);
}

function drawSecret() {
  const s = current;
  const shown = !byId("secret-body").hidden;
  if (!shown || !s) { replace(byId("secret-body")); return; }
  const view = s.view;
  const facts = s.info || view;
  replace(byId("secret-body"),
    h("div", { class: "kv", id: "private" }, privateFields(s, gameFacts.catalogue_fields).flatMap((k) => {
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

/** Post a choice with the state it was chosen on; when the table has moved past that state (an undo, another
 * seat's move) the answer is `stale_prompt`, and the page loads the prompt that holds now before saying so. */
async function send(action, version) {
  try {
    return await postJSON(body.action, { token: body.token, action, version });
  } catch (err) {
    if (err.code === "stale_prompt" || err.code === "offline") await reload();  // the fresh prompt, or the words
    throw err;
  }
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
  drawFlow(s);
  if (s.outcome) replace(byId("prompt"), outcomePanel(s));
  else if (s.bot) replace(byId("prompt"), h("p", { class: "notice", id: "bot-plays" }, i18n.t("ui.bot_plays_seat")));
  else renderPrompt(byId("prompt"), i18n, s.legal, send, ui, s.version);
  drawRefusal(s.refused);
  drawSecret();
  replace(byId("board"), s.game ? renderBoard(s.game, s.view, { i18n, prev: null, toAct: new Set(), facts: gameFacts }) : "");
  startFlips(byId("board"));
  document.body.dataset.version = s.version;
}

/** The game is over: who won and why, and whether this seat did. */
function outcomePanel(s) {
  const won = s.outcome.winners.includes(s.seat);
  return h("div", { class: "notice outcome", id: "seat-outcome", dataset: { won: won ? "1" : "" } },
    h("p", { class: "big", id: "you-won" }, i18n.t(won ? "flow.you_won" : "flow.you_lost")),
    h("p", { id: "outcome-text" }, outcomeText(i18n, s.game, s.outcome)));
}

/** What holds the table now, above the choices: the connection lost, another phone on this seat, enrollment,
 * and the cards the table waits to read here. */
function drawFlow(s) {
  const lines = [];
  if (offline) lines.push(h("p", { class: "error", role: "alert", id: "offline" }, i18n.t("flow.offline")));
  if (s && s.others) lines.push(h("p", { class: "error", role: "alert", id: "other-phone" }, i18n.t("flow.other_phone")));
  if (table.running && table.enrolling) lines.push(h("p", { class: "notice", id: "enrolling" }, i18n.t("flow.enrolling")));
  if (s && !s.outcome) {
    for (const r of readingsFor(table.reading, s.seat)) {
      lines.push(h("p", { class: "notice reading", dataset: { zone: r.zone, got: r.got } }, readingText(i18n, r)));
    }
  }
  replace(byId("seat-flow"), lines);
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
  replace(byId("seat-flow"));
  byId("phase").textContent = "";
  byId("secret-toggle").hidden = true;
  ui.key = null; ui.pending = null; ui.error = null;
  replace(byId("prompt"), h("p", { class: "notice", role: "alert", id: "game-changed" }, i18n.t("ui.game_changed")));
  document.body.dataset.version = "";
  document.body.dataset.gone = "1";
}

byId("secret-toggle").addEventListener("click", () => setSecret(byId("secret-body").hidden));
// a phone woken up asks the table at once (its Wi-Fi may have gone while it slept)
document.addEventListener("visibilitychange", () => { if (document.hidden) setSecret(false); else reload(); });
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
        const data = await fetchJSON(body.state, { headers: { "X-Phone-Id": phoneId } });
        if (offline) { offline = false; pill(true); drawFlow(current); }  // back: the words go at once
        if (!onState(data)) again = true;
      } catch (e) {
        if (e.status === 401 || e.code === "unauthorised") { wipe(); again = false; } else {
          // the table is out of reach (Wi-Fi lost, the table restarting): say so in words, try again by itself
          offline = true;
          pill(false);
          drawFlow(current);
          clearTimeout(retryTimer);
          retryTimer = setTimeout(reload, RETRY_MS);
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
  const version = table.version;
  if (version && !olderThan(version, newest)) newest = version;
  return reload();
}

/** The seats' names and colours and the game's fixed facts from a public snapshot (the table's, the same for
 * every seat; the seat's own state does not carry them). */
function takeSeats(snapshot) {
  const s = normalize(snapshot);
  table = s;
  seats = s.seatInfo;
  bots = s.bots;
  gameFacts = s.facts;
}

const showStatus = statusPill(byId("status"), () => i18n);
/** The status pill: live only while both the stream and the last request reached the table. */
function pill(up) { showStatus(up && !offline); }

try { takeSeats(await fetchJSON(body.public)); } catch (_) { /* no names yet: "Seat N" until the stream brings them */ }
await reload();
// a dropped stream asks the table at once: the page then says whether it can reach the table at all
follow(body.events, { onState: onPublic, onEvent: reload, onStatus: (up) => { pill(up); if (!up || offline) reload(); } });
setInterval(() => { if (!document.body.dataset.gone) reload(); }, KEEPALIVE_MS);
