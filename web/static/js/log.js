// The game log in words, newest last.
import { h, replace } from "./dom.js";

export function renderLog(el, i18n, log) {
  const entries = Array.isArray(log) ? log : [];
  replace(el, entries.map((e, i) => h("li", { dataset: { code: e.code, index: i } }, i18n.log(e))));
  el.scrollTop = el.scrollHeight;
}
