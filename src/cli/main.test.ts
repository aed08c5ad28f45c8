import { describe, expect, it } from 'vitest';
import { COMMANDS } from './main.js';

describe('the command table', () => {
  it('names and summarises each command as the command itself does', async () => {
    for (const entry of COMMANDS) {
      const cmd = await entry.load();
      expect({ name: cmd.name, summary: cmd.summary }).toEqual({ name: entry.name, summary: entry.summary });
    }
  }, 60_000); // it loads every command module (sharp, ExifTool, pg…): seconds on a loaded machine

  it('lists each command once', () => {
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
