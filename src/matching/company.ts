// Legal forms of Indonesian organisations and "QQ" accounts.
//
// The legal form (PT, CV, UD, Koperasi, Yayasan...) is not part of the business name and is written before or
// after it, with or without dots; "Tbk" and "(Persero)" only qualify a PT. They are taken off both names and
// compared separately: the same form on both sides is noise, a form on one side only or two different forms
// mean a different legal entity may own the account, which a person must look at.
//
// "PT ABC QQ BUDI SANTOSO" (qualitate qua) is an account of PT ABC held on behalf of Budi Santoso: the money
// lands with PT ABC. Both halves are kept so the comparison can say which one the expected name matches.

import type { NamePiece } from './normalise.js';

/** Written form (letters of one or more pieces, joined) to the canonical form ops know. */
const LEGAL_FORMS = new Map<string, string>([
  ['PT', 'PT'],
  ['PERSEROANTERBATAS', 'PT'],
  ['CV', 'CV'],
  ['COMMANDITAIREVENNOOTSCHAP', 'CV'],
  ['UD', 'UD'],
  ['USAHADAGANG', 'UD'],
  ['PD', 'PD'],
  ['PERUSAHAANDAGANG', 'PD'],
  ['FA', 'FIRMA'],
  ['FIRMA', 'FIRMA'],
  ['KOPERASI', 'KOPERASI'],
  ['KOP', 'KOPERASI'],
  ['KSP', 'KSP'],
  ['KOPERASISIMPANPINJAM', 'KSP'],
  ['KSU', 'KSU'],
  ['KOPERASISERBAUSAHA', 'KSU'],
  ['KUD', 'KUD'],
  ['KOPERASIUNITDESA', 'KUD'],
  ['KOPKAR', 'KOPKAR'],
  ['KOPERASIKARYAWAN', 'KOPKAR'],
  ['YAYASAN', 'YAYASAN'],
  ['YYS', 'YAYASAN'],
  ['YAY', 'YAYASAN'],
  ['PERUM', 'PERUM'],
  ['PERKUMPULAN', 'PERKUMPULAN'],
]);

/** Forms also written after the name ("MAJU BERSAMA, CV"); the others only ever lead. */
const TRAILING_FORMS = new Set(['PT', 'CV', 'UD']);

/** Status words that only qualify the form; never a reason to doubt a match. */
const FORM_QUALIFIERS = new Set(['TBK', 'PERSERO']);

const MAX_FORM_PIECES = 3;

export interface LegalFormResult {
  pieces: NamePiece[];
  /** Canonical forms found, e.g. ["PT"]. */
  forms: string[];
  /** As written, for the notes: "PT.", "Tbk". */
  written: string[];
}

function formAt(pieces: readonly NamePiece[], start: number, end: number): { form: string; count: number } | null {
  let letters = '';
  let found: { form: string; count: number } | null = null;
  for (let count = 1; count <= Math.min(MAX_FORM_PIECES, end - start); count += 1) {
    letters += pieces[start + count - 1]!.letters;
    const form = LEGAL_FORMS.get(letters);
    if (form !== undefined) found = { form, count };
  }
  return found;
}

function formEndingAt(pieces: readonly NamePiece[], end: number, start: number): { form: string; count: number } | null {
  let letters = '';
  let found: { form: string; count: number } | null = null;
  for (let count = 1; count <= Math.min(MAX_FORM_PIECES, end - start); count += 1) {
    letters = pieces[end - count]!.letters + letters;
    const form = LEGAL_FORMS.get(letters);
    if (form !== undefined && TRAILING_FORMS.has(form)) found = { form, count };
  }
  return found;
}

export function stripLegalForms(pieces: readonly NamePiece[]): LegalFormResult {
  const forms: string[] = [];
  const written: string[] = [];
  let start = 0;
  let end = pieces.length;
  const describe = (from: number, to: number) =>
    pieces.slice(from, to).map((piece) => piece.display).join(pieces[from]?.chunk === pieces[to - 1]?.chunk ? '' : ' ');

  // Keep at least one piece: a company called just "Koperasi" is still a name to compare.
  const leading = formAt(pieces, start, end);
  if (leading !== null && end - start > leading.count) {
    forms.push(leading.form);
    written.push(describe(start, start + leading.count));
    start += leading.count;
  }
  for (;;) {
    const last = pieces[end - 1];
    if (last !== undefined && end - start > 1 && FORM_QUALIFIERS.has(last.letters)) {
      written.push(last.display);
      end -= 1;
      continue;
    }
    const trailing = end - start > 1 ? formEndingAt(pieces, end, start + 1) : null;
    if (trailing !== null && !forms.includes(trailing.form)) {
      forms.push(trailing.form);
      written.push(describe(end - trailing.count, end));
      end -= trailing.count;
      continue;
    }
    break;
  }
  return { pieces: pieces.slice(start, end), forms, written };
}

export interface QqSplit {
  /** Who owns the account ("PT ABC"). */
  owner: NamePiece[];
  /** On whose behalf it is held ("BUDI SANTOSO"). */
  beneficiary: NamePiece[];
}

/** Splits at "QQ" / "Q.Q." when there is a name on both sides of it. */
export function splitQualitateQua(pieces: readonly NamePiece[]): QqSplit | null {
  for (let index = 1; index < pieces.length - 1; index += 1) {
    const piece = pieces[index]!;
    let width = 0;
    if (piece.letters === 'QQ') width = 1;
    else if (piece.letters === 'Q' && pieces[index + 1]?.letters === 'Q') width = 2;
    if (width === 0 || index + width >= pieces.length) continue;
    return { owner: pieces.slice(0, index), beneficiary: pieces.slice(index + width) };
  }
  return null;
}
