import type { BankCodeMap } from '../csv/validation.js';
import { localTime } from '../clock/local-time.js';
import type { AccountHistory } from '../history/account-history.js';
import type { NameMatching } from '../matching/compare-names.js';
import type { DecisionStore } from '../review/decision-store.js';
import { importReviewFile, type ReviewImport, type ReviewImportRequest } from '../review/review-file.js';
import type { BatchStore } from './batch-store.js';
import { openInputFile } from './input-file.js';
import { knownAnswers } from './known-answers.js';

/**
 * Records the decisions of a reviewed report (`review`, the watched folder's `reviews/`): the file is read
 * by the reader of `run`, and its facts checked against the answers this tool stored in `environment`.
 */
export function reviewImporter(
  sources: { store: BatchStore; history: AccountHistory; decisions: DecisionStore },
  settings: { environment: string; endpoint: string; bankCodes: BankCodeMap; timeZone: string; nameMatching: NameMatching },
): (request: ReviewImportRequest) => Promise<ReviewImport> {
  const { store, history, decisions } = sources;
  return (request) =>
    importReviewFile(
      {
        open: openInputFile,
        decisions,
        knownAnswers: (environment, accountKeys) => knownAnswers(store, history, environment, accountKeys, settings.endpoint),
        environment: settings.environment,
        bankCodes: settings.bankCodes,
        nameMatching: settings.nameMatching,
        showTime: (at) => localTime(at, settings.timeZone),
      },
      request,
    );
}
