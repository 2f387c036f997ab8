// The replay of a finished game (/replay/<id>, host session or share link): step through its actions, the board
// drawn as the table page draws it at that step, and a "show hidden" switch laying open what was secret then.
import { byId, fetchJSON, h, morphChildren, replace, setText } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";
import { renderBoard, startFlips } from "./boards.js";
import { renderLog } from "./log.js";
import { normalize } from "./state.js";
import { revealList, secretsTable } from "./reveal.js";

const gameId = document.body.dataset.gameId;
const token = new URLSearchParams(location.search).get("t");
const query = token ? `?t=${encodeURIComponent(token)}` : "";

let i18n = await loadI18n(initialLang());
let record = null;
let step = null;  // the server's answer for the step shown: {step, steps, action, hidden, snapshot}
let prevView = null;
let appliedLang = null;
let timelineKey = "";
let botMoves = new Map();  // action index -> a bot's move: its seed, reason and params
const steps = new Map();  // step -> answer, fetched once each (a finished game does not change)

function showError(err) {
  const el = byId("replay-error");
  el.textContent = `${i18n.t("ui.error")}: ${err.code ? i18n.code(err.code, err.message) : err.message}`;
  el.hidden = false;
}

async function fetchStep(n) {
  if (!steps.has(n)) steps.set(n, fetchJSON(`/api/replay/${gameId}/step/${n}${query}`));
  try { return await steps.get(n); } catch (err) { steps.delete(n); throw err; }
}

function hidden() { return byId("show-hidden").checked; }

/** An action in words: who, and what kind of move (everything it carried once hidden things are shown, and
 * a bot's reason for it: its reasons tell its role). `index` is the action's place in the game. */
function actionText(action, open, index) {
  if (!action) return i18n.t("replay.setup");
  const who = action.seat === -1 ? i18n.t("ui.chance") : i18n.seat(action.seat);
  // closed, a move still says what the whole table saw it do (its public log lines: the nominee, the palace)
  const seen = (record.public_lines || [])[index] || [];
  if (!open && seen.length) return seen.map((e) => i18n.log(e)).join(" ");
  const did = i18n.t("replay.who_did", { who, what: open ? i18n.action(action) : i18n.kind(action.type) });
  const bot = open ? botMoves.get(index) : undefined;
  if (!bot) return did;
  const why = i18n.t(`games.${i18n.game}.bot_reasons.${bot.reason}`, bot.params || {}, bot.reason);
  return i18n.t("replay.bot_did", { did, why });
}

function drawTimeline() {
  const key = `${i18n.lang}.${hidden()}`;
  const list = byId("timeline");
  if (key !== timelineKey) {
    timelineKey = key;
    replace(list, h("li", { dataset: { step: 0 } }, h("button", { type: "button", class: "link" }, i18n.t("replay.setup"))),
      ...record.actions.map((a, i) => h("li", { dataset: botMoves.has(i) ? { step: i + 1, bot: "1" } : { step: i + 1 } },
        h("button", { type: "button", class: "link" }, actionText(a, hidden(), i)))));
  }
  for (const li of list.querySelectorAll("li.current")) li.classList.remove("current");
  const now = list.querySelector(`li[data-step="${step.step}"]`);
  if (now) {
    now.classList.add("current");
    list.scrollTop = Math.max(0, now.offsetTop - list.offsetTop - list.clientHeight / 2);
  }
}

function draw() {
  if (!record || !step) return;
  if (appliedLang !== i18n.lang) {  // static texts once per language; the pill says what this page is
    i18n.apply();
    appliedLang = i18n.lang;
    setText(byId("status"), i18n.t("replay.ready"));
  }
  const s = normalize(step.snapshot);
  i18n.setView(s.game, s.view);
  i18n.cards = { ...(record.card_info || {}), ...(i18n.cards || {}) };  // the timeline names cards of every step
  i18n.seats = s.seatInfo;
  i18n.facts = s.facts;
  const title = i18n.t(`games.${s.game}.title`, {}, s.game);
  setText(byId("replay-title"), i18n.t("replay.title_of", { game: title }));
  document.title = i18n.t("replay.title_of", { game: title });
  const started = record.started ? new Date(record.started * 1000).toLocaleString(i18n.lang) : "";
  setText(byId("replay-meta"), i18n.t("replay.meta", { date: started, actions: record.steps }));
  setText(byId("step-count"), i18n.t("replay.step_of", { n: step.step, total: record.steps }));
  setText(byId("step-action"), actionText(step.action, hidden(), step.step - 1));
  const out = byId("outcome");
  out.hidden = !s.outcome;
  if (s.outcome) {
    setText(out, i18n.t("ui.game_over", {
      winners: s.outcome.winners, reason: i18n.t(`games.${s.game}.outcomes.${s.outcome.reason}`, {}, s.outcome.reason) }));
  }
  const board = byId("board");
  morphChildren(board, renderBoard(s.game, s.view, {
    i18n, prev: prevView, toAct: s.toAct, facts: s.facts, winners: s.outcome ? s.outcome.winners : null }));
  startFlips(board);
  renderLog(byId("log"), i18n, s.view.log);
  const open = hidden();
  byId("hidden-panel").hidden = !open;
  byId("reveal-panel").hidden = !open;
  if (open) {
    replace(byId("hidden"), secretsTable(i18n, step.hidden.seats, s.seats));
    replace(byId("reveal"), revealList(i18n, s.game, record.reveal));
  }
  const scrub = byId("scrub");
  scrub.max = String(record.steps);
  scrub.value = String(step.step);
  byId("first").disabled = byId("back").disabled = step.step === 0;
  byId("last").disabled = byId("forward").disabled = step.step === record.steps;
  drawTimeline();
  document.body.dataset.step = `${step.step}.${i18n.lang}.${open ? 1 : 0}`;
}

async function go(n) {
  if (!record) return;
  const target = Math.max(0, Math.min(record.steps, n));
  try {
    const next = await fetchStep(target);
    prevView = step && Math.abs(next.step - step.step) === 1 ? step.snapshot.game.view : null;
    step = next;
    byId("replay-error").hidden = true;
    draw();
  } catch (err) { showError(err); }
}

byId("first").addEventListener("click", () => go(0));
byId("back").addEventListener("click", () => go(step.step - 1));
byId("forward").addEventListener("click", () => go(step.step + 1));
byId("last").addEventListener("click", () => go(record.steps));
byId("scrub").addEventListener("input", (ev) => go(Number(ev.target.value)));
byId("show-hidden").addEventListener("change", () => { prevView = null; draw(); });
byId("timeline").addEventListener("click", (ev) => {
  const li = ev.target.closest("li[data-step]");
  if (li) go(Number(li.dataset.step));
});
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement && ev.target.type !== "checkbox" && ev.target.type !== "range") return;
  if (ev.key === "ArrowRight") { ev.preventDefault(); go(step.step + 1); }
  if (ev.key === "ArrowLeft") { ev.preventDefault(); go(step.step - 1); }
});
wireLangSwitch((next) => { i18n = next; prevView = null; draw(); });

try {
  record = await fetchJSON(`/api/replay/${gameId}${query}`);
  botMoves = new Map((record.bot_moves || []).map((m) => [m.index, m]));
  await go(0);
} catch (err) { showError(err); }
