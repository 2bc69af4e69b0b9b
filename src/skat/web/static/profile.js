// A name you keep, without signing up (issue 48): the first time this
// browser plays, the server makes a profile and sends its key here, once
// (POST /api/profiles); the page keeps it (skat.profile.key) and sends it
// when it sits down or enters a tournament, so the server links the seat to
// the profile. The secret link (/p#KEY: the key after "#" never reaches a
// server's log) opens the profile on another device. The profile page
// (/p, or /p/ID for a profile its owner made public) lists the lists and
// tournaments with their results and the figures over them.
import { app, esc, fmt, gameText, store, t } from "./common.js";
import { levelWord } from "./options.js";

const KEY = "skat.profile.key";
const FRESH = "skat.profile.fresh"; // "1": the secret link has not been shown yet
const KEY_RE = /^[A-Za-z0-9_-]{32}$/;
const GAMES = ["diamonds", "hearts", "spades", "clubs", "grand", "null"];

export function profileKey() {
  const k = store.get(KEY, "");
  return KEY_RE.test(k) ? k : null;
}

let making = null;

// The profile's key, made the first time (null where the server made none:
// the person plays all the same).
export async function ensureProfile() {
  const have = profileKey();
  if (have) return have;
  making = making || (async () => {
    try {
      const res = await fetch("/api/profiles", { method: "POST" });
      if (!res.ok) return null;
      const data = await res.json();
      store.set(KEY, data.key);
      store.set(FRESH, "1");
      return data.key;
    } catch {
      return null;
    } finally {
      making = null;
    }
  })();
  return making;
}

// A message to the server with the profile's key, where this browser has one.
export function withProfile(msg) {
  const key = profileKey();
  return key ? { ...msg, profile: key } : msg;
}

const secretLink = (key) => `${location.origin}/p#${key}`;
const when = (at) => new Date(at * 1000).toLocaleDateString(document.documentElement.lang, { year: "numeric", month: "short", day: "numeric" });

let P = null; // the page shown: { key } or { id }

export async function profilePage(id) {
  P = id ? { id } : {};
  const mine = P;
  if (!id) {
    // a secret link opened here: its key is this device's from now on
    const given = location.hash.slice(1);
    if (KEY_RE.test(given)) {
      store.set(KEY, given);
      store.set(FRESH, "0");
      history.replaceState(null, "", "/p");
    }
    P.key = profileKey();
  }
  app.innerHTML = `<section class="profile-page" aria-labelledby="profile-title">
    <h1 id="profile-title">${esc(t(id ? "profile.publicTitle" : "profile.title"))}</h1>
    <div id="profile-body" aria-live="polite"><p class="status">${esc(t("review.loading"))}</p></div></section>`;
  if (!id && !P.key) return showNone();
  while (P === mine) {
    let res, data;
    try {
      res = id ? await fetch(`/api/profiles/${encodeURIComponent(id)}`) : await fetch("/api/profile", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key: P.key }) });
      data = await res.json();
    } catch {
      res = null;
    }
    const body = document.getElementById("profile-body");
    if (P !== mine || !body) return;
    if (!res || !res.ok) {
      const code = data?.error?.code;
      body.innerHTML = `<p class="status" data-testid="profile-status">${esc(t(code === "NO_PROFILE" ? (id ? "profile.private" : "profile.gone") : "review.failed"))}</p>`;
      if (!id && code === "NO_PROFILE") bindOpen(body);
      return;
    }
    body.innerHTML = profileHtml(data, !id);
    if (!id) bindOwner();
    if (!data.lists.some((x) => x.review_state === "reviewing" || x.review_state === "waiting")) return;
    await new Promise((r) => setTimeout(r, 4000)); // a review under way: asked again
  }
}

function showNone() {
  const body = document.getElementById("profile-body");
  body.innerHTML = `<p data-testid="profile-status">${esc(t("profile.none"))}</p>`;
  bindOpen(body);
}

// "Open with a secret link": the key of a profile made on another device.
function bindOpen(body) {
  body.insertAdjacentHTML("beforeend", `<form id="profile-open" class="profile-open"><label for="profile-link">${esc(t("profile.openLabel"))}</label>
    <input id="profile-link" maxlength="200" autocomplete="off"><button type="submit">${esc(t("profile.open"))}</button></form>`);
  document.getElementById("profile-open").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = document.getElementById("profile-link").value.trim();
    const key = text.includes("#") ? text.slice(text.lastIndexOf("#") + 1) : text;
    if (!KEY_RE.test(key)) { document.getElementById("profile-link").setCustomValidity(t("profile.badLink")); e.target.reportValidity(); return; }
    store.set(KEY, key);
    store.set(FRESH, "0");
    profilePage(null);
  });
}

function pct(won, of) {
  return of ? `${Math.round((100 * won) / of)}%` : "–";
}

function profileHtml(d, owner) {
  const s = d.stats;
  const parts = [];
  parts.push(`<p class="lead" data-testid="profile-name">${esc(d.name ? t("profile.as", { name: d.name }) : t("profile.noName"))}</p>`);
  if (owner) parts.push(ownerHtml(d));
  parts.push(`<h2>${esc(t("profile.figures"))}</h2>`);
  if (!s.lists) parts.push(`<p>${esc(t("profile.noLists"))}</p>`);
  else {
    parts.push(`<ul class="profile-figures" data-testid="profile-figures">
      <li>${esc(t("profile.lists", { n: s.lists, deals: s.played, first: s.first_places }))}</li>
      <li>${esc(t("profile.perDeal", { sf: fmt(s.seeger_fabian), per: fmt(s.per_deal) }))}</li>
      <li>${esc(t("profile.declared", { n: s.declared, won: s.won, pct: pct(s.won, s.declared) }))}</li>
      <li>${esc(t("profile.thrownIn", { n: s.thrown_in }))}</li>
      <li>${esc(t("profile.kontra", { said: s.kontra.said, won: s.kontra.won, re: s.re.said, reWon: s.re.won }))}</li></ul>`);
    const rows = GAMES.filter((g) => s.games[g].declared).map((g) => `<tr><th scope="row">${esc(gameText([g]))}</th><td class="num">${s.games[g].declared}</td><td class="num">${s.games[g].won}</td><td class="num">${pct(s.games[g].won, s.games[g].declared)}</td></tr>`).join("");
    if (rows) parts.push(`<div class="scroll"><table class="review-table" data-testid="profile-games"><thead><tr><th>${esc(t("profile.game"))}</th><th>${esc(t("profile.declaredShort"))}</th><th>${esc(t("profile.wonShort"))}</th><th>%</th></tr></thead><tbody>${rows}</tbody></table></div>`);
  }
  parts.push(`<h2>${esc(t("profile.reviewTitle"))}</h2>`);
  const r = s.review;
  if (!r.lists) parts.push(`<p data-testid="profile-review">${esc(t("profile.notReviewed"))}</p>`);
  else {
    parts.push(`<p data-testid="profile-review">${esc(t("profile.reviewLine", { lists: r.lists, n: r.decisions, avg: r.average_loss.toFixed(1) }))}</p>`);
    parts.push(`<p data-testid="profile-luck">${esc(t("profile.luck", { promised: fmt(Math.round(s.luck.promised)), made: fmt(s.luck.made), play: fmt(Math.round(s.luck.play)) }))}</p>`);
    parts.push(chart(r.trend));
  }
  parts.push(skillHtml(s.skill));
  parts.push(`<h2>${esc(t("profile.listsTitle"))}</h2>`);
  parts.push(d.lists.length ? `<ul class="profile-lists" data-testid="profile-lists">${d.lists.map((x) => listHtml(x, owner)).join("")}</ul>` : `<p>${esc(t("profile.noLists"))}</p>`);
  if (d.tournaments.length) {
    parts.push(`<h2>${esc(t("profile.tournamentsTitle"))}</h2><ul class="profile-lists" data-testid="profile-tournaments">${d.tournaments.map(tournamentHtml).join("")}</ul>`);
  }
  return parts.join("\n");
}

// The skill figure (Glicko-2 over the reviewed lists) with its 95% interval,
// and the computer levels placed by the same measure.
function skillHtml(k) {
  if (!k || !k.lists) return `<p data-testid="profile-skill">${esc(t("profile.skillNone"))}</p>`;
  const levels = Object.entries(k.levels).map(([name, r]) => `${levelWord(name)} ${r}`).join(" · ");
  return `<p data-testid="profile-skill"><b>${esc(t("profile.skill", { rating: k.rating, twice: 2 * k.rd, low: k.low, high: k.high, n: k.lists, level: levelWord(k.like) }))}</b></p>
    <p class="help">${esc(t("profile.skillLevels", { levels }))} ${esc(t("profile.skillHelp"))}</p>`;
}

function ownerHtml(d) {
  const fresh = store.get(FRESH) === "1";
  const link = fresh ? `<div class="profile-secret" data-testid="profile-secret"><p><b>${esc(t("profile.secretTitle"))}</b> ${esc(t("profile.secretHelp"))}</p>
    <input readonly id="profile-secret-link" value="${esc(secretLink(P.key))}" aria-label="${esc(t("profile.secretTitle"))}" data-testid="profile-secret-link">
    <button type="button" data-profile="copy">${esc(t("table.copy"))}</button> <button type="button" data-profile="kept" data-testid="profile-kept">${esc(t("profile.kept"))}</button></div>` : "";
  const url = `${location.origin}/p/${d.id}`;
  const pub = d.public
    ? `<p data-testid="profile-public">${esc(t("profile.isPublic"))} <a href="/p/${esc(d.id)}">${esc(url)}</a> <button type="button" data-profile="private">${esc(t("profile.makePrivate"))}</button></p>`
    : `<p data-testid="profile-public">${esc(t("profile.isPrivate"))} <button type="button" data-profile="public">${esc(t("profile.makePublic"))}</button></p>`;
  return `${link}${pub}<p><button type="button" class="danger" data-profile="delete" data-testid="profile-delete">${esc(t("profile.delete"))}</button></p>`;
}

function listHtml(x, owner) {
  const f = x.figures;
  const bits = [when(x.at)];
  if (f) {
    bits.push(t("profile.listLine", { players: f.players, deals: f.settled, of: f.deals, total: fmt(f.total) }));
    if (f.over) bits.push(t("profile.place", { place: f.place, of: f.players }));
  }
  bits.push(t(`mine.${["playing", "open", "finished", "expired"].includes(x.status) ? x.status : "gone"}`));
  const review = x.review
    ? t("profile.listReview", { avg: x.review.average_loss.toFixed(1), play: fmt(Math.round(x.review.play)) })
    : t(x.review_state === "reviewing" || x.review_state === "waiting" ? "profile.reviewing" : "profile.notReviewed");
  const links = owner ? ` <a href="${esc(x.url)}">${esc(t("profile.openTable"))}</a>${f?.over ? ` <a href="${esc(x.url)}/review">${esc(t("profile.openReview"))}</a>` : ""}` : "";
  return `<li data-testid="profile-list" data-table="${esc(x.table)}">${esc(bits.join(" · "))}<br><span class="help">${esc(review)}</span>${links}</li>`;
}

function tournamentHtml(x) {
  const bits = [when(x.at), x.title ?? ""];
  if (x.place) bits.push(t("profile.place", { place: x.place, of: x.of }), fmt(x.total));
  return `<li data-testid="profile-tournament">${esc(bits.filter(Boolean).join(" · "))} <a href="${esc(x.url)}">${esc(t("profile.openTournament"))}</a></li>`;
}

// The review's average loss per decision, list by list over time: a small
// inline SVG (lower is better), with the figures in words for a reader.
function chart(trend) {
  if (trend.length < 1) return "";
  const W = 320, H = 120, pad = 24;
  const top = Math.max(1, ...trend.map((p) => p.average_loss));
  const x = (i) => (trend.length === 1 ? W / 2 : pad + ((W - 2 * pad) * i) / (trend.length - 1));
  const y = (v) => H - pad - ((H - 2 * pad) * v) / top;
  const points = trend.map((p, i) => `${x(i).toFixed(1)},${y(p.average_loss).toFixed(1)}`).join(" ");
  const dots = trend.map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.average_loss).toFixed(1)}" r="3"><title>${esc(`${when(p.at)}: ${p.average_loss.toFixed(1)}`)}</title></circle>`).join("");
  const words = trend.map((p) => `${when(p.at)}: ${p.average_loss.toFixed(1)}`).join("; ");
  return `<figure class="profile-chart" data-testid="profile-chart"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("profile.chart"))}: ${esc(words)}">
    <line x1="${pad}" y1="${H - pad}" x2="${W - pad}" y2="${H - pad}" class="axis"/><line x1="${pad}" y1="${pad}" x2="${pad}" y2="${H - pad}" class="axis"/>
    <text x="2" y="${pad + 4}">${esc(top.toFixed(1))}</text><text x="2" y="${H - pad + 4}">0</text>
    <polyline points="${points}" class="trend"/>${dots}</svg><figcaption>${esc(t("profile.chart"))}</figcaption></figure>`;
}

function bindOwner() {
  const key = P.key;
  const post = (path, body) => fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key, ...body }) });
  document.querySelectorAll("[data-profile]").forEach((b) => b.addEventListener("click", async () => {
    switch (b.dataset.profile) {
      case "copy": {
        const input = document.getElementById("profile-secret-link");
        try { await navigator.clipboard.writeText(input.value); b.textContent = t("table.copied"); } catch { input.select(); }
        return;
      }
      case "kept": store.set(FRESH, "0"); return profilePage(null);
      case "public": case "private":
        await post("/api/profile/public", { public: b.dataset.profile === "public" });
        return profilePage(null);
      case "delete": {
        if (!confirm(t("profile.confirmDelete"))) return;
        const res = await post("/api/profile/delete", {});
        if (res.ok || res.status === 404) {
          try { localStorage.removeItem(KEY); localStorage.removeItem(FRESH); } catch { /* nothing kept */ }
          return profilePage(null);
        }
        return;
      }
    }
  }));
}
