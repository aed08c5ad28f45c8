// The near-duplicate bench's native ceiling (bench/near-duplicates.bench.ts): the archive's exact
// search (src/analysis/near-duplicates) on the bench's uniform corpus, with the same substring plan
// and the same tile sweep, written in C to measure how fast this machine can run that search at
// all. Not Custody code: a peer measured in the same run, built there with gcc.
//
//   mih COUNT PER_RECORD THRESHOLD SEED THREADS START LENGTH RADIUS [START LENGTH RADIUS]...
//
// - The corpus is uniformCorpus(COUNT, SEED, PER_RECORD): the same mulberry32 draws, so the same
//   hashes and the same planted pairs.
// - Every hash (originals and variants) is indexed; the originals probe. Per substring: keys
//   counted and scattered (one thread), then the queries swept tile by tile on THREADS threads, a
//   candidate checked on all 256 bits with popcnt, and a pair counted only in the first substring
//   where it lies within the radius (as sweep.ts does).
// Prints one JSON line: {"build_s", "sweep_s", "total_s", "pairs"}.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint32_t *words;
static int count, per, entries, threshold, nplan, plan[64][3];
static uint32_t rng_state;

/** mulberry32, as the bench's rng(). */
static uint32_t next(void) {
  rng_state += 0x6d2b79f5u;
  uint32_t s = rng_state;
  uint32_t t = (uint32_t)((int32_t)(s ^ (s >> 15)) * (int32_t)(1 | s));
  t = (t + (uint32_t)((int32_t)(t ^ (t >> 7)) * (int32_t)(61 | t))) ^ t;
  return t ^ (t >> 14);
}

static size_t at(int r, int v) {
  return (v == 0 ? (size_t)r : (size_t)count + (size_t)r * (size_t)per + (size_t)v - 1) * 8;
}

static void random_hash(size_t to) {
  for (int i = 0; i < 8; i++) words[to + i] = next();
}

static void near_hash(size_t to, size_t from, int k) {
  memmove(words + to, words + from, 32);
  for (int i = 0; i < k; i++) {
    uint32_t bit = next() & 255;
    words[to + (bit >> 5)] ^= 1u << (bit & 31);
  }
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static inline uint32_t key_of(const uint32_t *h, int start, int len) {
  int w = start >> 5, o = start & 31;
  uint64_t v = h[w] >> o;
  if (o + len > 32) v |= (uint64_t)h[w + 1] << (32 - o);
  return (uint32_t)(v & ((1ull << len) - 1));
}

/* The current pass. */
static uint32_t *off, *sorted_entry, *sorted_words, *query_key, *query_id, *query_words, *block_start,
    *entry_key;
static int pass, tile_bits, tiles, radius, n_high;
static int32_t high_masks[1 << 16], high_weights[1 << 16], low_masks[1 << 16], low_up_to[8];
static volatile int counter;
static long long pairs_total;

/** Every s-bit mask of weight ≤ t, lightest first; up_to[w] counts those of weight ≤ w. */
static int masks(int s, int t, int32_t *out, int32_t *up_to) {
  int n = 0;
  for (int w = 0; w <= t; w++) {
    for (uint32_t m = 0; m < (1u << s); m++)
      if (__builtin_popcount(m) == w) out[n++] = (int32_t)m;
    if (up_to) up_to[w] = n;
  }
  return n;
}

static void *sweep(void *unused) {
  (void)unused;
  long long pairs = 0;
  uint32_t low_mask = (1u << tile_bits) - 1;
  const int chunk = tiles >> 6 ? tiles >> 6 : 1;
  uint32_t list[1 << 14];
  for (;;) {
    int first = __sync_fetch_and_add(&counter, chunk);
    if (first >= tiles) break;
    int last = first + chunk < tiles ? first + chunk : tiles;
    for (int tile = first; tile < last; tile++) {
      uint32_t base = (uint32_t)tile << tile_bits;
      for (int m = 0; m < n_high; m++) {
        int block = tile ^ high_masks[m];
        int lows = low_up_to[radius - high_weights[m]];
        for (uint32_t q = block_start[block]; q < block_start[block + 1]; q++) {
          uint32_t k_low = query_key[q] & low_mask, qi = query_id[q];
          const uint64_t *qh = (const uint64_t *)(query_words + (size_t)q * 8);
          int n = 0;
          for (int f = 0; f < lows; f++) {
            uint32_t k = base | (k_low ^ (uint32_t)low_masks[f]);
            uint32_t lo = off[k], c = off[k + 1] - lo;
            if (n + c + 2 > sizeof list / sizeof list[0]) {
              fprintf(stderr, "mih: a query's candidates overflow the list\n");
              exit(70);
            }
            list[n] = lo;
            list[n + 1] = lo + 1;
            for (uint32_t i = 2; i < c; i++) list[n + i] = lo + i;
            n += c;
          }
          for (int i = 0; i < n; i++) {
            const uint64_t *eh = (const uint64_t *)(sorted_words + (size_t)list[i] * 8);
            int d = __builtin_popcountll(qh[0] ^ eh[0]) + __builtin_popcountll(qh[1] ^ eh[1]) +
                    __builtin_popcountll(qh[2] ^ eh[2]) + __builtin_popcountll(qh[3] ^ eh[3]);
            if (d > threshold) continue;
            uint32_t e = sorted_entry[list[i]];
            if (e == qi || ((int)e < count && e < qi)) continue; /* the lower original reports */
            uint32_t x[9] = {0};
            for (int j = 0; j < 8; j++) x[j] = words[(size_t)qi * 8 + j] ^ words[(size_t)e * 8 + j];
            int earlier = 0;
            for (int j = 0; j < pass && !earlier; j++)
              earlier = __builtin_popcount(key_of(x, plan[j][0], plan[j][1])) <= plan[j][2];
            if (!earlier) pairs++;
          }
        }
      }
    }
  }
  __sync_fetch_and_add(&pairs_total, pairs);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 9 || (argc - 6) % 3 != 0) {
    fprintf(stderr, "usage: mih COUNT PER_RECORD THRESHOLD SEED THREADS (START LENGTH RADIUS)...\n");
    return 2;
  }
  count = atoi(argv[1]);
  per = atoi(argv[2]);
  threshold = atoi(argv[3]);
  rng_state = (uint32_t)strtoul(argv[4], 0, 10);
  int threads = atoi(argv[5]);
  for (int i = 6; i < argc; i += 3, nplan++)
    for (int j = 0; j < 3; j++) plan[nplan][j] = atoi(argv[i + j]);
  entries = count * (per + 1);
  words = aligned_alloc(64, (size_t)entries * 32);
  for (int r = 0; r < count; r++) { /* uniformCorpus */
    for (int v = 0; v <= per; v++) random_hash(at(r, v));
    if (r % 10 != 1) continue;
    int d = (int)(next() % 41), v = 1 + (int)(next() % (uint32_t)per), c = (int)(next() % 3);
    if (c == 0) near_hash(at(r, 0), at(r - 1, 0), d);
    else if (c == 1) near_hash(at(r, 0), at(r - 1, v), d);
    else near_hash(at(r, v), at(r - 1, 0), d);
  }
  int max_len = 0;
  for (int j = 0; j < nplan; j++) max_len = plan[j][1] > max_len ? plan[j][1] : max_len;
  off = calloc((1u << max_len) + 2, 4);
  block_start = malloc(((1u << max_len) + 2) * 4);
  sorted_entry = malloc((size_t)entries * 4);
  sorted_words = aligned_alloc(64, (size_t)entries * 32);
  entry_key = malloc((size_t)entries * 4);
  query_key = malloc((size_t)count * 4);
  query_id = malloc((size_t)count * 4);
  query_words = aligned_alloc(64, (size_t)count * 32);
  double build = 0, swept = 0, t0 = now();
  for (pass = 0; pass < nplan; pass++) {
    double a = now();
    int start = plan[pass][0], len = plan[pass][1];
    radius = plan[pass][2];
    uint32_t K = 1u << len;
    memset(off, 0, (K + 2) * 4);
    for (int e = 0; e < entries; e++) {
      uint32_t k = key_of(words + (size_t)e * 8, start, len);
      entry_key[e] = k;
      off[k + 1]++;
    }
    for (uint32_t k = 0; k < K; k++) off[k + 1] += off[k];
    memcpy(block_start, off, (K + 1) * 4); /* scatter cursors */
    for (int e = 0; e < entries; e++) {
      uint32_t p = block_start[entry_key[e]]++;
      sorted_entry[p] = (uint32_t)e;
      memcpy(sorted_words + (size_t)p * 8, words + (size_t)e * 8, 32);
    }
    tile_bits = len < 12 ? len : 12;
    tiles = 1 << (len - tile_bits);
    memset(block_start, 0, (size_t)(tiles + 2) * 4);
    for (int q = 0; q < count; q++) block_start[(entry_key[q] >> tile_bits) + 1]++;
    for (int b = 0; b < tiles; b++) block_start[b + 1] += block_start[b];
    uint32_t *cursor = malloc((size_t)(tiles + 1) * 4);
    memcpy(cursor, block_start, (size_t)(tiles + 1) * 4);
    for (int q = 0; q < count; q++) {
      uint32_t p = cursor[entry_key[q] >> tile_bits]++;
      query_key[p] = entry_key[q];
      query_id[p] = (uint32_t)q;
      memcpy(query_words + (size_t)p * 8, words + (size_t)q * 8, 32);
    }
    free(cursor);
    n_high = masks(len - tile_bits, radius, high_masks, NULL);
    for (int m = 0; m < n_high; m++) high_weights[m] = __builtin_popcount((uint32_t)high_masks[m]);
    masks(tile_bits, radius, low_masks, low_up_to);
    double b = now();
    build += b - a;
    counter = 0;
    pthread_t th[64];
    for (int i = 0; i < threads; i++) pthread_create(&th[i], 0, sweep, 0);
    for (int i = 0; i < threads; i++) pthread_join(th[i], 0);
    swept += now() - b;
  }
  printf("{\"build_s\":%.3f,\"sweep_s\":%.3f,\"total_s\":%.3f,\"pairs\":%lld}\n", build, swept,
         now() - t0, pairs_total);
  return 0;
}
