// Guided enrollment on the host console: pick a game and seat count, and each tap at any reader enrolls the
// component the panel names (one tap, no form); skip, undo-last, "tap again to check" and "verify deck" modes;
// progress per kind; label sheets to print first. The host console's refresh hands over each new host state.
import { byId, fetchJSON, h, postJSON, replace } from "./dom.js";
import { initialLang, loadI18n, wireLangSwitch } from "./i18n.js";

let i18n = await loadI18n(initialLang());
let games = [];
let guide = null;
let deck = null;  // the deck list of the game and seat count picked (label-sheet pages)

const named = (o) => (o ? (o[i18n.lang] ?? o.en ?? "") : "");
/** A text with plain {placeholders} filled as given (names here are already words, never ids). */
function say(key, params = {}) {
  return Object.entries(params).reduce((text, [k, v]) => text.split(`{${k}}`).join(String(v)), i18n.t(key));
}

function fail(err) {
  const el = byId("gd-error");
  el.hidden = !err;
  el.textContent = err ? `${i18n.t("ui.refused")}: ${err.code ? i18n.code(err.code, err.message) : err.message}` : "";
}

async function command(name, body = {}) {
  try {
    const res = await postJSON(`/api/host/${name}`, body);
    fail(null);
    if ("guide" in res) draw(res.guide);
    return res;
  } catch (err) { fail(err); return null; }
}

function drawPicker() {
  const select = byId("gd-game");
  const picked = select.value || (guide && guide.game) || "";
  replace(select, games.map((g) => h("option", { value: g.name, selected: g.name === picked }, i18n.t(`games.${g.name}.title`, {}, g.title))));
  const game = games.find((g) => g.name === select.value);
  const seats = byId("gd-seats");
  const seat = Number(seats.value) || (guide && guide.game === select.value ? guide.seats : game ? game.max_seats : 0);
  replace(seats, game ? Array.from({ length: game.max_seats - game.min_seats + 1 }, (_, i) => game.min_seats + i)
    .map((n) => h("option", { value: n, selected: n === seat }, String(n))) : []);
}

async function loadDeck() {
  const game = byId("gd-game").value, seats = byId("gd-seats").value;
  try { deck = game && seats ? await fetchJSON(`/host/decks/${encodeURIComponent(game)}/${seats}.json`) : null; } catch (_) { deck = null; }
  drawSheets();
}

function drawSheets() {
  const box = byId("gd-sheets");
  if (!deck) { replace(box); return; }
  const links = [];
  for (const [paper, pages] of Object.entries(deck.pages)) {
    for (let page = 1; page <= pages; page++) {
      links.push(h("a", { class: "button sheet", target: "_blank", dataset: { paper, page },
        href: `/host/labels/${encodeURIComponent(deck.game)}/${deck.seats}.svg?paper=${paper}&page=${page}` },
        say("enroll.sheet", { paper: paper === "a4" ? "A4" : "Letter", page, pages })));
    }
  }
  replace(box, h("span", { class: "muted" }, say("enroll.components", { n: deck.total })), links);
}

const LAST = { enrolled: "enroll.enrolled", known: "enroll.known", unknown: "enroll.unknown", seen: "enroll.seen", done: "enroll.done_tap" };

function lastText(last, mode) {
  if (last.result === "unknown" && mode === "verify") return last.en ? say("enroll.not_listed", { name: named(last) }) : i18n.t("enroll.unknown");
  return say(LAST[last.result] || "enroll.unknown", { name: named(last) });
}

function nextText(g) {
  if (g.mode === "check") return i18n.t("enroll.check_hint");
  if (g.mode === "verify") return i18n.t("enroll.verify_hint");
  return g.next ? say("enroll.next", { name: named(g.next), n: g.next.position, total: g.total }) : i18n.t("enroll.all_done");
}

function drawProgress(g) {
  return h("ul", { class: "guide-kinds" }, g.kinds.map((k) => h("li", { dataset: { kind: k.kind } },
    say("enroll.progress", { kind: named(k.words), done: k.done, total: k.total }),
    k.skipped ? h("span", { class: "muted" }, ` · ${say("enroll.skipped", { n: k.skipped })}`) : null)));
}

function drawVerify(v) {
  if (!v) return [];
  const rows = v.kinds.map((k) => h("li", { dataset: { kind: k.kind }, class: k.missing.length ? "short" : "full" },
    say("enroll.verify_kind", { kind: named(k.words), seen: k.seen, total: k.total }),
    k.missing.length ? h("span", { class: "missing" }, ` · ${say("enroll.missing", {
      list: k.missing.map((m) => say("enroll.times", { name: named(m), n: m.count })).join(", ") })}`) : null));
  return [h("ul", { class: "guide-kinds", id: "gd-report" }, rows),
    h("p", { id: "gd-unknown", dataset: { n: v.unknown } }, say("enroll.unknown_count", { n: v.unknown })),
    h("p", { id: "gd-complete", class: v.complete ? "verdict-innocent" : "verdict-guilty", dataset: { complete: v.complete ? "1" : "" } },
      i18n.t(v.complete ? "enroll.complete" : "enroll.incomplete"))];
}

function draw(g) {
  guide = g;
  const body = byId("guide-body");
  body.hidden = !g;
  byId("gd-start").textContent = i18n.t(g ? "enroll.restart" : "enroll.start");
  if (!g) return;
  body.dataset.mode = g.mode;
  body.dataset.done = String(g.done);
  for (const b of document.querySelectorAll("#gd-modes button")) b.setAttribute("aria-pressed", String(b.dataset.mode === g.mode));
  byId("gd-title").textContent = `${i18n.t(`games.${g.game}.title`, {}, g.game)} · ${i18n.t("host.seats_n", { n: g.seats })} · ${say("enroll.count", { done: g.done, total: g.total })}`;
  const next = byId("gd-prompt");
  next.textContent = nextText(g);
  next.dataset.position = g.next ? String(g.next.position) : "";
  const last = byId("gd-last");
  last.hidden = !g.last;
  if (g.last) {
    const text = lastText(g.last, g.mode);
    if (last.textContent !== text || last.dataset.done !== String(g.done)) last.classList.remove("pop");
    last.textContent = text;
    last.dataset.result = g.last.result;
    last.dataset.done = String(g.done);
    void last.offsetWidth;  // restart the confirmation's pulse on every tap
    last.classList.add("pop");
  }
  byId("gd-skip").disabled = g.mode !== "enroll" || !g.next;
  byId("gd-undo").disabled = g.mode !== "enroll" || !g.can_undo;
  replace(byId("gd-progress"), drawProgress(g));
  replace(byId("gd-verify"), drawVerify(g.verify));
}

byId("guide-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  command("guide_start", { game: byId("gd-game").value, seats: Number(byId("gd-seats").value) });
});
byId("gd-game").addEventListener("change", () => { byId("gd-seats").value = ""; drawPicker(); loadDeck(); });
byId("gd-seats").addEventListener("change", loadDeck);
for (const b of document.querySelectorAll("#gd-modes button")) b.addEventListener("click", () => command("guide_mode", { mode: b.dataset.mode }));
byId("gd-skip").addEventListener("click", () => command("guide_skip"));
byId("gd-undo").addEventListener("click", () => command("guide_undo"));
byId("gd-stop").addEventListener("click", () => command("guide_stop"));
document.addEventListener("host-state", (ev) => draw((ev.detail || {}).guide || null));
wireLangSwitch(async (next) => { i18n = next; drawPicker(); drawSheets(); draw(guide); });

if (document.body.dataset.loggedIn) {
  try { games = (await fetchJSON("/host/games.json")).games; } catch (err) { fail(err); }
  try { draw((await fetchJSON("/api/host/state")).guide || null); } catch (_) { draw(null); }
  drawPicker();
  await loadDeck();
}
