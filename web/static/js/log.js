// The game log in words, newest last.
import { h } from "./dom.js";

/** How many of the shown lines scrolled out of the view's log window: the smallest k with shown[k:] a
 * prefix of the new texts (the window slides), or every line when the new log does not continue the old. */
function dropped(shown, texts) {
  for (let k = 0; k < shown.length; k += 1) {
    if (shown.length - k <= texts.length && shown.slice(k).every((t, i) => t === texts[i])) return k;
  }
  return shown.length;
}

export function renderLog(el, i18n, log) {
  const texts = (Array.isArray(log) ? log : []).map((e) => ({ code: e.code, text: i18n.log(e) }));
  const shown = [...el.children].map((li) => li.textContent);
  const k = dropped(shown, texts.map((t) => t.text));
  // lines already shown stay untouched (only new ones are laid out), which a sliding window would otherwise
  // turn into a rewrite of every line on every tap
  for (let i = 0; i < k; i += 1) el.firstElementChild.remove();
  const added = texts.slice(shown.length - k);
  for (const t of added) el.appendChild(h("li", { dataset: { code: t.code } }, t.text));
  // reading scrollHeight forces a layout: do it in the frame's own layout pass, and only when lines came
  if (added.length) requestAnimationFrame(() => { el.scrollTop = el.scrollHeight; hideCut(el); });
}

/** Lines a log that cannot scroll (the TV's) shows only in part, at its top edge, hidden whole: a line is read
 * whole or not at all. */
export function hideCut(el) {
  if (getComputedStyle(el).overflowY !== "hidden") return;
  const top = el.getBoundingClientRect().top;
  for (const li of el.children) {
    const r = li.getBoundingClientRect();
    li.classList.toggle("cut", r.top < top - 1);
  }
}

/** A list that must be read whole on a screen that cannot scroll (the reveal at game over on the TV): its text made
 * smaller, down to 60%, until every line fits; what still does not fit is hidden whole from the top. */
export function fitWhole(el) {
  el.style.removeProperty("font-size");
  if (getComputedStyle(el).overflowY !== "hidden") return;
  const base = parseFloat(getComputedStyle(el).fontSize);
  for (let f = 0.95; el.scrollHeight > el.clientHeight + 1 && f >= 0.6; f -= 0.05) el.style.setProperty("font-size", `${base * f}px`);
  el.scrollTop = el.scrollHeight;
  hideCut(el);
}
