// A seat's private panel in words: which fields of its view are its secrets, and each one's text (shared by the
// seat page and the tests that read every panel).

const PRIVATE = ["role", "party", "known", "hand", "peek", "investigations", "chip_values", "elite_demands",
  "private_demands", "patrol_seen", "peeked", "seen"];
const PER_SEAT = new Set(["known", "investigations"]);
const NOT_SECRETS = new Set(["log", "seat", "card_info"]);  // the page's own seat, the cards' catalogue

/** The seat's private facts: the table's `info` (what its view adds to the public one), else known keys; never a
 * card catalogue (`catalogues`: the game's facts.catalogue_fields, drawn inside the values that name their cards). */
export function privateFields(s, catalogues = {}) {
  const skip = new Set([...NOT_SECRETS, ...Object.keys(catalogues || {})]);
  const keys = s.info ? Object.keys(s.info).filter((k) => !skip.has(k)) : PRIVATE.filter((k) => k in s.view);
  const rank = (k) => (PRIVATE.includes(k) ? PRIVATE.indexOf(k) : PRIVATE.length);
  return keys.sort((a, b) => rank(a) - rank(b));
}

/** A per-seat secret ("what I know of each seat") as one line per seat, or null for any other field. */
export function secretLines(i18n, field, v) {
  if (!PER_SEAT.has(field) || !Array.isArray(v)) return null;
  return v.map((x, s) => (x === null ? null : `${i18n.seat(s)}: ${i18n.value(field, x)}`)).filter(Boolean);
}

/** One private field in words: the seat's own values with their units, never listed as other seats' scores. */
export function secretText(i18n, field, v) {
  const lines = secretLines(i18n, field, v);
  if (lines) return lines.length ? lines.join("; ") : "—";
  if (Array.isArray(v) && v.length === 0) return "—";
  return i18n.value(field, v, false);
}
