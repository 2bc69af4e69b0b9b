// What every page of the client uses: the language and its words, card
// pictures and names, the live region read out to screen readers, the
// page's element, and the value explanations in words (the numbers are the
// engine's, only the words are the page's).
import en from "./i18n_en.js";
import de from "./i18n_de.js";
import da from "./i18n_da.js";
import rulesEn from "./rules_en.js";
import rulesDe from "./rules_de.js";
import rulesDa from "./rules_da.js";
import { cardSvg } from "./cards.js";

export const DICTS = { en, de, da };
export const RULES = { en: rulesEn, de: rulesDe, da: rulesDa };
export const RULE_PAGES = ["howto", "tournament", "plain", "ramsch", "kontra", "bock", "four"];
export const GAMES = ["diamonds", "hearts", "spades", "clubs", "grand", "null"];
export const REACTIONS = ["👍", "👏", "😄", "😮", "😢", "🤔"];

// ------------------------------------------------------------------ i18n
export const store = {
  get(k, d = null) {
    try { return localStorage.getItem(k) ?? d; } catch { return d; }
  },
  set(k, v) {
    try { localStorage.setItem(k, v); } catch { /* private mode */ }
  },
};

export function initialLang() {
  const saved = store.get("skat.lang");
  if (saved && DICTS[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const code = (l || "").slice(0, 2).toLowerCase();
    if (DICTS[code]) return code;
  }
  return "en";
}

export let lang = initialLang();
// the card decks (cards.js draws them), chosen in the Settings
export const DECKS = ["four", "two", "german"];
export let deck = DECKS.includes(store.get("skat.deck")) ? store.get("skat.deck") : "four";

// The language and the deck are read everywhere and set here only.
export function setLang(value) {
  lang = value;
}

export function setDeck(value) {
  deck = value;
}

// A word for a count follows the language's plural rules (the browser's
// Intl.PluralRules): `t("bock.deals", { n: 1 })` reads "bock.deals.one"
// where the language has it, the key itself ("other") otherwise. Numbers
// are written with one minus sign, U+2212, everywhere.
const PLURALS = {};
function pluralForm(key, n) {
  const rules = (PLURALS[lang] ??= new Intl.PluralRules(lang));
  const form = `${key}.${rules.select(n)}`;
  return form in DICTS[lang] || (!(key in DICTS[lang]) && form in DICTS.en) ? form : key;
}

export function t(key, params = {}) {
  const k = typeof params.n === "number" ? pluralForm(key, params.n) : key;
  const s = DICTS[lang][k] ?? DICTS.en[k];
  if (s === undefined) return `⟦${key}⟧`; // visible in tests: a missing key
  return s.replace(/\{(\w+)\}/g, (_, p) => (p in params && params[p] !== null && params[p] !== undefined ? (typeof params[p] === "number" ? num(params[p]) : params[p]) : `{${p}}`));
}

// Names as a sentence lists them: "Ben, Cem and Dora", "Ben, Cem und Dora"
// (the browser's Intl.ListFormat; issue 49, finding 9).
export function listText(names) {
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(names.map(String));
  } catch {
    return names.join(", ");
  }
}

// A number as the page writes it: a minus sign (U+2212), never a hyphen.
export const num = (n) => (typeof n === "number" && n < 0 ? `\u2212${-n}` : `${n}`);

export const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

// A card's name as the chosen deck calls it: "jack of clubs", or in the
// German-suited deck "Unter of Acorns" ("Eichel-Unter").
export function cardName(card) {
  const k = deck === "german" ? "gcard" : "card";
  return t(`${k}.name`, { rank: t(`${k}.${card[1]}`), suit: t(`${k}.${card[0]}`) });
}

export function cardHtml(card, { cls = "", action = "", disabled = false, selected = false } = {}) {
  const label = esc(cardName(card));
  const attrs = action
    ? `data-action="${action}" data-card="${card}" ${disabled ? "disabled aria-disabled=\"true\"" : ""}`
    : `data-card="${card}" role="img"`;
  const tag = action ? "button" : "span";
  return `<${tag} class="card ${cls} ${selected ? "selected" : ""}" ${attrs} aria-label="${label}" title="${label}">${cardSvg(card, { deck, lang })}</${tag}>`;
}

export function cardsRow(cards, cls = "") {
  return `<span class="cards ${cls}">${cards.map((c) => cardHtml(c)).join("")}</span>`;
}

export let announceTimer = 0;
export function announce(text) {
  const el = document.getElementById("announce");
  el.textContent = "";
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => { el.textContent = text; }, 30);
}

export function applyStaticTexts() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  const sel = document.getElementById("lang");
  sel.value = lang;
  sel.setAttribute("aria-label", t("nav.language"));
  document.title = t("brand");
}

export const app = document.getElementById("app");
// A game's name from the keys the server sends (the contract's `words`,
// or the words of an announcement): no rules here, only words.
export function gameText(words) {
  const [game, ...flags] = words;
  return [t(`game.${game}`), ...flags.map((f) => t(`ann.${f}`))].join(" ");
}
export const RAMSCH_NAMES = ["A", "B", "C"]; // the three players who play, in seat order
// A Ramsch reckoning in the page's language, from the structured answer
// (R9.1): "most card points: A with 72; Jungfrau (C took no trick) x 2: loses 144".
export function explainRamsch(d) {
  const names = (list) => {
    const w = list.map((i) => RAMSCH_NAMES[i]);
    return w.length === 1 ? w[0] : `${w.slice(0, -1).join(", ")} ${t("ramsch.and")} ${w[w.length - 1]}`;
  };
  const mods = [];
  if (d.jungfrau.length) mods.push(t("ramsch.jungfrau", { who: names(d.jungfrau) }));
  if (d.bock) mods.push(t("ramsch.bock"));
  let head, tail;
  if (d.durchmarsch !== null) {
    head = t("ramsch.durchmarsch", { who: RAMSCH_NAMES[d.durchmarsch] });
    tail = t("ramsch.wins", { n: d.entries[d.durchmarsch] });
  } else {
    head = t("ramsch.most", { who: names(d.losers), top: d.points[d.losers[0]] });
    const n = -d.entries[d.losers[0]];
    tail = t(d.losers.length === 1 ? "ramsch.loses" : "ramsch.eachLoses", { n });
  }
  let text = [head, ...mods].join("; ") + (mods.length ? ": " : ", ") + tail;
  if (d.players === 4) text += ` (${t("ramsch.dealer")})`;
  return text;
}

// The value explanation in the page's language from the server's reckoning
// steps (`parts`): "with 2, game 3, Hand 4 x 12 = 48". No rules here: the
// numbers are the engine's, only the words are the page's.
export function explain(parts, words) {
  const steps = [];
  const n = {};
  for (const [key, value] of parts) {
    if (key === "null") return `${gameText(words)} = ${value}`;
    if (["base", "total", "bid", "charged", "value"].includes(key)) n[key] = value;
    else steps.push(t(`expl.${key}`, { n: value }));
  }
  let text = `${steps.join(", ")} × ${n.base} = ${n.total}`;
  if (n.bid !== undefined) text += " " + t("expl.overbid", { bid: n.bid, base: n.base, k: n.charged, value: n.value });
  return text;
}

// A refusal in the page's language: its own text where there is one, else
// the reason code (the server's message is English).
export function errorText(code) {
  return DICTS.en[`err.${code}`] ? t(`err.${code}`) : t("err.code", { code });
}

// A signed entry: +30, −60, 0.
export const fmt = (n) => (n > 0 ? `+${n}` : num(n));

// Before a scrolled list is drawn again: the function that puts it back
// after. A reader at the end follows the newest line; one who scrolled up
// to read stays there.
export function keepReading(el) {
  const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
  const top = el.scrollTop;
  return () => { el.scrollTop = atEnd ? el.scrollHeight : top; };
}
