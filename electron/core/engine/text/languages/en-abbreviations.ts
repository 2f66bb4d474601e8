/**
 * English abbreviations and acronyms, as data, and the rules that read them: titles before a
 * name ("Dr. Smith"), street words after one ("Elm St." → "Elm Street", "Mulholland Dr."),
 * words before a number ("No. 5", "Fig. 3"), Latin and business abbreviations, and acronyms
 * eSpeak NG reads as a word where English spells them ("NYC" is read "nick", "ICU" "icky").
 * Acronyms English says as a word (NASA, NATO, UNESCO, COVID) eSpeak already reads as one.
 */

import { ROMAN_NUMERAL } from '../roman-numerals';
import { abbreviationRule, WORD_END, type AbbreviationEntry, type Rule, type RuleContext } from '../rule-kit';

/** The dictionary: each left side as written (with its full stop), what is said instead, and where. */
export const ENGLISH_ABBREVIATIONS: Readonly<Record<string, AbbreviationEntry>> = {
  // Titles: only before a capitalised name ("Dr. Smith"); eSpeak ends a sentence at their full stop.
  'Dr.': { say: 'Doctor', title: true },
  'Mr.': { say: 'Mister', title: true },
  // eSpeak reads "Mrs" /ˈmɪsɪz/ (a respelling "Missus" is heard /ˈmɪsəs/).
  'Mrs.': { say: 'Mrs', title: true },
  'Ms.': { say: 'Miz', title: true },
  'Prof.': { say: 'Professor', title: true },
  'St.': { say: 'Saint', title: true },
  // "(or ST. Louis) OF FRANCE": in capitals before a name too.
  'ST.': { say: 'Saint', title: true },
  'Mt.': { say: 'Mount', title: true },
  'Ft.': { say: 'Fort', title: true },
  'Gen.': { say: 'General', title: true },
  'Gov.': { say: 'Governor', title: true },
  'Sen.': { say: 'Senator', title: true },
  'Rep.': { say: 'Representative', title: true },
  'Pres.': { say: 'President', title: true },
  'Capt.': { say: 'Captain', title: true },
  'Col.': { say: 'Colonel', title: true },
  'Lt.': { say: 'Lieutenant', title: true },
  'Sgt.': { say: 'Sergeant', title: true },
  'Det.': { say: 'Detective', title: true },
  'Cpl.': { say: 'Corporal', title: true },
  'Adm.': { say: 'Admiral', title: true },
  'Rev.': { say: 'Reverend', title: true },
  'Hon.': { say: 'Honorable', title: true },
  'Fr.': { say: 'Father', title: true },
  // Before a number.
  'No.': { say: 'number', beforeDigit: true },
  'NO.': { say: 'Number', beforeDigit: true },
  'no.': { say: 'number', beforeDigit: true },
  'Nos.': { say: 'numbers', beforeDigit: true },
  'Fig.': { say: 'figure', beforeDigit: true },
  'fig.': { say: 'figure', beforeDigit: true },
  'Figs.': { say: 'figures', beforeDigit: true },
  'Vol.': { say: 'volume', beforeDigit: true },
  'vol.': { say: 'volume', beforeDigit: true },
  'Ch.': { say: 'chapter', beforeDigit: true },
  'ch.': { say: 'chapter', beforeDigit: true },
  'Sec.': { say: 'section', beforeDigit: true },
  'sec.': { say: 'section', beforeDigit: true },
  'p.': { say: 'page', beforeDigit: true },
  'pp.': { say: 'pages', beforeDigit: true },
  'Eq.': { say: 'equation', beforeDigit: true },
  'Art.': { say: 'article', beforeDigit: true },
  'Ex.': { say: 'example', beforeDigit: true },
  // "Lower numbers (ex. 1) represent …": an example given in passing.
  'ex.': { say: 'for example', beforeDigit: true },
  'Rm.': { say: 'room', beforeDigit: true },
  'Apt.': { say: 'apartment', beforeDigit: true },
  'Ste.': { say: 'suite', beforeDigit: true },
  'Hwy.': { say: 'highway', beforeDigit: true },
  'ext.': { say: 'extension', beforeDigit: true },
  'Ext.': { say: 'extension', beforeDigit: true },
  'Rte.': { say: 'route', beforeDigit: true },
  Hwy: { say: 'highway', beforeDigit: true },
  Rte: { say: 'route', beforeDigit: true },
  // A hurricane's category ("Cat. 2", "Cat 4").
  'Cat.': { say: 'Category', beforeDigit: true },
  Cat: { say: 'Category', beforeDigit: true },
  // After a name, or ending a sentence.
  'Jr.': { say: 'Junior', canEnd: true },
  Jr: { say: 'Junior', canEnd: true },
  'Sr.': { say: 'Senior', canEnd: true },
  'Inc.': { say: 'Incorporated', canEnd: true },
  'Ltd.': { say: 'Limited', canEnd: true },
  'Corp.': { say: 'Corporation', canEnd: true },
  Corp: { say: 'Corporation', canEnd: true },
  'Co.': { say: 'Company', canEnd: true },
  'Bros.': { say: 'Brothers', canEnd: true },
  'Dept.': { say: 'Department', canEnd: true },
  'Univ.': { say: 'University', canEnd: true },
  'Ave.': { say: 'Avenue', canEnd: true },
  'Rd.': { say: 'Road', canEnd: true },
  'Blvd.': { say: 'Boulevard', canEnd: true },
  'Ln.': { say: 'Lane', canEnd: true },
  'Pl.': { say: 'Place', canEnd: true },
  'Sq.': { say: 'Square', canEnd: true },
  'Hts.': { say: 'Heights', canEnd: true },
  'Pkwy.': { say: 'Parkway', canEnd: true },
  'Ct.': { say: 'Court', canEnd: true },
  'etc.': { say: 'et cetera', canEnd: true },
  etc: { say: 'et cetera' },
  'et al.': { say: 'and others', canEnd: true },
  'Ph.D.': { say: 'PhD', canEnd: true },
  // Anywhere.
  'vs.': { say: 'versus' },
  vs: { say: 'versus' },
  'v.': { say: 'versus', title: true },
  // A court case: "U.S. v Langford", "Roe v Wade".
  v: { say: 'versus', title: true },
  // Court names in law reports: "Dist. Ct." District Court.
  'Dist.': { say: 'District', title: true },
  // Forms and lists: "Background: N/A", "T-shirt included w/ registration".
  'N/A': { say: 'not applicable' },
  'w/': { say: 'with' },
  'w/o': { say: 'without' },
  'and/or': { say: 'and or' },
  // Pronouns either way: "he or she" (a slash between other words is not said: en-reading's
  // slashBetweenWords).
  'he/she': { say: 'he or she' },
  'she/he': { say: 'she or he' },
  'him/her': { say: 'him or her' },
  'his/her': { say: 'his or her' },
  'his/hers': { say: 'his or hers' },
  // Timetables: "First Bus S/bound", "N/Bound".
  ...Object.fromEntries(
    Object.entries({ N: 'North', S: 'South', E: 'East', W: 'West' }).flatMap(([letter, point]) =>
      ['bound', 'Bound'].map((bound) => [`${letter}/${bound}`, { say: `${point}bound` }]),
    ),
  ),
  // A prescription: "your Rx number", "Rx#".
  Rx: { say: 'R X' },
  // Cricket: "won by 6 wkts".
  wkts: { say: 'wickets' },
  wkt: { say: 'wicket' },
  // Weather forecasts: "Sct'd downpours", "Iso. storms".
  "Sct'd": { say: 'Scattered' },
  "sct'd": { say: 'scattered' },
  WWII: { say: 'World War Two' },
  WWI: { say: 'World War One' },
  'e.g.': { say: 'for example' },
  'i.e.': { say: 'that is' },
  'cf.': { say: 'compare' },
  'approx.': { say: 'approximately' },
  // Tables: "Avg number of days", "avg. speed".
  Avg: { say: 'Average' },
  'Avg.': { say: 'Average' },
  avg: { say: 'average' },
  'avg.': { say: 'average' },
  // A manual's "(a.s.o.)": and so on.
  'a.s.o.': { say: 'and so on', canEnd: true },
  'Approx.': { say: 'Approximately' },
  approx: { say: 'approximately' },
  Min: { say: 'Minimum', beforeDigit: true },
  // Opening hours: "8:30am – 4:30pm, M-F".
  'M-F': { say: 'Monday to Friday' },
  'Mon-Fri': { say: 'Monday to Friday' },
  FMI: { say: 'for more information' },
  // the motoring club and the credit rating, said so
  AAA: { say: 'Triple A' },
  // The weather agency, said as a word (the readers of sets 12 and 16).
  NOAA: { say: 'Noah' },
  // an adjustable-rate mortgage, and the chip maker: said as the word
  ARM: { say: 'Arm' },
  // accounting principles, said as a word ("GAAP diluted earnings per share")
  GAAP: { say: 'Gap' },
  // the telephone company: its "AT" spelt, not the word "at"
  'AT&T': { say: 'A.T and T' },
  // the operating system, its last two letters spelt
  macOS: { say: 'Mac O S' },
  MacOS: { say: 'Mac O S' },
  'est.': { say: 'established', beforeDigit: true },
  'Est.': { say: 'established', beforeDigit: true },
  'ca.': { say: 'circa', beforeDigit: true },
  'c.': { say: 'circa', beforeDigit: true },
};

/**
 * Street words read as the street after a capitalised name ("Elm St.", "Mulholland Dr.",
 * "Arques Ave", "San Tomas hwy"): with their full stop (the dictionary's) or without one.
 */
const AFTER_NAME: Readonly<Record<string, string>> = {
  'St.': 'Street',
  St: 'Street',
  'Dr.': 'Drive',
  Dr: 'Drive',
  'Mt.': 'Mount',
  Ave: 'Avenue',
  ave: 'Avenue',
  Blvd: 'Boulevard',
  blvd: 'Boulevard',
  Ct: 'Court',
  Hwy: 'Highway',
  hwy: 'Highway',
  Rd: 'Road',
  Ln: 'Lane',
  Pkwy: 'Parkway',
  pkwy: 'Parkway',
  Sq: 'Square',
  Pl: 'Place',
  Cir: 'Circle',
};
/** A street's word, abbreviated or in full ("St", "Street", "Ave.", "Avenue", "Way"); not a mountain's. */
const STREET_WORD_OR_NAME = `${[...new Set([...Object.keys(AFTER_NAME), ...Object.values(AFTER_NAME)])]
  .filter((w) => w !== 'Mount' && w !== 'Mt.')
  .map((w) => w.replace('.', '\\.'))
  .join('|')}|Way|Terrace|Ter`;

/**
 * What follows a number in an address: a compass point, one to three capitalised words and a
 * street word ("1211 E Arques Ave", "123 Laguna Ct", "2 San Tomas hwy").
 */
export const STREET_AHEAD = new RegExp(
  `^(?:[ \u00A0](?:[NSEW]|NE|NW|SE|SW)\\.?)?(?:[ \u00A0]\\p{Lu}[\\p{L}'’-]*){1,3}[ \u00A0](?:${STREET_WORD_OR_NAME})(?![\\p{L}\\p{N}])`,
  'u',
);

/** Capitalised words that open a sentence more often than a name: after "N." or "J.S." they begin a new sentence. */
const SENTENCE_OPENER =
  '(?:The|Then|There|This|That|These|They|He|She|It|In|On|At|But|And|So|His|Her|Its|Their|We|A|An|If|When|After|Before|As|For)(?![\\p{L}])';

/**
 * What follows a house number when no street word ends the address: a compass point with its
 * full stop and a capitalised name ("111 N. Burnett", "4501 W. Main"); not a country or state
 * named after a compass point ("250 N. Korean troops", "S. Carolina"), nor a new sentence ("10 N. Then").
 */
export const COMPASS_NAME_AHEAD = new RegExp(
  `^[ \u00A0](?:[NSEW]|NE|NW|SE|SW)\\.[ \u00A0](?!Korea|Carolina|Dakota|Africa|Sudan|Ireland|Macedonia|America|Asia|${SENTENCE_OPENER})\\p{Lu}\\p{Ll}`,
  'u',
);

/** The street words of `AFTER_NAME` written without a full stop, for the pattern, and their first letters (a cheap look-ahead). */
const STREET_WORDS = Object.keys(AFTER_NAME)
  .filter((k) => !k.endsWith('.'))
  .join('|');
const STREET_INITIALS = [...new Set(STREET_WORDS.split('|').map((w) => w.charAt(0)))].join('');

/** Saints' names after "St" (Saint): "St Louis", "St John's", "St Petersburg". */
const SAINT_AHEAD =
  /^[ \u00A0]+(?:Louis|Paul|John|Mary|Peter|James|Andrew|Patrick|George|Francis|Augustine|Lucia|Kitts|Vincent|Helena|Albans|Ives|Moritz|Tropez|Lawrence|Cloud|Joseph|Thomas|Michael|Mark|Luke|Matthew|Anne|Catherine|Margaret|Nicholas|Pancras|Clair|Charles|Bernard|David|Stephen|Martin|Jude|Bart|Pete|Jean|Pierre|Denis|Germain|Kilda|Leonard|Anthony|Benedict|Clement|Edmund|Giles|Hilda|Luke|Neots|Austell|Agnes|Brigid|Cuthbert|Dominic|Elizabeth|Gregory|Ignatius|Jerome|Joan|Jose|Mungo|Olaf|Oswald|Raphael|Rose|Simon|Teresa|Valentine|Xavier)(?![\p{Ll}])/u;
/** A street's name before its street word: a capitalised word, not a possessive ("Piccone’s St. Paul bungalow"), or "5th". */
const NAME_BEFORE = /(?:\p{Lu}[\p{L}'’-]*(?<!['’]s)|\d(?:st|nd|rd|th))[ \u00A0]+$/u;

const dictionaryRule = abbreviationRule(ENGLISH_ABBREVIATIONS);

/**
 * Labels before a number, with or without their full stop and a colon: "Phone No.: 318…" number,
 * "No.2" number two, "tel: 318-998-3037" / "Tel. 555…" telephone, "vol 12" volume.
 */
const LABELS: Readonly<Record<string, string>> = { no: 'number', tel: 'telephone', vol: 'volume' };

/**
 * Labels before a number (`LABELS`), the dictionary, and "St." / "Dr." after a name: a title before a name ("St. Louis", "Dr.
 * Smith") is Saint / Doctor; after one and not before one ("Elm St.", "Mulholland Dr.") it is
 * the street. The full stop is kept where a new sentence follows.
 */
export const englishAbbreviationRule: Rule = {
  name: 'abbreviation',
  pattern: `(?=[NTtVv])(?<![\\p{L}\\p{N}.])(No\\.(?=:[ \u00A0]*\\p{N}|\\p{N})|(?:Tel|tel|TEL|Vol|vol|VOL)\\.?(?=:?[ \u00A0]*\\p{N}))|(?=[A-Za-z])(?:${dictionaryRule.pattern})|(?=[${STREET_INITIALS}])(?<=[ \u00A0])(?:${STREET_WORDS})${WORD_END}(?<=(?:\\p{Lu}\\p{L}*|\\d(?:st|nd|rd|th))[ \u00A0]+\\p{L}+)|(?=No)(?<=(?<![\\p{L}])(?:the|a|The|A)[ \u00A0]+)No(?=[ \u00A0]+\\p{N})`,
  rewrite(groups, ctx) {
    const whole = groups[0];
    if (!whole) return undefined;
    // "the No 1 seed", "a No 2 hit": number, written without its full stop.
    if (whole === 'No') return 'number';
    const label = groups[1];
    // "No.2 Genoa": a space between the word and the number written without one.
    if (label !== undefined)
      return `${LABELS[label.replace('.', '').toLowerCase()]}${/\p{N}/u.test(ctx.input.charAt(ctx.end)) ? ' ' : ''}`;
    const street = AFTER_NAME[whole];
    const before = ctx.input.slice(Math.max(0, ctx.index - 24), ctx.index);
    const after = ctx.input.slice(ctx.end, ctx.end + 3);
    // Before a capitalised word it is a title ("Then Dr. Smith") unless the name before it is
    // inside a sentence ("on Mulholland Dr. Then"): a name that opens a sentence is not a street's.
    const nameBefore = NAME_BEFORE.exec(before);
    const insideSentence =
      nameBefore !== null && /[\p{Ll}\p{N},][ \u00A0]+$/u.test(before.slice(0, nameBefore.index));
    const beforeAName = /^[ \u00A0]+\p{Lu}\p{Ll}/u.test(after);
    // "St" with no full stop before a capitalised word that is no saint's name: "Monroe St Closure".
    const streetBeforeAWord = whole === 'St' && !SAINT_AHEAD.test(ctx.input.slice(ctx.end, ctx.end + 16));
    if (street && nameBefore && (insideSentence || !beforeAName || streetBeforeAWord)) {
      if (!whole.endsWith('.')) return street;
      const rest = /^[ \t\u00A0]*(.)?/su.exec(ctx.input.slice(ctx.end, ctx.end + 8))?.[1];
      return rest === undefined || rest === '\n' || /\p{Lu}/u.test(rest) ? `${street}.` : street;
    }
    return dictionaryRule.rewrite(groups, ctx);
  },
};

const DATELINE_TITLES: Readonly<Record<string, string>> = { ST: 'Saint', MT: 'Mount', FT: 'Fort' };

/**
 * "ST. PAUL, Minn. (WCCO) –", "FT. WORTH, Texas", "MINNEAPOLIS / ST. PAUL": a title in capitals
 * opening a line, or its second city, before a city in capitals.
 */
export const datelineTitleRule: Rule = {
  name: 'abbreviation',
  pattern: `(?=[SMF]T\\.)(?<=(?:^|\\n)[ \\t]*(?:\\p{Lu}{2,}[ \u00A0]*[/–-][ \u00A0]*)?)([SMF]T)\\.(?=[ \u00A0]+\\p{Lu}{2})`,
  rewrite([whole, title]) {
    return whole && title ? DATELINE_TITLES[title] : undefined;
  },
};

/**
 * Acronyms eSpeak reads as a word where English spells them out (measured: "NYC" is "nick",
 * "ICU" "icky", "LED" "led", "FAQ" "fack", "EPA" "eppa"). Read with a full stop between the
 * letters, which eSpeak spells ("U.A.E").
 */
export const ENGLISH_SPELT_ACRONYMS: ReadonlySet<string> = new Set(
  'UAE IOU ICU ER BA MA PA NYC NY NJ DC FAQ IQ DEA EPA LED IRA RSVP PTA PTO DIY GOP USDA'.split(' '),
);

/** Capitals English never says as a word: no vowel letter (AEIOU) and at least two letters ("NYC", "BBC", "HTML"). */
const SPELT_BY_SHAPE = /^[B-DF-HJ-NP-TV-Z]{2,5}$/u;

/**
 * Capitals said as a word, not spelt, in a text of mixed case: English words written in capitals
 * for emphasis ("I said NO"), and acronyms English reads as a word (NASA, NATO, COVID).
 */
export const ENGLISH_WORD_ACRONYMS: ReadonlySet<string> = new Set(
  (
    'OK NO GO SO OH HI AH UH UM WE ME HE BE DO TO IN ON OR AN AT IS AS UP OF IF MY BY US IT ' +
    'YES THE AND BUT FOR NOT YOU ALL ARE WAS HAS HAD HIS HER SHE OUR OUT NOW NEW BIG TOP WOW HEY ' +
    'YAY BOO WHY HOW ANY ONE TWO TEN GOD MAN MEN GET GOT LET SEE SAY SAW BAD END OFF OLD OWN ' +
    'GIF RAM ROM PIN ZIP SIM LAN WAN CAD DOS PAC TED MAX PRO AIR MINI PLUS FOX ' +
    'NASA NATO COVID UNESCO UNICEF FEMA OPEC NAFTA SWAT AIDS FIFA SCUBA LASER RADAR NASCAR ASEAN ' +
    'IKEA AWOL ASAP ISIS IMAX OSHA HUD NIMBY YOLO SARS MERS GIFS JPEG PAYE TESOL TOEFL'
  ).split(' '),
);

/** Pairs of consonants an English word can begin with: capitals that begin otherwise are spelt ("NCAA"). */
const WORD_ONSET =
  /^(?:[AEIOU]|[B-DF-HJ-NP-TV-Z][AEIOUY]|BL|BR|CH|CL|CR|DR|FL|FR|GL|GR|KN|PH|PL|PR|SC|SH|SK|SL|SM|SN|SP|ST|SW|TH|TR|TW|WH|WR)/u;

/**
 * Consonants an English word can end with after its last vowel (a plural "S" aside): capitals
 * ending otherwise cannot be said as a word and are spelt ("AAPL", "GOOGL", "AMZN", "INTC");
 * NASDAQ, SWAT, NATO, UNESCO end well.
 */
const WORD_CODA =
  /(?:^|[AEIOUY])(?:[B-DF-HJ-NP-TV-Z]|CH|CK|CT|DTH|FF|FT|FTH|GH|GHT|LB|LCH|LD|LF|LK|LL|LM|LP|LT|LTH|LTZ|MB|MN|MP|MPT|NC|NCH|NCT|ND|NG|NGST|NGTH|NK|NN|NT|NTH|PH|PT|PTH|RB|RC|RCH|RD|RLD|RF|RG|RK|RL|RM|RMTH|RN|RP|RSH|RST|RT|RTH|RTZ|SC|SH|SK|SP|SS|ST|TCH|TH|TT|TZ|WL|WN|XT|XTH|ZZ)?S?$/u;

/** A Roman numeral, left to the Roman numeral rule and eSpeak ("MIX", "XIV"). */
const ROMAN_ONLY = new RegExp(`^(?:${ROMAN_NUMERAL})$`, 'u');

/**
 * Whether capitals in a text of mixed case are an acronym to spell: two or three letters
 * ("DNA", "MRI", "WHO" the organisation), or four and more that cannot begin or end an English word or
 * end in a doubled vowel ("NCAA"), unless said as a word or a Roman numeral.
 */
function spelledInMixedCase(bare: string): boolean {
  if (ENGLISH_WORD_ACRONYMS.has(bare) || ROMAN_ONLY.test(bare)) return false;
  if (bare.length <= 3) return true;
  return !WORD_ONSET.test(bare) || !WORD_CODA.test(bare) || /([AEIOU])\1$/u.test(bare);
}

/** Whether the line around a match has a lower-case letter (a headline in capitals is left to eSpeak). */
function inMixedCaseLine(ctx: RuleContext): boolean {
  const left = ctx.input.slice(Math.max(0, ctx.index - 120), ctx.index);
  const right = ctx.input.slice(ctx.end, ctx.end + 120);
  const lineLeft = left.slice(left.lastIndexOf('\n') + 1);
  const newline = right.indexOf('\n');
  return /\p{Ll}/u.test(lineLeft) || /\p{Ll}/u.test(newline < 0 ? right : right.slice(0, newline));
}

/** Capital words opening a line, before the words after them and the comma, dash or bracket that ends a dateline. */
const DATELINE_LEFT = /(?:^|\n)[ \t]*((?:\p{Lu}[\p{Lu}.'’-]*[ \u00A0]+)*)$/u;
const DATELINE_RIGHT = /^\.?((?:[ \u00A0]+\p{Lu}[\p{Lu}.'’-]*)*)(?:,|[ \u00A0]+\(|[ \u00A0]+[—–-])/u;

/**
 * Whether capitals are a city in capitals opening a dateline ("LOS ANGELES, Calif. (AP) —",
 * "ST. PAUL, Minn.", "NEW YORK (AP) —"): two capital words at least, or one of four letters or
 * more, said as words ("UN, EU leaders" at the start of a line are still spelt).
 */
function inDateline(ctx: RuleContext): boolean {
  const left = DATELINE_LEFT.exec(ctx.input.slice(Math.max(0, ctx.index - 40), ctx.index));
  const right = left ? DATELINE_RIGHT.exec(ctx.input.slice(ctx.end, ctx.end + 40)) : null;
  if (!left || !right) return false;
  if (`${left[1]}${right[1]}`.trim() !== '' || ctx.end - ctx.index >= 4) return true;
  // One short word said as a word (a consonant, a vowel: "JAY —") before a dash, not a known acronym, is a town.
  return (
    /^[ \u00A0]+—/u.test(right[0].slice((right[1] ?? '').length)) &&
    /^[B-DF-HJ-NP-TV-Z][AEIOU][B-DF-HJ-NP-TV-Z]\p{Lu}*$/u.test(ctx.input.slice(ctx.index, ctx.end)) &&
    !ENGLISH_SPELT_ACRONYMS.has(ctx.input.slice(ctx.index, ctx.end))
  );
}

/** A capital word of four letters or more with a vowel, next to another such word ("FREE SUMMER CONCERT SERIES"). */
const CAPITAL_WORD = /^\p{Lu}*[AEIOUY]\p{Lu}*$/u;
const CAPITAL_WORD_BEFORE = /(?:^|[^\p{L}])(\p{Lu}{4,})[ \u00A0]+$/u;
const CAPITAL_WORD_AFTER = /^[ \u00A0]+(\p{Lu}{4,})(?![\p{L}])/u;

/** Whether capitals are words in a run of capital words, as a heading inside a line ("FREE SUMMER CONCERT SERIES: The Town"). */
function inCapitalWords(ctx: RuleContext, bare: string): boolean {
  // A word of three letters is one there only in a word's shape ("SAN JUAN", "RED BALL POINT PEN").
  const short = bare.length === 3 && /^[B-DF-HJ-NP-TV-Z][AEIOU][B-DF-HJ-NP-TV-Z]$/u.test(bare);
  if ((bare.length < 4 && !short) || !CAPITAL_WORD.test(bare) || ENGLISH_SPELT_ACRONYMS.has(bare))
    return false;
  const left = CAPITAL_WORD_BEFORE.exec(ctx.input.slice(Math.max(0, ctx.index - 24), ctx.index))?.[1];
  const right = CAPITAL_WORD_AFTER.exec(ctx.input.slice(ctx.end, ctx.end + 24))?.[1];
  return [left, right].some((w) => w !== undefined && CAPITAL_WORD.test(w) && !ENGLISH_SPELT_ACRONYMS.has(w));
}

const CAPITALS_BEFORE = /(?:^|[^\p{L}])\p{Lu}{2,}[,:;]?[ \u00A0]+$/u;
const CAPITALS_AFTER = /^[,:;]?[ \u00A0]+\p{Lu}{2,}(?![\p{L}])/u;

/** Whether a word has a word of capitals next to it: a heading or a legal line in capitals ("BE IT RESOLVED"). */
function besideCapitalWords(ctx: RuleContext): boolean {
  return (
    CAPITALS_BEFORE.test(ctx.input.slice(Math.max(0, ctx.index - 24), ctx.index)) ||
    CAPITALS_AFTER.test(ctx.input.slice(ctx.end, ctx.end + 24))
  );
}

/**
 * A spelt acronym as eSpeak says each letter: apart ("IRS" → "I R S"; joined by full stops
 * eSpeak links an R to the next letter, "I.R.S" is heard "ar-ress"), but an "A" joined to a
 * letter beside it by a full stop, since a lone "A" is read as the article ("DNA" → "D N.A",
 * "AP" → "A.P"). A plural "CEOs" → "C E O's".
 */
export function spellAcronym(word: string): string {
  const plural = word.endsWith('s');
  const letters = [...(plural ? word.slice(0, -1) : word)];
  let out = '';
  letters.forEach((letter, i) => {
    if (i > 0) out += letter === 'A' || (i === 1 && letters[0] === 'A') ? '.' : ' ';
    out += letter;
  });
  return `${out}${plural ? "'s" : ''}`;
}

/** The words before an opening bracket on the same line ("Phillips Area Community Center ("). */
const WORDS_BEFORE_BRACKET = /([\p{L}&'’ \u00A0-]+)\([ \u00A0]*$/u;
/** Small words left out of an acronym's letters ("Bureau of Economic Analysis" → BEA). */
const NOT_IN_INITIALS = new Set(['of', 'and', 'for', 'the', 'on', 'in', 'to', '&']);

/**
 * Whether capitals in brackets are the initials of the capitalised words just before them,
 * so an acronym being introduced: "Phillips Area Community Center (PACC)", "Bureau of Economic
 * Analysis (BEA)".
 */
function introducedAcronym(ctx: RuleContext, bare: string): boolean {
  const words = WORDS_BEFORE_BRACKET.exec(ctx.input.slice(Math.max(0, ctx.index - 120), ctx.index))?.[1];
  if (words === undefined) return false;
  let initials = '';
  for (const word of words
    .trim()
    .split(/[ \u00A0-]+/u)
    .reverse()) {
    if (initials.length === bare.length) break;
    if (NOT_IN_INITIALS.has(word)) continue;
    if (!/^\p{Lu}/u.test(word)) return false;
    initials = `${word.charAt(0)}${initials}`;
  }
  return initials === bare;
}

/** Consonants between two vowels that can open an English syllable: one, or a pair a word can begin with ("OGLE", not "USDA"). */
const MEDIAL_CONSONANTS = /[AEIOUY]([B-DF-HJ-NP-TV-XZ]{2,})(?=[AEIOUY])/gu;

/**
 * Whether an acronym being introduced is said as a word: four letters or more that an English
 * word could begin and end with, and whose consonants between vowels open a syllable ("Optical
 * Gravitational Lensing Experiment (OGLE)", "(TESS)"; "(USDA)", "(PACC)", "(BEA)" are spelt).
 */
function saidAsAWord(bare: string): boolean {
  if (bare.length < 4 || spelledInMixedCase(bare)) return false;
  for (const [, cluster] of bare.matchAll(MEDIAL_CONSONANTS))
    if (!WORD_ONSET.test(cluster as string) || (cluster as string).length > 2) return false;
  return true;
}

/** Brackets holding only capitals around a word ("(WCCO)", "(CNN, WIAT)", "(AP/KSTP)"). */
const CAPITALS_BRACKET_BEFORE = /\((?:\p{Lu}{2,5}[,/][ \u00A0]?)*$/u;
const CAPITALS_BRACKET_AFTER = /^(?:[,/][ \u00A0]?\p{Lu}{2,5})*\)/u;

/** A broadcaster's call sign (W or K and three letters) in brackets of capitals, after a dateline or in a credit: spelt ("(CNN, WIAT)"). */
function isCallSign(ctx: RuleContext, bare: string): boolean {
  return (
    /^[WK]\p{Lu}{3}$/u.test(bare) &&
    !ENGLISH_WORD_ACRONYMS.has(bare) &&
    CAPITALS_BRACKET_BEFORE.test(ctx.input.slice(Math.max(0, ctx.index - 24), ctx.index)) &&
    CAPITALS_BRACKET_AFTER.test(ctx.input.slice(ctx.end, ctx.end + 24))
  );
}

/** "KARE-TV", "WCCO-FM", "KSTP-TV": a call sign with its band is spelt, the hyphen silent. */
export const callSignBandRule: Rule = {
  name: 'acronym',
  pattern: `(?=[WK])(?<![\\p{L}\\p{N}_.&'’-])([WK]\\p{Lu}{2,3})-(TV|FM|AM|DT|LD)(?![\\p{L}\\p{N}])`,
  rewrite([whole, sign, band]) {
    return whole && sign && band ? `${spellAcronym(sign)} ${spellAcronym(band)}` : undefined;
  },
};

/**
 * Acronyms spelt letter by letter (`spellAcronym`): "NYC" → "N Y C", "DNA" → "D N.A"; capitals
 * in brackets after the words they are the initials of ("Phillips Area Community Center (PACC)").
 */
export const englishAcronymRule: Rule = {
  name: 'acronym',
  pattern: `(?=\\p{Lu})(?<![\\p{L}\\p{N}_.&'’-])\\p{Lu}{2,5}s?(?![\\p{L}\\p{N}_&]|[.'’-]\\p{L})`,
  rewrite([whole], ctx) {
    if (!whole) return undefined;
    // "RECOMMEND TO COUNCIL", "WALK IT OUT": a short English word among capital words is the word
    // (in capitals eSpeak stresses "TO" and spells "IT").
    if (ENGLISH_WORD_ACRONYMS.has(whole) && whole.length <= 3 && besideCapitalWords(ctx))
      return whole.toLowerCase();
    if (inDateline(ctx)) return undefined;
    const bare = whole.endsWith('s') ? whole.slice(0, -1) : whole;
    if (inCapitalWords(ctx, whole)) return undefined;
    if (ENGLISH_SPELT_ACRONYMS.has(bare) || SPELT_BY_SHAPE.test(bare)) return spellAcronym(whole);
    if (isCallSign(ctx, bare)) return spellAcronym(whole);
    if (!ENGLISH_WORD_ACRONYMS.has(bare) && introducedAcronym(ctx, bare))
      return saidAsAWord(bare) ? undefined : spellAcronym(whole);
    return spelledInMixedCase(bare) && inMixedCaseLine(ctx) ? spellAcronym(whole) : undefined;
  },
};

/**
 * "NASA’s", "the FBI’s report": eSpeak drops the "’s" of capitals, so a word acronym is given as a
 * word ("Nasa’s") and a spelt one letter by letter, its "’s" kept.
 */
export const englishPossessiveAcronymRule: Rule = {
  name: 'acronym',
  pattern: `(?=\\p{Lu})(?<![\\p{L}\\p{N}_.&'’-])\\p{Lu}{2,5}(?=['’]s(?![\\p{L}\\p{N}]))`,
  rewrite([whole], ctx) {
    if (!whole || inCapitalWords(ctx, whole) || inDateline(ctx)) return undefined;
    if (ENGLISH_WORD_ACRONYMS.has(whole) && whole.length >= 4)
      return whole.charAt(0) + whole.slice(1).toLowerCase();
    const spelt =
      ENGLISH_SPELT_ACRONYMS.has(whole) ||
      SPELT_BY_SHAPE.test(whole) ||
      (spelledInMixedCase(whole) && inMixedCaseLine(ctx));
    return spelt ? spellAcronym(whole) : undefined;
  },
};

const COMPASS_POINTS: Readonly<Record<string, string>> = {
  N: 'North',
  S: 'South',
  E: 'East',
  W: 'West',
  NE: 'Northeast',
  NW: 'Northwest',
  SE: 'Southeast',
  SW: 'Southwest',
  NNE: 'North-northeast',
  ENE: 'East-northeast',
  ESE: 'East-southeast',
  SSE: 'South-southeast',
  SSW: 'South-southwest',
  WSW: 'West-southwest',
  WNW: 'West-northwest',
  NNW: 'North-northwest',
};

const COMPASS_POINT = Object.keys(COMPASS_POINTS)
  .sort((a, b) => b.length - a.length)
  .join('|');

/** "a N-NW wind", "N-NE winds": two compass points between which a wind blows, both said. */
export const englishCompassPairRule: Rule = {
  name: 'abbreviation',
  pattern: `(?=[NSEW])(?<![\\p{L}\\p{N}_.&'’-])(${COMPASS_POINT})-(${COMPASS_POINT})(?=[ \u00A0]+winds?(?![\\p{L}]))`,
  rewrite: ([whole, a, b]) =>
    whole && a && b ? `${COMPASS_POINTS[a] as string} ${COMPASS_POINTS[b] as string}` : undefined,
};

/** A numbered street and its street word after a compass point: "S 12th Street", "N 5th Ave". */
const NUMBERED_STREET_AHEAD = new RegExp(
  `^[ \u00A0]+\\d+(?:st|nd|rd|th)[ \u00A0]+(?:${STREET_WORD_OR_NAME})(?![\\p{L}\\p{N}])`,
  'u',
);
/** Streets known without a street word after a compass point: "N. Broadway", "S. Main", "N. 2nd". */
const KNOWN_STREET_AHEAD = /^[ \u00A0]+(?:Broadway|Main|\d+(?:st|nd|rd|th))(?![\p{L}\p{N}])/u;
/** A capitalised name or an initial before a letter and its full stop: a middle initial ("George W. Bush", "J. R. R."). */
const INITIAL_OR_NAME_BEFORE = /(?:^|[^\p{L}])\p{Lu}[\p{L}'’-]*\.?[ \u00A0]+$/u;

/** Where a compass point is a direction: after "the" ("from the NW", "out of the S"). */
const COMPASS_BEFORE = /(?:^|[^\p{L}])(?:the|winds?:?)[ \u00A0]+$/iu;
/** Before "wind(s)" ("NE winds"), or a street name after a house number ("1211 E Arques Ave"). */
const COMPASS_AFTER = /^[ \u00A0]+winds?(?![\p{L}])/iu;

/**
 * Acronyms, and compass points where the context makes them directions ("winds from the NW" →
 * "Northwest", "NE winds", "1211 E Arques Ave" → "East"); elsewhere a compass point is an
 * acronym like any other.
 */
/** A longitude after a latitude's N or S ("28.6 N, 86.9 W"), and a latitude before a longitude's E or W. */
const LONGITUDE_AFTER = /^,?[ \u00A0]+\d{1,3}\.\d+°?[ \u00A0]?[EW](?![\p{L}])/u;
const LATITUDE_BEFORE = /\d\.\d+°?[ \u00A0]?[NS],?[ \u00A0]+\d{1,3}\.\d+°?[ \u00A0]?$/u;

export const englishCompassRule: Rule = {
  name: 'abbreviation',
  pattern: `(?=[NSEW])(?<![\\p{L}\\p{N}_.&'’-])(?:(?:[NSEW]|NE|NW|SE|SW)\\.(?=[ \u00A0]\\p{Lu}\\p{Ll}|[ \u00A0]\\d+(?:st|nd|rd|th)[ \u00A0])|(?:${COMPASS_POINT})(?![\\p{L}\\p{N}_&]|[.'’-]\\p{L}))`,
  rewrite(groups, ctx) {
    const whole = groups[0];
    if (!whole) return undefined;
    // With its full stop after a house number: "111 N. Burnett" one eleven North Burnett; with
    // none, before a street ("W. Henry St.", "to N. Broadway"), not a middle initial ("George W. Bush").
    if (whole.endsWith('.')) {
      const point = COMPASS_POINTS[whole.slice(0, -1)] as string;
      const afterNumber = /\p{N}[ \u00A0]$/u.test(ctx.input.slice(Math.max(0, ctx.index - 2), ctx.index));
      const streetAhead = STREET_AHEAD.test(` ${ctx.input.slice(ctx.index, ctx.index + 80)}`);
      const aStreet = afterNumber
        ? streetAhead || COMPASS_NAME_AHEAD.test(ctx.input.slice(ctx.index - 1, ctx.end + 16))
        : !INITIAL_OR_NAME_BEFORE.test(ctx.input.slice(Math.max(0, ctx.index - 24), ctx.index)) &&
          (streetAhead || KNOWN_STREET_AHEAD.test(ctx.input.slice(ctx.end, ctx.end + 24)));
      return aStreet ? { out: point, name: 'abbreviation' } : undefined;
    }
    const before = ctx.input.slice(Math.max(0, ctx.index - 12), ctx.index);
    const after = ctx.input.slice(ctx.end, ctx.end + 80);
    // After a house number, before a name or a numbered street ("225 NW 27th Ave."); before a
    // numbered street and its street word ("(S 12th Street)").
    const inAddress =
      STREET_AHEAD.test(after) ||
      NUMBERED_STREET_AHEAD.test(after) ||
      (/\p{N}[ \u00A0]+$/u.test(before) &&
        /^[ \u00A0]+(?:\p{Lu}\p{Ll}|\d+(?:st|nd|rd|th)(?!\p{L}))/u.test(after));
    // "4km SW of East Shore": a distance's direction from a place.
    // "4.2 Earthquake SE of Volcano": before "of" and a place's name.
    const fromPlace =
      (/\d[ \u00A0]?(?:km|mi|miles?|kilometers?|kilometres?|m|ft|feet)[ \u00A0]+$/u.test(before) &&
        /^[ \u00A0]+of(?![\p{L}])/u.test(after)) ||
      /^[ \u00A0]+of[ \u00A0]+\p{Lu}\p{Ll}/u.test(after);
    // "28.6 N, 86.9 W": a latitude and a longitude, each in degrees with a decimal.
    const coordinate =
      whole === 'N' || whole === 'S'
        ? /\d\.\d+°?[ \u00A0]?$/u.test(before) && LONGITUDE_AFTER.test(after)
        : (whole === 'E' || whole === 'W') &&
          LATITUDE_BEFORE.test(ctx.input.slice(Math.max(0, ctx.index - 32), ctx.index));
    if (inAddress || fromPlace || coordinate || COMPASS_BEFORE.test(before) || COMPASS_AFTER.test(after))
      return { out: COMPASS_POINTS[whole] as string, name: 'abbreviation' };
    return englishAcronymRule.rewrite(groups, ctx);
  },
};

/** The states of the United States as the Associated Press abbreviates them after a city ("Fla.", "N.Y."); "D.C." is said as its letters. */
export const US_STATE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  'Ala.': 'Alabama',
  'Ariz.': 'Arizona',
  'Ark.': 'Arkansas',
  'Calif.': 'California',
  'Colo.': 'Colorado',
  'Conn.': 'Connecticut',
  'Del.': 'Delaware',
  'Fla.': 'Florida',
  'Ga.': 'Georgia',
  'Ill.': 'Illinois',
  'Ind.': 'Indiana',
  'Kan.': 'Kansas',
  'Kans.': 'Kansas',
  'Ky.': 'Kentucky',
  'La.': 'Louisiana',
  'Md.': 'Maryland',
  'Mass.': 'Massachusetts',
  'Mich.': 'Michigan',
  'Minn.': 'Minnesota',
  'Miss.': 'Mississippi',
  'Mo.': 'Missouri',
  'Mont.': 'Montana',
  'Neb.': 'Nebraska',
  'Nebr.': 'Nebraska',
  'Nev.': 'Nevada',
  'N.H.': 'New Hampshire',
  'N.J.': 'New Jersey',
  'N.M.': 'New Mexico',
  'N.Mex.': 'New Mexico',
  'N.Y.': 'New York',
  'N.C.': 'North Carolina',
  'N.D.': 'North Dakota',
  'Okla.': 'Oklahoma',
  'Ore.': 'Oregon',
  'Oreg.': 'Oregon',
  'Pa.': 'Pennsylvania',
  'Penn.': 'Pennsylvania',
  'R.I.': 'Rhode Island',
  'S.C.': 'South Carolina',
  'S.D.': 'South Dakota',
  'Tenn.': 'Tennessee',
  'Tex.': 'Texas',
  'Vt.': 'Vermont',
  'Va.': 'Virginia',
  'Wash.': 'Washington',
  'W.Va.': 'West Virginia',
  'Wis.': 'Wisconsin',
  'Wisc.': 'Wisconsin',
  'Wyo.': 'Wyoming',
};

/**
 * The states' two-letter postal codes after a city ("Orlando, FL", "Austin, TX 78701"), said as
 * the state's name; "DC" as its letters, as Americans say "Washington, D.C.".
 */
export const US_STATE_POSTAL_CODES: Readonly<Record<string, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  DC: 'D.C.',
};

/** Postal codes that are also English words or interjections, and what makes them a state after all. */
const POSTAL_CODES_SAID_AS_WORDS: ReadonlySet<string> = new Set(['OK', 'HI', 'OH', 'ME', 'IN', 'OR']);
const POSTAL_CODE_SURE_AFTER = /^[ \u00A0]*(?:[)\]—–]|[-–—][ \u00A0]|\d{5}(?!\d)|\(\p{Lu}{3}\))/u;

/** The state abbreviations as a pattern, longest first. */
const STATE_ABBREVIATION = Object.keys(US_STATE_ABBREVIATIONS)
  .sort((a, b) => b.length - a.length)
  .map((k) => k.replace(/\./g, '\\.'))
  .join('|');

/**
 * A city before a state: a capitalised word and a comma ("Fort Lauderdale, ", "SPRINGFIELD, ",
 * "Grants-Milan, "), or a space and a bracket ("Salem (Ore.)", "Center-Minocqua (Wis.)").
 */
const CITY_BEFORE = /(?:^|[^\p{L}])(\p{Lu}[\p{L}'’.-]*)(?:,[ \u00A0]+|[ \u00A0]\()$/u;
/** Words before a comma that open a sentence and are no city ("Thanks, Pa.", "Yes, Miss."). */
const NOT_A_CITY = new Set(
  'Thanks Thank Yes No Okay OK Well Hi Hello Hey Goodbye Bye Sorry Please Oh Night Morning Evening Listen Look'.split(
    ' ',
  ),
);

/**
 * A state abbreviated after a city, in a dateline or an address ("BUFFALO, N.Y. —", "Fort
 * Lauderdale, Fla.", "MIDDLETOWN, Conn. (WFSB)"), or in brackets after one ("Salem (Ore.)"), or
 * its postal code before punctuation, a dash, a ZIP code or an airport's code ("Orlando, FL,
 * Saturday", "Austin, TX 78701", "Portland, OR (PDX)"), said as the state's name; its full stop is
 * kept where a sentence ends there. Elsewhere ("Mass. transit", "Ore", "Wash") it is left alone.
 */
export const usStateRule: Rule = {
  name: 'abbreviation',
  pattern: `(?=[A-Z])(?:(?<=\\p{L},[ \u00A0]+)|(?<=\\p{L}[ \u00A0]\\()(?=[A-Z][\\p{L}.]*\\.\\))|(?<=\\(|\\.,[ \u00A0]|[ \u00A0]and[ \u00A0])(?=[A-Z][a-z]{1,4}\\.(?:,|[ \u00A0]and[ \u00A0]|\\))))(?:${STATE_ABBREVIATION}|[A-Z]{2}(?=[ \u00A0]*(?:[,;)\\]—–]|\\.?$|\\.?\\n|\\.[ \u00A0]|[ \u00A0]+[-–—][ \u00A0]|[ \u00A0]+(?:\\d{5}(?!\\d)|\\(\\p{Lu}{3}\\)))))(?![\\p{L}\\p{N}]|\\.\\p{L})`,
  rewrite([whole], ctx) {
    const state =
      whole === undefined ? undefined : (US_STATE_ABBREVIATIONS[whole] ?? US_STATE_POSTAL_CODES[whole]);
    // A postal code that is also a word ("Bob, OK, go") only before a ZIP code, a dash or a bracket.
    // So is one ending an address line after a place and its city ("C.T. Branin Natatorium, Canton, OH").
    const endsAddress =
      /^[ \u00A0]*(?:$|\n)/u.test(ctx.input.slice(ctx.end, ctx.end + 4)) &&
      /\p{Lu}[\p{L}.'’]*,[ \u00A0]+\p{Lu}\p{Ll}+(?:[ \u00A0]\p{Lu}\p{Ll}+)?,[ \u00A0]+$/u.test(
        ctx.input.slice(Math.max(0, ctx.index - 40), ctx.index),
      );
    if (
      whole &&
      POSTAL_CODES_SAID_AS_WORDS.has(whole) &&
      !endsAddress &&
      !POSTAL_CODE_SURE_AFTER.test(ctx.input.slice(ctx.end, ctx.end + 10))
    )
      return undefined;
    if (state === undefined) return undefined;
    const city = CITY_BEFORE.exec(ctx.input.slice(Math.max(0, ctx.index - 40), ctx.index))?.[1];
    if ((city === undefined || NOT_A_CITY.has(city)) && !inListOfStates(ctx)) return undefined;
    const next = /^[ \t\u00A0]*(.)?/su.exec(ctx.input.slice(ctx.end, ctx.end + 8))?.[1];
    return next === undefined || next === '\n' || /\p{Lu}/u.test(next) ? `${state}.` : state;
  },
};

/** A state abbreviation in a list ("(Wyo., Utah, Colo., Okla. and Minn.)"), counted to find a list of states. */
const STATE_IN_LIST = new RegExp(
  `(?<=^|[(\\s])(?:${STATE_ABBREVIATION})(?=,|[ \u00A0]and[ \u00A0]|\\))`,
  'gu',
);

/** Whether the abbreviation stands in a list of states with two more near it ("states (Wyo., Utah, Colo., Okla. and Minn.)"). */
function inListOfStates(ctx: RuleContext): boolean {
  const near = ctx.input.slice(Math.max(0, ctx.index - 30), ctx.end + 30);
  return (near.match(STATE_IN_LIST)?.length ?? 0) >= 3;
}

const PARTIES: Readonly<Record<string, string>> = { D: 'Democrat', R: 'Republican', I: 'Independent' };

/**
 * A member of Congress's party and state, in brackets or commas after the name ("Nancy Pelosi
 * (D-Calif.)", "Ted Cruz, R-Texas,"): "Democrat of California", "Republican of Texas".
 */
export const partyStateRule: Rule = {
  name: 'abbreviation',
  // The state's abbreviation is looked up in the table, not spelled out in the pattern: the
  // English pattern must stay under 20 KB (rules.ts).
  pattern: `(?=[DRI]-)(?<=[(,][ \u00A0]?)([DRI])-(\\p{Lu}[\\p{L}.]*\\.|\\p{Lu}\\p{Ll}+(?:[ \u00A0]\\p{Lu}\\p{Ll}+)?)(?=[),])`,
  rewrite([whole, party, state]) {
    if (!whole || !party || !state) return undefined;
    const name = state.endsWith('.') ? US_STATE_ABBREVIATIONS[state] : state;
    return name === undefined ? undefined : `${PARTIES[party] as string} of ${name}`;
  },
};

/**
 * Initials with full stops before a capitalised name ("J.S. Bridwell", "J. R. R. Tolkien", "U.S.
 * Army"), spelt as letters (`spellAcronym`): eSpeak runs "J.S." together or stops at a full stop.
 * Not before a word that opens a sentence ("in Washington, D.C. The mayor").
 */
export const englishInitialsRule: Rule = {
  name: 'abbreviation',
  // Three letters or more ("R.I.M., which", "R.I.M. reported") also before a comma or a small word;
  // any before a possessive ("the U.S.’s eastern seaboard").
  pattern: `(?=\\p{Lu}\\.)(?<![\\p{L}\\p{N}.&'’-])\\p{Lu}\\.(?:[ \u00A0]?\\p{Lu}\\.)+(?=[ \u00A0]+(?!${SENTENCE_OPENER})\\p{Lu}\\p{Ll}|['’]s(?![\\p{L}\\p{N}])|(?<=\\p{Lu}\\.\\p{Lu}\\.\\p{Lu}\\.)(?:[,;:)]|[ \u00A0]+[\\p{Ll}\\d$]))`,
  rewrite([whole]) {
    return whole ? spellAcronym(whole.replace(/[^\p{Lu}]/gu, '')) : undefined;
  },
};
