// The table screen (TV or tablet): the public view only.
import { byId, fetchJSON, h, morphChildren, replace, setText } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";
import { follow, statusPill } from "./live.js";
import { renderBoard, startFlips, usesSample } from "./boards.js";
import { renderLog } from "./log.js";
import { normalize } from "./state.js";

let i18n = await loadI18n(initialLang());
let current = null;
let prevView = null;

let appliedLang = null;

function draw() {
  if (appliedLang !== i18n.lang) { i18n.apply(); appliedLang = i18n.lang; }  // static texts: once per language
  const s = current;
  byId("idle").hidden = Boolean(s && s.running);
  if (!s || !s.running) { replace(byId("board")); replace(byId("log")); return; }
  i18n.game = s.game;
  i18n.seats = s.seatInfo;  // the configured names and colours every seat is drawn with
  i18n.facts = s.facts;
  setText(byId("game-title"), i18n.t(`games.${s.game}.title`, {}, s.game));
  setText(byId("phase"), s.phase ? i18n.phase(s.phase) : "");
  byId("sample").hidden = !usesSample(s.view);
  setText(byId("to-act"), s.toAct.size
    ? i18n.t("ui.waiting_for", { seats: [...s.toAct].sort((a, b) => a - b) })
    : s.chanceToAct ? i18n.t("ui.waiting_for_table") : "");
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
  morphChildren(board, renderBoard(s.game, s.view, { i18n, prev: prevView, toAct: s.toAct, facts: s.facts }));
  startFlips(board);
  renderLog(byId("log"), i18n, s.view.log);
  document.body.dataset.version = s.version;
}

function onState(data) {
  const next = normalize(data);
  prevView = current && current.game === next.game ? current.view : null;
  current = next;
  draw();
}

wireLangSwitch((next) => { i18n = next; prevView = null; draw(); });
const stateUrl = document.body.dataset.state;
if (stateUrl) {
  try { onState(await fetchJSON(stateUrl)); } catch (e) { replace(byId("board"), h("p", { class: "error" }, e.message)); }
}
/** Inputs the table refused or could not read: shown at once with the reason, for everyone. */
function onEvent(type, data) {
  if (type !== "rejected" && type !== "unknown_tag") return;
  const el = byId("table-notice");
  const n = Number(el.dataset.count || 0) + 1;
  el.dataset.count = String(n);
  el.dataset.zone = data.zone || "";
  el.textContent = type === "unknown_tag"
    ? i18n.t("ui.unknown_tag_at", { zone: data.zone })
    : i18n.t("ui.rejected_at", { zone: data.zone, reason: i18n.code(data.code, data.code) });
  el.hidden = false;
  window.dispatchEvent(new CustomEvent("table-notice", { detail: { n, type } }));
}

follow(document.body.dataset.events, { onState, onEvent, onStatus: statusPill(byId("status"), () => i18n) });
