// Spelling keys: two spellings of one name word get the same key.
//
// Indonesian names carry the pre-1947 Dutch spelling (Soekarno, Djoko, Tjahjo), the 1947-1972 spelling (Sjahrir,
// Njoman, Jusuf = Yusuf) and the current one side by side, often in the same family; and everyday Arabic-derived
// and Western names are spelled by ear (Rizky/Rizki/Rizqi, Stephanie/Stefani, Fatimah/Fatima). The key folds
// exactly those alternations, and nothing that separates two real names: vowels other than the ones listed
// stay, so Yulianto (he) and Yulianti (she), Wahyudi and Wahyuni keep different keys.

const CONSONANT_BEFORE_Y = /([BCDFGHKLMPRTW])Y(?=[AEIOU])/g;

/** Whole-word equivalences the letter rules cannot reach. */
const KEY_ALIASES = new Map<string, string>([
  ['NOR', 'NUR'], // Noor, Nour
  ['NOUR', 'NUR'],
  ['AHMED', 'AHMAD'],
  ['DAN', 'AND'], // "Pulp dan Paper", "Pulp & Paper", "Pulp and Paper"
  ['HUSEIN', 'HUSAIN'],
  ['YUSOF', 'YUSUF'],
]);

function foldLetters(word: string, chAs: 'H' | 'C'): string {
  let key = word
    .replace(/OE/g, 'U') // Soekarno
    .replace(/DJ/g, 'J') // Djoko
    .replace(/TJ/g, 'C') // Tjahjo
    .replace(/DZ/g, 'Z') // Dzikri
    .replace(/J/g, 'Y') // Jusuf; also turns old SJ/NJ into SY/NY
    .replace(/SY/g, 'S') // Syaiful / Saiful, Sjamsul / Samsul
    .replace(/CHR/g, 'KR') // Christina / Kristina
    .replace(/KH/g, 'H') // Khairul / Hairul
    .replace(/CH/g, chAs) // Chairul / Khairul, but also Chandra / Candra
    .replace(/GH/g, 'G')
    .replace(/PH/g, 'F')
    .replace(/V/g, 'F')
    .replace(/DH/g, 'D') // Ramadhan
    .replace(/TH/g, 'T')
    .replace(/SH/g, 'S')
    .replace(/TS/g, 'S')
    .replace(/Q/g, 'K') // Taufiq
    .replace(/X/g, 'KS')
    .replace(/Z/g, 'S') // Faizal / Faisal
    .replace(/AE/g, 'AI') // Zaenal / Zainal
    .replace(/IY/g, 'I')
    .replace(CONSONANT_BEFORE_Y, '$1I') // Sofyan / Sofian, Dyah / Diah, Prasetyo / Prasetio
    .replace(/Y$/, 'I') // Rizky / Rizki, Dedy / Dedi
    .replace(/IE$/, 'I') // Rizkie
    .replace(/(.)\1+/g, '$1'); // Muhammad / Muhamad, Hassan / Hasan
  // The Arabic article of Abdul assimilates: Abdurrahman = Abdul Rahman, Abdussalam = Abdul Salam; Abd. = Abdul.
  key = key.replace(/^ABDU[LRSN]$/, 'ABD').replace(/^ABDUL/, 'ABD').replace(/^ABDU(?=[RSNTD])/, 'ABD');
  if (key.length > 4) key = key.replace(/AH$/, 'A'); // Fatimah / Fatima, Ulfah / Ulfa
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
    'AYU', 'MARIA', 'DIAN', 'INDAH', 'FITRI', 'RATNA', 'BUDI',
    // company names
    'JAYA', 'ABADI', 'MAKMUR', 'SENTOSA', 'SEJAHTERA', 'MANDIRI', 'BERSAMA', 'INDONESIA', 'UTAMA', 'NUSANTARA',
    'KARYA', 'PERKASA', 'GLOBAL', 'MITRA', 'SUMBER', 'BERKAH', 'MAJU', 'GROUP', 'GRUP', 'INTERNASIONAL',
    'INTERNATIONAL', 'AND', 'TOKO', 'SINAR',
  ].map(spellingKey),
);

export function isCommonWord(word: string, key: string): boolean {
  return COMMON_WORDS.has(key) || isMuhammad(word, key);
}
