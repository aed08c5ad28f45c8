import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CustodyError, hint } from '../core/index.js';
import { cliFindingMessage, cliMessage, FLAG_OF, REMEDY_TEXT } from './error-hints.js';

describe('the CLI wording of an error', () => {
  it('prints a message without a hint as it is', () => {
    expect(cliMessage(new CustodyError('STORE_DIGEST_MISMATCH', 'object ab re-hashes to cd'))).toBe('object ab re-hashes to cd');
  });

  it('names the flag of the field: before the message with its value, after it without', () => {
    const at = new CustodyError('EXPORT_NOT_SIGNED', 'no signed checkpoint at that tree size', { details: hint({ field: 'at', value: 7 }) });
    expect(cliMessage(at)).toBe('--at 7: no signed checkpoint at that tree size');
    const reason = new CustodyError('UNIT_REASON_REQUIRED', 'every change to a unit needs a reason', { details: hint({ field: 'reason' }) });
    expect(cliMessage(reason)).toBe('every change to a unit needs a reason (--reason)');
  });

  it('adds each remedy as a command, the second joined to the first', () => {
    expect(cliMessage(new CustodyError('INDEX_MISSING', 'the index is missing', { details: hint({ remedy: ['rebuild'] }) }))).toBe(
      'the index is missing: run `custody rebuild`',
    );
    const two = new CustodyError('PURGE_INDEX_MISMATCH', 'nothing was deleted', { details: hint({ remedy: ['verify', 'rebuild'] }) });
    expect(cliMessage(two)).toBe('nothing was deleted: run `custody verify`, then `custody rebuild`');
    const seed = new CustodyError('SAMPLE_NOT_SEEDED', 'plan p1 has no seed yet', { details: { plan: 'p1', ...hint({ remedy: ['seed-plan'] }) } });
    expect(cliMessage(seed)).toBe('plan p1 has no seed yet: `custody sample seed p1 --beacon NAME --round N --value HEX` first');
  });

  it('ignores a field or remedy it does not know', () => {
    const e = new CustodyError('USAGE', 'm', { details: { hint: { field: 'nope', remedy: ['nope', 7] } } });
    expect(cliMessage(e)).toBe('m');
    // a module's own details.field (a codebook or numbering field) is not a request field
    expect(cliMessage(new CustodyError('NUMBER_MALFORMED', 'm', { details: { field: 'unit', value: 'x' } }))).toBe('m');
  });

  it('words every field and remedy', () => {
    for (const flag of Object.values(FLAG_OF)) expect(flag).toMatch(/^--[a-z]/);
    for (const text of Object.values(REMEDY_TEXT)) expect(text({})).toMatch(/custody|--[a-z]/);
  });

  it('adds the remedy of a finding by its code', () => {
    expect(cliFindingMessage('INDEX_CORRUPT', 'the index is damaged (x)')).toBe('the index is damaged (x): run `custody rebuild`');
    expect(cliFindingMessage('STORE_OBJECT_MISSING', 'object ab is missing')).toBe('object ab is missing');
  });
});

// Services and adapters state the fault; the CLI names flags and commands (STYLE.md: services
// never speak CLI). Every error constructed outside src/cli/ is checked, arguments and all.
describe('service messages', () => {
  const SRC = join(import.meta.dirname, '..');

  function files(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
      const p = join(dir, d.name);
      if (d.isDirectory()) return p === import.meta.dirname ? [] : files(p);
      return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [p] : [];
    });
  }

  /** The text of each `new …Error(…)` call: from its opening parenthesis to the matching one. */
  function constructions(text: string): { at: number; args: string }[] {
    const out: { at: number; args: string }[] = [];
    for (const m of text.matchAll(/new \w*Error\(/g)) {
      let i = m.index + m[0].length;
      for (let depth = 1; depth > 0 && i < text.length; i++) depth += text[i] === '(' ? 1 : text[i] === ')' ? -1 : 0;
      out.push({ at: m.index, args: text.slice(m.index + m[0].length, i) });
    }
    return out;
  }

  it('name no CLI flag and no custody command outside src/cli/', () => {
    const found: string[] = [];
    let checked = 0;
    for (const path of files(SRC)) {
      const text = readFileSync(path, 'utf8');
      for (const c of constructions(text)) {
        checked++;
        if (/--[a-z][a-z-]+|`custody [a-z]|custody [a-z-]+ --/.test(c.args)) {
          found.push(`${relative(SRC, path)}:${text.slice(0, c.at).split('\n').length}: ${c.args.slice(0, 100)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(found).toEqual([]);
  });
});
