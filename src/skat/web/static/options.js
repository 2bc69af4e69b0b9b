// The list's and the table's options as the server declares them (GET
// /api/options; skat/series/spec.py and skat/server/offer.py): the form's
// rows, what a browser chose last time, and a table's rules in words. Used
// by the home page, the tournament form and the table page alike.
import { esc, lang, store, t } from "./common.js";

export let OPTIONS = null; // the options, in the form's order
export const optionsReady = fetch("/api/options")
  .then((r) => r.json())
  .then((d) => { OPTIONS = d.options; })
  .catch(() => { OPTIONS = []; });

export function optionWords(o) {
  return o.words[lang] ?? o.words.en;
}

// A computer seat's word for its level ("club player"), declared with the
// levels (skat/levels.py) and served with the options.
export function levelWord(level) {
  const o = (OPTIONS || []).find((x) => x.name === "level");
  const seats = o && o.seats ? o.seats[lang] ?? o.seats.en : null;
  return (seats && seats[level]) || level;
}

export function valueWord(o, v) {
  if (o.kind === "switch") return t(v ? "opt.on" : "opt.off");
  return optionWords(o).values[String(v)] ?? String(v);
}

export function optionControl(o, value, prefix) {
  const id = `${prefix}-${o.name}`;
  if (o.kind === "count") {
    return `<input id="${id}" name="${o.name}" type="number" min="${o.low}" max="${o.high ?? ""}" value="${esc(value ?? "")}">`;
  }
  const values = o.kind === "switch" ? [false, true] : o.choices;
  const code = (v) => (o.kind === "switch" ? (v ? "1" : "0") : String(v));
  return `<select id="${id}" name="${o.name}">${values
    .map((v) => `<option value="${code(v)}" ${v === value ? "selected" : ""}>${esc(valueWord(o, v))}</option>`)
    .join("")}</select>`;
}

export function optionRow(o, value = o.default, prefix = "o") {
  const w = optionWords(o);
  return `<div class="opt" data-option="${o.name}"${o.needs ? ` data-needs="${o.needs}"` : ""}><label for="${prefix}-${o.name}">${esc(w.label)}</label>${optionControl(o, value, prefix)}
    <p class="help">${esc(w.help)}${o.more ? ` <a href="/rules/${o.more}">${esc(t("home.more"))}</a>` : ""}</p></div>`;
}

// What this browser chose last time (the Play button's level and hints,
// the options form), kept only where it is still one of the option's values.
export function remembered(key) {
  let saved = {};
  try { saved = JSON.parse(store.get(key, "{}")) || {}; } catch { saved = {}; }
  const out = {};
  for (const o of OPTIONS) {
    const v = saved[o.name];
    if (v === undefined) continue;
    const ok = o.kind === "switch" ? typeof v === "boolean"
      : o.kind === "count" ? Number.isInteger(v) && v >= o.low && (o.high === null || v <= o.high)
      : o.kind === "choice" ? o.choices.includes(v) : false;
    if (ok) out[o.name] = v;
  }
  return out;
}

// An option under a switch (Kontra until, under Kontra) shows only while the switch is on.
export function showNeeded(form) {
  for (const row of form.querySelectorAll(".opt[data-needs]")) {
    const on = form.querySelector(`[name=${row.dataset.needs}]`);
    row.hidden = !!on && on.value !== "1";
  }
}

// The creation body of the form: each value as its kind, an option under
// a switch that is off (ramsch_after_bock without Bock) at its default.
export function formOptions(f) {
  const out = {};
  const shown = OPTIONS.filter((o) => o.form);
  for (const o of shown) {
    const raw = f.get(o.name);
    let v;
    if (o.kind === "switch") v = raw === "1";
    // a count whose default is none (the matador cap) stays none when left empty
    else if (o.kind === "count" && o.default === null && String(raw ?? "").trim() === "") v = null;
    else if (o.kind === "count") v = Math.max(o.low, Math.min(o.high ?? Infinity, Math.round(Number(raw)) || o.default));
    else v = o.choices.find((c) => String(c) === raw) ?? o.default;
    out[o.name] = v;
  }
  for (const o of shown) {
    if (o.needs && out[o.needs] === false) out[o.name] = o.default;
  }
  return out;
}

// A table's rules, from the declared options: each option with its value
// (those under a switch in brackets after it, and only when it is on); the
// list's options not on the form only where they differ from the default.
export function rulesItems(o, st) {
  const values = { ...o, ...st };
  const items = [];
  const differs = (x) => JSON.stringify(x.kind === "set" ? [...values[x.name]].sort() : values[x.name]) !== JSON.stringify(x.default);
  for (const x of OPTIONS ?? []) {
    if (x.needs || x.name === "rounds" || x.name === "deals" || x.name === "first_dealer") continue;
    if (values[x.name] === undefined || values[x.name] === null || (!x.form && !differs(x))) continue;
    const under = OPTIONS.filter((y) => y.needs === x.name && values[x.name] === true && values[y.name] !== undefined && (y.form || differs(y)))
      .map((y) => (y.kind === "switch" ? (values[y.name] ? optionWords(y).label : "") : `${optionWords(y).label} ${valueText(y, values[y.name])}`))
      .filter(Boolean);
    items.push(`${optionWords(x).label}: ${valueText(x, values[x.name])}${under.length ? ` (${under.join(", ")})` : ""}`);
  }
  return items;
}

export function valueText(x, v) {
  return x.kind === "set" ? [...v].map((e) => valueWord(x, e)).join(", ") : valueWord(x, v);
}
