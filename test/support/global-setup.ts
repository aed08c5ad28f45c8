// Vitest globalSetup for the medium and e2e projects: one throwaway PostgreSQL
// cluster for the whole run, however many projects list this file. Both projects
// load it through their own module runner, so the shared state lives on
// globalThis and is reference-counted; the last teardown stops the cluster.
//
// Workers learn the admin URL two ways: CUSTODY_TEST_PG_URL in process.env
// (forked workers are spawned after setup and inherit it) and the provided
// value `custodyPgUrl` (read with inject()).
import type { TestProject } from 'vitest/node';
import {
  isCi,
  PG_URL_ENV,
  postgresAvailable,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from './postgres.js';

interface SharedCluster {
  users: number;
  started: Promise<ThrowawayPostgres | null>;
}

const KEY = Symbol.for('custody.test.postgres');
type GlobalWithCluster = typeof globalThis & { [KEY]?: SharedCluster };

async function startOnce(tmpBase: string | undefined): Promise<ThrowawayPostgres | null> {
  const external = process.env[PG_URL_ENV];
  if (external) {
    console.log(`[custody tests] PostgreSQL: using ${PG_URL_ENV} from the environment`);
    return null;
  }
  const available = postgresAvailable();
  if (!available.ok) {
    if (isCi()) throw new Error(`CI=true requires PostgreSQL, but: ${available.reason}`);
    console.warn(`[custody tests] ${available.reason}`);
    return null;
  }
  const began = performance.now();
  const cluster = await startThrowawayPostgres(tmpBase);
  process.env[PG_URL_ENV] = cluster.url;
  const ms = Math.round(performance.now() - began);
  console.log(`[custody tests] PostgreSQL started at ${cluster.url} in ${ms} ms`);
  return cluster;
}

export async function setup(project: TestProject): Promise<void> {
  const g = globalThis as GlobalWithCluster;
  // The cluster's files go where the workers' temp folders go (vitest.config.ts: a RAM file system
  // when one has room): every test database is a CREATE DATABASE, thousands of new files, and on
  // the disk's ext4 their inode allocation took about 35 s of kernel CPU in a whole run (perf record -a).
  const tmpBase = project.config.env['TMPDIR'] || undefined;
  const shared = (g[KEY] ??= { users: 0, started: startOnce(tmpBase) });
  shared.users += 1;
  await shared.started;
  project.provide('custodyPgUrl', process.env[PG_URL_ENV] ?? null);
}

export async function teardown(): Promise<void> {
  const g = globalThis as GlobalWithCluster;
  const shared = g[KEY];
  if (!shared) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  delete g[KEY];
  const cluster = await shared.started.catch(() => null);
  if (cluster) {
    await cluster.stop();
    delete process.env[PG_URL_ENV];
  }
}
