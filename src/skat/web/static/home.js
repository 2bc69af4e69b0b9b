// The home page: the options form (built from GET /api/options), creating a
// table, the lobby.
import { app, esc, lang, store, t } from "./common.js";
import { fillYourTables, yourTablesSection } from "./mine.js";
import { go } from "./nav.js";
import { ensureProfile } from "./profile.js";
import { OPTIONS, formOptions, optionRow, optionsReady, remembered, showNeeded, valueWord } from "./options.js";
import { bindTournamentForm, tournamentForm } from "./tournament.js";


export async function homePage() {
  await optionsReady;
  const name = store.get("skat.name", "");
  const played = remembered("skat.play");
  const chosen = remembered("skat.options");
  // the Play button's own choices: the level, hints, and how long a result
  // stays (issue 49, item 4: by default it waits for Next when alone)
  const quick = OPTIONS.filter((o) => o.name === "level" || o.name === "hint" || o.name === "result");
  app.innerHTML = `
  <section class="home">
    <h1>${esc(t("home.title"))}</h1>
    <p class="lead">${esc(t("home.lead"))}</p>
    ${yourTablesSection()}
    <p class="profile-link"><a href="/p" data-testid="profile-link">${esc(t("home.profile"))}</a></p>
    <form id="play-form" class="play-form">
      <label for="name">${esc(t("home.name"))}</label>
      <input id="name" name="name" maxlength="24" autocomplete="nickname" placeholder="${esc(t("home.namePlaceholder"))}" value="${esc(name)}">
      <div class="quick">${quick.map((o) => optionRow(o, played[o.name] ?? o.default, "p")).join("")}</div>
      <button class="primary big" type="submit" data-testid="play">${esc(t("home.play"))}</button>
      <p class="help">${esc(t("home.playHint"))}</p>
      <p class="error" id="home-error" role="alert"></p>
    </form>
    <section class="lobby" aria-labelledby="lobby-title">
      <h2 id="lobby-title">${esc(t("lobby.title"))}</h2>
      <div id="lobby" data-testid="lobby" aria-live="polite"></div>
    </section>
    <details class="options">
      <summary>${esc(t("home.options"))}</summary>
      <form id="options-form">
        ${OPTIONS.filter((o) => o.form).map((o) => optionRow(o, chosen[o.name] ?? o.default)).join("\n        ")}
        <button class="primary" type="submit" data-testid="create">${esc(t("home.create"))}</button>
      </form>
    </details>
    ${tournamentForm()}
  </section>`;
  const readName = () => {
    const n = document.getElementById("name").value.trim();
    if (!n) {
      document.getElementById("home-error").textContent = t("home.needName");
      document.getElementById("name").focus();
      return null;
    }
    store.set("skat.name", n);
    return n;
  };
  document.getElementById("lobby").addEventListener("click", (e) => {
    const b = e.target.closest("[data-join]");
    if (!b || !readName()) return;
    store.set(`skat.join.${b.dataset.join}`, "sit");  // the table page sits down at once
    ensureProfile().then(() => go(`/t/${b.dataset.join}`));
  });
  refreshLobby();
  fillYourTables();
  bindTournamentForm();
  const optionsForm = document.getElementById("options-form");
  showNeeded(optionsForm);
  optionsForm.addEventListener("change", () => showNeeded(optionsForm));
  document.getElementById("play-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const n = readName();
    if (!n) return;
    const f = new FormData(e.target);
    const result = OPTIONS.find((o) => o.name === "result");
    const opts = { level: f.get("level"), hint: f.get("hint") === "1", result: result.choices.find((c) => String(c) === f.get("result")) ?? result.default };
    store.set("skat.play", JSON.stringify(opts));
    await createTable({ rounds: 12, ...opts }, true);
  });
  optionsForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const n = readName();
    if (!n) return;
    const opts = formOptions(new FormData(e.target));
    store.set("skat.options", JSON.stringify(opts));
    await createTable(opts, false);
  });
}

// The lobby (GET /api/lobby): public tables waiting for people, asked
// again every few seconds while the home page shows.
const LOBBY_EVERY_MS = 4000;
const LANG_NAMES = { en: "English", de: "Deutsch", da: "Dansk" };
let lobbyTimer = 0;

async function refreshLobby() {
  clearTimeout(lobbyTimer);
  const el = document.getElementById("lobby");
  if (!el) return;  // another page now
  try {
    const res = await fetch("/api/lobby");
    if (res.ok) {
      const body = await res.json();
      renderLobby(el, body.tables, body.tournaments ?? []);
    }
  } catch { /* offline for a moment: the next round asks again */ }
  if (document.getElementById("lobby")) lobbyTimer = setTimeout(refreshLobby, LOBBY_EVERY_MS);
}

function optionValue(name, value) {
  const o = OPTIONS.find((x) => x.name === name);
  return o ? valueWord(o, value) : String(value);
}

function renderLobby(el, tables, tournaments) {
  if (!tables.length && !tournaments.length) { el.innerHTML = `<p class="help" data-testid="lobby-empty">${esc(t("lobby.empty"))}</p>`; return; }
  const open = tournaments.map((x) => {
    const about = [
      t("lobby.tournament"),
      t("tour.seriesLine", { n: x.series, r: x.rounds }),
      optionValue("scoring", x.rules.scoring ?? "seeger_fabian"),
      LANG_NAMES[x.lang] || x.lang,
    ].join(" · ");
    return `<li data-testid="lobby-tournament"><span class="rules">${esc(x.name)}</span>
      <span class="seated">${esc(about)}</span>
      <span class="free">${esc(t("lobby.entered", { n: x.entrants }))}</span>
      <a class="button primary" href="${esc(x.url)}" data-testid="lobby-enter">${esc(t("lobby.enter"))}</a></li>`;
  }).join("");
  el.innerHTML = `<ul class="lobby-list">${open}${tables.map((x) => {
    const people = x.seats.filter((s) => s.name && !s.bot).map((s) => s.name);
    const rules = [
      t("lobby.players", { n: x.options.players }),
      optionValue("scoring", x.options.scoring),
      x.level ? optionValue("level", x.level) : "",
      LANG_NAMES[x.lang] || x.lang,
    ].filter(Boolean).join(" · ");
    return `<li data-testid="lobby-table" data-table="${esc(x.id)}"><span class="rules">${esc(rules)}</span>
      <span class="seated">${esc(people.length ? t("lobby.seated", { names: people.join(", ") }) : "")}</span>
      <span class="free">${esc(t("lobby.free", { n: x.free }))}</span>
      <button class="primary" data-join="${esc(x.id)}" data-testid="lobby-join">${esc(t("lobby.join"))}</button></li>`;
  }).join("")}</ul>`;
}

export async function createTable(opts, autofill) {
  opts = { ...opts, lang };  // the lobby says in which language a table was made
  await ensureProfile();  // the first time this browser plays (issue 48): the table page sits with it
  const res = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(opts) });
  const data = await res.json();
  if (!res.ok) {
    document.getElementById("home-error").textContent = data.error?.message || "error";
    return;
  }
  store.set(`skat.creator.${data.id}`, data.creator);
  store.set(`skat.join.${data.id}`, autofill ? "fill" : "sit");
  go(`/t/${data.id}`);
}
