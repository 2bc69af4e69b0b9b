// Cards drawn as inline SVG by this code (issue 49, item 6): no images and
// no artwork from elsewhere, no font glyphs for the suits. Three decks:
//   four:   the French tournament deck in four colours (the default):
//           clubs black, spades green, hearts red, diamonds orange
//   two:    the French deck in two colours (clubs, spades black)
//   german: the German-suited deck: Eichel (acorns), Grün (leaves), Rot
//           (hearts), Schellen (bells); Daus, König, Ober, Unter
// Every card shows its rank and suit in the top left corner, large: in a
// hand the cards overlap and that corner is what stays in sight (and the
// suit's shape tells it apart without its colour). Court cards have a
// simple double-headed figure; number cards their pips; the ace or Daus
// one large pip. A card is 60 x 84 units.

const FOUR = { C: "#111111", S: "#13803a", H: "#d0142c", D: "#e07800" };
const TWO = { C: "#111111", S: "#111111", H: "#d0142c", D: "#d0142c" };
// the German deck's colours; the index letters in the darker shade
const GERMAN = { C: "#8a5a14", S: "#2f7d22", H: "#c8102e", D: "#d99a1a" };
const GERMAN_TEXT = { C: "#6b4410", S: "#236018", H: "#b00d28", D: "#8f5f00" };
const RANKS = {
  en: { A: "A", T: "10", K: "K", Q: "Q", J: "J", 9: "9", 8: "8", 7: "7" },
  de: { A: "A", T: "10", K: "K", Q: "D", J: "B", 9: "9", 8: "8", 7: "7" },
  da: { A: "E", T: "10", K: "K", Q: "D", J: "B", 9: "9", 8: "8", 7: "7" },
};
// the German deck's letters are its own in every language: König, Ober, Unter
const GERMAN_RANKS = { A: "A", T: "10", K: "K", Q: "O", J: "U", 9: "9", 8: "8", 7: "7" };
const DARK = "#222222";
const SKIN = "#f3d2a8";
const GOLD = "#d9a62a";

export function suitColour(suit, deck) {
  return (deck === "two" ? TWO : deck === "german" ? GERMAN : FOUR)[suit];
}

// the index letters: the suit's colour, darker where it is light (the
// four-colour deck's orange, the German bells and acorns), so that each
// keeps 4.5:1 against the card, with red-green colour blindness too
const FOUR_TEXT = { ...FOUR, D: "#a65000" };

function textColour(suit, deck) {
  return deck === "german" ? GERMAN_TEXT[suit] : deck === "four" ? FOUR_TEXT[suit] : suitColour(suit, deck);
}

export function rankLabel(rank, lang, deck = "four") {
  return deck === "german" ? GERMAN_RANKS[rank] : (RANKS[lang] || RANKS.en)[rank];
}

// One suit symbol in a 10 x 10 box around (0, 0).
function pip(suit, deck) {
  const c = suitColour(suit, deck);
  if (deck === "german") {
    if (suit === "C") {  // an acorn: the nut, its cup and a stalk
      return `<ellipse cx="0" cy="-1.4" rx="2.7" ry="3.4" fill="${c}"/>`
        + `<path d="M-3.4,0.6 Q0,-1.2 3.4,0.6 Q3.2,3.6 0,3.8 Q-3.2,3.6 -3.4,0.6 Z" fill="#5a3a0c"/>`
        + `<path d="M0,3.6 L0,5.2" stroke="#5a3a0c" stroke-width="1.1"/>`;
    }
    if (suit === "S") {  // a leaf with its midrib
      return `<path d="M0,-5 C3.8,-2.8 4.2,1.6 0,4 C-4.2,1.6 -3.8,-2.8 0,-5 Z" fill="${c}"/>`
        + `<path d="M0,-3.6 L0,5.2" stroke="#174710" stroke-width="0.7"/>`;
    }
    if (suit === "D") {  // a bell: body, band, slit and loop
      return `<circle cx="0" cy="0.8" r="3.9" fill="${c}" stroke="#7a5200" stroke-width="0.6"/>`
        + `<circle cx="0" cy="-3.9" r="1" fill="none" stroke="#7a5200" stroke-width="0.7"/>`
        + `<path d="M-3.6,-0.2 L3.6,-0.2" stroke="#7a5200" stroke-width="0.7"/>`
        + `<path d="M0,2.2 L0,4.6" stroke="#3a2800" stroke-width="1"/><circle cx="0" cy="2.2" r="0.8" fill="#3a2800"/>`;
    }
  }
  if (suit === "H") {
    return `<path d="M0,4.6 C-1.2,3.5 -5,1.1 -5,-1.6 C-5,-3.8 -3.2,-5 -1.8,-5 C-0.8,-5 0,-4.2 0,-3.1 C0,-4.2 0.8,-5 1.8,-5 C3.2,-5 5,-3.8 5,-1.6 C5,1.1 1.2,3.5 0,4.6 Z" fill="${c}"/>`;
  }
  if (suit === "D") return `<path d="M0,-5 L3.7,0 L0,5 L-3.7,0 Z" fill="${c}"/>`;
  if (suit === "S") {
    return `<path d="M0,-5 C1.2,-3.6 5,-1.4 5,1.1 C5,3 3.3,3.9 2,3.5 C1.3,3.3 0.7,2.8 0.5,2.2 L1.5,5 L-1.5,5 L-0.5,2.2 C-0.7,2.8 -1.3,3.3 -2,3.5 C-3.3,3.9 -5,3 -5,1.1 C-5,-1.4 -1.2,-3.6 0,-5 Z" fill="${c}"/>`;
  }
  // clubs: three leaves and a stem
  return `<circle cx="0" cy="-2.5" r="2.4" fill="${c}"/><circle cx="-2.6" cy="1" r="2.4" fill="${c}"/>`
    + `<circle cx="2.6" cy="1" r="2.4" fill="${c}"/><circle cx="0" cy="0" r="1.4" fill="${c}"/><path d="M0,-0.5 L1.6,5 L-1.6,5 Z" fill="${c}"/>`;
}

const at = (x, y, s, body, turn = false) => `<g transform="translate(${x} ${y}) scale(${s})${turn ? " rotate(180)" : ""}">${body}</g>`;

// the pips of a number card in the field right of the index
const LAYOUT = {
  7: [[28, 16], [48, 16], [38, 29], [28, 43], [48, 43], [28, 70], [48, 70]],
  8: [[28, 16], [48, 16], [28, 34], [48, 34], [28, 52], [48, 52], [28, 70], [48, 70]],
  9: [[28, 16], [48, 16], [28, 34], [48, 34], [38, 43], [28, 52], [48, 52], [28, 70], [48, 70]],
  T: [[28, 16], [48, 16], [38, 25], [28, 34], [48, 34], [28, 52], [48, 52], [38, 61], [28, 70], [48, 70]],
};

// The upper half of a court figure (the lower half is it turned round):
// the head, what it wears on it, the robe in the suit's colour with the
// suit on the chest (for the German Ober high, for the Unter low).
function courtHalf(rank, suit, deck) {
  const robe = suitColour(suit, deck) === "#111111" ? "#2b3f73" : suitColour(suit, deck);
  const head = `<circle cx="38" cy="24" r="5.2" fill="${SKIN}" stroke="${DARK}" stroke-width="0.6"/>`
    + `<circle cx="36.2" cy="23.4" r="0.6" fill="${DARK}"/><circle cx="39.8" cy="23.4" r="0.6" fill="${DARK}"/>`;
  let hat;
  if (rank === "K") {  // a crown with three points
    hat = `<path d="M32,19.5 L32.5,12.5 L35.2,16.5 L38,11 L40.8,16.5 L43.5,12.5 L44,19.5 Z" fill="${GOLD}" stroke="${DARK}" stroke-width="0.6"/>`
      + `<path d="M31.5,27 Q38,36 44.5,27 Q43,33 38,33.5 Q33,33 31.5,27 Z" fill="#8a6a4a"/>`;  // a beard
  } else if (rank === "Q") {  // long hair and a small crown (the German Ober: a hat with a plume)
    hat = deck === "german"
      ? `<ellipse cx="38" cy="19" rx="8" ry="2" fill="${DARK}"/><path d="M33,19 Q38,10 43,19 Z" fill="${robe}" stroke="${DARK}" stroke-width="0.5"/><path d="M43,16 Q49,9 47,17" fill="none" stroke="${GOLD}" stroke-width="1.4"/>`
      : `<path d="M31.5,30 Q31,17 38,17.5 Q45,17 44.5,30 L42.5,24 Q38,19 33.5,24 Z" fill="#7a4b1e"/><path d="M34,18.2 L35,14.5 L38,16.5 L41,14.5 L42,18.2 Z" fill="${GOLD}" stroke="${DARK}" stroke-width="0.5"/>`;
  } else {  // a cap with a feather
    hat = `<path d="M32.5,21 Q33,15 38,15 Q43,15 43.5,21 Z" fill="${robe}" stroke="${DARK}" stroke-width="0.5"/><path d="M42,16.5 Q47.5,12 48.5,16.5" fill="none" stroke="${DARK}" stroke-width="1"/>`;
  }
  const body = `<path d="M26,44 L28.5,33 Q38,29.5 47.5,33 L50,44 Z" fill="${robe}" stroke="${DARK}" stroke-width="0.6"/>`
    + `<path d="M33.5,31.6 Q38,35.5 42.5,31.6" fill="none" stroke="#ffffff" stroke-width="1.3"/>`;
  const mark = deck === "german" && rank !== "K" ? (rank === "Q" ? [44, 9] : [44, 39]) : [38, 39];
  const chest = `<circle cx="${mark[0]}" cy="${mark[1]}" r="3.6" fill="#ffffff"/>${at(mark[0], mark[1], 0.55, pip(suit, deck))}`;
  return `${body}${head}${hat}${chest}`;
}

function court(rank, suit, deck) {
  const half = courtHalf(rank, suit, deck);
  const frame = suitColour(suit, deck);
  return `<rect x="20" y="6" width="36" height="74" rx="2.5" fill="#fbf6ea" stroke="${frame}" stroke-width="0.8"/>`
    + `<g>${half}</g><g transform="rotate(180 38 43)">${half}</g>`
    + `<path d="M20,43 L56,43" stroke="${frame}" stroke-width="0.6"/>`;
}

// The SVG of one card face (its spoken name is the element's aria-label).
export function cardSvg(card, { deck = "four", lang = "en" } = {}) {
  const [suit, r] = card;
  const rank = rankLabel(r, lang, deck);
  const ink = textColour(suit, deck);
  const size = rank.length > 1 ? 16 : 21;
  const index = `<text x="${rank.length > 1 ? 2.6 : 4}" y="20" font-size="${size}" font-weight="700" letter-spacing="${rank.length > 1 ? -1.2 : 0}" fill="${ink}" font-family="system-ui, sans-serif">${rank}</text>${at(11, 33, 1.5, pip(suit, deck))}`;
  let art;
  if (r === "K" || r === "Q" || r === "J") art = court(r, suit, deck);
  else if (r === "A") art = at(38, 44, 2.3, pip(suit, deck));
  else art = LAYOUT[r].map(([x, y]) => at(x, y, 0.8, pip(suit, deck), y > 43)).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 84" class="face" aria-hidden="true" focusable="false" data-deck="${deck}">
  <rect x="1" y="1" width="58" height="82" rx="6" fill="#fff" stroke="#888" stroke-width="1.2"/>
  ${index}${art}
</svg>`;
}

export function backSvg() {
  return `<svg viewBox="0 0 60 84" class="face" aria-hidden="true" focusable="false">
  <rect x="1" y="1" width="58" height="82" rx="6" fill="#1f4e8c" stroke="#0d2b52" stroke-width="1.2"/>
  <rect x="6" y="6" width="48" height="72" rx="4" fill="none" stroke="#9ec1f0" stroke-width="1.5" stroke-dasharray="3 3"/>
</svg>`;
}
