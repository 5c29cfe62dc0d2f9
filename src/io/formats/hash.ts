/**
 * SHA-256 for deterministic group ids made from prompt text (verl, TRL, OpenAI chat rows without a
 * group key, whileai rows without a scenario_id). Synchronous and dependency-free because loaders
 * run in the browser, in workers and in Node alike (WebCrypto's digest is async only).
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const encoder = new TextEncoder();
/**
 * Longest text `pad` encodes in JS. Chromium's `encodeInto` took 17 µs a call for a verl run's
 * ~500-character prompts in a worker's profile (most of the hashing); the loop below takes 1-1.5 µs.
 * Past this length the native encoder's per-character speed wins.
 */
const JS_ENCODE_MAX = 4096;
/** Reused between calls: the padded message (grown as needed) and the message schedule. */
let block = new Uint8Array(1024);
const w = new Int32Array(64);
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/**
 * `text`'s UTF-8 bytes written at the start of `out` (room for 3 bytes per code unit), as
 * `TextEncoder.encodeInto` writes them: a lone surrogate becomes U+FFFD. Returns the byte count.
 */
export function encodeUtf8Into(text: string, out: Uint8Array): number {
  let n = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < length ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
        out[n++] = 0xf0 | (c >> 18);
        out[n++] = 0x80 | ((c >> 12) & 0x3f);
        out[n++] = 0x80 | ((c >> 6) & 0x3f);
        out[n++] = 0x80 | (c & 0x3f);
        continue;
      }
      c = 0xfffd;
    }
    out[n++] = 0xe0 | (c >> 12);
    out[n++] = 0x80 | ((c >> 6) & 0x3f);
    out[n++] = 0x80 | (c & 0x3f);
  }
  return n;
}

/** The padded message of `text`'s UTF-8 bytes in `block`; returns its length in bytes. */
function pad(text: string): number {
  // UTF-8 is at most 3 bytes per UTF-16 code unit.
  const room = text.length * 3 + 72;
  if (block.length < room) block = new Uint8Array(Math.max(room, block.length * 2));
  const length =
    text.length <= JS_ENCODE_MAX
      ? encodeUtf8Into(text, block)
      : encoder.encodeInto(text, block).written;
  const padded = Math.ceil((length + 9) / 64) * 64;
  block.fill(0, length, padded);
  block[length] = 0x80;
  // Lengths past 2^32 bits (512 MiB) need the high word too.
  const high = Math.floor((length * 8) / 2 ** 32);
  const low = (length * 8) >>> 0;
  for (let k = 0; k < 4; k++) {
    block[padded - 8 + k] = (high >>> (24 - 8 * k)) & 0xff;
    block[padded - 4 + k] = (low >>> (24 - 8 * k)) & 0xff;
  }
  return padded;
}

/** SHA-256 of a string's UTF-8 bytes, as 64 lowercase hex digits. */
export function sha256Hex(text: string): string {
  const padded = pad(text);
  const m = block;
  let h0 = 0x6a09e667 | 0;
  let h1 = 0xbb67ae85 | 0;
  let h2 = 0x3c6ef372 | 0;
  let h3 = 0xa54ff53a | 0;
  let h4 = 0x510e527f | 0;
  let h5 = 0x9b05688c | 0;
  let h6 = 0x1f83d9ab | 0;
  let h7 = 0x5be0cd19 | 0;
  for (let offset = 0; offset < padded; offset += 64) {
    for (let i = 0; i < 16; i++) {
      const o = offset + i * 4;
      w[i] = (m[o]! << 24) | (m[o + 1]! << 16) | (m[o + 2]! << 8) | m[o + 3]!;
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + s1 + ch + K[i]! + w[i]!) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + s0 + maj) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  return hex8(h0) + hex8(h1) + hex8(h2) + hex8(h3) + hex8(h4) + hex8(h5) + hex8(h6) + hex8(h7);
}

/** A 32-bit word as 8 lowercase hex digits. */
function hex8(x: number): string {
  return (
    HEX[(x >>> 24) & 0xff]! + HEX[(x >>> 16) & 0xff]! + HEX[(x >>> 8) & 0xff]! + HEX[x & 0xff]!
  );
}

let lastText: string | null = null;
let lastHash = "";

/**
 * The first 12 hex digits (48 bits) of the text's SHA-256: whileai's `_short_hash` length, so a
 * whileai row without a scenario_id gets the same `task_<hash>` id the SDK gives it. At 48 bits two
 * different prompts collide with probability about n²/2^49: 2e-7 for 10,000 prompts.
 */
export function shortHash(text: string): string {
  // The rows of a group usually follow each other (TRL, verl validation), so remembering the last
  // prompt skips most hashing.
  if (text !== lastText) {
    lastText = text;
    lastHash = sha256Hex(text).slice(0, 12);
  }
  return lastHash;
}
