// The table's sounds, each made here with WebAudio (no sound files): your
// turn, a card laid down, a trick taken, a result. Each is chosen in the
// Settings (off by default) and kept in localStorage (skat.set.KEY).
import { store } from "./common.js";

// the setting each sound follows
export const SOUND_KEYS = { turn: "sound", card: "cardSound", trick: "trickSound", good: "resultSound", bad: "resultSound", result: "resultSound" };

let ctx = null;

function audio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  ctx = ctx || new Ctx();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// notes one after the other: [frequency in Hz, start in s, length in s]
function notes(a, list, { type = "sine", level = 0.14 } = {}) {
  const now = a.currentTime;
  for (const [f, at, len] of list) {
    const o = a.createOscillator();
    const g = a.createGain();
    o.type = type;
    o.frequency.setValueAtTime(f, now + at);
    g.gain.setValueAtTime(0.0001, now + at);
    g.gain.exponentialRampToValueAtTime(level, now + at + 0.015);
    g.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
    o.connect(g).connect(a.destination);
    o.start(now + at);
    o.stop(now + at + len + 0.02);
  }
}

// a short burst of filtered noise: a card laid on cloth, a trick swept in
function rustle(a, { len, from, to, level }) {
  const now = a.currentTime;
  const frames = Math.max(1, Math.floor(a.sampleRate * len));
  const buffer = a.createBuffer(1, frames, a.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const src = a.createBufferSource();
  src.buffer = buffer;
  const band = a.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.setValueAtTime(from, now);
  band.frequency.exponentialRampToValueAtTime(to, now + len);
  const g = a.createGain();
  g.gain.setValueAtTime(level, now);
  src.connect(band).connect(g).connect(a.destination);
  src.start(now);
}

const MAKE = {
  turn: (a) => notes(a, [[660, 0, 0.25]]),
  card: (a) => rustle(a, { len: 0.07, from: 3200, to: 1800, level: 0.5 }),
  trick: (a) => rustle(a, { len: 0.22, from: 900, to: 300, level: 0.6 }),
  good: (a) => notes(a, [[523, 0, 0.18], [659, 0.12, 0.18], [784, 0.24, 0.3]], { type: "triangle" }),
  bad: (a) => notes(a, [[392, 0, 0.2], [330, 0.15, 0.2], [262, 0.3, 0.35]], { type: "triangle" }),
  result: (a) => notes(a, [[523, 0, 0.2], [659, 0, 0.3]], { type: "triangle" }),
};

// Play sound `kind` if its setting is on; never throws (no audio here).
export function playSound(kind) {
  if (store.get(`skat.set.${SOUND_KEYS[kind]}`, "0") !== "1") return;
  try {
    const a = audio();
    if (a) MAKE[kind](a);
  } catch { /* no audio here */ }
}
