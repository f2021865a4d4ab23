import { describe, expect, it } from 'vitest';
import { isCommonWord, isMuhammad, spellingKey, spellingKeys } from '../../src/matching/spelling.js';

const sameKey = (a: string, b: string) => {
  const ka = spellingKeys(a);
  const kb = spellingKeys(b);
  return ka.key === kb.key || ka.altKey === kb.key || kb.altKey === ka.key;
};

describe('spelling keys', () => {
  it.each([
    ['SOEKARNO', 'SUKARNO'], // oe / u
    ['DJOKO', 'JOKO'], // dj / j
    ['TJAHJO', 'CAHYO'], // tj / c, j / y
    ['SJAHRIR', 'SYAHRIR'], // sj / sy
    ['NJOMAN', 'NYOMAN'], // nj / ny
    ['CHAIRUL', 'KHAIRUL'], // ch / kh
    ['JUSUF', 'YUSUF'], // j / y
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
    ['CHANDRA', 'CANDRA'],
    ['SOESILO', 'SUSILO'],
    ['JOEDOJONO', 'YUDHOYONO'],
  ])('%s and %s are one word', (a, b) => {
    expect(sameKey(a, b)).toBe(true);
  });

  it.each([
    ['YULIANTO', 'YULIANTI'], // he / she
    ['WAHYUDI', 'WAHYUNI'],
    ['SUSANTO', 'SUSANTI'],
    ['ABDUL', 'ABDULLAH'],
    ['AHMAD', 'MUHAMMAD'],
    ['RAHMAN', 'RAHIM'],
    ['DEDI', 'DEDE'],
    ['YOGA', 'YOGI'],
    ['NUGROHO', 'NUGRAHA'],
  ])('%s and %s stay different', (a, b) => {
    expect(sameKey(a, b)).toBe(false);
  });

  it('knows the spellings and abbreviations of Muhammad', () => {
    for (const word of ['MUHAMMAD', 'MUHAMAD', 'MOHAMMAD', 'MOHAMAD', 'MOCHAMAD', 'MOCHAMMAD', 'MUKHAMMAD', 'MOHAMMED', 'MUCHAMMAD']) {
      expect(isMuhammad(word, spellingKey(word)), word).toBe(true);
    }
    for (const word of ['M', 'MOH', 'MOCH', 'MUH', 'MOHD', 'MUCH', 'MHD']) expect(isMuhammad(word, spellingKey(word)), word).toBe(true);
    for (const word of ['AHMAD', 'MAHMUD', 'MD', 'MADE']) expect(isMuhammad(word, spellingKey(word)), word).toBe(false);
  });

  it('marks words that thousands of people share', () => {
    for (const word of ['MUHAMMAD', 'SITI', 'NUR', 'SRI', 'DEWI', 'ABDUL', 'JAYA']) expect(isCommonWord(word, spellingKey(word)), word).toBe(true);
    for (const word of ['RIZKY', 'SUDARSANA', 'PATTIASINA']) expect(isCommonWord(word, spellingKey(word)), word).toBe(false);
  });
});
