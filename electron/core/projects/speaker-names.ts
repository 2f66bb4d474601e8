/**
 * Speakers' names: the title or kinship term before a name and the gender it gives (Vietnamese
 * `chị Dậu`, `thằng Dần`, `cái Tí`; English `Mr. Darcy`), the speaker a narration line names
 * before a colon (`Chị Dậu nói:`, `Trương tuần nhăn mặt:`), and one character for one person
 * under two names (`chị Dậu` and `Dậu`; `Mr. Darcy` and `Darcy`), never for two people whose
 * titles differ in gender (`chị Dậu`, her husband `anh Dậu`).
 */

import type { Gender } from '../../shared/voices';
import { givenNameGender } from './given-names';

/**
 * Vietnamese titles and kinship terms before a name, with the gender each gives; null where
 * it gives none: `em` (younger, either), `cụ` (elder, either), `bác` (a parent's elder brother
 * or sister, and a polite "you" to either: `bác gái` / `bác trai` decide). Village and court
 * titles of the novels' time (lý, cai, chánh, nghị, quan) were held by men.
 */
const VI_TITLES: Readonly<Record<string, Gender | null>> = {
  anh: 'male',
  chú: 'male',
  ông: 'male',
  cậu: 'male',
  thằng: 'male',
  lão: 'male',
  bố: 'male',
  cha: 'male',
  thầy: 'male',
  quan: 'male',
  lý: 'male',
  cai: 'male',
  chánh: 'male',
  nghị: 'male',
  chị: 'female',
  bà: 'female',
  cô: 'female',
  mợ: 'female',
  dì: 'female',
  cái: 'female',
  mụ: 'female',
  thím: 'female',
  mẹ: 'female',
  má: 'female',
  ả: 'female',
  em: null,
  cụ: null,
  bác: null,
};
const EN_TITLES: Readonly<Record<string, Gender | null>> = {
  'mr.': 'male',
  mr: 'male',
  master: 'male',
  colonel: 'male',
  captain: 'male',
  major: 'male',
  general: 'male',
  lieutenant: 'male',
  sergeant: 'male',
  sir: 'male',
  lord: 'male',
  king: 'male',
  prince: 'male',
  father: 'male',
  uncle: 'male',
  'mrs.': 'female',
  mrs: 'female',
  'ms.': 'female',
  ms: 'female',
  madam: 'female',
  madame: 'female',
  miss: 'female',
  lady: 'female',
  queen: 'female',
  princess: 'female',
  mother: 'female',
  aunt: 'female',
  'dr.': null,
};
/**
 * English titles put before a family name (`Mr. Darcy`, `Colonel Fitzwilliam`), never before a
 * given name alone: such a name is only the end of a full name (`Fitzwilliam Darcy`), while one
 * after `Lady`, `Sir` or none may be its start (`Lady Catherine` of `Catherine de Bourgh`).
 */
const FAMILY_NAME_TITLES = new Set([
  'mr.',
  'mr',
  'mrs.',
  'mrs',
  'ms.',
  'ms',
  'miss',
  'master',
  'colonel',
  'captain',
  'major',
  'general',
  'lieutenant',
  'sergeant',
  'dr.',
]);
/** Vietnamese roles the novels name speakers by, a title and a lower-case word (`Lý trưởng nói:`). */
const VI_ROLES = [
  'quan phủ',
  'quan huyện',
  'quan tri phủ',
  'quan tri huyện',
  'lý trưởng',
  'phó lý',
  'lý cựu',
  'cai lệ',
  'chánh tổng',
  'chánh hội',
  'thầy đề',
  'ông lão',
  'bà lão',
  'nha lại',
];
/**
 * Positions a title goes with to name a person by their (or their husband's) office, written in
 * lower case: `bà huyện`, `ông phủ`, `bà tham`, `ông lý`.
 */
const VI_OFFICES = new Set([
  'quan',
  'huyện',
  'phủ',
  'tham',
  'lý',
  'phán',
  'đồ',
  'chánh',
  'nghị',
  'đội',
  'cai',
  'bang',
  'tú',
  'cử',
]);

/** Titles in the regular expressions that find names: lower case before a capitalised name. */
export const VI_TITLE_PATTERN = `(?:(?:${Object.keys(VI_TITLES)
  .sort((a, b) => b.length - a.length)
  .join('|')})[ \\t]+)`;

/** Words that start a clause before a name, dropped from its front. */
export const LEADING = new Set([
  'Then',
  'And',
  'But',
  'So',
  'When',
  'Now',
  'Và',
  'Rồi',
  'Nhưng',
  'Thì',
  'Lúc',
  'Khi',
  'Bèn',
  'Lúc ấy',
  'Tự nhiên',
]);
/** Pronouns, never a name on their own. */
export const PRONOUNS = new Set([
  'He',
  'She',
  'They',
  'I',
  'We',
  'You',
  'It',
  'Someone',
  'Everyone',
  'Nobody',
  'The',
  'A',
  'His',
  'Her',
  'Anh',
  'Chị',
  'Em',
  'Cô',
  'Ông',
  'Bà',
  'Nó',
  'Họ',
  'Tôi',
  'Cậu',
  'Hắn',
  'Ta',
  'Mình',
  'Chúng',
  'Ai',
  'Y',
  'Thị',
  'Ngài',
  'Lão',
  'Mụ',
  'Thằng',
]);

const CAPITALISED = /^\p{Lu}[\p{Ll}\p{M}'’-]*$/u;

/**
 * Relation words that name a spouse by the other's name, as Số đỏ does: `Văn Minh chồng` is Văn
 * Minh himself, `Văn Minh vợ` and `Vợ Văn Minh` his wife (another person, not merged with him).
 */
const SPOUSES: Readonly<Record<string, Gender>> = { vợ: 'female', chồng: 'male' };

/** The gender a title gives (`Mr.`, `bà`), null when it gives none or is no title. */
export function titleGender(word: string): Gender | null {
  const lower = word.toLowerCase();
  return VI_TITLES[lower] ?? EN_TITLES[lower] ?? null;
}

/** Every title, for the regular expressions that find a name after one. */
export const TITLE_WORDS: readonly string[] = [...Object.keys(VI_TITLES), ...Object.keys(EN_TITLES)];

/** A name's title (lower case) and the name without it; no title when its first word is none. */
function splitTitle(name: string): { title: string | null; gender: Gender | null; bare: string } {
  const words = name.split(/\s+/);
  const first = words[0]!.toLowerCase();
  const last = words.at(-1)!.toLowerCase();
  if (words.length >= 2 && (last in SPOUSES || first === 'vợ')) {
    const relation = last in SPOUSES ? last : first;
    const person = (last in SPOUSES ? words.slice(0, -1) : words.slice(1)).join(' ');
    // The wife is grouped under "vợ <name>", apart from the husband; the husband under his name.
    return { title: relation, gender: SPOUSES[relation]!, bare: relation === 'vợ' ? `vợ ${person}` : person };
  }
  const known = first in VI_TITLES ? VI_TITLES[first]! : first in EN_TITLES ? EN_TITLES[first]! : undefined;
  if (known === undefined || words.length < 2) return { title: null, gender: null, bare: name };
  let gender = known;
  if (first === 'bác' && words[1] === 'gái') gender = 'female';
  if (first === 'bác' && words[1] === 'trai') gender = 'male';
  return { title: first, gender, bare: words.slice(1).join(' ') };
}

/**
 * A name's gender from its title or kinship term (`Chị Dậu`, `Thằng Dần`, `Mrs. Bennet`), a
 * Vietnamese middle name (Thị, Văn) or a given name of one gender (`Jane`, `Elizabeth Bennet`,
 * `Lan`: given-names.ts); null when it does not say (`Em Tí`, `Bác Ba`, `Darcy`).
 */
export function nameGender(name: string): Gender | null {
  const { title, gender } = splitTitle(name);
  if (title) return gender;
  const words = name.split(/\s+/);
  if (words.includes('Thị')) return 'female';
  if (words.includes('Văn')) return 'male';
  return givenNameGender(name);
}

/** A name as the cast shows it: leading clause words and lone pronouns dropped, capitalised. */
export function cleanName(raw: string | null): string | null {
  if (!raw) return null;
  const words = raw.trim().split(/\s+/);
  while (words.length > 0 && LEADING.has(words[0]!)) words.shift();
  if (words.length === 0) return null;
  if (words.length === 1 && PRONOUNS.has(words[0]!)) return null;
  // "Anh ấy", "Cô ta": a pronoun followed by lower case never reaches here (names are capitalised).
  if (PRONOUNS.has(words[0]!) && words.every((w) => PRONOUNS.has(w))) return null;
  const name = words.join(' ');
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * Capitalised words met inside sentences (after a lower-case word or a comma), that is names:
 * a sentence's first word is capitalised whatever it is, so `Dậu nói:` names Dậu only when the
 * book writes "Dậu" capitalised elsewhere too.
 */
export function namesInText(texts: readonly string[]): Set<string> {
  const names = new Set<string>();
  const inside = /[\p{Ll}\p{M},][ \t]+(\p{Lu}[\p{Ll}\p{M}'’-]*)/gu;
  for (const text of texts) {
    for (const match of text.matchAll(inside)) {
      if (!PRONOUNS.has(match[1]!) && !LEADING.has(match[1]!)) names.add(match[1]!);
    }
  }
  return names;
}

/**
 * The speaker a narration names before its closing colon (`Chị Dậu nói:`, `Trương tuần nhăn
 * mặt:`, `Thấy vậy, bà Tư bảo:`, `Ông Tham trợn mắt, lè lưỡi, nói:`): in the colon's sentence,
 * the last comma-separated clause that begins with a name (a title and a capitalised name, a
 * role such as `Lý trưởng`, or a capitalised word the book writes as a name elsewhere), leading
 * `Rồi`, `Khi`… dropped; null when no clause begins with one (`Rồi ngài lại dồn chị Dậu:`
 * names the one spoken to, not the speaker).
 */
export function colonSpeaker(text: string, known: ReadonlySet<string>): string | null {
  const trimmed = text.replace(/\s*:\s*$/u, '');
  if (trimmed === text.trimEnd()) return null;
  // Sentence ends, not the full stop of a title (`Mr. Darcy`).
  const sentence = trimmed.split(/(?<!(?:^|\s)(?:Mr|Mrs|Ms|Dr|St))[.!?…]+\s+/u).at(-1) ?? '';
  const clauses = sentence.split(/[,;]\s*/u).map((c) => c.trim().split(/\s+/u));
  const named = clauses.map((words) => nameAtStart(words, known));
  // `Ông Phủ, bà Phủ, ông Tham, bà Tham, giật mình quay lại:` lists several people: no one.
  if (named.filter((n, i) => n && n.split(' ').length >= clauses[i]!.length).length > 1) return null;
  return named.findLast((n) => n !== null) ?? null;
}

/** The name a clause's words begin with, or null. */
function nameAtStart(words: string[], known: ReadonlySet<string>): string | null {
  for (;;) {
    // One word (`Rồi`) or two (`Lúc ấy`, `Tự nhiên`) that start the clause before the name.
    const two = words.slice(0, 2).join(' ');
    if (words.length > 0 && (LEADING.has(words[0]!) || LEADING.has(capitalise(words[0]!)))) words.shift();
    else if (words.length > 2 && (LEADING.has(two) || LEADING.has(capitalise(two)))) words.splice(0, 2);
    else break;
  }
  if (words.length === 0) return null;
  const capitalRun = (from: number) => {
    let to = from;
    while (to < words.length && to - from < 3 && CAPITALISED.test(words[to]!)) to++;
    return words.slice(from, to);
  };
  const first = words[0]!.toLowerCase();
  const two = words.slice(0, 2).join(' ').toLowerCase();
  const three = words.slice(0, 3).join(' ').toLowerCase();
  if (VI_ROLES.includes(three)) return cleanName(words.slice(0, 3).join(' '));
  if (VI_ROLES.includes(two)) return cleanName(words.slice(0, 2).join(' '));
  if (first in VI_TITLES || first in EN_TITLES) {
    const run = capitalRun(1);
    if (run.length > 0) return cleanName([words[0]!, ...run].join(' '));
    const office = words[1];
    return office && first in VI_TITLES && VI_OFFICES.has(office) ? cleanName(`${words[0]} ${office}`) : null;
  }
  if (first === 'vợ') {
    const run = capitalRun(1);
    return run.length > 0 ? cleanName([words[0]!, ...run].join(' ')) : null;
  }
  const run = capitalRun(0);
  if (run.length > 0 && known.has(run[0]!) && !PRONOUNS.has(run[0]!)) {
    // `Văn Minh vợ cũng họa theo:` is the wife, `Văn Minh chồng nói:` the husband.
    const relation = words[run.length];
    return cleanName(relation && relation in SPOUSES ? [...run, relation].join(' ') : run.join(' '));
  }
  return null;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * One name for each person among a book's speakers, first heard first: names that differ only
 * by a title (`Chị Dậu`, `Dậu`; `Mr. Darcy`, `Darcy`) are one person, shown under the titled
 * name heard most, unless titles of both genders come with that name (`Chị Dậu`, `Anh Dậu`):
 * then each gender's names are one person and the name heard without a title (or with a title
 * of either gender) stays apart, rather than be given to the wrong one. Then a shorter name that
 * ends one longer name (`Mr. Darcy` of `Fitzwilliam Darcy`; `Ba` of `Nguyễn Văn Ba`) or starts
 * it, in English not after a family-name title (`Lady Catherine` of `Lady Catherine de Bourgh`),
 * in Vietnamese with the same kinship title on both (`Bà Phó` of `Bà Phó Đoan`), joins it when that is the only such name, the shorter one is one person's (not a
 * family's: `Mr. Bennet` and `Mrs. Bennet` stay apart from `Jane Bennet`) and no gender differs.
 */
export function mergeNames(heard: readonly string[], language = 'vi'): Map<string, string> {
  const vietnamese = language.toLowerCase().split(/[-_]/)[0] === 'vi';
  const counts = new Map<string, number>();
  for (const name of heard) counts.set(name, (counts.get(name) ?? 0) + 1);
  const groups = new Map<string, string[]>();
  for (const name of counts.keys()) {
    const { bare } = splitTitle(name);
    groups.set(bare, [...(groups.get(bare) ?? []), name]);
  }
  /** People: the names each goes by, their name without a title and their gender. */
  const people: { names: string[]; bare: string; gender: Gender | null }[] = [];
  for (const [bare, names] of groups) {
    const genders = new Set(names.map((n) => splitTitle(n).gender).filter((g) => g !== null));
    if (genders.size <= 1) {
      people.push({ names, bare, gender: [...genders][0] ?? nameGender(bare) });
      continue;
    }
    for (const g of genders)
      people.push({ names: names.filter((n) => splitTitle(n).gender === g), bare, gender: g });
    for (const n of names) {
      if (splitTitle(n).gender === null) people.push({ names: [n], bare, gender: null });
    }
  }
  const sharing = (bare: string) => people.filter((p) => p.bare === bare).length;
  const joined = new Map<(typeof people)[number], (typeof people)[number]>();
  const titlesOf = (p: (typeof people)[number]) => new Set(p.names.map((n) => splitTitle(n).title));
  for (const short of people) {
    const words = short.bare.split(/\s+/);
    const shortTitles = titlesOf(short);
    // Vietnamese puts the given name last, so a name starting a longer one is the same person only
    // when both are said with one kinship title (`Bà Phó` of `Bà Phó Đoan`; never a bare `Anh`).
    const mayStart = vietnamese
      ? !shortTitles.has(null)
      : short.names.every((n) => !FAMILY_NAME_TITLES.has(splitTitle(n).title ?? ''));
    const longer = people.filter((p) => {
      const long = p.bare.split(/\s+/);
      if (long.length <= words.length) return false;
      const ends = long.slice(-words.length).join(' ') === short.bare;
      const starts = long.slice(0, words.length).join(' ') === short.bare;
      // Said with the same kinship title (Vietnamese only; looked at only when the name starts it).
      const sameTitle = () => !vietnamese || [...titlesOf(p)].some((t) => t !== null && shortTitles.has(t));
      return ends || (mayStart && starts && sameTitle());
    });
    const [into] = longer;
    if (longer.length !== 1 || sharing(short.bare) !== 1) continue;
    if (short.gender && into!.gender && short.gender !== into!.gender) continue;
    joined.set(short, into!);
  }
  const canonical = new Map<string, string>();
  const root = (p: (typeof people)[number]) => {
    let at = p;
    for (let hops = 0; joined.has(at) && hops < people.length; hops++) at = joined.get(at)!;
    return at;
  };
  const members = new Map<(typeof people)[number], string[]>();
  for (const p of people) members.set(root(p), [...(members.get(root(p)) ?? []), ...p.names]);
  for (const names of members.values()) {
    const titled = names.filter((n) => splitTitle(n).title !== null);
    const shown = (titled.length > 0 ? titled : names).reduce((best, n) =>
      counts.get(n)! > counts.get(best)! ? n : best,
    );
    for (const n of names) canonical.set(n, shown);
  }
  return canonical;
}
