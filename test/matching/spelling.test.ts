import { describe, expect, it } from 'vitest';
import { BUILT_IN_KNOWLEDGE } from '../../src/matching/knowledge.js';
import { compileSpelling, keysMeet } from '../../src/matching/spelling.js';

const keys = (word: string) => BUILT_IN_KNOWLEDGE.spelling.keys(word);
const sameWord = (a: string, b: string) => keysMeet(keys(a), keys(b));

describe('spelling keys (knowledge/spelling-rules.json and name-variants.json)', () => {
  it.each([
    ['SOEKARNO', 'SUKARNO'], // oe / u
    ['DJOKO', 'JOKO'], // dj / j
    ['TJAHJO', 'CAHYO'], // tj / c, j / y
    ['SJAHRIR', 'SYAHRIR'], // sj / sy
    ['NJOMAN', 'NYOMAN'], // nj / ny
    ['CHAIRUL', 'KHAIRUL'], // ch / kh
    ['JUSUF', 'YUSUF'], // j / y
    ['WAHJOE', 'WAHYU'], // j / y, then y before a vowel: the rules read each other's output
    ['SOELISTIJOWATI', 'SULISTIYOWATI'],
    ['RIZKY', 'RIZKI'], // i / y endings
    ['RIZKIE', 'RIZQI'],
    ['MUHAMMAD', 'MUHAMAD'], // doubled letters
    ['HASSAN', 'HASAN'],
    ['STEPHANIE', 'STEFANI'], // ph / f
    ['STEVEN', 'STEFEN'], // v / f
    ['FAIZAL', 'FAISAL'], // z / s
    ['ACHMAD', 'AHMAD'],
    ['RAMADHAN', 'RAMADAN'],
    ['TAUFIQ', 'TAUFIK'],
    ['ZAENAL', 'ZAINAL'],
    ['SOFYAN', 'SOFIAN'],
    ['DYAH', 'DIAH'],
    ['FATIMAH', 'FATIMA'],
    ['SYAIFUL', 'SAIFUL'],
    ['CHRISTINA', 'KRISTINA'],
    ['JOSEPH', 'YOSEF'],
    ['NOOR', 'NUR'],
    ['ABDURRAHMAN', 'ABDULRAHMAN'],
    ['ABD', 'ABDUL'],
    ['ABDULLAH', 'ABDULAH'],
    ['CHANDRA', 'CANDRA'], // ch read as c: a second key
    ['MICHAEL', 'MIKAEL'], // ch read as k
    ['SOESILO', 'SUSILO'],
    ['JOEDOJONO', 'YUDHOYONO'],
    ['GHOFUR', 'GHAFUR'], // o / a after an Arabic emphatic consonant
    ['KHOLID', 'KHALID'],
    ['QOMARUDDIN', 'KAMARUDIN'],
    ['RAMADHON', 'RAMADAN'],
    ['ROHMAN', 'RAHMAN'], // Arabic ra before h
    ['MAHFUDZ', 'MAHFUD'], // dz read as d: a second key
    ['HAFIDZ', 'HAFIZ'],
    ['TSABIT', 'SABIT'],
    ['AMINULLOH', 'AMINULLAH'],
    ['SAEPULLOH', 'SAIFULLAH'], // Sundanese p for f, ae / ai, -ulloh
    ['YUSUP', 'YUSUF'],
    ['LATIEF', 'LATIF'], // ie / i
    ['LIEM', 'LIM'],
    ['OEI', 'OEY'],
    ['TJOA', 'CHUA'], // Chinese clan names in the old and new spellings
    ['CATHARINA', 'KATARINA'], // Latin c / k, th / t
    ['FRANCISCUS', 'FRANSISKUS'],
    ['VINCENTIUS', 'VINSENSIUS'], // c / s before e, ti / si
    ['IGNATIUS', 'IGNASIUS'],
    ['HIERONYMUS', 'HIERONIMUS'],
    ['MOCHTAR', 'MUKHTAR'],
  ])('%s and %s are one word', (a, b) => {
    expect(sameWord(a, b), `${keys(a).join('/')} vs ${keys(b).join('/')}`).toBe(true);
  });

  it.each([
    ['YULIANTO', 'YULIANTI'], // he / she
    ['WAHYUDI', 'WAHYUNI'],
    ['SUSANTO', 'SUSANTI'],
    ['SUTANTO', 'SUSANTO'],
    ['ABDUL', 'ABDULLAH'],
    ['AHMAD', 'MUHAMMAD'],
    ['RAHMAN', 'RAHIM'],
    ['DEDI', 'DEDE'],
    ['YOGA', 'YOGI'],
    ['NUGROHO', 'NUGRAHA'],
    ['SUWARNA', 'SUWARNO'], // Javanese a / o endings: often one name, sometimes two, so a person looks
    ['CINTA', 'SINTA'], // c / s only inside a Latin name, never at its start
    ['RONI', 'RANI'], // o / a only in Arabic contexts
    ['DONI', 'DANI'],
    ['IKHSAN', 'IKHWAN'],
  ])('%s and %s stay different', (a, b) => {
    expect(sameWord(a, b), `${keys(a).join('/')} vs ${keys(b).join('/')}`).toBe(false);
  });

  it('gives the plain reading first and other readings after it', () => {
    expect(keys('CHANDRA')[0]).toBe('HANDRA');
    expect(keys('CHANDRA')).toContain('CANDRA');
  });

  it('applies rules as data: a new rule or variant changes the keys, nothing else does', () => {
    const spelling = compileSpelling(
      [{ from: 'OU', to: 'U', where: 'anywhere', kind: 'dutch', examples: ['Soumokil = SUMOKIL'] }],
      [{ words: ['JOKO', 'JOKOWI'], kind: 'test' }],
    );
    expect(spelling.keys('SOUMOKIL')).toEqual(['SUMOKIL']);
    expect(keysMeet(spelling.keys('JOKO'), spelling.keys('JOKOWI'))).toBe(true);
  });
});
