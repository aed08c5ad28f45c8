// The cover: the archive, and the checkpoint the whole report is drawn at, named so that a reader
// can check it: its size, whether it is signed, the date of its last entry, and its root in both
// the hexadecimal custody prints and the base64 of the signed note, said to be the same value.
// With --bag, that it is the bag's checkpoint, checked against the archive.
import type { ReportBag } from './bag.js';
import { table, type CiteContext } from './cite.js';
import type { ReportInput } from './input.js';
import type { Block, Section } from './model.js';

export function coverSection(c: CiteContext, input: ReportInput, bag: ReportBag | null): Section {
  const q = c.at('checkpoint');
  const cp = input.checkpoint;
  // The note's third line is the root in base64 (C2SP tlog-checkpoint); custody prints it in hex.
  const base64 = cp.note.split('\n')[2] ?? '';
  const same = Buffer.from(base64, 'base64').toString('hex') === cp.root;
  const blocks: Block[] = [
    {
      kind: 'list',
      items: [
        ['Archive origin: ', { text: input.archive.origin, mono: true }],
        ['Archive id: ', { text: input.archive.id, mono: true }],
        [
          'Checkpoint: tree size ',
          c.value(q, '/size', cp.size),
          ' (the first ',
          String(cp.size),
          ' ledger entries), ',
          cp.signed
            ? 'signed with the archive key (the signature and the root were checked when this report was generated)'
            : {
                text: 'whose signature or root does NOT verify with the archive key',
                strong: true,
              },
          '; its last entry is dated ',
          cp.lastEntryTime,
          '.',
        ],
      ],
    },
    table(
      'Merkle root of the ledger at the checkpoint (RFC 9162), written two ways',
      [
        ['Hexadecimal (as custody prints it)', 'text'],
        ['Base64 (line 3 of the signed note)', 'text'],
      ],
      [[c.mono(q, '/root', cp.root), { text: base64, mono: true }]],
      '',
    ),
    {
      kind: 'p',
      ...(same ? {} : { style: 'warning' as const }),
      parts: same
        ? [
            'The two are the same 32 bytes: the signed note writes the root in base64, custody in hexadecimal. To see it, run ',
            { text: `printf %s ${base64} | base64 -d | od -An -tx1 | tr -d ' \\n'`, mono: true },
            ', which prints the hexadecimal form.',
          ]
        : ['The base64 root of the note below does not decode to the hexadecimal root above.'],
    },
  ];
  if (bag !== null) {
    blocks.push({
      kind: 'p',
      parts: [
        'This report is drawn at the checkpoint of the export bag ',
        { text: bag.dir, mono: true },
        ' (its ',
        { text: 'custody/checkpoint.txt', mono: true },
        `). Before drawing it, that checkpoint was checked against the archive: the same origin, a signature by the archive key, and a root equal to the archive ledger's own root at tree size ${cp.size}.`,
      ],
    });
  }
  blocks.push(
    {
      kind: 'p',
      parts: [
        'Every figure below is as of this checkpoint, and each footnote names the command that reproduces it. The checkpoint, as signed with the archive key (a C2SP signed note',
        { text: '', note: c.notes.cite(q, '/note', cp.note) },
        '):',
      ],
    },
    { kind: 'pre', text: cp.note },
  );
  return { id: 'cover', title: 'Archive and checkpoint', blocks };
}
