import { createHash, randomBytes } from "node:crypto";

/**
 * SHA-512 crypt (`$6$`), the password hash format of glibc's crypt(3) that a kickstart's
 * `rootpw --iscrypted` and `user --iscrypted` take. Implemented from Ulrich Drepper's
 * specification ("Unix crypt using SHA-256 and SHA-512"), default 5000 rounds.
 */
const ITOA64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ORDER = [
  [0, 21, 42],
  [22, 43, 1],
  [44, 2, 23],
  [3, 24, 45],
  [25, 46, 4],
  [47, 5, 26],
  [6, 27, 48],
  [28, 49, 7],
  [50, 8, 29],
  [9, 30, 51],
  [31, 52, 10],
  [53, 11, 32],
  [12, 33, 54],
  [34, 55, 13],
  [56, 14, 35],
  [15, 36, 57],
  [37, 58, 16],
  [59, 17, 38],
  [18, 39, 60],
  [40, 61, 19],
  [62, 20, 41],
];

const sha512 = (...parts: Buffer[]): Buffer => {
  const hash = createHash("sha512");
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** `length` bytes taken from `digest` repeated. */
const stretch = (digest: Buffer, length: number): Buffer => {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += 64) digest.copy(out, i, 0, Math.min(64, length - i));
  return out;
};

function encode24(b2: number, b1: number, b0: number, count: number): string {
  let word = (b2 << 16) | (b1 << 8) | b0;
  let out = "";
  for (let i = 0; i < count; i += 1) {
    out += ITOA64[word & 0x3f];
    word >>= 6;
  }
  return out;
}

export function sha512Crypt(password: string, salt: string = randomSalt(), rounds = 5000): string {
  const key = Buffer.from(password, "utf8");
  const saltText = salt.slice(0, 16);
  const saltBytes = Buffer.from(saltText, "utf8");
  const roundCount = Math.min(999_999_999, Math.max(1000, rounds));

  const b = sha512(key, saltBytes, key);
  const a = createHash("sha512").update(key).update(saltBytes);
  let remaining = key.length;
  for (; remaining > 64; remaining -= 64) a.update(b);
  a.update(b.subarray(0, remaining));
  for (let bits = key.length; bits > 0; bits >>= 1) a.update(bits & 1 ? b : key);
  let c = a.digest();

  const dp = createHash("sha512");
  for (let i = 0; i < key.length; i += 1) dp.update(key);
  const p = stretch(dp.digest(), key.length);

  const ds = createHash("sha512");
  for (let i = 0; i < 16 + c[0]; i += 1) ds.update(saltBytes);
  const s = stretch(ds.digest(), saltBytes.length);

  for (let round = 0; round < roundCount; round += 1) {
    const h = createHash("sha512");
    h.update(round & 1 ? p : c);
    if (round % 3) h.update(s);
    if (round % 7) h.update(p);
    h.update(round & 1 ? c : p);
    c = h.digest();
  }

  let encoded = "";
  for (const [x, y, z] of ORDER) encoded += encode24(c[x], c[y], c[z], 4);
  encoded += encode24(0, 0, c[63], 2);
  const roundsPart = rounds === 5000 ? "" : `rounds=${roundCount}$`;
  return `$6$${roundsPart}${saltText}$${encoded}`;
}

/** 16 characters from crypt's alphabet. */
export function randomSalt(): string {
  return Array.from(randomBytes(16), (byte) => ITOA64[byte & 0x3f]).join("");
}
