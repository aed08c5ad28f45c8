// Test fixture (imported only by *.test.ts): a clean, consistent collection of 3 cameras × 40 images,
// each camera with the habits real bodies have, so the negative tests exercise the collection-relative
// baselines rather than an empty world:
//   A  Nikon D750   DSC_#### with gaps, two quality settings, some portrait frames, one delivery
//   B  Canon 5D III IMG_#### wrapping 9998 → 0001, letterboxed thumbnails (PDQ distance 48)
//   C  Samsung phone, date-named files, tables chosen per image, ModifyDate one second after capture
import { expect } from 'vitest';
import { computeIndicators, type IndicatorOptions } from './compute.js';
import { INDICATOR_DISCLAIMER } from './docs.js';
import type { ImageFacts, Indicator, IndicatorCode, ItemReceipt } from './image-facts.js';

export const NOW = '2024-06-01T12:00:00Z';
export const PER_CAMERA = 40;

/** mulberry32: a tiny deterministic PRNG, so the fixture is the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomHex(rand: () => number, digits: number): string {
  let s = '';
  for (let i = 0; i < digits; i++) s += Math.floor(rand() * 16).toString(16);
  return s;
}

/** `hex` with exactly `bits` distinct bits flipped. */
export function flipBits(hex: string, bits: number, rand: () => number): string {
  const nibbles = hex.split('').map((c) => parseInt(c, 16));
  const chosen = new Set<number>();
  while (chosen.size < bits) chosen.add(Math.floor(rand() * hex.length * 4));
  for (const b of chosen) nibbles[b >> 2] = (nibbles[b >> 2] as number) ^ (1 << (b & 3));
  return nibbles.map((n) => n.toString(16)).join('');
}

/** Epoch ms (as a zone-less wall clock) to the literal EXIF form 'YYYY:MM:DD HH:MM:SS'. */
export function exifDate(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10).replace(/-/g, ':')} ${iso.slice(11, 19)}`;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

interface Shot {
  i: number;
  rand: () => number;
}

function base(shot: Shot, item: ItemReceipt, time: number): ImageFacts {
  const pdq = randomHex(shot.rand, 64);
  return {
    sha256: randomHex(shot.rand, 64),
    items: [item],
    mediaType: 'image/jpeg',
    make: null,
    model: null,
    bodySerial: null,
    software: null,
    xmpCreatorTool: null,
    xmpHistorySoftware: [],
    dateTimeOriginal: exifDate(time),
    createDate: exifDate(time),
    modifyDate: exifDate(time),
    offsetTimeOriginal: null,
    subSecTimeOriginal: '00',
    exifPresent: true,
    width: null,
    height: null,
    orientation: 1,
    quantDigest: null,
    estimatedQuality: null,
    pdq,
    thumbnailPdq: flipBits(pdq, 6, shot.rand),
  };
}

function nikon(shot: Shot): ImageFacts {
  const { i } = shot;
  const n = String(1 + 2 * i).padStart(4, '0'); // every other number deleted in camera
  const day = i < 20 ? 0 : 1;
  const time = Date.UTC(2023, 2, 1, 8, 0, 0) + day * DAY + (i % 20) * 12 * MINUTE;
  const item = {
    id: `a-${i}`,
    name: `DSC_${n}.JPG`,
    relativePath: `DCIM/100ND750/DSC_${n}.JPG`,
    delivery: 'ROWAN-01',
  };
  const f = base(shot, item, time);
  const normal = i % 8 === 7;
  const portrait = i % 5 === 4;
  return {
    ...f,
    make: 'NIKON CORPORATION',
    model: 'NIKON D750',
    bodySerial: '6021345',
    software: 'Ver.1.15',
    width: portrait ? 4016 : 6016,
    height: portrait ? 6016 : 4016,
    quantDigest: normal ? 'a2'.repeat(32) : 'a1'.repeat(32),
    estimatedQuality: normal ? 90 : 97,
  };
}

function canon(shot: Shot): ImageFacts {
  const { i } = shot;
  const n = String(((9959 + 2 * i) % 9999) + 1).padStart(4, '0'); // 9960 … 9998, 0001 … 0039
  const folder = i < 20 ? '100CANON' : '101CANON';
  const time = Date.UTC(2023, 2, 5, 9, 0, 0) + Math.floor(i / 10) * DAY + (i % 10) * 30 * MINUTE;
  const item = {
    id: `b-${i}`,
    name: `IMG_${n}.JPG`,
    relativePath: `DCIM/${folder}/IMG_${n}.JPG`,
    delivery: 'ROWAN-02',
  };
  const f = base(shot, item, time);
  return {
    ...f,
    make: 'Canon',
    model: 'Canon EOS 5D Mark III',
    bodySerial: '032021001234',
    width: 5760,
    height: 3840,
    quantDigest: 'b1'.repeat(32),
    estimatedQuality: 96,
    thumbnailPdq: flipBits(f.pdq ?? '', 48, shot.rand), // 160×120 thumbnail with black bars
  };
}

function phone(shot: Shot): ImageFacts {
  const { i } = shot;
  const time = Date.UTC(2023, 2, 10, 7, 0, 0) + Math.floor(i / 8) * DAY + (i % 8) * 47 * MINUTE;
  const stamp = exifDate(time).replace(/:/g, '').replace(' ', '_');
  const name = `IMG_${stamp}.jpg`;
  const item = { id: `c-${i}`, name, relativePath: `Phone/Camera/${name}`, delivery: 'ROWAN-02' };
  const f = base(shot, item, time);
  const wide = i % 10 === 9;
  return {
    ...f,
    make: 'samsung',
    model: 'SM-G991B',
    software: 'G991BXXU5CVLL',
    modifyDate: exifDate(time + 1000), // this phone writes the time of saving
    width: 4000,
    height: wide ? 2252 : 3000,
    quantDigest: randomHex(shot.rand, 64), // tables chosen per image
    estimatedQuality: 90 + (i % 6),
  };
}

/** A fresh copy of the clean collection: A (ROWAN-01), then B and C (both ROWAN-02). */
export function cleanCollection(): ImageFacts[] {
  const rand = prng(20230301);
  const out: ImageFacts[] = [];
  for (const make of [nikon, canon, phone]) {
    for (let i = 0; i < PER_CAMERA; i++) out.push(make({ i, rand }));
  }
  // The same bytes received a second time, under another name, in a delivery of their own.
  const again = out[3];
  if (again !== undefined) {
    again.items.push({
      id: 'd-0',
      name: 'evidence.jpg',
      relativePath: 'shared/evidence.jpg',
      delivery: 'ROWAN-03',
    });
  }
  return out;
}

/** The image of `camera` ('A' | 'B' | 'C') at position `i` (0-based, in capture order). */
export function shotOf(
  collection: readonly ImageFacts[],
  camera: 'A' | 'B' | 'C',
  i: number,
): ImageFacts {
  const f = collection[{ A: 0, B: 1, C: 2 }[camera] * PER_CAMERA + i];
  if (f === undefined) throw new Error(`no image ${camera}${i}`);
  return f;
}

/** A copy of the collection with one image's facts changed. */
export function alter(
  collection: readonly ImageFacts[],
  target: ImageFacts,
  patch: Partial<ImageFacts>,
): ImageFacts[] {
  return collection.map((f) => (f.sha256 === target.sha256 ? { ...f, ...patch } : f));
}

/** The target as it stands in `collection` (after alter()). */
export function current(collection: readonly ImageFacts[], target: ImageFacts): ImageFacts {
  return collection.find((f) => f.sha256 === target.sha256) ?? target;
}

/** Every image (by SHA-256) that raised anything, with its codes, through the public computeIndicators. */
export function raisedBy(
  collection: readonly ImageFacts[],
  opts: IndicatorOptions = { now: NOW },
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of collection) {
    const codes = computeIndicators(f, collection, opts).map((i) => i.code);
    if (codes.length > 0) out[f.sha256] = codes;
  }
  return out;
}

/** The indicator `code` raised for `target` in `collection`, or undefined. */
export function indicatorOf(
  collection: readonly ImageFacts[],
  target: ImageFacts,
  code: IndicatorCode,
): Indicator | undefined {
  return computeIndicators(current(collection, target), collection, { now: NOW }).find(
    (i) => i.code === code,
  );
}

/** The indicator `code` raised for `target`; fails the test when it was not raised. */
export function raisedIndicator(
  collection: readonly ImageFacts[],
  target: ImageFacts,
  code: IndicatorCode,
): Indicator {
  const found = indicatorOf(collection, target, code);
  if (found === undefined) throw new Error(`${code} not raised`);
  return found;
}

/** Exactly these codes for the altered image, nothing for any other image; explanations carry the disclaimer. */
export function expectOnly(
  collection: readonly ImageFacts[],
  target: ImageFacts,
  codes: IndicatorCode[],
): void {
  expect(raisedBy(collection)).toEqual({ [target.sha256]: codes });
  const found = computeIndicators(current(collection, target), collection, { now: NOW });
  for (const i of found) expect(i.explanation.endsWith(INDICATOR_DISCLAIMER)).toBe(true);
}
