/**
 * The names of the columns this product writes after the input's, in one place: the report writer appends
 * them, the input reader must never take them for input (a report fed back as input would otherwise have
 * its bank's holder name read as the expected name, and two columns of each name). Ground level, so that
 * both the reader (src/csv) and the writer (src/report) import them.
 */

/**
 * A person's standing decision on a CLOSE_MATCH / NO_MATCH row (src/review): the report is also the review
 * form, whose `decision` column a person fills and `review` records.
 */
export const DECISION_COLUMNS = ['decision', 'decided_by', 'decided_at'] as const;

/**
 * Every column a report of this product appends to the input's, in this order (PRODUCT.md, "Reconciliation
 * CSV"): never an input column.
 */
export const RESULT_COLUMNS = [
  'result',
  'name_score',
  'account_holder',
  'bank_name',
  'fee',
  'inquiry_status',
  'inquiry_id',
  'checked_at',
  'reason',
  'change',
  'account_number_checked',
  ...DECISION_COLUMNS,
] as const;

/**
 * Columns that only a report of this product has together: a header holding both is a report fed back
 * as input (every version of the report had them), not a partner's file that happens to use one name.
 */
export const REPORT_SIGNATURE: readonly string[] = ['result', 'name_score'];
