// Spelling keys: two spellings of one name word get the same key.
//
// Indonesian names carry the pre-1947 Dutch spelling (Soekarno, Djoko, Tjahjo), the 1947-1972 spelling (Sjahrir,
// Njoman, Jusuf = Yusuf) and the current one side by side, often in the same family; and everyday Arabic-derived
// and Western names are spelled by ear (Rizky/Rizki/Rizqi, Stephanie/Stefani, Fatimah/Fatima). The key folds
// exactly those alternations, and nothing that separates two real names: vowels other than the ones listed
// stay, so Yulianto (he) and Yulianti (she), Wahyudi and Wahyuni keep different keys.

const VOWELS = new Set(['A', 'E', 'I', 'O', 'U']);
// Consonants after which a Y before a vowel is read as I; N and S are left out because NY and SY are letters.
const Y_AS_I_AFTER = new Set(['B', 'C', 'D', 'F', 'G', 'H', 'K', 'L', 'M', 'P', 'R', 'T', 'W']);

/** Whole-word equivalences the letter rules cannot reach. */
const KEY_ALIASES = new Map<string, string>([
  ['NOR', 'NUR'], // Noor, Nour
  ['NOUR', 'NUR'],
  ['AHMED', 'AHMAD'],
  ['DAN', 'AND'], // "Pulp dan Paper", "Pulp & Paper", "Pulp and Paper"
  ['HUSEIN', 'HUSAIN'],
  ['YUSOF', 'YUSUF'],
]);

/**
 * Old and variant spellings to one form, in one pass over the letters (this runs for every word of every
 * row, so it avoids a chain of regular expressions):
 *   OE>U (Soekarno), DJ>Y and J>Y (Djoko, Jusuf; old SJ/NJ become SY/NY), TJ>C (Tjahjo), SY>S (Syaiful / Saiful),
 *   CHR>KR (Christina), KH>H and CH>H or C (Khairul, Chairul, Chandra), GH>G, PH>F and final P>F (Yusup), V>F, DH>D (Ramadhan),
 *   TH>T, SH>S, TS>S, DZ>S, Z>S (Faizal / Faisal), Q>K (Taufiq), X>KS.
 */
function foldDigraphs(word: string, chAs: 'H' | 'C'): string {
  let out = '';
  const n = word.length;
  for (let i = 0; i < n; i += 1) {
    const c = word[i]!;
    const next = i + 1 < n ? word[i + 1]! : '';
    switch (c) {
      case 'O':
        if (next === 'E') { out += 'U'; i += 1; } else out += 'O';
        break;
      case 'D':
        if (next === 'J') { out += 'Y'; i += 1; }
        else if (next === 'Z') { out += 'S'; i += 1; }
        else if (next === 'H') { out += 'D'; i += 1; }
        else out += 'D';
        break;
      case 'T':
        if (next === 'J') { out += 'C'; i += 1; }
        else if (next === 'H') { out += 'T'; i += 1; }
        else if (next === 'S') { out += 'S'; i += 1; }
        else out += 'T';
        break;
      case 'J':
        out += 'Y';
        break;
      case 'S':
        if (next === 'Y' || next === 'J' || next === 'H') { out += 'S'; i += 1; } else out += 'S';
        break;
      case 'C':
        if (next === 'H') {
          if (i + 2 < n && word[i + 2] === 'R') { out += 'KR'; i += 2; } else { out += chAs; i += 1; }
        } else out += 'C';
        break;
      case 'K':
        if (next === 'H') { out += 'H'; i += 1; } else out += 'K';
        break;
      case 'G':
        if (next === 'H') { out += 'G'; i += 1; } else out += 'G';
        break;
      case 'P':
        // Sundanese writes a final F as P: Yusup, Arip, Sarip.
        if (next === 'H' || next === '') { out += 'F'; i += 1; } else out += 'P';
        break;
      case 'V':
        out += 'F';
        break;
      case 'Q':
        out += 'K';
        break;
      case 'X':
        out += 'KS';
        break;
      case 'Z':
        out += 'S';
        break;
      default:
        out += c;
    }
  }
  return out;
}

/** AE>AI (Zaenal), IY>I, consonant-Y-vowel>I (Sofyan, Dyah, Prasetyo), final Y or IE>I (Rizky, Rizkie), doubles once. */
function foldVowelsAndDoubles(word: string): string {
  let out = '';
  const n = word.length;
  for (let i = 0; i < n; i += 1) {
    let c = word[i]!;
    const previous = i > 0 ? word[i - 1]! : '';
    if (c === 'E' && previous === 'A') c = 'I';
    else if (c === 'Y') {
      const next = i + 1 < n ? word[i + 1]! : '';
      if (previous === 'I') continue;
      if (next === '' || (Y_AS_I_AFTER.has(previous) && VOWELS.has(next))) c = 'I';
    } else if (c === 'E' && previous === 'I' && i === n - 1) continue;
    if (out.length > 0 && out[out.length - 1] === c) continue;
    out += c;
  }
  return out;
}

function foldLetters(word: string, chAs: 'H' | 'C'): string {
  let key = foldVowelsAndDoubles(foldDigraphs(word, chAs));
  // The Arabic article of Abdul assimilates: Abdurrahman = Abdul Rahman, Abdussalam = Abdul Salam; Abd. = Abdul.
  if (key.startsWith('ABDU')) {
    key = key.replace(/^ABDU[LRSN]$/, 'ABD').replace(/^ABDUL/, 'ABD').replace(/^ABDU(?=[RSNTD])/, 'ABD');
  }
  if (key.length > 4 && key.endsWith('AH')) key = key.slice(0, -1); // Fatimah / Fatima, Ulfah / Ulfa
  return KEY_ALIASES.get(key) ?? key;
}

export interface SpellingKeys {
  key: string;
  /** A second reading when "CH" may be C rather than KH (Chandra = Candra); null when there is none. */
  altKey: string | null;
}

export function spellingKeys(word: string): SpellingKeys {
  const key = foldLetters(word, 'H');
  if (!word.includes('CH')) return { key, altKey: null };
  const altKey = foldLetters(word, 'C');
  return { key, altKey: altKey === key ? null : altKey };
}

export function spellingKey(word: string): string {
  return foldLetters(word, 'H');
}

// --- Muhammad ------------------------------------------------------------------------------------------
// Full spellings all fold to one of these keys; the abbreviations are what banks and forms use for lack of room.
const MUHAMMAD_KEY = /^M[OU]HAM[AE]D$/;
const MUHAMMAD_ABBREVIATIONS = new Set(['M', 'MOH', 'MUH', 'MOCH', 'MUCH', 'MOHD', 'MUHD', 'MHD', 'MHMD', 'MUHAM', 'MOHAM', 'MUKH', 'MOKH']);

export function isMuhammad(word: string, key: string): boolean {
  return MUHAMMAD_KEY.test(key) || MUHAMMAD_ABBREVIATIONS.has(word);
}

export function isMuhammadAbbreviation(word: string): boolean {
  return MUHAMMAD_ABBREVIATIONS.has(word);
}

// --- words that do not tell people apart -----------------------------------------------------------------
// Matching on one of these alone proves nothing: thousands of account holders share them.
const COMMON_WORDS = new Set(
  [
    'AHMAD', 'ABDUL', 'SITI', 'NUR', 'NURUL', 'SRI', 'DEWI', 'PUTRI', 'PUTRA', 'AGUS', 'EKA', 'DWI', 'TRI', 'ADI',
    'AYU', 'MARIA', 'DIAN', 'INDAH', 'FITRI', 'RATNA', 'BUDI', 'SARI', 'PRATAMA', 'SAPUTRA', 'SAPUTRI', 'LESTARI',
    'WIJAYA', 'ANDI', 'KUSUMA', 'RAHAYU', 'HIDAYAT', 'HIDAYAH', 'SETIAWAN', 'KURNIAWAN', 'SANTOSO', 'WAHYUNI',
    'HANDAYANI', 'NINGSIH', 'RAHMAWATI',
    // company names
    'JAYA', 'ABADI', 'MAKMUR', 'SENTOSA', 'SEJAHTERA', 'MANDIRI', 'BERSAMA', 'INDONESIA', 'UTAMA', 'NUSANTARA',
    'KARYA', 'PERKASA', 'GLOBAL', 'MITRA', 'SUMBER', 'BERKAH', 'MAJU', 'GROUP', 'GRUP', 'INTERNASIONAL',
    'INTERNATIONAL', 'AND', 'TOKO', 'SINAR',
  ].map(spellingKey),
);

export function isCommonWord(word: string, key: string): boolean {
  return COMMON_WORDS.has(key) || isMuhammad(word, key);
}
