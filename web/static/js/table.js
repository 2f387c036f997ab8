// The table screen (TV or tablet): the public view only.
import { byId, fetchJSON, h, morphChildren, replace, setText } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";
import { follow, statusPill } from "./live.js";
import { renderBoard, startFlips, usesSample } from "./boards.js";
import { fitWhole, renderLog } from "./log.js";
import { revealList } from "./reveal.js";
import { normalize } from "./state.js";
import { readingText } from "./flow.js";
import { showTimer } from "./timer.js";

/** How long a refusal or unknown-tag banner stays up: long enough to read from across the room. */
const NOTICE_MS = 8000;

let i18n = await loadI18n(initialLang());
let current = null;
let prevView = null;
let appliedLang = null;
let notice = null;  // {type, data, gameId, timer}: the banner shown now, redrawn on a language switch
let reveal = null;  // {version, lines}: what really happened in the game that just ended (/api/reveal)

function draw() {
  if (appliedLang !== i18n.lang) { i18n.apply(); appliedLang = i18n.lang; }  // static texts: once per language
  const s = current;
  const running = Boolean(s && s.running);
  const said = s && s.announcement;  // the venue's words, as text (never markup), until the host dismisses them
  byId("announcement").hidden = !said;
  setText(byId("announcement-text"), said ? said.text : "");
  byId("idle").hidden = running;
  byId("enrolling").hidden = !(running && s.enrolling);  // a game waits on enrollment: say so, never silently
  document.getElementById("layout").dataset.game = running ? s.game : "";
  if (!running) {  // nothing of the last game stays on the screen
    replace(byId("board"));
    replace(byId("log"));
    setText(byId("game-title"), i18n.t("ui.app"));
    byId("phase").hidden = true;
    byId("sample").hidden = true;
    setText(byId("to-act"), "");
    byId("outcome").hidden = true;
    byId("check").hidden = true;
    byId("reading").hidden = true;
    return;
  }
  i18n.setView(s.game, s.view);
  i18n.seats = s.seatInfo;  // the configured names and colours every seat is drawn with
  i18n.bots = s.bots;
  i18n.facts = s.facts;
  setText(byId("game-title"), i18n.t(`games.${s.game}.title`, {}, s.game));
  setText(byId("phase"), s.phase ? i18n.phase(s.phase) : "");
  byId("phase").hidden = !s.phase;
  byId("sample").hidden = !usesSample(s.view);
  const reading = s.outcome ? [] : s.reading;
  const waiting = [...s.toAct].sort((a, b) => a - b);
  setText(byId("to-act"), s.outcome ? "" : waiting.length
    ? i18n.t("ui.waiting_for", { seats: waiting })
    : s.chanceToAct && !reading.length ? i18n.t("ui.waiting_for_table") : "");
  // names that do not fit the header line are counted instead of cut ("Waiting for Seat 1, Seat 2, Se…")
  const toAct = byId("to-act");
  if (!s.outcome && waiting.length > 1 && toAct.scrollWidth > toAct.clientWidth + 1) {
    setText(toAct, i18n.t("ui.waiting_for_n", { n: waiting.length }));
  }
  // where the table waits for cards and how many it has read: the count moves with every tap
  byId("reading").hidden = !reading.length;
  replace(byId("reading"), ...reading.map((r) => h("p", { dataset: { zone: r.zone, got: r.got } }, readingText(i18n, r))));
  const out = byId("outcome");
  out.hidden = !s.outcome;
  if (s.outcome) {
    setText(out, i18n.t("ui.game_over", {
      winners: s.outcome.winners,
      reason: i18n.t(`games.${s.game}.outcomes.${s.outcome.reason}`, {}, s.outcome.reason),
    }));
  }
  const check = byId("check");
  check.hidden = s.status !== "resume_check";
  if (!check.hidden) setText(check, `${i18n.t("ui.expected_vs_seen")} ${s.mismatched.map((z) => i18n.zone(z)).join(", ")}`);
  const board = byId("board");
  // patched, not rebuilt: a tap changes a badge or two, and only those are laid out and painted again
  morphChildren(board, renderBoard(s.game, s.view, {
    i18n, prev: prevView, toAct: s.toAct, facts: s.facts, winners: s.outcome ? s.outcome.winners : null }));
  startFlips(board);
  fitNames(board);
  const revealed = Boolean(s.outcome && reveal && reveal.version === s.version);
  // once the game is over the log's place shows what really happened (the table opens it only then)
  setText(document.querySelector(".log-panel > h2"), i18n.t(revealed ? "replay.reveal_title" : "ui.log"));
  if (revealed) {
    replace(byId("log"), ...revealList(i18n, s.game, reveal.lines).children);
    requestAnimationFrame(() => fitWhole(byId("log")));
  } else {
    if (byId("log").style.fontSize) byId("log").style.removeProperty("font-size");
    renderLog(byId("log"), i18n, s.view.log);
  }
  document.body.dataset.version = s.version;
  document.body.dataset.revealed = revealed ? s.version : "";
}

/** A seat name that would take two lines is drawn a little smaller (down to 87%, still read from 3 m) to keep to
 * one; a name still too long wraps between words, never cut. */
function fitNames(root) {
  for (const el of root.querySelectorAll(".seat .name")) {
    if (el.style.fontSize) el.style.removeProperty("font-size");
    const cs = getComputedStyle(el);
    const base = parseFloat(cs.fontSize);
    const oneLine = Math.max(parseFloat(cs.lineHeight) || base * 1.2, base * 1.2) * 1.5;
    for (const pct of [95, 91, 87]) {
      if (el.getBoundingClientRect().height <= oneLine) break;
      el.style.setProperty("font-size", `${(base * pct) / 100}px`);
    }
  }
}

/** Fetch the reveal of a game that just ended (refused while it runs: then the log stays). */
async function fetchReveal(version) {
  try {
    const res = await fetchJSON("/api/reveal");
    if (current && current.version === version) { reveal = { version, lines: res.reveal }; draw(); }
  } catch (_) { /* the game was undone or replaced meanwhile: nothing to reveal */ }
}

/** Take the banner down (its time is up, the game ended, or another game began). */
function clearNotice() {
  if (notice) clearTimeout(notice.timer);
  notice = null;
  const el = byId("table-notice");
  el.hidden = true;
  el.textContent = "";
}

/** A zone in words: a seat's zone by the seat's configured name, a shared zone (board, centre) as the table. */
function zoneName(zone) {
  return /^seat:\d+$/.test(String(zone || "")) ? i18n.zone(zone) : i18n.t("ui.chance");
}

function drawNotice() {
  if (!notice) return;
  const { type, data } = notice;
  const el = byId("table-notice");
  el.dataset.type = type;
  // a refusal's reason comes only when it tells no secret; otherwise everyone reads that the zone was not
  // accepted, and the seat that tapped reads why on its own page
  setText(el, type === "unknown_tag"
    ? i18n.t("ui.unknown_tag_at", { zone: zoneName(data.zone) })
    : data.code ? i18n.t("ui.rejected_at", { zone: zoneName(data.zone), reason: i18n.code(data.code, data.code) })
      : i18n.t("ui.not_accepted_at", { zone: zoneName(data.zone) }));
  el.hidden = false;
}

let receivedAt = 0;  // when the latest state arrived: the timer counts down from its remaining_ms since then

function onState(data) {
  receivedAt = performance.now();
  const next = normalize(data);
  const gameId = next.running ? next.version.split(".")[0] : null;
  if (notice && (gameId !== notice.gameId || next.outcome)) clearNotice();  // never outlives its game
  prevView = current && current.game === next.game ? current.view : null;
  current = next;
  draw();
  if (next.outcome && (!reveal || reveal.version !== next.version)) fetchReveal(next.version);
}

wireLangSwitch((next) => { i18n = next; prevView = null; draw(); drawNotice(); });
const stateUrl = document.body.dataset.state;
if (stateUrl) {
  try { onState(await fetchJSON(stateUrl)); } catch (e) { replace(byId("board"), h("p", { class: "error" }, e.message)); }
}

/** Inputs the table refused or could not read: shown at once with the reason, for everyone, for NOTICE_MS. */
function onEvent(type, data) {
  if (type !== "rejected" && type !== "unknown_tag") return;
  clearNotice();
  const gameId = current && current.running ? current.version.split(".")[0] : null;
  notice = { type, data, gameId, timer: setTimeout(clearNotice, NOTICE_MS) };
  drawNotice();
}

follow(document.body.dataset.events, { onState, onEvent, onStatus: statusPill(byId("status"), () => i18n) });
showTimer(byId("timer"), () => ({ timer: current && current.running && !current.outcome ? current.timer : null,
  receivedAt, i18n }));
