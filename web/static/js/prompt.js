// The generic prompt: a seat's legal actions as large buttons, then a confirm step, then the answer.
import { h, replace } from "./dom.js";

const GROUP_ABOVE = 8;

/**
 * Draw the prompt into `el`. `send(action)` posts it and resolves, or rejects with an Error carrying
 * `.code`; the refusal is shown in words. `ui` keeps the seat's place (chosen type, pending confirm, the
 * choice sent) across redraws of the same list; `version` is the state the list belongs to. A choice the
 * table accepted stays shown as sent until a newer state arrives, and the answer to a POST redraws the
 * newest list the page has, never the one the tap was made on.
 */
export function renderPrompt(el, i18n, legal, send, ui, version = "") {
  const key = JSON.stringify(legal);
  if (ui.key !== key) { ui.key = key; ui.type = null; ui.pending = null; ui.error = null; }
  if (ui.sent && ui.sent.version !== version) ui.sent = null;  // the state moved on: the choice is done
  if (ui.moved && ui.moved !== version) ui.moved = null;  // said once, for the prompt it was said above
  ui.latest = { el, i18n, legal, send, version };
  const redraw = () => { const l = ui.latest; renderPrompt(l.el, l.i18n, l.legal, l.send, ui, l.version); };
  const parts = [];
  if (ui.error) parts.push(h("p", { class: "error", role: "alert", id: "refusal" }, ui.error));
  if (ui.moved) parts.push(h("p", { class: "notice", role: "status", id: "prompt-moved" }, i18n.t("flow.prompt_moved")));
  if (ui.sent) {
    parts.push(h("p", { class: "notice", id: "sent" }, i18n.t("ui.sent", { what: ui.sent.text })));
    return replace(el, parts);
  }
  if (!legal.length) {
    parts.push(h("p", { class: "muted", id: "no-prompt" }, i18n.t("ui.nothing_to_do")));
    return replace(el, parts);
  }
  if (ui.pending) {
    const action = ui.pending;
    const tappedOn = version;
    parts.push(h("div", { class: "confirm", id: "confirm" },
      h("span", { class: "muted" }, i18n.t("ui.confirm_question")),
      h("span", { class: "what" }, i18n.action(action)),
      h("div", { class: "row" },
        h("button", { type: "button", class: "primary", id: "confirm-yes", disabled: Boolean(ui.busy), onclick: async (ev) => {
          ev.currentTarget.disabled = true;
          ui.busy = true;
          try {
            await send(action, tappedOn);
            ui.pending = null; ui.error = null; ui.type = null;
            // shown as sent while the page still has the state it was chosen on; a newer one ends it
            if (ui.latest.version === tappedOn) ui.sent = { version: tappedOn, text: i18n.action(action) };
          } catch (err) {
            ui.pending = null;
            if (err.code === "stale_prompt") ui.moved = ui.latest.version;  // not a refusal: the fresh prompt is drawn
            else if (err.code === "offline") ui.error = i18n.code("offline");  // not sent: the table was out of reach
            else ui.error = `${i18n.t("ui.refused")}: ${err.code ? i18n.code(err.code, err.message) : err.message}`;
          }
          ui.busy = false;
          redraw();
        } }, i18n.t("ui.confirm")),
        h("button", { type: "button", id: "confirm-no", onclick: () => { ui.pending = null; redraw(); } }, i18n.t("ui.back")))));
    return replace(el, parts);
  }
  const types = [...new Set(legal.map((a) => a.type))];
  let shown = legal;
  if (legal.length > GROUP_ABOVE && types.length > 1 && !ui.type) {
    parts.push(h("p", {}, i18n.t("ui.choose_kind")));
    parts.push(h("div", { class: "prompt-list" }, types.map((t) => h("button", { type: "button", dataset: { type: t },
      onclick: () => { ui.type = t; ui.error = null; redraw(); } }, i18n.kind(t)))));
    return replace(el, parts);
  }
  if (ui.type) {
    shown = legal.filter((a) => a.type === ui.type);
    parts.push(h("button", { type: "button", onclick: () => { ui.type = null; redraw(); } }, i18n.t("ui.back")));
  }
  parts.push(h("p", {}, i18n.t("ui.your_move")));
  parts.push(h("div", { class: "prompt-list", id: "choices" }, shown.map((a) => h("button", {
    type: "button", class: "choice", dataset: { action: JSON.stringify(a) },
    onclick: () => { ui.pending = a; ui.error = null; redraw(); } }, i18n.action(a)))));
  return replace(el, parts);
}
