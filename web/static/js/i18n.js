// Korean and English: the browser's language picks the first one, a switch changes it; texts come from
// /i18n/<lang>.json and are looked up by dotted keys ("games.secret_hitler.actions.vote"). A placeholder may
// carry a Korean particle, "{seat:이}", chosen by how the filled-in word ends (docs/TERMS.md).
import { PARTICLES, withParticle } from "./hangul.js";

const LANGS = ["ko", "en"];
const NO_FIELDS = new Set();
const ZONE_FIELDS = new Set(["zone", "zones"]);
const PLACEHOLDER = /\{(\w+)(?::([^{}\s]+))?\}/g;

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
    this.cards = null;
    /** The table's configured seats, [{name, colour}] in seat order (the snapshot's `seats`). */
    this.seats = [];
    /** The seats a bot plays now (the snapshot's game.bots): named as bots wherever a seat is named. */
    this.bots = new Set();
    this.fields = {};
    /** Name cards in full (what they are, their value and its unit: "green bill 200 CU"), as a seat's phone
     * lists its own hand; else short ("200 green"), as the table's board fits them in its cells. */
    this.fullCards = false;
  }

  /** The game being drawn and the card catalogue of its view (`card_info`: card id -> what it is). */
  setView(game, view) {
    this.game = game;
    this.view = view;
    this.cards = this.catalogue(view);
    // one English word may name two moves ("pass": accept arrest, or fulfil no demand): the phase picks
    this.phaseNow = view && typeof view.phase === "string" ? view.phase : null;
  }

  /** The game's fixed facts (snapshot game.table_info.facts): which fields hold seats or locations is the game's
   * one declaration of its fields (`facts.fields`: kind -> names, companion/games/schema.py FieldKind). */
  set facts(facts) {
    const f = facts || {};
    this.rawFacts = f;
    // a game with catalogue fields words its cards from them too (a page that set `cards` itself keeps them)
    if (this.view && f.catalogue_fields && Object.keys(f.catalogue_fields).length) this.cards = this.catalogue(this.view);
    const ofKind = (kind) => new Set((f.fields && f.fields[kind]) || []);
    this.fields = {
      seat: ofKind("seat"), seatList: ofKind("seats"), perSeat: ofKind("per_seat"), location: ofKind("location"),
    };
  }

  get facts() { return this.rawFacts || {}; }

  /** The cards a view describes: its `card_info`, and each catalogue field the game names in its facts
   * (`catalogue_fields`: field -> the kind of card, e.g. a demand card) with that kind as its type. */
  catalogue(view) {
    const info = view && view.card_info && typeof view.card_info === "object" ? view.card_info : null;
    const fields = Object.entries((this.rawFacts && this.rawFacts.catalogue_fields) || {})
      .filter(([field]) => view && view[field] && typeof view[field] === "object");
    if (!fields.length) return info;
    const out = {};
    for (const [field, type] of fields) {
      for (const [id, entry] of Object.entries(view[field])) out[id] = { type, ...entry };
    }
    return { ...out, ...(info || {}) };
  }

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

  /** A template with its {name} and {name:particle} placeholders filled in words. */
  fill(text, params) {
    return text.replace(PLACEHOLDER, (m, name, marker) => {
      if (!(name in params) || (marker !== undefined && !(marker in PARTICLES))) return m;
      return withParticle(this.value(name, params[name]), marker);
    });
  }

  /** A seat's name: the configured one as written (a proper name), else "Seat N" (1-based) in this language. */
  seat(n) {
    if (n === -1) return this.t("ui.chance");
    const name = (this.seats[n] && this.seats[n].name) || this.t("ui.seat_n", { n: Number(n) + 1 });
    return this.bots.has(Number(n)) ? this.t("ui.bot_seat", { seat: name }) : name;
  }

  /** A seat's configured colour (#rrggbb), or undefined when the table gave none. */
  seatColour(n) {
    const colour = this.seats[n] && this.seats[n].colour;
    return typeof colour === "string" && /^#[0-9a-fA-F]{6}$/.test(colour) ? colour : undefined;
  }

  /** A value in words: seats by name, ids through the game's (then common) value texts, lists joined. */
  value(field, v, perSeat = true) {
    if (v === null || v === undefined) return "—";
    if (ZONE_FIELDS.has(field) && typeof v === "string") return this.zone(v);
    if (Array.isArray(v)) {
      if (!v.length) return "—";
      if ((this.fields.seatList || NO_FIELDS).has(field)) return v.map((s) => this.seat(s)).join(", ");
      if ((this.fields.location || NO_FIELDS).has(field)) return v.map((x) => this.unit(field, this.word(String(x)))).join(", ");
      if (perSeat && (this.fields.perSeat || NO_FIELDS).has(field)) {
        return v.map((x, s) => (x === null ? null : `${this.seat(s)} ${this.unit(field, this.value(field.replace(/s$/, ""), x))}`))
          .filter(Boolean).join(", ");
      }
      return v.map((x) => this.unit(field, this.value(field.replace(/s$/, ""), x))).join(", ");
    }
    if (typeof v === "boolean") {
      const named = this.game ? this.raw(`games.${this.game}.values.${field}_${v}`) : undefined;
      return named ?? this.t(v ? "ui.yes" : "ui.no");
    }
    if (typeof v === "number") {
      if ((this.fields.seat || NO_FIELDS).has(field) && Number.isInteger(v)) return this.seat(v);
      if ((this.fields.location || NO_FIELDS).has(field)) return this.word(String(v));
      if (field.endsWith("cents")) return `${(v / 100).toFixed(2)} CU`;
      return String(v);
    }
    if (typeof v === "object") {
      return Object.entries(v).filter(([, x]) => x !== 0 && x !== null)
        .map(([k, x]) => this.count(this.word(k), x)).join(", ");
    }
    // one id may need another word in one field (the liberal party is 자유당, a liberal player 자유당원)
    const inField = this.game ? this.raw(`games.${this.game}.values.${field}_${v}`) : undefined;
    return inField ?? this.card(String(v));
  }

  /** A count of a thing in this language's order ("2 crates", "상자 2개"). */
  count(item, n) { return this.t("ui.count", { item, n: Number(n) }); }

  /** One number of a list field with its unit where the game names one (`games.<game>.units.vp`: "{n}점"). */
  unit(field, text) {
    const u = this.game ? this.raw(`games.${this.game}.units.${field}`) : undefined;
    return u === undefined ? text : u.replace("{n}", text);
  }

  /** A card id in words, from a card catalogue (the view's unless given: a bill's amount and colour, an ID's
   * person), else the id as a game word. */
  card(id, cards = this.cards) {
    const e = cards && cards[id];
    if (!e || typeof e !== "object") return this.word(id);
    const full = this.fullCards;
    if (e.type === "bill") {
      return this.t(full ? "ui.card_bill_full" : "ui.card_bill", { value: e.value, currency: this.word(String(e.currency)), name: this.word("bill") });
    }
    if (e.type === "jewel") return this.t(full ? "ui.card_jewel_full" : "ui.card_jewel", { name: this.word("jewel"), value: e.value });
    if (e.type === "id" && e.person) {
      return this.t("ui.card_id", { name: this.word(full && e.extra ? "extra_id" : "id"), person: this.word(String(e.person)) });
    }
    if (typeof e.name === "string" && e.name) return e.name;  // a card the host named (a special card)
    // a kind of card the game describes by what it does (a demand: its points and what it needs), never its id
    const described = this.game ? this.raw(`games.${this.game}.cards.${e.type}`) : undefined;
    if (described !== undefined) return this.fill(described, Object.fromEntries(Object.entries(e).filter(([k]) => k !== "type")));
    return this.word(String(e.type));
  }

  /** A table zone as people say it: `seat:2` by the seat's name, `palace:red` as "the red palace", `board` as
   * "the board". */
  zone(z) {
    const [kind, name] = String(z).split(":", 2);
    if (name === undefined) return this.t(`zones.${kind}`, {}, z);
    // a game may name one zone whole where "{name} track" reads wrong ("자유 정책 트랙", not "자유당원 트랙")
    const whole = this.game ? this.raw(`games.${this.game}.zones.${kind}_${name}`) : undefined;
    if (whole !== undefined) return whole;
    const named = kind === "seat" && /^\d+$/.test(name) ? this.seat(Number(name)) : this.word(name);
    return this.t(`zones.${kind}`, { name: named }, named);
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
    const when = this.logWhen(entry.code, params);
    if (when !== undefined) return this.fill(when, params);
    if (this.has(key)) return this.t(key, params);
    const rest = Object.entries(params).map(([k, v]) => `${this.field(k)}: ${this.value(k, v)}`).join(", ");
    return rest ? `${entry.code} (${rest})` : entry.code;
  }

  /** A log line's own words for one value of a param, where the general line would contradict itself ("traded:
   * no trade"): `games.<game>.log_when.<code>.<param>_<value>` (an empty list's value is `none`). */
  logWhen(code, params) {
    for (const [name, v] of Object.entries(params)) {
      const value = Array.isArray(v) ? (v.length ? null : "none") : typeof v === "string" || typeof v === "boolean" ? v : null;
      if (value === null) continue;
      const text = this.raw(`games.${this.game}.log_when.${code}.${name}_${value}`);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  field(name) { return this.t(`games.${this.game}.fields.${name}`, {}, this.t(`fields.${name}`, {}, name)); }

  phase(p) { return this.t(`games.${this.game}.phases.${p}`, {}, p); }

  /** A kind of action in words (a button that opens that kind's choices): never a template's placeholders. */
  kind(type) {
    const phased = this.phased(type);
    if (phased !== undefined) return phased;
    const named = this.raw(`games.${this.game}.kinds.${type}`);
    if (named !== undefined) return named;
    const text = this.raw(`games.${this.game}.actions.${type}`);
    return text !== undefined && !text.includes("{") ? text : type;
  }

  /** A legal action as a button label: the type's template, or its label plus the fields' values. */
  action(action) {
    const key = `games.${this.game}.actions.${action.type}`;
    const params = Object.fromEntries(Object.entries(action).filter(([k]) => k !== "type" && k !== "seat"));
    const text = this.phased(action.type) ?? this.raw(key);
    if (text !== undefined && text.includes("{")) return this.fill(text, params) + this.actionNote(action.type, params);
    const label = text ?? action.type;
    const parts = Object.entries(params).map(([k, v]) =>
      typeof v === "boolean" ? `${this.field(k)}: ${this.value(k, v)}` : this.value(k, v));
    return parts.length ? `${label}: ${parts.join(" · ")}` : label;
  }

  /** What tells apart two actions of one type that one template would label alike (how a demand or a bribe is
   * paid): `games.<game>.action_notes.<type>`, added when the action carries every field it names. */
  actionNote(type, params) {
    const note = this.game ? this.raw(`games.${this.game}.action_notes.${type}`) : undefined;
    if (note === undefined) return "";
    const names = [...note.matchAll(PLACEHOLDER)].map((m) => m[1]);
    return names.every((n) => params[n] !== undefined && params[n] !== null) ? ` ${this.fill(note, params)}` : "";
  }

  /** The label of an action type in the current phase, where it differs from the type's own
   * (`games.<game>.phase_actions.<phase>.<type>`). */
  phased(type) {
    return this.phaseNow ? this.raw(`games.${this.game}.phase_actions.${this.phaseNow}.${type}`) : undefined;
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
