// The browser client: plain ES modules, no build step. The server decides
// what is legal; this page only shows what it is told (view.legal).
// This module is the entry: the router, the language switch and the rules
// pages; home.js, table.js (with state.js, board.js, log.js, result.js,
// input.js), tournament.js and calculator.js are the other pages. Nothing
// imports it back: a page moves on through nav.js's go.
import { boardPage, fileBoardPage } from "./analysis.js";
import { calculatorPage } from "./calculator.js";
import { RULES, RULE_PAGES, announceTimer, app, applyStaticTexts, cardsRow, esc, lang, setLang, store, t } from "./common.js";
import { homePage } from "./home.js";
import { profilePage } from "./profile.js";
import { listReviewPage } from "./review.js";
import { go, setRouter } from "./nav.js";
import { optionsReady } from "./options.js";
import { applyTheme, renderSettings } from "./settings.js";
import { closeTableUnless } from "./state.js";
import { tablePage } from "./table.js";
import { tournamentPage } from "./tournament.js";

export async function route() {
  await optionsReady; // the options form and the rules line are built from them
  const path = location.pathname;
  closeTableUnless(path);
  applyStaticTexts();
  renderSettings();
  let m;
  if ((m = path.match(/^\/t\/([\w-]+)\/deals\/(\d+)$/))) return boardPage(m[1], Number(m[2]));
  if ((m = path.match(/^\/t\/([\w-]+)\/review$/))) return listReviewPage(m[1]);
  if ((m = path.match(/^\/t\/([\w-]+)$/))) return tablePage(m[1]);
  if ((m = path.match(/^\/tournament\/([\w-]+)$/))) return tournamentPage(m[1]);
  if (path === "/p") return profilePage(null);
  if ((m = path.match(/^\/p\/([\w-]+)$/))) return profilePage(m[1]);
  if (path === "/calculator") return calculatorPage();
  if (path === "/board") return fileBoardPage();
  if (path === "/rules") return rulesPage("howto", true);
  if ((m = path.match(/^\/rules\/(\w+)$/)) && RULE_PAGES.includes(m[1])) return rulesPage(m[1], false);
  return homePage();
}

setRouter(route);
applyTheme();
// installable, and offline it says so (sw.js keeps no table's state)
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[href^='/']");
  // a link with a target (the board beside the table) opens as the browser does
  if (a && !e.defaultPrevented && !a.hasAttribute("download") && !a.target && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    go(a.getAttribute("href"));
  }
});
window.addEventListener("popstate", route);
document.getElementById("lang").addEventListener("change", (e) => {
  setLang(e.target.value);
  store.set("skat.lang", lang);
  clearTimeout(announceTimer); // a line in the old language is not read out any more
  document.getElementById("announce").textContent = "";
  route();
});

// ------------------------------------------------------------------ rules
export function rulesPage(page, index) {
  const body = (RULES[lang] || RULES.en)[page].replace(/\{\{cards:([^}]*)\}\}/g, (_, list) => `<div class="diagram">${cardsRow(list.trim().split(/\s+/))}</div>`);
  app.innerHTML = `<section class="rules">
    <nav class="rule-links" aria-label="${esc(t("rules.title"))}">${RULE_PAGES.map((p) => `<a href="/rules${p === "howto" ? "" : "/" + p}" ${p === page ? 'aria-current="page"' : ""}>${esc(t(`rules.${p}`))}</a>`).join("")}</nav>
    <h1>${esc(t(`rules.${page}`))}</h1>
    <article>${body}</article>
    <p><a class="button primary" href="/">${esc(t("rules.play"))}</a> ${index ? "" : `<a href="/rules">${esc(t("rules.back"))}</a>`}</p>
  </section>`;
}

route();
