// Each game's board drawn from its PUBLIC view only (docs/ARCHITECTURE.md "Views never leak"). A renderer gets
// (view, ctx) with ctx = {i18n, prev, toAct: Set, seats, facts, winners} and returns one element; `facts` are the
// game's fixed facts as its binding exports them (snapshot game.table_info.facts: power track, palaces, loot...);
// `winners` the outcome's seats once the game is over, else null.
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
function range(n) {
  return Array.from({ length: n }, (_, i) => i);
}

function panel(titleKey, i18n, ...children) {
  return h("section", { class: "panel", dataset: { part: titleKey.split(".").pop() } }, h("h2", {}, i18n.t(titleKey)), ...children);
}

/** A board in two groups, so the table screen can lay each out in its own column (see app.css, the table screen). */
function board(cls, main, side) {
  return h("div", { class: `board ${cls}` }, h("div", { class: "board-main" }, main), h("div", { class: "board-side" }, side));
}

/** The "winner" badge for a seat once the game is over. */
function winnerBadge(i18n, winners, seat) {
  return Array.isArray(winners) && winners.includes(seat) ? h("span", { class: "badge winner", dataset: { winner: seat } }, i18n.t("ui.winner")) : null;
}

function kv(i18n, pairs) {
  return h("div", { class: "kv" }, pairs.flatMap(([k, v]) => [h("span", { class: "muted" }, i18n.t(k)), h("span", {}, v)]));
}

/** "has chosen" badges from a per-seat list of booleans (voted / chosen / ...). */
function chosenBadge(i18n, list, seat) {
  return Array.isArray(list) && list[seat] ? h("span", { class: "badge chosen", dataset: { chosen: seat } }, i18n.t("ui.has_chosen")) : null;
}

/** Who has made the hidden choice being collected now (never what they chose). */
function chosenList(view) {
  if (view.phase === "respond" && Array.isArray(view.responded)) return view.responded;
  for (const k of ["voted", "chosen", "has_chosen", "committed"]) if (Array.isArray(view[k])) return view[k];
  return null;
}

// --- Secret Hitler --------------------------------------------------------------------------------

function secretHitler(view, ctx) {
  const { i18n, prev, toAct } = ctx;
  const facts = ctx.facts || {};
  const powers = facts.power_track || [];
  const liberal = facts.liberal_track || 0;
  const lib = h("div", { class: "track liberal", dataset: { track: "liberal" } },
    range(liberal).map((i) => h("div", { class: `slot ${i < view.liberal_policies ? "filled" : ""}` },
      i === liberal - 1 ? i18n.t("games.secret_hitler.board.liberal_win") : "")));
  const fas = h("div", { class: "track fascist", dataset: { track: "fascist" } },
    powers.map((p, i) => h("div", { class: `slot ${i < view.fascist_policies ? "filled" : ""}` },
      p ? i18n.t(`games.secret_hitler.board.power_${p}`) : "")));
  const tracker = h("div", { class: "track election", dataset: { track: "election" } },
    range(facts.election_track || 0).map((i) => h("div", { class: `slot ${i < view.election_tracker ? "filled" : ""}` },
      String(i + 1))));
  const revealNow = Array.isArray(view.votes) && view.votes.some((v) => v) &&
    !(prev && Array.isArray(prev.votes) && prev.votes.some((v) => v));
  const seatEls = (view.alive || []).map((alive, s) => {
    const vote = Array.isArray(view.votes) ? view.votes[s] : null;
    const card = h("div", { class: "vote-card", dataset: { seat: s, vote: vote || "" } },
      h("div", { class: "inner" },
        h("div", { class: "face back" }, "?"),
        h("div", { class: `face front ${vote || ""}` }, vote ? i18n.word(vote) : "")));
    if (vote) {
      if (revealNow) card.dataset.flip = "";  // turned over by startFlips once it is in the page
      else card.classList.add("revealed");
    }
    const showCard = vote || (Array.isArray(view.voted) && view.voted[s]);
    const role = Array.isArray(view.roles) ? view.roles[s] : null;  // every role, once the game is over
    return h("div", { class: `seat ${toAct.has(s) ? "acting" : ""}`, dataset: { seat: s } },
      h("div", { class: "name" }, seatChip(i18n, s), " ", i18n.seat(s)),
      role ? h("span", { class: `badge role role-${role}`, dataset: { role } }, i18n.word(role)) : null,
      winnerBadge(i18n, ctx.winners, s),
      s === view.president ? h("span", { class: "badge president" }, i18n.word("president")) : null,
      s === view.chancellor ? h("span", { class: "badge chancellor" }, i18n.word("chancellor")) : null,
      !alive ? h("span", { class: "badge dead" }, i18n.t("ui.dead")) : null,
      !role && (view.term_limited || []).includes(s) ? h("span", { class: "badge limited" }, i18n.t("games.secret_hitler.board.term_limited")) : null,
      toAct.has(s) ? h("span", { class: "badge turn" }, i18n.t("ui.to_act")) : null,
      vote ? null : chosenBadge(i18n, view.voted, s),
      showCard ? card : null);
  });
  return board("sh", [
    panel("games.secret_hitler.board.liberal_track", i18n, lib),
    panel("games.secret_hitler.board.fascist_track", i18n, fas,
      view.veto_unlocked ? h("p", { class: "badge" }, i18n.t("games.secret_hitler.board.veto_unlocked")) : null),
    panel("games.secret_hitler.board.election_tracker", i18n, h("div", { class: "row election-row" }, tracker,
      kv(i18n, [["games.secret_hitler.board.draw_pile", String(view.draw_pile ?? "—")],
        ["games.secret_hitler.board.discard_pile", String(view.discard_pile ?? "—")]])))],
  panel("ui.seats", i18n, h("div", { class: "seats", dataset: { count: seatEls.length } }, seatEls)));
}

// --- Gangster's Dilemma ---------------------------------------------------------------------------

/** What the bank pays or takes since the previous view: money and loot per player and location. */
export function bankInstructions(prev, view, loot) {
  if (!prev || !Array.isArray(prev.players) || !Array.isArray(view.players)) return [];
  const out = [];
  view.players.forEach((p, s) => {
    const q = prev.players[s];
    if (!q) return;
    const delta = {};
    for (const k of ["money", ...loot]) if ((p[k] ?? 0) !== (q[k] ?? 0)) delta[k] = (p[k] ?? 0) - (q[k] ?? 0);
    if (Object.keys(delta).length) out.push({ seat: s, delta });
  });
  (view.locations || []).forEach((l, i) => {
    const m = prev.locations && prev.locations[i];
    if (m && (l.money ?? 0) !== (m.money ?? 0)) out.push({ location: l.id, delta: { money: l.money - m.money } });
  });
  return out;
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

function gangsters(view, ctx) {
  const { i18n, toAct, prev } = ctx;
  const loot = (ctx.facts || {}).loot || [];
  const chosen = ctx.winners ? null : chosenList(view);  // after the game nobody is choosing
  const locs = (view.locations || []).map((l) => h("div", {
    class: `location ${l.closed ? "closed" : ""} ${view.resolving === l.id ? "acting" : ""}`, dataset: { location: l.id } },
    h("div", { class: "name" }, `${l.id}. `, l.name ? i18n.word(l.name) : i18n.t(`games.gangsters_dilemma.locations.${l.id}`, {}, String(l.id))),
    h("div", { class: "big" }, i18n.t("games.gangsters_dilemma.board.dollars", { n: l.money ?? 0 })),
    l.closed ? h("span", { class: "badge dead" }, i18n.word("closed")) : null,
    l.patrolled ? h("span", { class: "badge president" }, i18n.t("games.gangsters_dilemma.board.patrolled")) : null,
    h("div", {}, (l.visitors || []).map((s) => seatChip(i18n, s)))));
  const rows = (view.players || []).map((p, s) => h("tr", { class: toAct.has(s) ? "acting" : "", dataset: { seat: s } },
    h("td", {}, seatChip(i18n, s), " ", i18n.seat(s), s === view.police ? h("span", { class: "badge president" }, i18n.word("police")) : null,
      toAct.has(s) ? h("span", { class: "badge turn" }, i18n.t("ui.to_act")) : null, chosenBadge(i18n, chosen, s),
      winnerBadge(i18n, ctx.winners, s)),
    h("td", {}, p.character ? i18n.word(p.character) : "—"),
    h("td", {}, i18n.t("games.gangsters_dilemma.board.dollars", { n: p.money ?? 0 })),
    loot.map((k) => h("td", {}, String(p[k] ?? 0))),
    h("td", { class: "big" }, String(p.vp ?? 0)),
    h("td", {}, (p.demands || []).join(", "))));
  const cards = view.demand_cards || {};
  const demands = (view.demands || []).map((id) => {
    const c = cards[id] || {};
    return h("li", { dataset: { demand: id } },
      i18n.t("games.gangsters_dilemma.board.demand", { id, vp: c.vp ?? "?", needs: c.needs || {} }));
  });
  const bank = bankInstructions(prev, view, loot).map((b) => h("li", {},
    b.seat !== undefined ? i18n.seat(b.seat) : i18n.t(`games.gangsters_dilemma.locations.${b.location}`, {}, String(b.location)),
    ": ", Object.entries(b.delta).map(([k, d]) => k === "money" ? i18n.t("games.gangsters_dilemma.board.money_delta", { n: signed(d) })
      : i18n.t("games.gangsters_dilemma.board.loot_delta", { n: signed(d), item: i18n.word(k) })).join(", ")));
  return board("gd", [
    kv(i18n, [["ui.round", String(view.round ?? "—")], ["games.gangsters_dilemma.board.deck", String(view.deck ?? "—")]]),
    panel("games.gangsters_dilemma.board.locations", i18n, h("div", { class: "locations", dataset: { count: locs.length } }, locs)),
    panel("ui.players", i18n, h("table", { class: "data" },
      h("thead", {}, h("tr", {}, ["ui.seat", "games.gangsters_dilemma.board.character", "games.gangsters_dilemma.board.money"]
        .map((k) => h("th", {}, i18n.t(k))), loot.map((k) => h("th", {}, i18n.word(k))),
        h("th", {}, i18n.t("ui.vp")), h("th", {}, i18n.t("games.gangsters_dilemma.board.fulfilled")))),
      h("tbody", {}, rows)))], [
    h("section", { class: "panel bank" }, h("h2", {}, i18n.t("games.gangsters_dilemma.board.bank")),
      bank.length ? h("ul", { class: "bank-list" }, bank) : h("p", { class: "muted" }, i18n.t("games.gangsters_dilemma.board.bank_nothing"))),
    panel("games.gangsters_dilemma.board.demands", i18n, demands.length ? h("ul", {}, demands) : h("p", { class: "muted" }, "—"))]);
}

// --- Boss's Wallet --------------------------------------------------------------------------------

/** A small hourglass drawn as SVG (no icon font: nothing comes from outside). */
function hourglassIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 10 16");
  svg.setAttribute("width", "18");
  svg.setAttribute("height", "28");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M1 1h8M1 15h8M2 1c0 5 6 5 6 7s-6 2-6 7M8 1c0 5-6 5-6 7s6 2 6 7");
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", "1.2");
  svg.appendChild(path);
  return svg;
}

function cu(cents) { return (Number(cents) / 100).toFixed(2); }

/** A seat's victory chips at game over: "1 + 3 + 2 = 6", the total set apart. */
function chipTotal(values) {
  const list = Array.isArray(values) ? values : [];
  const total = String(list.reduce((a, b) => a + b, 0));
  return [list.length ? h("span", { class: "chip-sum" }, `${list.join(" + ")} = `) : null, h("b", { class: "chip-total" }, total)];
}

/** A judged seat's verdict in words: verdict, identity, confiscation. */
function verdictCell(i18n, p) {
  return h("td", { class: p.verdict ? `verdict-${p.verdict}` : "", dataset: { verdict: p.verdict || "" } },
    p.verdict ? i18n.word(p.verdict) : "—", p.identity ? h("span", { class: "identity" }, ` (${i18n.word(p.identity)})`) : "",
    p.on_duty ? h("span", { class: "badge" }, i18n.t("games.boss_wallet.board.on_duty")) : null,
    p.confiscated_by !== null && p.confiscated_by !== undefined
      ? h("div", { class: "muted" }, i18n.t("games.boss_wallet.board.confiscated", { confiscated_by: p.confiscated_by, amount: cu(p.confiscated_cents || 0) })) : null);
}

function reasonsCell(i18n, p) {
  return h("td", {}, h("ul", {}, (p.reasons || []).map((r) => h("li", { dataset: { reason: r } },
    i18n.t(`games.boss_wallet.reasons.${r}`, {}, r)))));
}

function handCell(i18n, p, info) {
  return h("td", {}, Array.isArray(p.hand) ? p.hand.map((c) => i18n.card(String(c), info)).join(", ") : "—");
}

/** The latest judged round as it was shown (`last_round`): kept on the board through the next round, since
 * a digital table deals the next round in the same step that ends this one. Per-seat rows only while the
 * players table is not itself showing verdicts. */
function lastRound(view, i18n, withPlayers) {
  const last = view.last_round;
  if (!last) return null;
  const players = withPlayers ? h("table", { class: "data", dataset: { lastRound: last.round } },
    h("thead", {}, h("tr", {}, ["ui.seat", "games.boss_wallet.board.wealth", "games.boss_wallet.board.verdict",
      "games.boss_wallet.board.reasons", "games.boss_wallet.board.hand"].map((k) => h("th", {}, i18n.t(k))))),
    h("tbody", {}, (last.players || []).map((p) => h("tr", { dataset: { seat: p.seat } },
      h("td", {}, seatChip(i18n, p.seat), " ", i18n.seat(p.seat)),
      h("td", {}, p.wealth_cents !== undefined ? cu(p.wealth_cents) : "—"),
      verdictCell(i18n, p), reasonsCell(i18n, p), handCell(i18n, p, view.card_info))))) : null;
  const investigations = (last.investigations || []).map((x) => h("li", { dataset: { investigation: x.target } },
    i18n.t("games.boss_wallet.board.investigation_result", { seat: x.seat, target: x.target, verdict: x.guilty ? "guilty" : "innocent" })));
  return h("section", { class: "panel last-round", dataset: { round: last.round } },
    h("h2", {}, i18n.t("games.boss_wallet.board.last_round", { round: last.round })),
    players,
    investigations.length ? h("ul", {}, investigations) : null,
    kv(i18n, [["games.boss_wallet.board.award_order", (last.ranking || []).length ? i18n.value("seats", last.ranking) : "—"],
      ["games.boss_wallet.board.awards", (last.awards || []).length
        ? last.awards.map((a) => i18n.t("games.boss_wallet.board.award", { seat: a.seat, chips: a.chips })).join(", ")
        : "—"]]));
}

function bossWallet(view, ctx) {
  const { i18n, toAct } = ctx;
  const chosen = ctx.winners ? null : chosenList(view);  // after the game nobody is choosing
  const glasses = h("div", { class: "hourglasses", dataset: { flipped: view.hourglasses ?? 0 } },
    Array.from({ length: view.hourglasses_total ?? 6 }, (_, i) => i).map((i) => h("div", {
      class: `hourglass ${i < (view.hourglasses ?? 0) ? "flipped" : ""}` }, hourglassIcon())));
  const verdicts = (view.players || []).some((p) => p.verdict);
  const over = (view.players || []).some((p) => Array.isArray(p.chip_values));  // the values show at game over
  const rows = (view.players || []).map((p, s) => h("tr", { dataset: { seat: s } },
    h("td", {}, seatChip(i18n, s), " ", i18n.seat(s),
      s === view.turn ? h("span", { class: "badge turn" }, i18n.t("ui.turn")) : null,
      s === view.start_seat ? h("span", { class: "badge" }, i18n.t("games.boss_wallet.board.start_seat")) : null,
      toAct.has(s) && s !== view.turn ? h("span", { class: "badge turn" }, i18n.t("ui.to_act")) : null,
      chosenBadge(i18n, chosen, s), winnerBadge(i18n, ctx.winners, s)),
    h("td", { class: "big" }, String(p.chips ?? 0)),
    over ? h("td", { class: "chip-values", dataset: { chipValues: (p.chip_values || []).join(",") } }, chipTotal(p.chip_values)) : null,
    h("td", {}, String(p.hand_size ?? "—"), p.scanned && !verdicts ? h("span", { class: "badge chosen" }, i18n.t("games.boss_wallet.board.scanned")) : null),
    verdicts ? [
      h("td", {}, p.wealth_cents !== undefined ? cu(p.wealth_cents) : "—"),
      verdictCell(i18n, p), reasonsCell(i18n, p), handCell(i18n, p, view.card_info)] : null));
  const players = panel("ui.players", i18n, h("table", { class: "data" },
    h("thead", {}, h("tr", {}, h("th", {}, i18n.t("ui.seat")), h("th", {}, i18n.t("games.boss_wallet.board.chips")),
      over ? h("th", {}, i18n.t("games.boss_wallet.board.chip_values")) : null,
      h("th", {}, i18n.t("games.boss_wallet.board.hand_size")),
      verdicts ? ["games.boss_wallet.board.wealth", "games.boss_wallet.board.verdict", "games.boss_wallet.board.reasons",
        "games.boss_wallet.board.hand"].map((k) => h("th", {}, i18n.t(k))) : null)),
    h("tbody", {}, rows)));
  const investigations = (view.investigations || []).length ? panel("games.boss_wallet.board.investigations", i18n, h("ul", {},
    view.investigations.map((x) => h("li", {}, i18n.t("games.boss_wallet.board.investigated", { seat: x.seat, target: x.target }))))) : null;
  // the wide table (verdicts now, else the last round's) takes the main column, the narrow one the side
  const counts = kv(i18n, [["ui.round", `${view.round ?? "—"} / ${view.rounds ?? 3}`],
    ["games.boss_wallet.board.wallet", String(view.wallet ?? "—")]]);
  const hourglasses = panel("games.boss_wallet.board.hourglasses", i18n, glasses);
  if (verdicts) return board("bw verdicts", [h("div", { class: "row bw-top" }, counts, hourglasses, lastRound(view, i18n, false)), players], [investigations]);
  return board("bw", [counts, lastRound(view, i18n, true)], [hourglasses, players, investigations]);
}

// --- Thief of Baghdad -----------------------------------------------------------------------------

function thief(view, ctx) {
  const { i18n, toAct } = ctx;
  const colours = (ctx.facts || {}).palace_colours || {};
  const palaces = (view.palaces || []).map((p) => h("div", {
    class: "palace", dataset: { palace: p.color }, style: { "--pc": colours[p.color] || "#888" } },
    h("div", { class: "name" }, i18n.word(p.color)),
    h("div", {}, h("span", { class: "muted" }, i18n.t("games.thief_of_baghdad.board.guards"), ": "),
      (p.guards || []).map((g) => seatChip(i18n, g))),
    h("div", {}, h("span", { class: "muted" }, i18n.t("games.thief_of_baghdad.board.thieves"), ": "),
      (p.thieves || []).map((n, s) => n ? h("span", { class: "thieves", dataset: { thieves: s }, title: i18n.seat(s) }, seatChip(i18n, s), `×${n}`) : null)),
    h("div", {}, h("span", { class: "muted" }, i18n.t("games.thief_of_baghdad.board.chests"), ": "),
      (p.chests || []).length ? p.chests.map((c, i) => h("span", { class: `badge ${i === 0 ? "turn" : ""}` }, String(c))) : "—")));
  const rows = (view.players || []).map((p, s) => h("tr", { dataset: { seat: s } },
    h("td", {}, seatChip(i18n, s), " ", i18n.seat(s), s === view.turn ? h("span", { class: "badge turn" }, i18n.t("ui.turn")) : null,
      toAct.has(s) && s !== view.turn ? h("span", { class: "badge turn" }, i18n.t("ui.to_act")) : null,
      winnerBadge(i18n, ctx.winners, s)),
    ["supply", "guards_unplaced", "chests", "hand_size"].map((k) =>
      h("td", { class: k === "chests" ? "big" : "" }, Array.isArray(p[k]) ? p[k].length + ` (${p[k].join(", ")})` : String(p[k] ?? 0)))));
  return board("tob", [
    kv(i18n, [["games.thief_of_baghdad.board.thief_moves", `${view.thief_moves ?? 0} / ${(ctx.facts || {}).thief_moves_per_turn ?? "—"}`],
      ["games.thief_of_baghdad.board.deck", String(view.deck ?? "—")],
      ["games.thief_of_baghdad.board.dancers", String(view.dancers ?? "—")],
      ["games.thief_of_baghdad.board.chests_to_win", String(view.chests_to_win ?? "—")]]),
    panel("games.thief_of_baghdad.board.palaces", i18n, h("div", { class: "palaces" }, palaces)),
    panel("ui.players", i18n, h("table", { class: "data" },
      h("thead", {}, h("tr", {}, ["ui.seat", "games.thief_of_baghdad.board.supply", "games.thief_of_baghdad.board.guards_unplaced",
        "games.thief_of_baghdad.board.chests", "games.thief_of_baghdad.board.hand_size"].map((k) => h("th", {}, i18n.t(k))))),
      h("tbody", {}, rows)))], []);
}

// --- Mafia ------------------------------------------------------------------------------------

/** Mafia: every seat with what everyone may know (out and its role, chosen or voted, whom it voted for, the
 * votes it has), the night or day with what it takes, the mafia left. Who is still to act at night is every
 * living seat that has not chosen, whatever its role. */
function mafia(view, ctx) {
  const { i18n, toAct } = ctx;
  const alive = Array.isArray(view.alive) ? view.alive : [];
  const night = view.phase === "night";
  const day = view.phase === "day";
  const votes = day && Array.isArray(view.votes) ? view.votes : [];
  const acted = Array.isArray(view.acted) ? view.acted : [];
  const counts = {};
  votes.forEach((t) => { if (Number.isInteger(t)) counts[t] = (counts[t] || 0) + 1; });
  const word = (k) => i18n.t(`games.mafia.board.${k}`);
  const seatEls = alive.map((isAlive, s) => {
    const role = Array.isArray(view.roles) ? view.roles[s] : null;
    const vote = votes[s];
    let state = null;
    if (isAlive && night) state = acted[s] ? "chose" : "choosing";
    if (isAlive && day) state = !acted[s] ? "voting" : (Number.isInteger(vote) ? null : "abstained");
    return h("div", { class: `seat ${toAct.has(s) ? "acting" : ""} ${isAlive ? "" : "out"}`, dataset: { seat: s } },
      h("div", { class: "name" }, seatChip(i18n, s), " ", i18n.seat(s)),
      role ? h("span", { class: `badge role role-${role}`, dataset: { role } }, i18n.word(role)) : null,
      winnerBadge(i18n, ctx.winners, s),
      !isAlive ? h("span", { class: "badge dead" }, word("out")) : null,
      state ? h("span", { class: `badge ${acted[s] ? "chosen" : "turn"}`, dataset: { state } }, word(state)) : null,
      Number.isInteger(vote) ? h("span", { class: "vote-for", dataset: { vote } }, "→ ", seatChip(i18n, vote)) : null,
      counts[s] ? h("span", { class: "badge votes", dataset: { votes: counts[s] } }, `${word("votes")} ${counts[s]}`) : null);
  });
  const living = alive.filter(Boolean).length;
  const round = view.round || 1;
  const title = day ? word("day_of").replace("{round}", round) : word("night_of").replace("{round}", round);
  const facts = [["games.mafia.board.mafia_left", `${view.mafia_left ?? "—"} / ${view.mafia ?? "—"}`],
    ["games.mafia.board.victim", Number.isInteger(view.victim) ? i18n.seat(view.victim) : word("nobody_yet")]];
  if (day) facts.push(["games.mafia.board.needed", String(Math.floor(living / 2) + 1)]);
  return board(`mafia ${night ? "night" : day ? "day" : ""}`,
    [panel("ui.seats", i18n, h("div", { class: "seats", dataset: { count: seatEls.length } }, seatEls))],
    [h("section", { class: "panel round", dataset: { part: "round" } },
      h("h2", {}, view.phase === "night" || day ? title : i18n.t(`games.mafia.phases.${view.phase}`)),
      night || day ? h("p", { class: "how" }, word(night ? "how_night" : "how_day")) : null,
      kv(i18n, facts))]);
}

// --- any other game: the public fields as a list ----------------------------------------------

function generic(view, ctx) {
  return h("div", { class: "board generic" }, kv(ctx.i18n,
    Object.entries(view).filter(([k]) => k !== "log").map(([k, v]) => [k, JSON.stringify(v)])));
}

export const BOARDS = {
  secret_hitler: secretHitler,
  gangsters_dilemma: gangsters,
  boss_wallet: bossWallet,
  thief_of_baghdad: thief,
  mafia,
};

/** The board for a game's public view. */
export function renderBoard(game, view, ctx) {
  return (BOARDS[game] || generic)(view, ctx);
}
