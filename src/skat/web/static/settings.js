// The page's settings, in the header on every page (issue 49, item 7): the
// theme (the system's, light or dark), the cards, the sounds and the
// table's switches, each kept in localStorage; and the list of keys, opened
// from the settings or with "?".
import { DECKS, deck, esc, setDeck, store, t } from "./common.js";
import { FLAG_KEYS, GAME_KEYS, TABLE_KEYS } from "./board.js";
import { redraw, setting } from "./state.js";

export const THEMES = ["system", "light", "dark"];
// on/off switches, each kept as skat.set.KEY ("1" on)
export const SWITCHES = ["sound", "cardSound", "trickSound", "resultSound", "vibrate", "tap2"];

const DARK = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

export function themeChoice() {
  const c = store.get("skat.theme", "system");
  return THEMES.includes(c) ? c : "system";
}

// The theme on the page: the person's choice, or the system's.
export function applyTheme() {
  const c = themeChoice();
  const dark = c === "dark" || (c === "system" && !!DARK?.matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  document.querySelector("meta[name=theme-color]")?.setAttribute("content", dark ? "#0f3320" : "#164a2e");
}
DARK?.addEventListener?.("change", applyTheme);

export function settingsPanel() {
  const select = (key, values, current, word) => `<label class="choice">${esc(t(`set.${key}`))}
      <select data-setting="${key}" data-testid="set-${key}">${values.map((v) => `<option value="${v}" ${v === current ? "selected" : ""}>${esc(t(word(v)))}</option>`).join("")}</select></label>`;
  return [
    select("theme", THEMES, themeChoice(), (v) => `theme.${v}`),
    select("deck", DECKS, deck, (v) => `deck.${v}`),
    ...SWITCHES.map((k) => `<label><input type="checkbox" data-key="${k}" ${setting(k) ? "checked" : ""}> ${esc(t(`set.${k}`))}</label>`),
    `<button type="button" data-action="keys" data-testid="keys-open" aria-keyshortcuts="?">${esc(t("keys.open"))}</button>`,
  ].join("\n");
}

// The header's Settings: drawn again in the page's language on each route.
export function renderSettings() {
  const box = document.getElementById("settings");
  if (!box) return;
  const open = box.open;
  box.innerHTML = `<summary data-testid="settings">${esc(t("set.title"))}</summary><div class="settings-box">${settingsPanel()}</div>`;
  box.open = open;
  if (box.dataset.bound) return;
  box.dataset.bound = "1";
  box.addEventListener("change", (e) => {
    const el = e.target;
    if (el.dataset.setting === "theme") {
      store.set("skat.theme", el.value);
      applyTheme();
    } else if (el.dataset.setting === "deck") {
      setDeck(el.value);
      store.set("skat.deck", el.value);
      redraw();
    } else if (el.dataset.key) {
      store.set(`skat.set.${el.dataset.key}`, el.checked ? "1" : "0");
      redraw();
    }
  });
  box.addEventListener("click", (e) => {
    if (e.target.closest("[data-action=keys]")) openKeys();
  });
}

// ------------------------------------------------------------------ keys
// The keys as the help lists them: [keys, words], from the table's own
// key map (board.js), so the help never names a key that does nothing.
function keyRows() {
  const rows = [];
  for (const k of Object.keys(TABLE_KEYS)) {
    rows.push([k.toUpperCase(), t(`keys.${k}`)]);
    if (k === "h") {  // the game and its announcements follow Hand
      rows.push([`1–${GAME_KEYS.length}`, t("keys.games", { games: GAME_KEYS.map((g) => t(`game.${g}`)).join(", ") })]);
      rows.push([`${GAME_KEYS.length + 1}–${GAME_KEYS.length + FLAG_KEYS.length}`, t("keys.flags", { flags: FLAG_KEYS.map((f) => t(`ann.${f}`)).join(", ") })]);
    }
  }
  rows.push(["← →", t("keys.arrows")], [t("keys.enterKey"), t("keys.enter")], ["?", t("keys.help")], [t("keys.escKey"), t("keys.esc")]);
  return rows;
}

export function openKeys() {
  closeKeys();
  const back = document.activeElement;
  const box = document.createElement("div");
  box.className = "modal";
  box.id = "keys-help";
  box.innerHTML = `<div class="modal-box keys-box" role="dialog" aria-modal="true" aria-labelledby="keys-title" data-testid="keys-help">
    <h2 id="keys-title">${esc(t("keys.title"))}</h2>
    <p class="help">${esc(t("keys.lead"))}</p>
    <table class="keys"><tbody>${keyRows().map(([k, w]) => `<tr><th scope="row"><kbd>${esc(k)}</kbd></th><td>${esc(w)}</td></tr>`).join("")}</tbody></table>
    <button type="button" class="primary" data-testid="keys-close">${esc(t("act.close"))}</button></div>`;
  document.body.append(box);
  const close = () => { closeKeys(); back?.focus?.(); };
  box.querySelector("[data-testid=keys-close]").addEventListener("click", close);
  box.addEventListener("click", (e) => { if (e.target === box) close(); });
  box.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); close(); } });
  box.querySelector("[data-testid=keys-close]").focus();
}

export function closeKeys() {
  document.getElementById("keys-help")?.remove();
}

// "?" opens the keys anywhere (but not while typing in a field).
document.addEventListener("keydown", (e) => {
  const el = e.target;
  if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey) return;
  if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable)) return;
  e.preventDefault();
  if (document.getElementById("keys-help")) closeKeys(); else openKeys();
});
