// Korean and English: the browser's language picks the first one, a switch changes it; texts come from
// /i18n/<lang>.json and are looked up by dotted keys ("games.secret_hitler.actions.vote").

const LANGS = ["ko", "en"];
const NO_FIELDS = new Set();

/** The language to start with: the saved choice, else the browser's first supported language. */
export function initialLang() {
  const saved = localStorage.getItem("lang");
  if (LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

export class I18n {
  constructor(lang, dict, fallback) {
    this.lang = lang;
    this.dict = dict;
    this.fallback = fallback;
    this.game = null;
    /** The table's configured seats, [{name, colour}] in seat order (the snapshot's `seats`). */
    this.seats = [];
    this.fields = {};
  }

  /** Which fields hold seats or locations, as the game's binding exports them (snapshot game.table_info.facts). */
  set facts(facts) {
    const f = facts || {};
    this.rawFacts = f;
    this.fields = {
      seat: new Set(f.seat_fields || []), seatList: new Set(f.seat_list_fields || []),
      perSeat: new Set(f.per_seat_fields || []), location: new Set(f.location_fields || []),
    };
  }

  get facts() { return this.rawFacts || {}; }

  /** The raw entry at a dotted key, in this language or else English; undefined when neither has it. */
  raw(key) {
    for (const d of [this.dict, this.fallback]) {
      let cur = d;
      for (const part of key.split(".")) {
        if (cur === null || typeof cur !== "object" || !(part in cur)) { cur = undefined; break; }
        cur = cur[part];
      }
      if (typeof cur === "string") return cur;
    }
    return undefined;
  }

  has(key) { return this.raw(key) !== undefined; }

  /** Translate a key, filling {name} placeholders from params (formatted as seats, values, lists). */
  t(key, params = {}, fallback = undefined) {
    const text = this.raw(key);
    if (text === undefined) return fallback !== undefined ? fallback : key;
    return this.fill(text, params);
  }

  fill(text, params) {
    return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? this.value(name, params[name]) : m));
  }

  /** A seat's name: the configured one as written (a proper name), else "Seat N" (1-based) in this language. */
  seat(n) {
    if (n === -1) return this.t("ui.chance");
    const name = this.seats[n] && this.seats[n].name;
    return name || this.t("ui.seat_n", { n: Number(n) + 1 });
  }

  /** A table zone as people say it: a seat's zone ("seat:2") by the seat's name, shared zones by their id. */
  zone(z) {
    const m = /^seat:(\d+)$/.exec(String(z));
    return m ? this.seat(Number(m[1])) : String(z);
  }

  /** A seat's configured colour (#rrggbb), or undefined when the table gave none. */
  seatColour(n) {
    const colour = this.seats[n] && this.seats[n].colour;
    return typeof colour === "string" && /^#[0-9a-fA-F]{6}$/.test(colour) ? colour : undefined;
  }

  /** A value in words: seats by name, ids through the game's (then common) value texts, lists joined. */
  value(field, v) {
    if (v === null || v === undefined) return "—";
    if (field === "zone") return this.zone(v);
    if (Array.isArray(v)) {
      if ((this.fields.seatList || NO_FIELDS).has(field)) return v.map((s) => this.seat(s)).join(", ");
      if ((this.fields.perSeat || NO_FIELDS).has(field)) {
        return v.map((x, s) => (x === null ? null : `${this.seat(s)} ${this.value(field.replace(/s$/, ""), x)}`))
          .filter(Boolean).join(", ");
      }
      return v.map((x) => this.value(field.replace(/s$/, ""), x)).join(", ");
    }
    if (typeof v === "boolean") return this.t(v ? "ui.yes" : "ui.no");
    if (typeof v === "number") {
      if ((this.fields.seat || NO_FIELDS).has(field) && Number.isInteger(v)) return this.seat(v);
      if ((this.fields.location || NO_FIELDS).has(field)) return this.word(String(v));
      if (field.endsWith("cents")) return `${(v / 100).toFixed(2)} CU`;
      return String(v);
    }
    if (typeof v === "object") {
      return Object.entries(v).filter(([, x]) => x !== 0 && x !== null)
        .map(([k, x]) => `${this.value(k, x)} ${this.word(k)}`).join(", ");
    }
    return this.word(String(v));
  }

  /** A game word (role, colour, loot, vote...) in this language, else the id itself. */
  word(id) {
    if (this.game) {
      const g = this.raw(`games.${this.game}.values.${id}`);
      if (g !== undefined) return g;
    }
    return this.raw(`values.${id}`) ?? id;
  }

  /** A refusal code in words (the game's own, else the common one). */
  code(code, message) {
    if (this.game) {
      const g = this.raw(`games.${this.game}.codes.${code}`);
      if (g !== undefined) return g;
    }
    return this.raw(`codes.${code}`) ?? message ?? code;
  }

  /** One log entry {code, params} in words. */
  log(entry) {
    const key = `games.${this.game}.log.${entry.code}`;
    const params = entry.params || {};
    if (this.has(key)) return this.t(key, params);
    const rest = Object.entries(params).map(([k, v]) => `${this.field(k)}: ${this.value(k, v)}`).join(", ");
    return rest ? `${entry.code} (${rest})` : entry.code;
  }

  field(name) { return this.t(`games.${this.game}.fields.${name}`, {}, this.t(`fields.${name}`, {}, name)); }

  phase(p) { return this.t(`games.${this.game}.phases.${p}`, {}, p); }

  /** A legal action as a button label: the type's template, or its label plus the fields' values. */
  action(action) {
    const key = `games.${this.game}.actions.${action.type}`;
    const params = Object.fromEntries(Object.entries(action).filter(([k]) => k !== "type" && k !== "seat"));
    const text = this.raw(key);
    if (text !== undefined && text.includes("{")) return this.fill(text, params);
    const label = text ?? action.type;
    const parts = Object.entries(params).map(([k, v]) =>
      typeof v === "boolean" ? `${this.field(k)}: ${this.value(k, v)}` : this.value(k, v));
    return parts.length ? `${label}: ${parts.join(" · ")}` : label;
  }

  /** Fill every [data-i18n] element's text and [data-i18n-attr] attributes in the document. */
  apply(root = document) {
    document.documentElement.lang = this.lang;
    for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = this.t(el.dataset.i18n);
    for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = this.t(el.dataset.i18nPlaceholder);
    for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", this.t(el.dataset.i18nLabel));
  }
}

const cache = new Map();

async function dictFor(lang) {
  if (!cache.has(lang)) {
    const base = document.body.dataset.texts || "/i18n";
    cache.set(lang, fetch(`${base}/${lang}.json`).then((r) => r.json()));
  }
  return cache.get(lang);
}

/** Load a language (English is always loaded too, as the fallback). */
export async function loadI18n(lang) {
  const [dict, en] = await Promise.all([dictFor(lang), dictFor("en")]);
  return new I18n(lang, dict, en);
}

/** Wire the ko/en switch buttons ([data-lang]) to reload texts and call onChange(i18n). */
export function wireLangSwitch(onChange) {
  for (const btn of document.querySelectorAll("[data-lang]")) {
    btn.addEventListener("click", async () => {
      localStorage.setItem("lang", btn.dataset.lang);
      onChange(await loadI18n(btn.dataset.lang));
    });
  }
}
