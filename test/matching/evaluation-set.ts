// The labelled pairs the matcher is measured on (issues 5 and 13), in three parts:
//   tuning     - the hand-written list of issue 5 (handwritten-tuning.ts) and pairs generated from the tuning
//                part of the word lists with TUNING_SEED: the rules were tuned on these;
//   validation - the first hand-written held-out list (handwritten-validation.ts) and pairs generated from the
//                validation part of the word lists: measured once as held-out, then studied, so no longer held out;
//   held-out   - a later hand-written list (handwritten-heldout.ts) and pairs generated from the held-out part of
//                the word lists (words no other part uses) with HELD_OUT_SEED: no rule was tuned on them, and the
//                acceptance targets of issue 13 are asserted on them (evaluation.test.ts).

import { handWrittenHeldOut } from './handwritten-heldout.js';
import { handWrittenTuning } from './handwritten-tuning.js';
import { handWrittenValidation } from './handwritten-validation.js';
import type { LabelledPair } from './labelled-pair.js';
import { generatePairs } from './pair-generator.js';

export const TUNING_SEED = 20_513;
export const VALIDATION_SEED = 91_377;
export const HELD_OUT_SEED = 60_841;

export const tuningPairs: readonly LabelledPair[] = [...handWrittenTuning, ...generatePairs(TUNING_SEED, 'tuning')];
export const validationPairs: readonly LabelledPair[] = [...handWrittenValidation, ...generatePairs(VALIDATION_SEED, 'validation')];
export const heldOutPairs: readonly LabelledPair[] = [...handWrittenHeldOut, ...generatePairs(HELD_OUT_SEED, 'heldOut')];
export const evaluationPairs: readonly LabelledPair[] = [...tuningPairs, ...validationPairs, ...heldOutPairs];
