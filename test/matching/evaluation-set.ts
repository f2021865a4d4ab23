// The labelled pairs the matcher is measured on (issues 5 and 13), in two parts:
//   tuning   - the hand-written list of issue 5 (handwritten-tuning.ts) and pairs generated from one half of
//              the word lists with TUNING_SEED: the rules were tuned on these;
//   held-out - a separate hand-written list (handwritten-heldout.ts) and pairs generated from the *other* half
//              of the word lists with HELD_OUT_SEED: no rule was tuned on them, and the acceptance targets are
//              asserted on them (evaluation.test.ts).

import { handWrittenHeldOut } from './handwritten-heldout.js';
import { handWrittenTuning } from './handwritten-tuning.js';
import type { LabelledPair } from './labelled-pair.js';
import { generatePairs } from './pair-generator.js';

export const TUNING_SEED = 20_513;
export const HELD_OUT_SEED = 91_377;

export const tuningPairs: readonly LabelledPair[] = [...handWrittenTuning, ...generatePairs(TUNING_SEED, 'tuning')];
export const heldOutPairs: readonly LabelledPair[] = [...handWrittenHeldOut, ...generatePairs(HELD_OUT_SEED, 'heldOut')];
export const evaluationPairs: readonly LabelledPair[] = [...tuningPairs, ...heldOutPairs];
