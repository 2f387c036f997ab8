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
  if (added.length) requestAnimationFrame(() => { el.scrollTop = el.scrollHeight; });
}
