// The default codebooks: 'custody-forensic-v1' (English) and 'custody-forensic-v2' (the same
// English, word for word, plus its Arabic translation, default-ar.ts). The definitions are written for examination from
// photographs: each says what to record, what to exclude (the usual mimics: post-mortem change,
// decomposition, animal activity, handling, autopsy or medical intervention), and when to answer
// cannot_assess. They describe appearances only, never cause, timing or intent, which are for the
// narrative report. Grounding: the injury categories and descriptions of standard forensic
// pathology texts (Saukko & Knight, Knight's Forensic Pathology; DiMaio & DiMaio, Forensic
// Pathology), the physical-evidence chapter of the Istanbul Protocol (OHCHR, 2022 edition) and
// the Minnesota Protocol on the Investigation of Potentially Unlawful Death (OHCHR, 2016).
// They are a starting point for the examining pathologists to review, not a substitute for it.
import {
  DEFAULT_AGE_BANDS,
  DEFAULT_INSTRUCTIONS,
  DEFAULT_REGIONS,
  DEFAULT_SEXES,
  DEFAULT_VALUES,
  paragraph,
} from './default-scales.js';
import { DEFAULT_ARABIC } from './default-ar.js';
import type { Codebook, FindingDefinition } from './types.js';

/** The version new plans use (the newest built-in codebook). */
export const DEFAULT_CODEBOOK_VERSION = 'custody-forensic-v2';

const FINDINGS: readonly FindingDefinition[] = [
  {
    code: 'emaciation',
    label: 'Emaciation',
    regional: false,
    definition: paragraph(
      'Marked, generalised loss of body fat and muscle: prominent ribs, collarbones, shoulder',
      'blades, spine and pelvic bones, a sunken abdomen, hollow cheeks and temples, and limbs thin',
      'in relation to their joints. A slim build alone is not emaciation. Bloating or drying from',
      'decomposition, body position and camera angle can both hide and imitate wasting; where they',
      'prevent a judgement, answer cannot_assess. The finding describes body condition only, not',
      'its cause.',
    ),
  },
  {
    code: 'blunt_force_injury',
    label: 'Blunt-force injury',
    regional: true,
    definition: paragraph(
      'Injury from impact with a blunt object or surface: abrasions (scraped skin), bruises',
      '(discolouration from bleeding under the skin), lacerations (splits in the skin with',
      'irregular or abraded margins and tissue bridges in the depth), and visible deformity',
      'suggesting fracture. Exclude livor mortis (post-mortem discolouration confined to the',
      'lowest parts of the body and pale where they pressed on a surface), decomposition',
      'discolouration, post-mortem drying of the skin, animal or insect damage, and handling or',
      'autopsy artefacts; where the distinction cannot be made, answer cannot_assess. Marks around',
      'the neck and marks of binding are recorded under ligature mark (neck) and restraint marks,',
      'not here; a blunt injury with a recognisable pattern is recorded here and also as a',
      'patterned injury.',
    ),
  },
  {
    code: 'patterned_injury',
    label: 'Patterned injury',
    regional: true,
    definition: paragraph(
      'An injury of any kind whose shape or surface marking reproduces features of the object that',
      'made it: parallel linear bruises with a pale centre (tramline bruises) from a rod or stick,',
      'looped or doubled marks from a cable or cord, the outline of a shoe sole or tyre tread, a',
      'bite mark, or burns of uniform size and shape. Record present only when the repeated,',
      'geometric or object-like shape is clear; irregular or indistinct bruises and abrasions are',
      'not patterned. The finding records the pattern, not the object, and the underlying injury',
      'is also recorded under its own finding. Neck marks and marks of binding belong to ligature',
      'mark (neck) and restraint marks.',
    ),
  },
  {
    code: 'ligature_mark_neck',
    label: 'Ligature mark (neck)',
    regional: false,
    definition: paragraph(
      'A band-like mark around all or part of the neck from a cord, rope, wire, cable, cloth or',
      'similar material pressed or tightened against it: a groove or furrow, often with abrasion',
      '(dry, parchment-like skin) or bruising along its margins, sometimes reproducing the weave',
      'of the material. Describe its level, direction and continuity in the notes. Exclude natural',
      'skin folds (notably in infants and in bloated bodies), the marks of a tight collar or',
      'necklace on a swollen neck, and decomposition changes; where these cannot be excluded,',
      'answer cannot_assess. The finding does not distinguish hanging from strangulation, nor a',
      'mark made in life from one made after death.',
    ),
  },
  {
    code: 'burns',
    label: 'Burns',
    regional: true,
    definition: paragraph(
      'Injury to the skin from heat (flame, a hot object or liquid) or from a corrosive substance:',
      'reddening, blisters, skin loss with a sharply defined margin, charring, or lesions whose',
      'size and shape reproduce a heated object, such as round burns of uniform size 5 to 10 mm',
      'across. Electrical injury is recorded separately. Decomposition causes blistering and skin',
      'slippage that imitate burns; where they cannot be told apart, answer cannot_assess. The',
      'finding records the burn, not whether it was sustained before or after death.',
    ),
  },
  {
    code: 'electrical_injury',
    label: 'Electrical injury',
    regional: true,
    definition: paragraph(
      'Marks where electrical current entered or left the body: small round or oval lesions, pale',
      'grey-white with a raised rim and a central crater, sometimes with a surrounding pale or red',
      'zone; clusters of such marks in a pattern reproducing an electrode; or metal deposits on',
      'the skin. Look closely at the fingers, hands, feet, genital region, nipples and ears.',
      'Record present only when these features are seen. Where a lesion could be an electrical',
      'mark but cannot be told apart from a small thermal burn, an abrasion or an insect bite,',
      'answer cannot_assess (and record the lesion under any finding it does meet). Electrical',
      'marks may be small or absent even where current has passed, so absent here never excludes',
      'it.',
    ),
  },
  {
    code: 'gunshot_wound',
    label: 'Gunshot wound',
    regional: true,
    definition: paragraph(
      'A wound made by a projectile from a firearm: entrance wounds (usually a round or oval',
      'defect with a rim of abraded skin, sometimes with soot or powder stippling around it) and',
      'exit wounds (usually larger or irregular, slit-like or star-shaped, without an abraded',
      'rim), including multiple pellet wounds from a shotgun. List the regions of all such wounds,',
      'entrance and exit alike; their number and interpretation, soot and stippling go in the',
      'notes. Distinguish stab wounds, lacerations over bone and post-mortem animal or insect',
      'damage; where the features are not clear, answer cannot_assess. The finding does not assess',
      'range, direction or weapon.',
    ),
  },
  {
    code: 'sharp_force_injury',
    label: 'Sharp-force injury',
    regional: true,
    definition: paragraph(
      'Injury from an edged or pointed object (knife, blade, glass or similar): incised wounds',
      '(longer on the skin than deep, with clean straight margins and no tissue bridges), stab',
      'wounds (deeper than long), and chop wounds from a heavy edged object (clean margins with',
      'crushing or bone damage beneath). Exclude surgical, medical and autopsy incisions, sutured',
      'wounds, and blunt lacerations (abraded margins, tissue bridges); where the distinction',
      'cannot be made, answer cannot_assess.',
    ),
  },
  {
    code: 'eye_injury',
    label: 'Eye injury',
    regional: false,
    definition: paragraph(
      'Visible injury to an eye or the tissues immediately around it: bruising of the eyelids or',
      'around the eye, bleeding in the white of the eye, a wound or burn of the eyelids or',
      'eyeball, or a ruptured or missing eyeball. Name the side and the features in the notes.',
      'Exclude post-mortem change: the brown-black band of drying across the exposed white of an',
      'eye left open after death, softening or collapse of the eyeball, decomposition',
      'discolouration, and loss of the eyes to insects or animals. Pinpoint haemorrhages',
      '(petechiae) are described in the notes, not recorded here. Where the eyes and eyelids are',
      'not shown clearly, answer cannot_assess.',
    ),
  },
  {
    code: 'restraint_marks',
    label: 'Restraint marks',
    regional: true,
    definition: paragraph(
      'Marks of binding of the limbs or body: bands of abrasion, bruising or grooving that run',
      'around or partly around a limb or the trunk, typically the wrists, forearms, ankles or',
      'lower legs, sometimes reproducing the texture of the binding (rope, cable, plastic ties,',
      'handcuffs, cloth); or a binding seen still in place on the body (record present and',
      'describe it in the notes). Wrists are recorded under upper limbs, ankles under lower limbs;',
      'marks around the neck are a ligature mark (neck). Exclude the marks of elastic, cuffs and',
      'straps, especially on a swollen body. A binding applied after death (for transport or',
      'identification) cannot always be told from one applied in life: the finding records the',
      'mark, not its timing.',
    ),
  },
  {
    code: 'untreated_wounds',
    label: 'Untreated wounds',
    regional: true,
    definition: paragraph(
      'A wound or injury that shows both signs of having existed for some time before death',
      '(crusting, healing margins, pus, dead tissue, surrounding redness or swelling) and no sign',
      'of medical treatment (no sutures, staples, dressings, splints or drains). Pressure sores',
      'over bony points (sacrum, hips, heels, shoulder blades) are included. Fresh injuries from',
      'around the time of death are not. Decomposition and insect activity can imitate infection',
      'and dead tissue; where they prevent a judgement, answer cannot_assess. The finding',
      'describes the wound; whether care was available or withheld is for the wider investigation.',
    ),
  },
  {
    code: 'decomposition',
    label: 'Decomposition',
    regional: false,
    definition: paragraph(
      'Post-mortem change beyond the earliest stage: green or dark discolouration of the skin,',
      'marbling (branching dark veins under the skin), bloating, skin slippage and blistering,',
      'fluid purging from the mouth or nose, mummification (dried, hardened skin), adipocere, or',
      'skeletonisation. Rigor mortis, livor mortis and drying of the lips or fingertips alone are',
      'not recorded here. Decomposition is recorded because it limits the other findings: where it',
      'hides or imitates one, answer that finding cannot_assess rather than absent.',
    ),
  },
];

/**
 * The first default codebook, English only. Plans drawn with it recorded it (and its digest) in
 * the ledger, so it must stay byte for byte as it is: its digest is pinned in default.test.ts.
 */
export const CUSTODY_FORENSIC_V1: Codebook = deepFreeze({
  version: 'custody-forensic-v1',
  title: 'Custody forensic photograph examination, version 1',
  instructions: DEFAULT_INSTRUCTIONS,
  values: DEFAULT_VALUES,
  sexes: DEFAULT_SEXES,
  ageBands: DEFAULT_AGE_BANDS,
  regions: DEFAULT_REGIONS,
  findings: FINDINGS,
});

/**
 * Version 2: the English of version 1 unchanged, with its Arabic translation (awaiting review by a
 * native-speaking forensic practitioner) inside the codebook, so its digest covers every Arabic
 * word. Pinned in default.test.ts: change a word (English or Arabic) only with a new version.
 */
export const CUSTODY_FORENSIC_V2: Codebook = deepFreeze({
  ...CUSTODY_FORENSIC_V1,
  version: 'custody-forensic-v2',
  title: 'Custody forensic photograph examination, version 2',
  translations: { ar: DEFAULT_ARABIC },
});

/** The codebook new plans use unless given another. */
export const DEFAULT_CODEBOOK: Codebook = CUSTODY_FORENSIC_V2;

/** Every built-in codebook: their versions are reserved for their exact content. */
export const DEFAULT_CODEBOOKS: readonly Codebook[] = [CUSTODY_FORENSIC_V1, CUSTODY_FORENSIC_V2];

/** Freezes a JSON value all the way down, so a shared constant cannot be edited by accident. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
