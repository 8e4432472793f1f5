// Writes golden vectors for staged rollouts (`rollout` in a portal feed): Firefox's
// `Sampling.bucketSample([installId, namespace], start, count, total)`, computed as Firefox
// computes it, in a JavaScript engine: `JSON.stringify` of the inputs, UTF-8 (`TextEncoder`),
// SHA-256 (`crypto.subtle`), the first 12 hex digits, each bound `Math.floor(fraction *
// (2^48 - 1))` in hex padded to 12, compared as strings. Written from the algorithm as Firefox's
// Sampling.sys.mjs documents it; none of Firefox's code is here.
//
//   node scripts/rollout-vectors.mjs COUNT [SEED]
//
// One line per vector, tab-separated: the install id, the namespace as a JSON string, start,
// count, total, the 12 hex digits of the hash, and 1 when the desktop is in the range, else 0.
// Namespaces mix ASCII, `/`, quotes and backslashes, control characters, accented letters,
// CJK and emoji; starts go past `total`, and ranges wrap. The same COUNT and SEED give the
// same lines (the tests in Tests/NotifySchedCoreTests/Caps/RolloutVectorTests.swift compare
// the core's `BucketSample` with them).
import { webcrypto } from "node:crypto";

const hashBits = 48;
const hashLength = hashBits / 4;
const hashMultiplier = Math.pow(2, hashBits) - 1;

function bufferToHex(buffer) {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function truncatedHash(data) {
  const input = new TextEncoder().encode(JSON.stringify(data));
  const hash = await webcrypto.subtle.digest("SHA-256", input);
  return bufferToHex(hash).slice(0, hashLength);
}

function fractionToKey(fraction) {
  if (fraction < 0 || fraction > 1) throw new Error(`fraction out of range: ${fraction}`);
  return Math.floor(fraction * hashMultiplier).toString(16).padStart(hashLength, "0");
}

async function bucketSample(input, start, count, total) {
  const hash = await truncatedHash(input);
  const wrappedStart = start % total;
  const end = wrappedStart + count;
  if (end > total) {
    return hash < fractionToKey((end % total) / total) || hash >= fractionToKey(wrappedStart / total);
  }
  return hash < fractionToKey(end / total) && hash >= fractionToKey(wrappedStart / total);
}

// mulberry32: a small seeded generator, so that the vectors are the same on every run.
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const count = Number(process.argv[2] ?? 1000);
const random = generator(Number(process.argv[3] ?? 41));
const below = (n) => Math.floor(random() * n);
const pick = (items) => items[below(items.length)];

function installId() {
  const bytes = Array.from({ length: 16 }, () => below(256));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const pieces = [
  "spring-sale", "beta", "promo", "/", "a/b", "news/2027", " ", "é", "Ünïcödé", "日本語", "🎉", "ß",
  '"', "\\", "\n", "\t", "\u0001", "\u001f", "\u007f", "\u2028", "x", "0", "",
];
const totals = [1, 2, 3, 7, 10, 100, 1000, 10000, 65536, 1000000, 2147483648];

// The vectors are drawn first, in order, then computed a thousand at a time.
const vectors = Array.from({ length: count }, () => {
  const namespace = Array.from({ length: 1 + below(4) }, () => pick(pieces)).join("");
  const total = random() < 0.7 ? pick(totals) : 1 + below(100000);
  const start = below(3 * total);
  const rangeCount = random() < 0.1 ? total : below(total + 1);
  return { id: installId(), namespace, start, rangeCount, total };
});
const lines = [];
for (let first = 0; first < vectors.length; first += 1000) {
  lines.push(...(await Promise.all(vectors.slice(first, first + 1000).map(async (vector) => {
    const input = [vector.id, vector.namespace];
    const hash = await truncatedHash(input);
    const inRange = await bucketSample(input, vector.start, vector.rangeCount, vector.total);
    return [vector.id, JSON.stringify(vector.namespace), vector.start, vector.rangeCount, vector.total, hash,
      inRange ? 1 : 0].join("\t");
  }))));
}
process.stdout.write(lines.join("\n") + "\n");
