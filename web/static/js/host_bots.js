// Bots and advisory timers on the host console: the seats a bot plays from the start (new-game form), handing a
// seat to a bot mid-game and back, each phase's timer for the game in play, the pause button, and the host's
// choice once a timer runs out (wait, extend, or hand the seats to a bot). Drawn by host.js with its words
// and its `act(command, body, okKey)` (post, say what happened, refresh).
import { byId, h } from "./dom.js";

/** Checkboxes for the seats of a new game, each "a bot plays it from the start". */
export function botPicker(i18n, seats) {
  const picked = new Set(pickedBots());
  const boxes = [];
  for (let s = 0; s < seats; s++) {
    boxes.push(h("label", { class: "check" },
      h("input", { type: "checkbox", value: String(s), checked: picked.has(s), dataset: { botSeat: s } }), i18n.seat(s)));
  }
  return boxes;
}

/** The seats ticked in the new-game form. */
export function pickedBots() {
  return [...document.querySelectorAll("#ng-bots input[data-bot-seat]:checked")].map((el) => Number(el.value));
}

/** A seat card's bot badge and its button: hand the seat to a bot, or back to a person. */
export function seatPlayer(i18n, seat, bots, running, act) {
  const bot = bots.has(seat);
  return h("div", { class: "row seat-player", dataset: { seat, player: bot ? "bot" : "human" } },
    bot ? h("span", { class: "badge bot" }, i18n.t("host.bot_badge")) : null,
    running ? h("button", { type: "button", class: bot ? "hand-back" : "hand-to-bot",
      onclick: () => act("seat_player", { seat, player: bot ? "human" : "bot" }, bot ? "host.handed_back" : "host.handed_to_bot") },
    i18n.t(bot ? "host.hand_back" : "host.hand_to_bot")) : null);
}

/** What changes with the table: the choice when a timer ran out, each phase's timer set (with a button to
 * turn it off), and the pause button. */
export function timersStatus(i18n, st, act) {
  const timers = st.timers || {};
  if (!(st.game && st.game.name)) return [h("p", { class: "muted" }, i18n.t("host.no_game"))];
  const set = Object.entries(timers.settings || {}).map(([phase, seconds]) => h("li", { dataset: { timerSet: phase } },
    h("span", {}, `${i18n.phase(phase)}: ${i18n.t("host.timer_n_seconds", { n: seconds })}`), " ",
    h("button", { type: "button", class: "timer-off", onclick: () => act("set_timer", { phase, seconds: null }, "host.timers_saved") },
      i18n.t("host.timer_turn_off"))));
  const pause = h("button", { type: "button", id: "pause-timers", onclick: () => act("pause_timers", { on: !timers.paused }, null) },
    i18n.t(timers.paused ? "host.resume_timers" : "host.pause_timers"));
  const running = timers.running;
  const choice = running && running.expired ? h("div", { class: "notice timer-choice", id: "timer-choice", role: "alert" },
    h("p", {}, i18n.t("host.timer_expired", { seats: running.seats })),
    h("div", { class: "row" },
      running.waited ? null : h("button", { type: "button", id: "timer-wait", onclick: () => act("timer_choice", { choice: "wait" }, null) },
        i18n.t("host.timer_wait")),
      h("button", { type: "button", id: "timer-extend", class: "primary", onclick: () => act("timer_choice", { choice: "extend" }, null) },
        i18n.t("host.timer_extend", { n: running.seconds })),
      h("button", { type: "button", id: "timer-bot", class: "danger", onclick: () => act("timer_choice", { choice: "bot" }, "host.handed_to_bot") },
        i18n.t("host.timer_bot")))) : null;
  return [choice,
    set.length ? h("ul", { class: "timers-set" }, set) : h("p", { class: "muted", id: "no-timers" }, i18n.t("host.no_timers")),
    h("div", { class: "row" }, pause)].filter(Boolean);
}

/** A phase of the game in play and seconds, to set its timer: drawn once per game and language (not with every
 * change at the table, which would wipe what the host is typing). */
export function timerForm(i18n, phases, act) {
  const phase = h("select", { id: "timer-phase", "aria-label": i18n.t("host.timer_phase") },
    phases.map((p) => h("option", { value: p }, i18n.phase(p))));
  const seconds = h("input", { id: "timer-seconds", type: "number", min: 1, max: 3600, step: 1, value: 60,
    "aria-label": i18n.t("host.timer_seconds") });
  const add = h("button", { type: "button", id: "set-timer", class: "primary", onclick: () => {
    const raw = seconds.value.trim();  // anything but a whole number goes as typed: the table says why not
    act("set_timer", { phase: phase.value, seconds: /^-?\d+$/.test(raw) ? Number(raw) : raw }, "host.timers_saved");
  } }, i18n.t("host.set_timer"));
  return phases.length ? [h("div", { class: "row timer-form" }, h("label", {}, h("span", {}, i18n.t("host.timer_phase")), phase),
    h("label", {}, h("span", {}, i18n.t("host.timer_seconds")), seconds), add)] : [];
}
