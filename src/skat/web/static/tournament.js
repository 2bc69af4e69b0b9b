// A tournament (docs/tournaments.md): the page to share and the page to run
// it are one page; what a visitor sees follows what this browser holds:
// the organiser's secret (from the run link's #run=...), an entrant's token
// (from entering here, or from the link the organiser gave a latecomer,
// #entrant=...). The page asks the server again every half second while
// tables play (every 2 s otherwise); the standings come from there.
import { app, errorText, esc, fmt, lang, store, t } from "./common.js";
import { rememberTournament } from "./mine.js";
import { go } from "./nav.js";
import { OPTIONS, formOptions, optionRow, remembered, rulesItems, showNeeded } from "./options.js";
import { ensureProfile, withProfile } from "./profile.js";

// while tables play the standings follow within a second (the server keeps
// a view half a second); between series and before, less often
const EVERY_MS = { playing: 500, other: 2000 };
// options a tournament sets itself for each of its tables (server/tournaments.py)
const OWN = new Set(["players", "rounds", "deals", "rest", "public"]);
let timer = 0;
let shown = null; // the tournament on the page: { id, view, me, msg }

const organiserKey = (id) => `skat.organiser.${id}`;
const entrantKey = (id) => `skat.entrant.${id}`;

async function post(path, body) {
  const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  let data = {};
  try { data = await res.json(); } catch { data = {}; }
  return { ok: res.ok, data };
}

function refusal(data) {
  const code = data.error?.code;
  return code ? errorText(code) : t("tour.failed");
}

// --------------------------------------------------------------- making one
// The home page's form: a name, series, rounds per series, computer fill,
// public, and the tables' rules (the options form's rows less those the
// tournament sets itself).
export function tournamentForm() {
  const chosen = remembered("skat.options");
  const rules = (OPTIONS ?? []).filter((o) => o.form && !OWN.has(o.name));
  return `<details class="options tournament-new">
      <summary>${esc(t("tour.new"))}</summary>
      <form id="tournament-form">
        <p class="help">${esc(t("tour.newHelp"))}</p>
        <div class="opt"><label for="tr-title">${esc(t("tour.name"))}</label><input id="tr-title" name="title" maxlength="60" required></div>
        <div class="opt"><label for="tr-series">${esc(t("tour.seriesCount"))}</label><input id="tr-series" name="series" type="number" min="1" max="8" value="2"></div>
        <div class="opt"><label for="tr-rounds">${esc(t("tour.rounds"))}</label><input id="tr-rounds" name="rounds" type="number" min="1" max="12" value="12">
          <p class="help">${esc(t("tour.roundsHelp"))}</p></div>
        <div class="opt"><label for="tr-fill">${esc(t("tour.fill"))}</label><select id="tr-fill" name="fill"><option value="1" selected>${esc(t("opt.on"))}</option><option value="0">${esc(t("opt.off"))}</option></select>
          <p class="help">${esc(t("tour.fillHelp"))}</p></div>
        <div class="opt"><label for="tr-public">${esc(t("tour.public"))}</label><select id="tr-public" name="tpublic"><option value="0" selected>${esc(t("opt.off"))}</option><option value="1">${esc(t("opt.on"))}</option></select>
          <p class="help">${esc(t("tour.publicHelp"))}</p></div>
        ${rules.map((o) => optionRow(o, chosen[o.name] ?? o.default, "tr")).join("\n        ")}
        <button class="primary" type="submit" data-testid="tournament-create">${esc(t("tour.create"))}</button>
        <p class="error" id="tournament-error" role="alert"></p>
      </form>
    </details>`;
}

export function bindTournamentForm() {
  const form = document.getElementById("tournament-form");
  if (!form) return;
  showNeeded(form);
  form.addEventListener("change", () => showNeeded(form));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const all = formOptions(f);
    const rules = {};
    for (const [k, v] of Object.entries(all)) if (!OWN.has(k)) rules[k] = v;
    const whole = (name, low, high, d) => Math.max(low, Math.min(high, Math.round(Number(f.get(name))) || d));
    const body = {
      name: String(f.get("title") || "").trim(),
      series: whole("series", 1, 8, 2),
      rounds: whole("rounds", 1, 12, 12),
      fill: f.get("fill") === "1",
      public: f.get("tpublic") === "1",
      lang,
      rules,
    };
    const { ok, data } = await post("/api/tournaments", body);
    if (!ok) {
      document.getElementById("tournament-error").textContent = data.error?.code === "BAD_OPTIONS" ? `${t("tour.failed")} ${data.error.message}` : refusal(data);
      return;
    }
    store.set(organiserKey(data.id), data.organiser);
    go(data.url);
  });
}

// ----------------------------------------------------------------- the page
export async function tournamentPage(id) {
  clearTimeout(timer);
  // the secrets in a link's fragment are kept here and taken out of the address bar
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("run")) store.set(organiserKey(id), hash.get("run"));
  if (hash.get("entrant")) store.set(entrantKey(id), hash.get("entrant"));
  if (location.hash) history.replaceState({}, "", location.pathname);
  if (shown?.id !== id) shown = { id, view: null, me: null, msg: "", added: null };
  app.innerHTML = `<section class="tournament" data-testid="tournament"><p>${esc(t("tour.loading"))}</p></section>`;
  await refresh(id);
}

async function refresh(id) {
  clearTimeout(timer);
  if (!isShowing(id)) return;
  try {
    const res = await fetch(`/api/tournaments/${encodeURIComponent(id)}`);
    const data = await res.json();
    if (!isShowing(id)) return;
    if (!res.ok) {
      app.innerHTML = `<section class="tournament"><h1>${esc(t("tour.title"))}</h1><p class="error" role="alert" data-testid="tournament-error">${esc(refusal(data))}</p><p><a href="/">${esc(t("tour.home"))}</a></p></section>`;
      return;
    }
    const drawn = data.series.length;
    const token = store.get(entrantKey(id));
    if (token && (shown.me === null || shown.me.series !== drawn)) {
      const mine = await post(`/api/tournaments/${encodeURIComponent(id)}/me`, { token });
      if (mine.ok) {
        shown.me = { ...mine.data, series: drawn };
        // the entrant's token is their seat token at their table
        if (mine.data.table) store.set(`skat.token.${mine.data.table.id}`, token);
      } else if (mine.data.error?.code === "BAD_TOKEN") {
        store.set(entrantKey(id), "");
        shown.me = null;
      }
    }
    shown.view = data;
    // an entrant's or organiser's tournament: its tables lead back here (mine.js)
    if (token || store.get(organiserKey(id))) rememberTournament(id, data.name, data.series.flatMap((x) => x.tables.map((tb) => tb.id)));
    render();
  } catch { /* offline for a moment: the next round asks again */ }
  const every = shown?.view?.state === "playing" ? EVERY_MS.playing : EVERY_MS.other;
  if (isShowing(id)) timer = setTimeout(() => refresh(id), every);
}

function isShowing(id) {
  return location.pathname === `/tournament/${id}` && shown?.id === id;
}

function stateLine(v) {
  const k = v.series.length;
  const n = v.series_total;
  if (v.state === "entry") return t("tour.state.entry", { n: v.entrants.length });
  if (v.state === "playing") return t("tour.state.playing", { k, n });
  if (v.state === "between") return t("tour.state.between", { k, n });
  if (v.state === "finished") return t("tour.state.finished");
  return t("tour.state.expired");
}

function rulesLine(v) {
  const o = {};
  for (const x of OPTIONS ?? []) o[x.name] = v.rules[x.name] ?? x.default;
  for (const own of OWN) delete o[own]; // each table's size and length are the draw's
  return [
    t("tour.seriesLine", { n: v.series_total, r: v.rounds }),
    v.fill ? t("tour.fillOn") : t("tour.fillOff"),
    ...rulesItems(o, {}),
  ];
}

function tableRow(x, i) {
  const seats = x.seats.map((s) => {
    const away = (x.away || []).includes(s.name);
    const mark = s.computer ? ` (${t("tour.computer")})` : away ? ` (${t("tour.away")})` : "";
    const total = x.totals && s.name in x.totals ? ` ${fmt(x.totals[s.name])}` : "";
    return `<span class="who${s.computer || away ? " auto" : ""}">${esc(s.name + mark)}${esc(total)}</span>`;
  }).join(", ");
  const progress = x.status === "broken" ? t("tour.broken")
    : x.deal === undefined ? t("tour.starting")
    : x.status === "finished" ? t("tour.tableDone", { n: x.deals })
    : t("tour.deal", { n: Math.min(x.deal + 1, x.deals), of: x.deals }); // x.deal: the deals finished
  // none of its people is here: nothing is played until one comes back (or the organiser closes it)
  const rests = x.resting ? ` · ${t("tour.resting")}` : "";
  return `<li data-testid="tournament-table" data-table="${esc(x.id)}"><strong>${esc(t("tour.table", { n: i + 1 }))}</strong> ${seats}
    <span class="progress" data-testid="table-progress">${esc(progress + rests)}</span>
    <a href="${esc(x.url)}">${esc(t("tour.watch"))}</a>${x.status === "finished" ? ` · <a download href="/api/tables/${esc(x.id)}/list.json">${esc(t("tour.record"))}</a>` : ""}</li>`;
}

function standingsTable(v) {
  if (!v.standings.length) return `<p class="help">${esc(t("tour.noStandings"))}</p>`;
  const k = v.series.length;
  const mine = shown.me?.name;
  // the lists each played and who withdrew are said (issue 49, finding 8):
  // a total over one list stands beside totals over two
  const gone = new Set(v.withdrawn ?? []);
  const head = `<tr><th scope="col">${esc(t("tour.place"))}</th><th scope="col">${esc(t("tour.player"))}</th><th scope="col">${esc(t("tour.total"))}</th><th scope="col">${esc(t("tour.lists"))}</th><th scope="col">${esc(t("tour.won"))}</th><th scope="col">${esc(t("tour.lost"))}</th>${Array.from({ length: k }, (_, i) => `<th scope="col">${esc(t("tour.seriesN", { n: i + 1 }))}</th>`).join("")}</tr>`;
  const rows = v.standings.map((r) => `<tr data-testid="standing"${r.name === mine ? ' class="me"' : ""}><td>${r.place}</td><th scope="row">${esc(r.name)}${gone.has(r.name) ? ` <span class="withdrawn" data-testid="standing-withdrawn">(${esc(t("tour.withdrawnMark"))})</span>` : ""}</th><td data-testid="standing-total">${fmt(r.total)}</td><td data-testid="standing-lists">${r.lists}</td><td>${r.won}</td><td>${r.lost}</td>${Array.from({ length: k }, (_, i) => `<td>${r.series[i] === null || r.series[i] === undefined ? "–" : fmt(r.series[i])}</td>`).join("")}</tr>`).join("");
  const uneven = new Set(v.standings.map((r) => r.lists)).size > 1 || v.standings.some((r) => gone.has(r.name));
  const note = uneven ? `<p class="help" data-testid="standings-note">${esc(t("tour.listsNote"))}</p>` : "";
  return `<div class="standings-wrap"><table class="standings" data-testid="standings"><thead>${head}</thead><tbody>${rows}</tbody></table></div>${note}`;
}

let drawn = ""; // what the page shows now: it is drawn again only when that changes

function render(force = false) {
  const key = JSON.stringify([shown.view, shown.me, shown.msg, shown.added, lang]);
  if (!force && key === drawn && document.querySelector("[data-testid=tournament] h1")) return;
  drawn = key;
  const v = shown.view;
  const id = shown.id;
  const organiser = store.get(organiserKey(id));
  const token = store.get(entrantKey(id));
  const shareUrl = `${location.origin}/tournament/${id}`;
  const me = shown.me;
  const k = v.series.length;
  const canDraw = organiser && (v.state === "entry" || v.state === "between") && k < v.series_total;
  // every table of the series still open rests (none of its people is
  // here): the organiser may close them, each list unfinished
  const still = (v.series[k - 1]?.tables || []).filter((x) => x.status === "playing");
  const canClose = organiser && v.state === "playing" && still.length > 0 && still.every((x) => x.resting);
  const parts = [];
  parts.push(`<h1>${esc(v.name)}</h1>
    <p class="lead" data-testid="tournament-state" aria-live="polite">${esc(stateLine(v))}</p>
    <p class="help" data-testid="tournament-rules">${esc(rulesLine(v).join(" · "))}</p>`);
  // the entrant's own table: the way in
  if (me?.table && me.table.series === k && v.state === "playing") {
    parts.push(`<p class="your-table"><a class="button primary big" href="${esc(me.table.url)}" data-testid="your-table">${esc(t("tour.yourTable", { k: me.table.series }))}</a></p>`);
  }
  if (me?.tables?.length) {
    // every table they sat at: each series' sheet is that table's
    parts.push(`<p data-testid="my-tables">${esc(t("tour.myTables"))} ${me.tables.map((x) => `<a href="${esc(x.url)}">${esc(t("tour.myTable", { k: x.series, n: x.table }))}</a>`).join(" · ")}</p>`);
  }
  if (me?.withdrawn) parts.push(`<p data-testid="entered-as">${esc(t("tour.withdrawnAs", { name: me.name }))}</p>`);
  else if (me) {
    const open = v.state !== "finished" && v.state !== "expired";
    parts.push(`<p data-testid="entered-as">${esc(t("tour.enteredAs", { name: me.name }))}${open ? ` <button data-action="withdraw-me" data-testid="withdraw-me">${esc(t("tour.withdrawMe"))}</button>` : ""}</p>`);
  }
  else if (v.state === "entry" && v.entry_closed && !organiser) {
    parts.push(`<p class="help" data-testid="entries-closed">${esc(t("tour.entryClosed"))}</p>`);
  } else if (v.state === "entry") {
    parts.push(`<form id="enter-form" class="play-form">
      <label for="enter-name">${esc(t("home.name"))}</label>
      <input id="enter-name" maxlength="24" autocomplete="nickname" value="${esc(store.get("skat.name", ""))}">
      <button class="primary" type="submit" data-testid="enter">${esc(t("tour.enter"))}</button>
    </form>`);
  } else if (!token && !organiser && (v.state === "playing" || v.state === "between")) {
    parts.push(`<p class="help">${esc(t("tour.entryClosed"))}</p>`);
  }
  parts.push(`<p class="error" id="tour-msg" role="alert" data-testid="tournament-msg">${esc(shown.msg)}</p>`);
  if (organiser) {
    parts.push(`<section class="organiser" aria-labelledby="org-title" data-testid="organiser">
      <h2 id="org-title">${esc(t("tour.organiser"))}</h2>
      <p>${esc(t("tour.share"))} <input readonly class="link" value="${esc(shareUrl)}" data-testid="share-link" aria-label="${esc(t("tour.share"))}"></p>
      <p class="help">${esc(t("tour.runHelp"))} <input readonly class="link" value="${esc(`${shareUrl}#run=${organiser}`)}" aria-label="${esc(t("tour.runLink"))}"></p>
      ${canDraw ? `<p><button class="primary" data-action="draw" data-testid="draw">${esc(t("tour.draw", { k: k + 1, n: v.series_total }))}</button></p>` : ""}
      ${v.state === "entry" || v.state === "between" ? `<p><button data-action="entry" data-open="${v.entry_closed ? "1" : ""}" data-testid="entry-toggle">${esc(t(v.entry_closed ? "tour.openEntries" : "tour.closeEntries"))}</button> <span class="help">${esc(t(v.entry_closed ? "tour.entriesAreClosed" : "tour.entriesAreOpen"))}</span></p>` : ""}
      ${canClose ? `<p><button data-action="close-resting" data-testid="close-resting">${esc(t("tour.closeResting"))}</button></p>` : ""}
      ${v.state !== "finished" && v.state !== "expired" ? `<form id="add-form"><label for="add-name">${esc(t("tour.add"))}</label> <input id="add-name" maxlength="24"> <button type="submit" data-testid="add">${esc(t("tour.addButton"))}</button>
        <p class="help">${esc(t("tour.addHelp"))}</p></form>` : ""}
      ${v.entrants.length && v.state !== "finished" && v.state !== "expired" ? `<details><summary>${esc(t("tour.withdrawSome"))}</summary><ul class="withdraw-list">${v.entrants.map((n) => `<li>${esc(n)} <button data-withdraw="${esc(n)}" data-testid="withdraw">${esc(t("tour.withdraw"))}</button></li>`).join("")}</ul></details>` : ""}
      ${shown.added ? `<p data-testid="added-link">${esc(t("tour.addedLink", { name: shown.added.name }))} <input readonly class="link" value="${esc(`${shareUrl}#entrant=${shown.added.token}`)}" aria-label="${esc(t("tour.addedLink", { name: shown.added.name }))}"></p>` : ""}
    </section>`);
  }
  parts.push(`<section aria-labelledby="standings-title"><h2 id="standings-title">${esc(v.state === "finished" ? t("tour.final") : t("tour.standings"))}</h2>${standingsTable(v)}
    ${v.standings.length ? `<p>${esc(t("sheet.downloads"))}: <a download href="/api/tournaments/${esc(id)}/standings.csv">CSV</a> · <a download href="/api/tournaments/${esc(id)}/standings.json">JSON</a></p>` : ""}</section>`);
  for (let i = k - 1; i >= 0; i--) {
    parts.push(`<section><h2>${esc(t("tour.seriesN", { n: i + 1 }))}</h2><ol class="tournament-tables">${v.series[i].tables.map(tableRow).join("")}</ol></section>`);
  }
  parts.push(`<section><h2>${esc(t("tour.entrants", { n: v.entrants.length }))}</h2><p data-testid="entrants">${esc(v.entrants.join(", ") || t("tour.nobody"))}</p></section>`);
  parts.push(`<p class="help">${esc(t("tour.fair", { c: v.commitment.slice(0, 16) }))}${v.seed ? ` ${esc(t("tour.seed"))} <code data-testid="seed">${esc(v.seed)}</code>` : ""}</p>`);
  // keep what a person is typing across the refresh
  const typing = ["enter-name", "add-name"].map((x) => [x, document.getElementById(x)]).filter(([, el]) => el);
  const focused = document.activeElement?.id;
  const values = Object.fromEntries(typing.map(([x, el]) => [x, el.value]));
  app.innerHTML = `<section class="tournament" data-testid="tournament">${parts.join("\n")}</section>`;
  for (const [x, value] of Object.entries(values)) {
    const el = document.getElementById(x);
    if (el) el.value = value;
  }
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  bind();
}

function bind() {
  const id = shown.id;
  const base = `/api/tournaments/${encodeURIComponent(id)}`;
  const say = (text) => { shown.msg = text; const el = document.getElementById("tour-msg"); if (el) el.textContent = text; };
  document.getElementById("enter-form")?.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = document.getElementById("enter-name").value.trim();
    if (!name) { say(t("home.needName")); return; }
    store.set("skat.name", name);
    await ensureProfile();  // the tournament is the entrant's profile's too (issue 48)
    const { ok, data } = await post(`${base}/entrants`, withProfile({ name }));
    if (!ok) { say(refusal(data)); return; }
    store.set(entrantKey(id), data.token);
    shown.me = null;
    say("");
    document.getElementById("enter-name").value = "";
    refresh(id);
  });
  document.querySelector("[data-action=draw]")?.addEventListener("click", async (e) => {
    e.target.disabled = true;
    const { ok, data } = await post(`${base}/series`, { organiser: store.get(organiserKey(id)) });
    say(ok ? "" : refusal(data));
    refresh(id);
  });
  // the organiser closes the entry by the shared link (issue 54, finding 7) or opens it again
  document.querySelector("[data-action=entry]")?.addEventListener("click", async (e) => {
    e.target.disabled = true;
    const open = Boolean(e.target.dataset.open);
    const { ok, data } = await post(`${base}/entry`, { organiser: store.get(organiserKey(id)), open });
    say(ok ? "" : refusal(data));
    refresh(id);
  });
  document.querySelector("[data-action=close-resting]")?.addEventListener("click", async (e) => {
    e.target.disabled = true;
    const { ok, data } = await post(`${base}/close`, { organiser: store.get(organiserKey(id)) });
    say(ok ? "" : refusal(data));
    refresh(id);
  });
  const withdraw = async (body) => {
    const { ok, data } = await post(`${base}/withdraw`, body);
    say(ok ? t("tour.withdrawn", { name: data.withdrawn }) : refusal(data));
    shown.me = null;
    refresh(id);
  };
  document.querySelector("[data-action=withdraw-me]")?.addEventListener("click", (e) => {
    if (!confirm(t("tour.withdrawConfirm"))) return;
    e.target.disabled = true;
    withdraw({ token: store.get(entrantKey(id)) });
  });
  for (const b of document.querySelectorAll("[data-withdraw]")) {
    b.addEventListener("click", () => {
      b.disabled = true;
      withdraw({ name: b.dataset.withdraw, organiser: store.get(organiserKey(id)) });
    });
  }
  document.getElementById("add-form")?.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = document.getElementById("add-name").value.trim();
    if (!name) { say(t("home.needName")); return; }
    const { ok, data } = await post(`${base}/entrants`, { name, organiser: store.get(organiserKey(id)) });
    if (!ok) { say(refusal(data)); return; }
    shown.added = data;
    say("");
    document.getElementById("add-name").value = "";
    refresh(id);
  });
}
