/**
 * The published one-to-one tables of the legacy Vietnamese encodings still met in old Word files
 * and texts, as data (legacy-vietnamese.ts reads them):
 *
 * - TCVN3 (TCVN 5712:1993 "VN3", the ABC fonts `.VnTime`, `.VnArial`…): one byte a letter in
 *   0xA1–0xFE. Only lowercase letters with tones, and the seven capitals Ă Â Ê Ô Ơ Ư Đ, have a
 *   code; a capital with a tone is the same byte shown in the capitals' font (`.VnTimeH`,
 *   `.VnArialH`…). Bytes as the TCVN 5712:1993 VN3 table gives them (the same as X.Org's
 *   lcUniConv/tcvn.h for these codes and the TCVN3 table of vietunicode.sourceforge.net and of
 *   the public converter github.com/duydev/vietnamese-conversion, src/charsets.ts).
 * - VNI Windows (fonts `VNI-Times`, `VNI-Helve`…): the base letter, then a mark byte; a few
 *   letters are one byte (ơ ư đ, and i/ỵ with their tones). Sequences as the VNI Windows table of
 *   vietunicode.sourceforge.net and github.com/duydev/vietnamese-conversion (src/charsets.ts)
 *   give them; the capitals' sequences are the lowercase ones in capitals (`aø` à, `AØ` À).
 * - VIQR (RFC 1456): ASCII, a letter then its marks: `(` breve, `^` circumflex, `+` horn, then
 *   `'` acute, `` ` `` grave, `?` hook, `~` tilde, `.` dot below; `dd` đ; `\` keeps a mark
 *   character literal.
 *
 * Each legacy byte is written as the character Windows-1252 (Latin-1 in 0xA0–0xFF) shows for it,
 * which is how a DOCX stores a run in one of these fonts and how a text file's bytes read.
 */

/** TCVN3 byte (as its Latin-1 character) → the lowercase letter, and the seven capitals. */
export const TCVN3_TABLE: Readonly<Record<string, string>> = {
  '\u00a1': 'Ă',
  '\u00a2': 'Â',
  '\u00a3': 'Ê',
  '\u00a4': 'Ô',
  '\u00a5': 'Ơ',
  '\u00a6': 'Ư',
  '\u00a7': 'Đ',
  '\u00a8': 'ă',
  '\u00a9': 'â',
  '\u00aa': 'ê',
  '\u00ab': 'ô',
  '\u00ac': 'ơ',
  '\u00ad': 'ư',
  '\u00ae': 'đ',
  '\u00b5': 'à',
  '\u00b6': 'ả',
  '\u00b7': 'ã',
  '\u00b8': 'á',
  '\u00b9': 'ạ',
  '\u00bb': 'ằ',
  '\u00bc': 'ẳ',
  '\u00bd': 'ẵ',
  '\u00be': 'ắ',
  '\u00c6': 'ặ',
  '\u00c7': 'ầ',
  '\u00c8': 'ẩ',
  '\u00c9': 'ẫ',
  '\u00ca': 'ấ',
  '\u00cb': 'ậ',
  '\u00cc': 'è',
  '\u00ce': 'ẻ',
  '\u00cf': 'ẽ',
  '\u00d0': 'é',
  '\u00d1': 'ẹ',
  '\u00d2': 'ề',
  '\u00d3': 'ể',
  '\u00d4': 'ễ',
  '\u00d5': 'ế',
  '\u00d6': 'ệ',
  '\u00d7': 'ì',
  '\u00d8': 'ỉ',
  '\u00dc': 'ĩ',
  '\u00dd': 'í',
  '\u00de': 'ị',
  '\u00df': 'ò',
  '\u00e1': 'ỏ',
  '\u00e2': 'õ',
  '\u00e3': 'ó',
  '\u00e4': 'ọ',
  '\u00e5': 'ồ',
  '\u00e6': 'ổ',
  '\u00e7': 'ỗ',
  '\u00e8': 'ố',
  '\u00e9': 'ộ',
  '\u00ea': 'ờ',
  '\u00eb': 'ở',
  '\u00ec': 'ỡ',
  '\u00ed': 'ớ',
  '\u00ee': 'ợ',
  '\u00ef': 'ù',
  '\u00f1': 'ủ',
  '\u00f2': 'ũ',
  '\u00f3': 'ú',
  '\u00f4': 'ụ',
  '\u00f5': 'ừ',
  '\u00f6': 'ử',
  '\u00f7': 'ữ',
  '\u00f8': 'ứ',
  '\u00f9': 'ự',
  '\u00fa': 'ỳ',
  '\u00fb': 'ỷ',
  '\u00fc': 'ỹ',
  '\u00fd': 'ý',
  '\u00fe': 'ỵ',
};

/**
 * VNI Windows: the lowercase letter → its sequence (a base letter and a mark, or one byte). The
 * capitals are these in capitals (`toUpperCase` of both sides: `AØ` À, `Ô` Ơ, `Ñ` Đ).
 */
export const VNI_TABLE: Readonly<Record<string, string>> = {
  à: 'aø',
  á: 'aù',
  ả: 'aû',
  ã: 'aõ',
  ạ: 'aï',
  â: 'aâ',
  ầ: 'aà',
  ấ: 'aá',
  ẩ: 'aå',
  ẫ: 'aã',
  ậ: 'aä',
  ă: 'aê',
  ằ: 'aè',
  ắ: 'aé',
  ẳ: 'aú',
  ẵ: 'aü',
  ặ: 'aë',
  è: 'eø',
  é: 'eù',
  ẻ: 'eû',
  ẽ: 'eõ',
  ẹ: 'eï',
  ê: 'eâ',
  ề: 'eà',
  ế: 'eá',
  ể: 'eå',
  ễ: 'eã',
  ệ: 'eä',
  ì: 'ì',
  í: 'í',
  ỉ: 'æ',
  ĩ: 'ó',
  ị: 'ò',
  ò: 'oø',
  ó: 'où',
  ỏ: 'oû',
  õ: 'oõ',
  ọ: 'oï',
  ô: 'oâ',
  ồ: 'oà',
  ố: 'oá',
  ổ: 'oå',
  ỗ: 'oã',
  ộ: 'oä',
  ơ: 'ô',
  ờ: 'ôø',
  ớ: 'ôù',
  ở: 'ôû',
  ỡ: 'ôõ',
  ợ: 'ôï',
  ù: 'uø',
  ú: 'uù',
  ủ: 'uû',
  ũ: 'uõ',
  ụ: 'uï',
  ư: 'ö',
  ừ: 'öø',
  ứ: 'öù',
  ử: 'öû',
  ữ: 'öõ',
  ự: 'öï',
  ỳ: 'yø',
  ý: 'yù',
  ỷ: 'yû',
  ỹ: 'yõ',
  ỵ: 'î',
  đ: 'ñ',
};

/** VIQR (RFC 1456): the mark characters after a letter, and what each adds (combining marks). */
export const VIQR_SHAPES: Readonly<Record<string, string>> = {
  '(': '\u0306', // breve: a( ă
  '^': '\u0302', // circumflex: a^ â, e^ ê, o^ ô
  '+': '\u031b', // horn: o+ ơ, u+ ư
};
export const VIQR_TONES: Readonly<Record<string, string>> = {
  "'": '\u0301', // acute (sắc)
  '`': '\u0300', // grave (huyền)
  '?': '\u0309', // hook above (hỏi)
  '~': '\u0303', // tilde (ngã)
  '.': '\u0323', // dot below (nặng)
};
/** Which base letters take which VIQR shape mark. */
export const VIQR_SHAPE_BASES: Readonly<Record<string, string>> = { '(': 'aA', '^': 'aeoAEO', '+': 'ouOU' };
