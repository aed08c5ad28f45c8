import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CODEBOOK,
  ExaminationError,
  parseExaminationForm,
  type ExaminationAnswer,
} from '../codebook/index.js';
import { applyAdjudication, disagreements, type AdjudicationDecision } from './index.js';

const CB = DEFAULT_CODEBOOK;

function answer(findings: Record<string, unknown> = {}, rest: Record<string, unknown> = {}) {
  const all: Record<string, unknown> = {};
  for (const f of CB.findings) all[f.code] = { value: 'absent' };
  const input = { sex: 'male', age_band: '30-39', findings: { ...all, ...findings }, ...rest };
  return parseExaminationForm(CB, input);
}

const A = answer({ burns: { value: 'present', regions: ['chest'] } }, { notes: 'A saw a burn' });
const B = answer({ burns: { value: 'absent' } }, { age_band: '40-49' });
const C = answer({ burns: { value: 'present', regions: ['chest'] } });
const PANEL = [
  { examiner: 'A', answer: A },
  { examiner: 'B', answer: B },
];

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ExaminationError) return e.code;
    throw e;
  }
  throw new Error('expected an ExaminationError');
}

const decide = (
  field: string,
  value: string,
  reason = 'seen on photo 3',
): AdjudicationDecision => ({
  field,
  value,
  reason,
});

describe('disagreements', () => {
  it('is empty when the examiners agree, notes aside', () => {
    expect(
      disagreements(CB, [
        { examiner: 'A', answer: A },
        { examiner: 'C', answer: C },
      ]),
    ).toEqual([]);
    expect(disagreements(CB, [{ examiner: 'A', answer: A }])).toEqual([]);
    expect(disagreements(CB, [])).toEqual([]);
  });

  it('lists age, the finding value and its regions, in codebook order, with every value', () => {
    expect(disagreements(CB, PANEL)).toEqual([
      {
        field: 'age_band',
        values: [
          { examiner: 'A', value: '30-39' },
          { examiner: 'B', value: '40-49' },
        ],
      },
      {
        field: 'findings.burns.value',
        values: [
          { examiner: 'A', value: 'present' },
          { examiner: 'B', value: 'absent' },
        ],
      },
      {
        field: 'findings.burns.regions',
        values: [
          { examiner: 'A', value: 'chest' },
          { examiner: 'B', value: '' },
        ],
      },
    ]);
  });

  it('lists regions alone when all saw the finding in different places', () => {
    const D = answer({ burns: { value: 'present', regions: ['back', 'chest'] } });
    expect(
      disagreements(CB, [
        { examiner: 'C', answer: C },
        { examiner: 'D', answer: D },
      ]),
    ).toEqual([
      {
        field: 'findings.burns.regions',
        values: [
          { examiner: 'C', value: 'chest' },
          { examiner: 'D', value: 'back,chest' },
        ],
      },
    ]);
  });

  it('compares sex, and cannot_assess against absent', () => {
    const E = answer({ emaciation: { value: 'cannot_assess' } }, { sex: 'undetermined' });
    const fields = disagreements(CB, [
      { examiner: 'C', answer: C },
      { examiner: 'E', answer: E },
    ]);
    expect(fields.map((d) => d.field)).toEqual([
      'sex',
      'findings.emaciation.value',
      'findings.burns.value',
      'findings.burns.regions',
    ]);
  });

  it('checks the answers and the examiner names', () => {
    const broken = { ...A, sex: 'man' } as unknown as ExaminationAnswer;
    expect(codeOf(() => disagreements(CB, [{ examiner: 'A', answer: broken }]))).toBe(
      'FORM_INVALID',
    );
    const twice = [
      { examiner: 'A', answer: A },
      { examiner: 'A', answer: B },
    ];
    expect(codeOf(() => disagreements(CB, twice))).toBe('ADJUDICATION_INVALID');
    expect(codeOf(() => disagreements(CB, [{ examiner: '', answer: A }]))).toBe(
      'ADJUDICATION_INVALID',
    );
  });
});

describe('applyAdjudication', () => {
  const complete = [
    decide('age_band', '40-49'),
    decide('findings.burns.value', 'present'),
    decide('findings.burns.regions', 'chest,back'),
  ];

  it('takes agreed values as they are and decided values from the adjudicator', () => {
    const final = applyAdjudication(CB, PANEL, complete);
    expect(final.age_band).toBe('40-49');
    expect(final.sex).toBe('male');
    expect(final.findings.burns).toEqual({ value: 'present', regions: ['back', 'chest'] });
    expect(final.findings.emaciation).toEqual({ value: 'absent' });
    expect('notes' in final).toBe(false);
  });

  it('needs no decisions when the examiners agree', () => {
    const final = applyAdjudication(
      CB,
      [
        { examiner: 'A', answer: A },
        { examiner: 'C', answer: C },
      ],
      [],
    );
    expect(final).toEqual(C);
  });

  it('lets the adjudicator choose a value no examiner gave', () => {
    const decisions = [
      decide('age_band', '50-59'),
      decide('findings.burns.value', 'cannot_assess'),
      decide('findings.burns.regions', ''),
    ];
    const final = applyAdjudication(CB, PANEL, decisions);
    expect(final.age_band).toBe('50-59');
    expect(final.findings.burns).toEqual({ value: 'cannot_assess' });
  });

  it('requires a decision on every disagreement', () => {
    const err = (() => {
      try {
        applyAdjudication(CB, PANEL, complete.slice(0, 1));
      } catch (e) {
        return e as ExaminationError;
      }
      throw new Error('expected a throw');
    })();
    expect(err.code).toBe('ADJUDICATION_INCOMPLETE');
    expect(err.details.fields).toEqual(['findings.burns.value', 'findings.burns.regions']);
  });

  it('rejects decisions on fields without disagreement, or unknown fields', () => {
    expect(codeOf(() => applyAdjudication(CB, PANEL, [...complete, decide('sex', 'female')]))).toBe(
      'ADJUDICATION_UNNEEDED',
    );
    expect(
      codeOf(() =>
        applyAdjudication(CB, PANEL, [...complete, decide('findings.x.value', 'absent')]),
      ),
    ).toBe('ADJUDICATION_UNNEEDED');
  });

  it('requires a reason for every decision', () => {
    for (const reason of ['', '   ', undefined]) {
      const decisions = [...complete.slice(1), { field: 'age_band', value: '40-49', reason }];
      expect(codeOf(() => applyAdjudication(CB, PANEL, decisions as AdjudicationDecision[]))).toBe(
        'ADJUDICATION_REASON_MISSING',
      );
    }
  });

  it('refuses values outside the codebook, inconsistent decisions and repeats', () => {
    const swap = (i: number, d: AdjudicationDecision) => complete.map((c, j) => (j === i ? d : c));
    const cases: AdjudicationDecision[][] = [
      swap(0, decide('age_band', '35')),
      swap(2, decide('findings.burns.regions', 'chest,elbow')),
      swap(2, decide('findings.burns.regions', '')), // present needs a region
      [...complete, decide('age_band', '40-49')],
      [{ field: 'age_band' } as AdjudicationDecision],
    ];
    for (const decisions of cases) {
      expect(codeOf(() => applyAdjudication(CB, PANEL, decisions))).toBe('ADJUDICATION_INVALID');
    }
    expect(codeOf(() => applyAdjudication(CB, [], []))).toBe('ADJUDICATION_INVALID');
  });

  it('reports which paths an invalid adjudicated answer breaks', () => {
    try {
      applyAdjudication(CB, PANEL, [
        decide('age_band', '40-49'),
        decide('findings.burns.value', 'absent'),
        decide('findings.burns.regions', 'chest'),
      ]);
      expect.unreachable();
    } catch (e) {
      expect((e as ExaminationError).code).toBe('ADJUDICATION_INVALID');
      expect((e as ExaminationError).details.path).toBe('findings.burns.regions');
    }
  });
});

describe('applyAdjudication: fields that follow from a decided value', () => {
  const X = answer({ burns: { value: 'cannot_assess' } });
  const Y = answer({ burns: { value: 'absent' } });
  const PAIR = [
    { examiner: 'X', answer: X },
    { examiner: 'Y', answer: Y },
  ];

  it('lets the adjudicator who decides present set the regions nobody disputed', () => {
    expect(disagreements(CB, PAIR).map((d) => d.field)).toEqual(['findings.burns.value']);
    const final = applyAdjudication(CB, PAIR, [
      decide('findings.burns.value', 'present'),
      decide('findings.burns.regions', 'back,chest'),
    ]);
    expect(final.findings.burns).toEqual({ value: 'present', regions: ['back', 'chest'] });
  });

  it('asks for the regions when present is decided without them', () => {
    expect(codeOf(() => applyAdjudication(CB, PAIR, [decide('findings.burns.value', 'present')]))).toBe(
      'ADJUDICATION_INCOMPLETE',
    );
  });

  it('empties disputed regions by itself when the decided value is not present', () => {
    const final = applyAdjudication(CB, PANEL, [
      decide('age_band', '40-49'),
      decide('findings.burns.value', 'absent'),
    ]);
    expect(final.findings.burns).toEqual({ value: 'absent' });
  });

  it('still refuses a decision on an undisputed field that follows from nothing decided', () => {
    expect(
      codeOf(() =>
        applyAdjudication(CB, PAIR, [
          decide('findings.burns.value', 'absent'),
          decide('findings.blunt_force_injury.regions', 'chest'),
        ]),
      ),
    ).toBe('ADJUDICATION_UNNEEDED');
  });
});
