// The advisory turn timer as the pages show it: time left counted down here from what the table said
// (`remaining_ms` when the snapshot arrived), paused, or run out (the host decides; nothing is played).

/** Seconds as m:ss. */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A running timer's words now: time left for its seats, paused, or run out. */
export function timerText(i18n, timer, receivedAt, now = performance.now()) {
  if (!timer) return "";
  const seats = timer.seats;
  if (timer.expired) return i18n.t(timer.waited ? "ui.timer_waiting" : "ui.timer_expired", { seats });
  const left = timer.paused ? timer.remaining_ms : timer.remaining_ms - (now - receivedAt);
  return i18n.t(timer.paused ? "ui.timer_paused" : "ui.timer_left", { seats, time: clockText(left) });
}

/** Keep `el` showing the timer of the latest state (`get()`: {timer, receivedAt, i18n}), ticking while it runs. */
export function showTimer(el, get) {
  const tick = () => {
    const { timer, receivedAt, i18n } = get();
    el.hidden = !timer;
    if (!timer) return;
    el.textContent = timerText(i18n, timer, receivedAt);
    el.dataset.state = timer.expired ? "expired" : timer.paused ? "paused" : "running";
  };
  tick();
  return setInterval(tick, 250);
}
