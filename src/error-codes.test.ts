// The table of codes is complete: checked on the sources themselves, so that a module that adds an
// error class or a code, or throws a code no union declares, fails here (tsc checks the rest).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CustodyError } from './core/index.js';
import { ERROR_CLASS, ERROR_CLASSES, errorClassOf, isErrorCode } from './error-codes.js';

const SRC = import.meta.dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(p);
    return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [p] : [];
  });
}

const FILES = sourceFiles(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
const TABLE = new Set(Object.keys(ERROR_CLASS));

/** The body of `type NAME = …;` in a file (comments removed), or undefined. */
function typeBody(text: string, name: string): string | undefined {
  // Up to the `;` that ends a line: a `;` inside a doc comment does not end the type.
  const m = new RegExp(`type ${name}\\s*=([\\s\\S]*?);[ \\t]*(//.*)?$`, 'm').exec(text);
  return m?.[1]?.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
}

/** The string literals of a union type, following the type names it includes (same file or any file). */
function unionCodes(name: string, preferred: string, seen = new Set<string>()): string[] {
  if (seen.has(name)) return [];
  seen.add(name);
  const body = typeBody(preferred, name) ?? FILES.map((f) => typeBody(f.text, name)).find((b) => b !== undefined);
  if (body === undefined) throw new Error(`no declaration of type ${name}`);
  const literals = [...body.matchAll(/'([A-Z0-9_]+)'/g)].map((m) => m[1]!);
  const named = [...body.matchAll(/\b([A-Z]\w*Code)\b/g)].map((m) => m[1]!);
  return [...literals, ...named.flatMap((n) => unionCodes(n, preferred, seen))];
}

describe('the error-code table', () => {
  it('gives a class to every code of every CustodyError subclass in src/', () => {
    const classes = FILES.flatMap((f) =>
      [...f.text.matchAll(/class (\w+) extends CustodyError<([^>]+)>/g)].map((m) => ({ file: f, name: m[1]!, types: m[2]! })),
    );
    expect(classes.length).toBeGreaterThan(30);
    const declared = new Set<string>();
    for (const c of classes) {
      for (const t of c.types.split('|').map((s) => s.trim())) {
        for (const code of unionCodes(t, c.file.text)) declared.add(code);
      }
    }
    expect([...declared].filter((code) => !TABLE.has(code))).toEqual([]);
    // and nothing stale: every code of the table is declared by some module
    expect([...TABLE].filter((code) => !declared.has(code))).toEqual([]);
  });

  it("has in the union every code thrown as `new …Error('CODE'` in src/", () => {
    const thrown = new Map<string, string>();
    for (const f of FILES) {
      for (const m of f.text.matchAll(/new (\w*Error)\(\s*'([A-Z][A-Z0-9_]*)'/g)) thrown.set(m[2]!, `${f.path} (${m[1]})`);
    }
    expect(thrown.size).toBeGreaterThan(100);
    expect([...thrown].filter(([code]) => !isErrorCode(code)).map(([code, where]) => `${code} in ${where}`)).toEqual([]);
  });

  it('uses only the seven classes', () => {
    expect(ERROR_CLASSES).toEqual(['usage', 'not_found', 'forbidden', 'conflict', 'finding', 'unavailable', 'internal']);
    for (const cls of Object.values(ERROR_CLASS)) expect(ERROR_CLASSES).toContain(cls);
  });

  it('classes a thrown value: by its code, internal for a crash', () => {
    expect(errorClassOf(new CustodyError('EXAMINATION_SEALED', 'x'))).toBe('forbidden');
    expect(errorClassOf(new CustodyError('NOT_A_CODE', 'x'))).toBe('finding');
    expect(errorClassOf(new RangeError('x'))).toBe('internal');
  });
});
