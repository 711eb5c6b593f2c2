/**
 * Word segmentation for the term, fulltext and ngram tokenizers: the word rules of Unicode UAX #29 as
 * bleve's `unicode` tokenizer applies them (it keeps only word-like segments: letters, numbers, kana,
 * ideographs), followed by bleve's `lowercase` and `unicodenorm` (NFKC) filters.
 *
 * Covered rules: letters and digits join (`abc123`), `_`-style connectors join (`foo_bar`), a MidLetter
 * or MidNumLet between letters joins (`don't`, `a.b`, `l'été`), MidNum or MidNumLet between digits
 * joins (`3.14`, `1,000`), katakana runs join, each ideograph and hiragana is its own word, combining
 * marks stay with their base. Dictionary segmentation of Thai/Lao/Khmer/Myanmar is not attempted (runs
 * of those letters form one word).
 */

const OTHER = 0;
const LETTER = 1;
const NUMERIC = 2;
const KATAKANA = 3;
const CONNECTOR = 4; // ExtendNumLet
const MID_LETTER = 5;
const MID_NUM = 6;
const MID_NUM_LET = 7; // also Single_Quote
const EXTEND = 8; // Extend, Format, ZWJ
const IDEO = 9; // one word per character

const ASCII_CLASS = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) ASCII_CLASS[c] = NUMERIC;
for (let c = 0x41; c <= 0x5a; c++) ASCII_CLASS[c] = LETTER;
for (let c = 0x61; c <= 0x7a; c++) ASCII_CLASS[c] = LETTER;
ASCII_CLASS[0x5f] = CONNECTOR; // _
ASCII_CLASS[0x2e] = MID_NUM_LET; // .
ASCII_CLASS[0x27] = MID_NUM_LET; // ' (Single_Quote behaves as MidNumLet for these rules)
ASCII_CLASS[0x3a] = MID_LETTER; // :
ASCII_CLASS[0x2c] = MID_NUM; // ,
ASCII_CLASS[0x3b] = MID_NUM; // ;

const MID_LETTER_SET = new Set([0xb7, 0x387, 0x55f, 0x5f4, 0x2027, 0xfe13, 0xfe55, 0xff1a]);
const MID_NUM_LET_SET = new Set([0x2018, 0x2019, 0x2024, 0xfe52, 0xff07, 0xff0e]);
const MID_NUM_SET = new Set([
  0x37e, 0x589, 0x60c, 0x60d, 0x66c, 0x7f8, 0x2044, 0xfe10, 0xfe14, 0xfe50, 0xfe54, 0xff0c, 0xff1b,
]);

const RE_EXTEND = /^[\p{Mn}\p{Me}\p{Mc}\p{Cf}\u200d]$/u;
const RE_IDEO = /^[\p{Script=Han}\p{Script=Hiragana}\u3005\u3007\u3021-\u3029\u3038-\u303b]$/u;
const RE_KATAKANA = /^[\p{Script=Katakana}\u30fc\u3031-\u3035\u309b\u309c\u30a0\uff70\uff9e\uff9f]$/u;
const RE_CONNECTOR = /^[\p{Pc}\u202f]$/u;
const RE_NUMERIC = /^\p{Nd}$/u;
const RE_LETTER = /^[\p{Alphabetic}\p{Lm}]$/u;

function classifySlow(cp: number): number {
  if (MID_LETTER_SET.has(cp)) return MID_LETTER;
  if (MID_NUM_LET_SET.has(cp)) return MID_NUM_LET;
  if (MID_NUM_SET.has(cp)) return MID_NUM;
  if (cp === 0x200b) return OTHER; // zero width space separates words
  const ch = String.fromCodePoint(cp);
  if (RE_EXTEND.test(ch)) return EXTEND;
  if (RE_IDEO.test(ch)) return IDEO;
  if (RE_KATAKANA.test(ch)) return KATAKANA;
  if (RE_CONNECTOR.test(ch)) return CONNECTOR;
  if (RE_NUMERIC.test(ch)) return NUMERIC;
  if (RE_LETTER.test(ch)) return LETTER;
  return OTHER;
}

/** Lazily filled class table of the Basic Multilingual Plane (255 = not yet classified). */
const BMP_CLASS = new Uint8Array(0x10000).fill(255);

function classify(cp: number): number {
  if (cp < 0x80) return ASCII_CLASS[cp];
  if (cp < 0x10000) {
    let c = BMP_CLASS[cp];
    if (c === 255) c = BMP_CLASS[cp] = classifySlow(cp);
    return c;
  }
  return classifySlow(cp);
}

/** Code point at i (a lone surrogate stands for itself). */
function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

function joins(last: number, cls: number): boolean {
  switch (cls) {
    case LETTER:
    case NUMERIC:
      return last === LETTER || last === NUMERIC || last === CONNECTOR;
    case KATAKANA:
      return last === KATAKANA || last === CONNECTOR;
    case CONNECTOR:
      return last === LETTER || last === NUMERIC || last === KATAKANA || last === CONNECTOR;
    default:
      return false;
  }
}

/** Class of the first non-Extend character at or after i (OTHER at the end). */
function classAfter(s: string, i: number): number {
  while (i < s.length) {
    const cp = codePointAt(s, i);
    const cls = classify(cp);
    if (cls !== EXTEND) return cls;
    i += cp > 0xffff ? 2 : 1;
  }
  return OTHER;
}

/** A normalised word; `ideo` marks ideographs and katakana words (the CJK bigram filter works on those). */
export interface RawWord {
  text: string;
  ideo: boolean;
}

/**
 * Splits `s` into word-like segments, calling `emit(start, end, ideo)` for each with UTF-16 offsets;
 * `ideo` is true for a single ideograph/hiragana and for katakana-only words.
 * Punctuation, symbols, spaces and emoji are dropped.
 */
export function forEachWord(s: string, emit: (start: number, end: number, ideo: boolean) => void): void {
  const n = s.length;
  let start = -1;
  let last = OTHER;
  let hasWordChar = false;
  let kana = false; // the current word is katakana only (bleve types it ideographic)
  let i = 0;
  while (i < n) {
    const cp = codePointAt(s, i);
    const w = cp > 0xffff ? 2 : 1;
    const cls = cp < 0x80 ? ASCII_CLASS[cp] : classify(cp);
    switch (cls) {
      case EXTEND:
        i += w; // attaches to the current word, or is dropped with the non-word it follows
        continue;
      case LETTER:
      case NUMERIC:
      case KATAKANA:
      case CONNECTOR:
        if (start >= 0 && joins(last, cls)) {
          last = cls;
          if (cls !== CONNECTOR) hasWordChar = true;
          if (cls !== KATAKANA) kana = false;
        } else {
          if (start >= 0 && hasWordChar) emit(start, i, kana);
          start = i;
          last = cls;
          hasWordChar = cls !== CONNECTOR;
          kana = cls === KATAKANA;
        }
        i += w;
        continue;
      case MID_LETTER:
      case MID_NUM:
      case MID_NUM_LET:
        if (start >= 0) {
          const next = classAfter(s, i + w);
          const letterMid = last === LETTER && next === LETTER && cls !== MID_NUM;
          const numberMid = last === NUMERIC && next === NUMERIC && cls !== MID_LETTER;
          if (letterMid || numberMid) {
            i += w;
            continue;
          }
        }
        break;
      case IDEO: {
        if (start >= 0 && hasWordChar) emit(start, i, kana);
        start = -1;
        let j = i + w;
        while (j < n) {
          const cp2 = codePointAt(s, j);
          if (classify(cp2) !== EXTEND) break;
          j += cp2 > 0xffff ? 2 : 1;
        }
        emit(i, j, true);
        i = j;
        continue;
      }
    }
    // OTHER or an unjoined Mid character ends the current word.
    if (start >= 0 && hasWordChar) emit(start, i, kana);
    start = -1;
    i += w;
  }
  if (start >= 0 && hasWordChar) emit(start, n, kana);
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** bleve's lowercase + NFKC filters on one word. */
export function normalizeWord(word: string): string {
  const lower = word.toLowerCase();
  return isAscii(lower) ? lower : lower.normalize("NFKC");
}

/** Words of `s`, lower-cased and NFKC-normalised, in order (duplicates kept). */
export function analyzeWords(s: string): string[] {
  const out: string[] = [];
  forEachWord(s, (start, end) => {
    out.push(normalizeWord(s.slice(start, end)));
  });
  return out;
}

/** Like analyzeWords, keeping the ideograph flag (for CJK bigrams). */
export function analyzeWordsWithKind(s: string): RawWord[] {
  const out: RawWord[] = [];
  forEachWord(s, (start, end, ideo) => {
    out.push({ text: normalizeWord(s.slice(start, end)), ideo });
  });
  return out;
}

/** Removes duplicates keeping first occurrences; small inputs (the usual case) avoid a Set. */
export function unique(words: string[]): string[] {
  if (words.length < 2) return words;
  if (words.length <= 8) {
    const out: string[] = [];
    for (const w of words) if (!out.includes(w)) out.push(w);
    return out;
  }
  return [...new Set(words)];
}
