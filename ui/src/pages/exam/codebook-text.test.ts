import { describe, expect, it } from 'vitest';
import { codebookText, localisedCodebook } from './codebook-text';
import { fieldLabel, valueLabel } from './field-labels';
import type { Codebook } from './types';

const term = (code: string, label: string) => ({ code, label, definition: `${label} defined` });
const base: Codebook = {
  version: 'x-v2',
  title: 'X',
  instructions: 'Record what is visible.',
  values: [term('present', 'Present')],
  sexes: [term('male', 'Male')],
  ageBands: [term('<18', 'Under 18')],
  regions: [term('head', 'Head')],
  findings: [{ ...term('emaciation', 'Emaciation'), regional: false }],
};
const arabic = {
  status: 'needs-review-by-native-forensic-practitioner' as const,
  title: 'س',
  instructions: 'سجّل ما هو مرئي.',
  values: { present: { label: 'موجودة', definition: 'تعريف' } },
  sexes: { male: { label: 'ذكر', definition: 'تعريف' } },
  ageBands: { '<18': { label: 'دون 18', definition: 'تعريف' } },
  regions: { head: { label: 'الرأس', definition: 'تعريف' } },
  findings: { emaciation: { label: 'هزال', definition: 'فقدان ملحوظ' } },
};

describe('codebookText', () => {
  it("shows the codebook's own Arabic in an Arabic page, right to left, with its status", () => {
    const text = codebookText({ ...base, translations: { ar: arabic } }, 'ar');
    expect(text.attrs).toEqual({ lang: 'ar', dir: 'rtl' });
    expect(text.translation?.status).toBe('needs-review-by-native-forensic-practitioner');
    expect(text.instructions).toBe('سجّل ما هو مرئي.');
    expect(text.term('findings', base.findings[0]!)).toEqual({
      code: 'emaciation',
      label: 'هزال',
      definition: 'فقدان ملحوظ',
      regional: false,
    });
    expect(text.term('ageBands', base.ageBands[0]!).label).toBe('دون 18');
  });

  it('shows the English, and says so, when the codebook has no Arabic (a v1 plan)', () => {
    const text = codebookText(base, 'ar');
    expect(text.translation).toBeNull();
    expect(text.untranslated).toBe(true);
    expect(text.attrs.lang).toBe('en');
    expect(text.term('findings', base.findings[0]!).label).toBe('Emaciation');
  });

  it('shows the English in an English page even when an Arabic exists', () => {
    const text = codebookText({ ...base, translations: { ar: arabic } }, 'en');
    expect(text.translation).toBeNull();
    expect(text.untranslated).toBe(false);
    expect(text.instructions).toBe('Record what is visible.');
  });
});

describe('localisedCodebook', () => {
  const strings = { sex: 'الجنس', ageBand: 'الفئة العمرية', regions: (f: string) => `أين يُرى «${f}»؟` };
  it("names the adjudicator's fields and values in Arabic from the codebook's own translation, codes unchanged", () => {
    const { codebook, text } = localisedCodebook({ ...base, translations: { ar: arabic } }, 'ar');
    expect(text.attrs.lang).toBe('ar');
    expect(fieldLabel('findings.emaciation.value', codebook, strings)).toBe('هزال');
    expect(fieldLabel('findings.emaciation.regions', codebook, strings)).toBe('أين يُرى «هزال»؟');
    expect(valueLabel('findings.emaciation.value', 'present', codebook)).toBe('موجودة');
    expect(valueLabel('sex', 'male', codebook)).toBe('ذكر');
    expect(valueLabel('findings.emaciation.regions', 'head', codebook)).toBe('الرأس');
    expect(codebook.findings.map((f) => [f.code, f.regional])).toEqual([['emaciation', false]]);
  });
  it('keeps the English where the codebook has no translation into the page language', () => {
    const { codebook, text } = localisedCodebook(base, 'ar');
    expect(text.attrs.lang).toBe('en');
    expect(codebook).toBe(base);
    expect(valueLabel('sex', 'male', codebook)).toBe('Male');
  });
});
