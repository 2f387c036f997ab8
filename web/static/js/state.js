// The one place that reads the table API's JSON shape (companion/table snapshot and seat state), so the
// pages draw from a stable object.

/**
 * A public snapshot ({table, game: {name, seats, to_act, outcome, view, ...}, seats: [{name, colour}]})
 * as {game, seats, phase, view, facts, toAct: Set, chanceToAct, outcome, status, mismatched, version, seatInfo,
 * bots: Set (the seats a bot plays), timer (the running advisory timer, or null), enrolling, reading: [{zone, kind,
 * need, got, what: {en, ko}}] (the physical reads the table waits for)};
 * `facts` are the game's fixed facts its binding exports (game.table_info.facts).
 */
export function normalize(data) {
  const d = data || {};
  const g = d.game && typeof d.game === "object" ? d.game : null;
  const view = (g && g.view) || {};
  const toAct = (g && g.to_act) || [];
  const table = d.table || {};
  return {
    game: g ? g.name : null,
    seats: g ? g.seats : 0,
    components: g ? g.components : null,
    phase: view.phase ?? null,
    view,
    facts: (g && g.table_info && g.table_info.facts) || {},
    toAct: new Set(toAct.filter((s) => s !== -1)),
    chanceToAct: toAct.includes(-1),
    outcome: g ? g.outcome : null,
    status: table.status ?? null,
    announcement: table.announcement && typeof table.announcement.text === "string" ? table.announcement : null,
    mismatched: table.mismatched_zones || [],
    version: g ? `${g.id}.${g.revision ?? g.actions}` : "",  // the revision grows with undos too
    seatInfo: Array.isArray(d.seats) ? d.seats : [],
    bots: new Set(g && Array.isArray(g.bots) ? g.bots : []),
    timer: (g && g.timer) || null,
    running: Boolean(g),
    enrolling: Boolean(table.enrolling),  // enrollment holds the table: card taps enroll, the game waits
    reading: g && Array.isArray(g.reading) ? g.reading : [],  // physical reads the table waits for
  };
}

/**
 * A seat's state ({seat, game, view, prompt: {type, ballot, options: [{value, label, action}], info},
 * refused: {n, code, message, zone}}) as {seat, game, version, view, legal, info, phase, refused}; `refused` is
 * the seat's last refused input this game, whose reason the public stream may not carry.
 */
export function normalizeSeat(data) {
  const d = data || {};
  const prompt = d.prompt || null;
  const view = d.view || {};
  return {
    seat: d.seat ?? null,
    game: d.game ?? null,
    version: d.version ?? "",
    view,
    phase: view.phase ?? null,
    legal: prompt && prompt.type === "prompt" ? (prompt.options || []).map((o) => o.action) : [],
    ballot: prompt ? prompt.ballot : null,
    info: prompt ? prompt.info || {} : null,
    refused: d.refused && typeof d.refused === "object" ? d.refused : null,
    bot: Boolean(d.bot),
    running: Boolean(d.game),
    outcome: d.outcome && typeof d.outcome === "object" ? d.outcome : null,
    others: Number(d.others) || 0,  // other phones that opened this seat lately
  };
}
