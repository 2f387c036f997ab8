// One EventSource per page at a time. When a stream drops, the browser reconnects by itself and resends
// Last-Event-ID; the server answers with the current state, so a page that comes back shows the table as it is
// now. When the browser gives up instead (a refusal such as 503 stream_limit closes an EventSource for good),
// the page opens a new stream itself after a backoff (1 s doubling to 30 s, jittered), resuming after the last
// event it saw (`?last_event_id=`), so it recovers on its own once the table has a slot free.

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30000;
const TYPES = ["state", "unknown_tag", "rejected", "expected_vs_seen"];

/**
 * Follow a server-sent event stream: onState(data, id) for every state event, status(up) on (dis)connect.
 * Named events other than the state ones go to onEvent(type, data); `extra` names more event types to listen to
 * (the host page and the simulator follow the host's stream, which adds `terminal`, enrollment and reader
 * faults). The public stream's events say nothing hidden: a refusal names its zone, and its code only when
 * the code is public; an unknown tag names its zone, never its UID. Returns { close() } to stop following.
 */
export function follow(url, { onState, onEvent, onStatus, extra = [] }) {
  let es = null;
  let lastId = "";
  let delay = FIRST_RETRY_MS;
  let timer = null;
  let stopped = false;
  const handle = (type) => (e) => {
    if (e.lastEventId) lastId = e.lastEventId;
    let data;
    try { data = JSON.parse(e.data); } catch (_) { return; }
    if (type === "message" || type === "state") onState(data, e.lastEventId);
    else if (onEvent) onEvent(type, data, e.lastEventId);
  };
  const open = () => {
    timer = null;
    if (stopped) return;
    const resume = lastId ? `${url}${url.includes("?") ? "&" : "?"}last_event_id=${encodeURIComponent(lastId)}` : url;
    const source = new EventSource(es === null ? url : resume);
    es = source;
    source.onmessage = handle("message");
    for (const type of [...TYPES, ...extra]) source.addEventListener(type, handle(type));
    source.onopen = () => { delay = FIRST_RETRY_MS; if (onStatus) onStatus(true); };
    source.onerror = () => {
      if (onStatus) onStatus(false);
      if (source.readyState !== EventSource.CLOSED || source !== es || timer !== null) return;  // the browser retries
      const wait = delay * (0.8 + 0.4 * Math.random());
      delay = Math.min(MAX_RETRY_MS, delay * 2);
      timer = setTimeout(open, wait);
    };
  };
  open();
  return {
    close() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      if (es) es.close();
    },
  };
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
