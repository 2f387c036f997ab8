// The one place that reads the table API's JSON shape, so the pages draw from a stable object.

/**
 * Normalise a state message from GET /api/state, the SSE stream or a seat's state endpoint into
 * {game, seats, phase, view, toAct: Set, outcome, legal, seat, over, version, sample}.
 */
export function normalize(data) {
  const d = data && data.state && typeof data.state === "object" && !Array.isArray(data.state) ? data.state : data || {};
  const view = d.view || d.public || d.public_view || {};
  const toAct = new Set((d.to_act ?? view.to_act ?? []).filter((s) => s !== -1));
  return {
    game: d.game ?? null,
    seats: d.seats ?? (Array.isArray(view.players) ? view.players.length : Array.isArray(view.alive) ? view.alive.length : 0),
    phase: view.phase ?? d.phase ?? null,
    view,
    toAct,
    chanceToAct: (d.to_act ?? []).includes(-1),
    outcome: d.outcome ?? null,
    legal: d.legal ?? d.legal_actions ?? [],
    seat: d.seat ?? null,
    version: d.version ?? d.seq ?? d.id ?? null,
    options: d.options ?? {},
    check: d.check ?? d.expected_vs_seen ?? null,
    running: Boolean(d.game),
  };
}
