// One EventSource per page. The browser resends Last-Event-ID on reconnect; the server answers with the
// current state, so a page that comes back shows the table as it is now.

/**
 * Follow a server-sent event stream: onState(data, id) for every state event, status(up) on (dis)connect.
 * Named events other than the state ones go to onEvent(type, data); `extra` names more event types to listen to
 * (the host page and the simulator follow the host's stream, which adds `terminal`, enrollment and reader
 * faults). The public stream's events say nothing hidden: a refusal names its zone, and its code only when
 * the code is public; an unknown tag names its zone, never its UID.
 */
export function follow(url, { onState, onEvent, onStatus, extra = [] }) {
  const es = new EventSource(url);
  const handle = (type) => (e) => {
    let data;
    try { data = JSON.parse(e.data); } catch (_) { return; }
    if (type === "message" || type === "state") onState(data, e.lastEventId);
    else if (onEvent) onEvent(type, data, e.lastEventId);
  };
  es.onmessage = handle("message");
  for (const type of ["state", "unknown_tag", "rejected", "expected_vs_seen", ...extra]) {
    es.addEventListener(type, handle(type));
  }
  es.onopen = () => onStatus && onStatus(true);
  es.onerror = () => onStatus && onStatus(false);
  return es;
}

/** Show the connection state in the header's status pill. */
export function statusPill(el, i18n) {
  return (up) => {
    el.classList.toggle("live", up);
    el.classList.toggle("down", !up);
    el.dataset.i18n = up ? "ui.connected" : "ui.reconnecting";
    el.textContent = i18n().t(el.dataset.i18n);
  };
}
