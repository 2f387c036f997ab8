// What every page says while the table follows the game: the physical reads it waits for, enrollment holding
// the table, and a finished game's result for one seat.

/** One physical read in words: what to tap, where, and how many of how many (or so far, before a confirm). */
export function readingText(i18n, r) {
  const what = r.what && r.what[i18n.lang] ? r.what[i18n.lang] : i18n.t("flow.cards");
  const params = { items: what, zone: r.zone, got: Number(r.got) || 0 };
  return r.need ? i18n.t("flow.reading_count", { ...params, need: r.need }) : i18n.t("flow.reading_open", params);
}

/** The reads that concern one seat: at its own reader, or at a shared one (everyone sees the count move). */
export function readingsFor(reading, seat) {
  return reading.filter((r) => !/^seat:\d+$/.test(r.zone) || r.zone === `seat:${seat}`);
}

/** A finished game's result line (who won and why), as the table screen says it. */
export function outcomeText(i18n, game, outcome) {
  return i18n.t("ui.game_over", {
    winners: outcome.winners,
    reason: i18n.t(`games.${game}.outcomes.${outcome.reason}`, {}, outcome.reason),
  });
}
