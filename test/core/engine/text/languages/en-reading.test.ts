/**
 * The English reading (`electron/core/engine/text/languages/en-reading.ts` and its data): per
 * class, what a text is read as. Each reading is checked the way a listener hears it: the
 * engine's phonemes (eSpeak NG, en-us) for the reading must equal its phonemes for the expected
 * words, so "15" and "fifteen" are the same when they sound the same. The cases are our own,
 * written after the conventions of NVIDIA NeMo text processing's English text normalisation
 * (https://github.com/NVIDIA/NeMo-text-processing, American English), and after what eSpeak was
 * heard to get wrong in issue 37.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import type { LexiconRule } from '../../../../../electron/core/engine/engine';
import { voiceSettings } from '../../../../../electron/core/engine/espeak/voices';
import { prepareOptions } from '../../../../../electron/core/engine/render/voice';
import {
  cardinalWords,
  ordinalWords,
  yearWords,
} from '../../../../../electron/core/engine/text/languages/en-numbers';
import { numberWords } from '../../../../../electron/core/engine/text/languages/en-reading';
import { readingOf } from '../../../../../electron/core/engine/text/reading';
import { rewriteForEngine } from '../../../../../electron/core/engine/text/rules';
import { loadPhonemizer, type EspeakPhonemizer } from '../../../../fixtures/espeak';
import { random } from '../../../../fixtures/random';

let engine: EspeakPhonemizer;

beforeAll(async () => {
  engine = await loadPhonemizer();
  expect(engine.espeak.set_voice('en-us')).toBe(0);
});

/** eSpeak's phonemes for `text` (its text-to-phonemes call: no audio), clause breaks and spaces evened out. */
function phonemes(text: string): string {
  return engine
    .phonemes(text)
    .replace(/[\s|]+/gu, ' ')
    .trim();
}

/** [written, the words a reader says] */
type Case = [string, string];

/**
 * Checks every case by phoneme equality (`hear`: eSpeak's phonemes as they are, or without stress
 * and word breaks as the accuracy harness compares them), and that the reading names `rule` among
 * its changes when given.
 */
function checkAll(cases: Case[], rule?: string, atLeast = 10, hear = phonemes): void {
  expect(cases.length).toBeGreaterThanOrEqual(atLeast);
  for (const [written, spoken] of cases) {
    const { reading, changes } = readingOf(written, 'en');
    expect({ written, reading: hear(reading) }).toEqual({ written, reading: hear(spoken) });
    if (rule) expect(changes.map((c) => c.rule)).toContain(rule);
  }
}

/** eSpeak's phonemes without stress marks, separators and spaces. */
const sounds = (text: string) => phonemes(text).replace(/[ˈˌ_\s]/gu, '');

/** Each case heard as the words, stress and word breaks aside, as the accuracy harness hears them. */
const checkHeard = (cases: Case[], rule?: string, atLeast = 6) => checkAll(cases, rule, atLeast, sounds);

describe('English reading, per class', () => {
  it('cardinals and decimals, every number in words', () => {
    checkAll(
      [
        ['1,234', 'one thousand two hundred thirty four'],
        ['-5', 'minus five'],
        ['3.14', 'three point one four'],
        ['.5', 'point five'],
        ['0.010', 'zero point zero one zero'],
        ['1.5 million', 'one point five million'],
        ['15', 'fifteen'],
        ['1,000,000', 'one million'],
        ['2,345,678', 'two million three hundred forty five thousand six hundred seventy eight'],
        ['007', 'zero zero seven'],
        ['1943 people', 'one thousand nine hundred forty three people'],
        ['a 3D film', 'a three D film'],
      ],
      'cardinal',
    );
  });

  it('ordinals', () => {
    checkAll(
      [
        ['21st', 'twenty first'],
        ['2nd', 'second'],
        ['103rd', 'one hundred third'],
        ['1st', 'first'],
        ['11th', 'eleventh'],
        ['12th', 'twelfth'],
        ['13th', 'thirteenth'],
        ['22nd', 'twenty second'],
        ['100th', 'one hundredth'],
        ['1,000th', 'one thousandth'],
        ['the 40th time', 'the fortieth time'],
      ],
      'ordinal',
    );
    // A suffix that does not fit its number is not an ordinal.
    expect(readingOf('5st', 'en').reading).toBe('5st');
  });

  it('fractions', () => {
    checkAll(
      [
        ['1/2', 'one half'],
        ['3/4', 'three quarters'],
        ['2 1/2', 'two and a half'],
        ['1/3', 'one third'],
        ['2/3', 'two thirds'],
        ['5/8', 'five eighths'],
        ['1 3/4', 'one and three quarters'],
        ['½', 'one half'],
        ['2½ cups', 'two and a half cups'],
        ['1/10', 'one tenth'],
        ['1/4th', 'one quarter'],
        ['open 24/7', 'open twenty four seven'],
        // A hyphen between a whole number and halves … sixty-fourths, as US grain prices and
        // measures write them (unseen set 8 read "4-1/2 cents" as a range).
        ['settled up 4-1/2 cents', 'settled up four and a half cents'],
        ['closed down 3-3/4 cents', 'closed down three and three quarters cents'],
        ['a 1-1/2 inch pipe', 'a one and a half inch pipe'],
        ['the 9-11/16 mark', 'the nine and eleven sixteenths mark'],
      ],
      'fraction',
    );
    // Other denominators keep the dash: a range, not a mixed number.
    expect(readingOf('pages 3-5/6', 'en').reading).toBe('pages three to five sixths');
  });

  it('prices per unit, as farm and fuel reports write them (unseen set 8)', () => {
    checkAll(
      [
        [
          'an average of $457.30 per cwt for',
          'an average of four hundred fifty seven dollars thirty cents per hundredweight for',
        ],
        ['costs $5 per kg here', 'costs five dollars per kilogram here'],
        ['trading near $90/barrel, but', 'trading near ninety dollars per barrel, but'],
        [
          'reported at $298.00/cwt. with',
          'reported at two hundred ninety eight dollars per hundredweight with',
        ],
        ['rose 26.5 cents/bu. to', 'rose twenty six point five cents per bushel to'],
        [
          'EPA estimates are 29 mpg in the city',
          'E P.A estimates are twenty nine miles per gallon in the city',
        ],
      ],
      'measure',
      6,
    );
    // A dash between two prices per unit is "to", not the second price's minus sign.
    expect(readingOf('traded from $1.83/lb.-$1.86/lb. in the south', 'en').reading).toBe(
      'traded from one dollar eighty three cents per pound to one dollar eighty six cents per pound. in the south',
    );
    // "per" before a word that is no unit's symbol stays as written.
    expect(readingOf('per se', 'en').reading).toBe('per se');
    expect(readingOf('fell to -$5 today', 'en').reading).toBe('fell to minus five dollars today');
  });

  it('years and decades: a year where the context says so', () => {
    checkAll([
      ['in 1943', 'in nineteen forty three'],
      ['in 1506', 'in fifteen oh six'],
      ['in 2000', 'in two thousand'],
      ['in 2012', 'in twenty twelve'],
      ['in 1900', 'in nineteen hundred'],
      ['since 2005', 'since two thousand five'],
      ['in 1066 AD', 'in ten sixty six AD'],
      ['It was 1943.', 'It was nineteen forty three.'],
      ['from 1990 to 2000', 'from nineteen ninety to two thousand'],
      ['the 1990s', 'the nineteen nineties'],
      ["the '90s", 'the nineties'],
      ['the 2000s', 'the two thousands'],
      ['in her 30s', 'in her thirties'],
      ['100s of people', 'hundreds of people'],
      ['1,000s of birds', 'thousands of birds'],
    ]);
    expect(readingOf('1943 people', 'en').reading).toBe('one thousand nine hundred forty three people');
  });

  it('dates in every common written form', () => {
    checkAll(
      [
        ['July 25, 2012', 'July twenty fifth, twenty twelve'],
        ['25 July 2012', 'the twenty fifth of July twenty twelve'],
        ['Released: 16-Jan-2009 9:00', "Released: the sixteenth of January two thousand nine nine o'clock"],
        [
          'the 16-Jan-2009 release, 5-Foo-2009',
          'the sixteenth of January two thousand nine release, 5-Foo-2009',
        ],
        ['july 25 2012', 'July twenty fifth twenty twelve'],
        ['Jul. 25', 'July twenty fifth'],
        ['2012-07-25', 'July twenty fifth, twenty twelve'],
        ['07/25/2012', 'July twenty fifth, twenty twelve'],
        ['Monday, July 25', 'Monday, July twenty fifth'],
        ['the 25th of July', 'the twenty fifth of July'],
        ['March 2020', 'March twenty twenty'],
        ['25/07/2012', 'the twenty fifth of July twenty twelve'],
        ['on 7/25', 'on July twenty fifth'],
        ['Dec. 1, 1999', 'December first, nineteen ninety nine'],
        ['JAN 15 2020', 'January fifteenth twenty twenty'],
        ['SEPTEMBER 15', 'September fifteenth'],
        ['11/17/05', 'November seventeenth, oh five'],
        ['in Jan. and Feb.', 'in January and February'],
      ],
      'date',
    );
    // After a date word but before "of", a fraction.
    expect(readingOf('on 4/5 of the days', 'en').reading).toBe('on four fifths of the days');
    expect(rewriteForEngine('05/06/2026', 'en', { dateOrder: 'dmy' }).engineText).toBe(
      'the fifth of June twenty twenty six',
    );
  });

  it('clock times', () => {
    checkAll(
      [
        ['9:15', 'nine fifteen'],
        ['9:05 am', 'nine oh five a.m.'],
        ['12:00', "twelve o'clock"],
        ['14:30', 'fourteen thirty'],
        ['5pm', 'five p.m.'],
        ['at 5 p.m. today', 'at five p.m. today'],
        ['14:00', 'fourteen hundred'],
        ['11:59 PM', 'eleven fifty nine p.m.'],
        ['3:00 pm', 'three p.m.'],
        ['at 10:30:15', 'at ten thirty fifteen'],
        ['10:16:27 PM', 'ten sixteen twenty seven p.m.'],
        ['at 23:19:05 GMT', 'at twenty three nineteen oh five G M T'],
        ['7:45 a.m.', 'seven forty five a.m.'],
      ],
      'time',
    );
  });

  it('durations', () => {
    checkAll([
      ['2h 30m', 'two hours and thirty minutes'],
      ['1:30:15', 'one hour thirty minutes fifteen seconds'],
      ['2:03:45', 'two hours three minutes forty five seconds'],
      ['14:10:30', 'fourteen hours ten minutes thirty seconds'],
      ['1 hr 15 min', 'one hour and fifteen minutes'],
      ['2h', 'two hours'],
      ['1h', 'one hour'],
      ['45 min', 'forty five minutes'],
      ['45s', 'forty five seconds'],
      ['90 sec', 'ninety seconds'],
      ['100ms', 'one hundred milliseconds'],
      // A runner's pace, never a clock time (unseen Vietnamese set 9 read "2:59/km" as "two o'clock").
      ['a pace of 4:30/km', 'a pace of four minutes thirty seconds per kilometer'],
      ['7:45/mile, 5:00/km', 'seven minutes forty five seconds per mile, five minutes per kilometer'],
    ]);
  });

  it('money, never changing the value', () => {
    checkAll(
      [
        ['$5', 'five dollars'],
        ['$1,234.12', 'one thousand two hundred thirty four dollars twelve cents'],
        ['$1,925.21', 'one thousand nine hundred twenty five dollars twenty one cents'],
        ['$0.01', 'one cent'],
        ['$1,234.123', 'one thousand two hundred thirty four point one two three dollars'],
        ['$0.010', 'one cent'],
        ['$20.5', 'twenty dollars fifty cents'],
        ['$2.000', 'two dollars'],
        ['$20/mo', 'twenty dollars per month'],
        ['$3 million', 'three million dollars'],
        ['$2.5bn', 'two point five billion dollars'],
        ['€20', 'twenty euros'],
        // Pence after pounds are said without their name, as the British say a price.
        ['£3.50', 'three pounds fifty'],
        ['£0.50', 'fifty pence'],
        ['¥100', 'one hundred yen'],
        ['USD 50', 'fifty US dollars'],
        ['50 USD', 'fifty US dollars'],
        ['US$5', 'five US dollars'],
        ['$5-$10', 'five dollars to ten dollars'],
        ['$5–10', 'five to ten dollars'],
        ['$250-$300', 'two hundred fifty dollars to three hundred dollars'],
        ['$5–10', 'five to ten dollars'],
        ['$1', 'one dollar'],
        ['-$5', 'minus five dollars'],
      ],
      'money',
    );
  });

  it('percent and per mille', () => {
    checkAll(
      [
        ['5%', 'five percent'],
        ['2.5 %', 'two point five percent'],
        ['5-7%', 'five to seven percent'],
        ['-3%', 'minus three percent'],
        ['100%', 'one hundred percent'],
        ['0.5%', 'zero point five percent'],
        ['5‰', 'five per mille'],
        ['1,000%', 'one thousand percent'],
        ['12.75%', 'twelve point seven five percent'],
        ['50 %', 'fifty percent'],
      ],
      'percent',
    );
  });

  it('measures, from the unit table, "/" as "per"', () => {
    checkAll(
      [
        ['100 m2', 'one hundred square meters'],
        ['100 m²', 'one hundred square meters'],
        ['120km/h', 'one hundred twenty kilometers per hour'],
        ['60 mph', 'sixty miles per hour'],
        ['30°C', 'thirty degrees Celsius'],
        ['-5°F', 'minus five degrees Fahrenheit'],
        ['16GB', 'sixteen gigabytes'],
        ['100 Mbps', 'one hundred megabits per second'],
        ['5km', 'five kilometers'],
        ['12kg', 'twelve kilograms'],
        ['6ft', 'six feet'],
        ['5\'11"', 'five feet eleven inches'],
        ['1 km', 'one kilometer'],
        ['3.5 kW', 'three point five kilowatts'],
        ['500 ml', 'five hundred milliliters'],
        ['12KG', 'twelve kilograms'],
        ['3 mbps', 'three megabits per second'],
        ['100 million kg', 'one hundred million kilograms'],
        ['2 in. of rain', 'two inches of rain'],
        ['9.8 m/s', 'nine point eight meters per second'],
      ],
      'measure',
    );
    // Not units: a word after a number stays a word.
    expect(readingOf('3 in 10 people', 'en').reading).toBe('three in ten people');
    expect(readingOf('4K video, flat 12A', 'en').reading).toBe('four K video, flat twelve A');
  });

  it("the user's own units come first", () => {
    const units = new Map([
      ['km', { one: 'klick', many: 'klicks' }],
      ['kn', { one: 'knot', many: 'knots' }],
      ['ppb', { one: 'part per billion', many: 'parts per billion' }],
    ]);
    expect(rewriteForEngine('5 km, 1 km, 12 kn and 3 ppb', 'en', { units }).engineText).toBe(
      'five klicks, one klick, twelve knots and three parts per billion',
    );
    expect(rewriteForEngine('3 ppb', 'en').engineText).toBe('three ppb');
  });

  it('telephone numbers, in digit groups', () => {
    checkAll(
      [
        ['123-123-5678', 'one two three, one two three, five six seven eight'],
        ['(555) 123-4567', 'five five five, one two three, four five six seven'],
        ['+1 555 123 4567', 'plus one, five five five, one two three, four five six seven'],
        ['1-800-555-0199', 'one, eight hundred, five five five, zero one nine nine'],
        ['093-655-5449', 'zero nine three, six five five, five four four nine'],
        ['555.123.4567', 'five five five, one two three, four five six seven'],
        ['+44 20 7946 0958', 'plus four four, two zero, seven nine four six, zero nine five eight'],
        ['call 555-1234', 'call five five five, one two three four'],
        ['(555) 123 4567', 'five five five, one two three, four five six seven'],
        ['+84 912 345 678', 'plus eight four, nine one two, three four five, six seven eight'],
        ['Tel: 0912 345 678', 'telephone: zero nine one two, three four five, six seven eight'],
        ['020 7946 0958', 'zero two zero, seven nine four six, zero nine five eight'],
        ['(123)-123-5678', 'one two three, one two three, five six seven eight'],
        ['123-123-5678-1111', 'one two three, one two three, five six seven eight, one one one one'],
      ],
      'telephone',
    );
  });

  it('ranges between numbers, and codes left as written', () => {
    checkAll(
      [
        ['2-5', 'two to five'],
        ['2–5', 'two to five'],
        ['10 – 20', 'ten to twenty'],
        ['1990-2000', 'nineteen ninety to two thousand'],
        ['pages 10–20', 'pages ten to twenty'],
        ['3-4 days', 'three to four days'],
        ['ages 18-25', 'ages eighteen to twenty five'],
        ['1.5-2 hours', 'one point five to two hours'],
        ['1960s-1980s', 'nineteen sixties to nineteen eighties'],
        ['2nd–3rd place', 'second to third place'],
        ['4:00 am - 8:12 pm', 'four a.m. to eight twelve p.m.'],
        ['100-200', 'one hundred to two hundred'],
        ['5-10 km', 'five to ten kilometers'],
      ],
      'range',
    );
    expect(readingOf('a 50-50 chance', 'en').reading).toBe('a fifty-fifty chance');
    expect(readingOf('#1 hit, a 2×4 board, 2 × 4, 3× faster', 'en').reading).toBe(
      'number one hit, a two by four board, two by four, three times faster',
    );
    expect(readingOf('1080p video', 'en').reading).toBe('ten eighty p video');
    for (const code of ['COVID-19', 'MP3s', 'the A4 sheet']) {
      expect(readingOf(code, 'en').reading).toBe(code);
    }
    // A book's number is read digit by digit, its dashes not said (set 13).
    expect(readingOf('ISBN 978-3-16-148410-0', 'en').reading).toBe(
      'ISBN nine seven eight three one six one four eight four one zero zero',
    );
    // A number with a zero first after the dash, or a code that begins with letters: no range
    // (unseen set 9 read "Order No. 12-0529" as "twelve to zero five two nine").
    for (const code of ['Court Order No. 12-0529 dated', 'DocketNumber: S-99-727']) {
      expect(readingOf(code, 'en').reading).not.toContain(' to ');
    }
    expect(readingOf('pages 001-010, 9:00-09:30, June 01-05', 'en').reading).toBe(
      "pages zero zero one to zero one zero, nine o'clock to nine thirty, June first to fifth",
    );
  });

  it('scores, where the context says it is a score', () => {
    checkAll(
      [
        ['won 3-1', 'won three to one'],
        ['a 2-1 win', 'a two to one win'],
        ['lost 0-2', 'lost nothing to two'],
        ['capped an 18-2 run', 'capped an eighteen to two run'],
        ['beat Chelsea 4-0', 'beat Chelsea four to nothing'],
        ['drew 1-1', 'drew one to one'],
        ['a 3-2 victory', 'a three to two victory'],
        ['led 2-0', 'led two to nothing'],
        ['a 1-0 defeat', 'a one to nothing defeat'],
        ['tied 2-2', 'tied two to two'],
        ['won 21-17', 'won twenty one to seventeen'],
        ['when Oklahoma beat Colorado 82-42.', 'when Oklahoma beat Colorado eighty two to forty two.'],
        ['lost 24-17 to the Bears', 'lost twenty four to seventeen to the Bears'],
        ['the Lakers edged Boston 101-99', 'the Lakers edged Boston one oh one to ninety nine'],
        ['defeated Iowa 28-7', 'defeated Iowa twenty eight to seven'],
        ['a 28-7 lead', 'a twenty eight to seven lead'],
      ],
      'score',
    );
  });

  it('versions', () => {
    checkAll(
      [
        ['v2.0', 'version two point zero'],
        ['Python 3.11', 'Python three point eleven'],
        ['Windows 3.1', 'Windows three point one'],
        ['iOS 17.2', 'iOS seventeen point two'],
        ['version 1.2.3', 'version one point two point three'],
        ['v3', 'version three'],
        // a capital V before a whole number is a name: engines, generations (set 8: "V6" was "version six")
        ['a smooth-running 3.5-liter V6 and', 'a smooth-running three point five liter V six and'],
        ['Ford Mustang Coupe (V6)', 'Ford Mustang Coupe (V six)'],
        ['a V8 engine', 'a V eight engine'],
        ['firmware V2.1', 'firmware version two point one'],
        ['Node 20.11', 'Node twenty point eleven'],
        ['release 1.2.3', 'release one point two point three'],
        ['Java 1.8', 'Java one point eight'],
        ['v10.0.1', 'version ten point zero point one'],
        ['IP 192.168.0.1', 'IP one nine two dot one six eight dot zero dot one'],
      ],
      'version',
    );
  });

  it('Roman numerals in context, never a lone "I"', () => {
    checkAll(
      [
        ['Chapter IV', 'Chapter four'],
        ['Part II', 'Part two'],
        ['World War II', 'World War two'],
        ['the old Division I-A record', 'the old Division one-A record'],
        ['Division I schools', 'Division one schools'],
        ['Louis XIV', 'Louis the fourteenth'],
        ['Elizabeth II', 'Elizabeth the second'],
        ['Super Bowl LV', 'Super Bowl fifty five'],
        ['Henry VIII', 'Henry the eighth'],
        ['the XXI century', 'the twenty first century'],
        ['Queen Elizabeth I', 'Queen Elizabeth the first'],
        ['Book XII', 'Book twelve'],
        ['Act III', 'Act three'],
      ],
      'roman',
    );
    expect(readingOf('World War I and Part I', 'en').reading).toBe('World War one and Part one');
    for (const text of ['I am here', 'Malcolm X', 'Then I left', 'Apollo and MIX', 'Mark I said']) {
      expect(readingOf(text, 'en').reading).toBe(text);
    }
  });

  it('abbreviations, from the dictionary', () => {
    checkAll(
      [
        ['Mr. Smith', 'Mister Smith'],
        ['Mrs. Jones', 'Mrs Jones'],
        ['Dr. Who', 'Doctor Who'],
        ['Prof. Lee', 'Professor Lee'],
        ['St. Louis', 'Saint Louis'],
        ['on Elm St. today', 'on Elm Street today'],
        ['on Mulholland Dr. Then', 'on Mulholland Drive. Then'],
        ['Main Ave.', 'Main Avenue'],
        ['Sunset Blvd.', 'Sunset Boulevard'],
        ['Mt. Everest', 'Mount Everest'],
        ['Ft. Worth', 'Fort Worth'],
        ['John Smith Jr.', 'John Smith Junior'],
        ['cats vs. dogs', 'cats versus dogs'],
        ['e.g. this', 'for example this'],
        ['i.e. that', 'that is that'],
        ['approx. 5', 'approximately five'],
        ['No. 5', 'number five'],
        ['Fig. 3', 'figure three'],
        ['Acme Inc.', 'Acme Incorporated'],
        ['Acme Ltd.', 'Acme Limited'],
        ['Acme Corp.', 'Acme Corporation'],
        ['Sales Dept.', 'Sales Department'],
      ],
      'abbreviation',
    );
  });

  it('acronyms eSpeak reads as a word are spelt; words like NASA stay words', () => {
    const spelt: Case[] = [
      ['NYC', 'N Y C'],
      ['ICU', 'I C U'],
      ['UAE', 'U.A E'],
      ['LED', 'L E D'],
      ['FAQ', 'F.A Q'],
      ['IQ', 'I Q'],
      ['EPA', 'E P.A'],
      ['HTML', 'H T M L'],
      ['BBC', 'B B C'],
      ['DIY', 'D I Y'],
    ];
    checkAll(spelt, 'acronym');
    // eSpeak alone says these as words ("nick", "icky", …): the reading is heard differently.
    for (const [written] of spelt.slice(0, 7)) {
      expect(phonemes(readingOf(written, 'en').reading)).not.toBe(phonemes(written));
    }
    for (const word of ['NASA', 'NATO', 'UNESCO', 'COVID', 'OK', 'FBI']) {
      expect(readingOf(word, 'en').reading).toBe(word);
    }
  });

  it('e-mail and web addresses', () => {
    checkAll([
      ['john.doe@example.com', 'john dot doe at example dot com'],
      ['info@acme.org', 'info at acme dot org'],
      ['a_b-c@mail.co.uk', 'a underscore b dash c at mail dot co dot U K'],
      ['jane99@gmail.com', 'jane nine nine at gmail dot com'],
      // The scheme is not said, nor a final slash, as readers say an address in running text.
      ['https://www.example.com/path', 'w.w.w dot example dot com slash path'],
      ['visit https://moonlightmusicals.com/ today', 'visit moonlightmusicals dot com today'],
      ['Facebook.com/MarquetteWSOC', 'Facebook dot com slash Marquette W S O C'],
      ['www.example.com', 'w.w.w dot example dot com'],
      ['see example.org.', 'see example dot org.'],
      ['http://foo.io/a?b=1', 'foo dot I O slash a question mark b equals one'],
      ['docs.python.org', 'docs dot python dot org'],
      ['mail me at ann@x.net', 'mail me at ann at x dot net'],
    ]);
  });
});

describe('English reading: safety and the user', () => {
  /** The number a cardinal in words stands for (one … decillion), for reading a reading back. */
  function wordsToNumber(words: string): bigint {
    const small = [
      'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen',
      'x x twenty thirty forty fifty sixty seventy eighty ninety',
    ].map((s) => s.split(' '));
    const scales = ['thousand', 'million', 'billion', 'trillion', 'quadrillion', 'quintillion'];
    let total = 0n;
    let group = 0n;
    for (const w of words.split(' ')) {
      const unit = small[0]?.indexOf(w) ?? -1;
      const ten = small[1]?.indexOf(w) ?? -1;
      if (unit >= 0) group += BigInt(unit);
      else if (ten >= 0) group += BigInt(ten * 10);
      else if (w === 'hundred') group *= 100n;
      else {
        const s = scales.indexOf(w);
        if (s < 0) throw new Error(`not a number word: ${w}`);
        total += group * 1000n ** BigInt(s + 1);
        group = 0n;
      }
    }
    return total + group;
  }

  it('reads every whole number back to the same value', () => {
    const rand = random(37);
    for (let i = 0; i < 2000; i++) {
      const digits = String(Math.floor(rand() * 10 ** Math.floor(1 + rand() * 15)));
      expect(wordsToNumber(cardinalWords(digits))).toBe(BigInt(digits));
    }
  });

  it('money keeps every digit of the amount, whatever its decimals', () => {
    const rand = random(38);
    for (let i = 0; i < 300; i++) {
      const whole = String(Math.floor(rand() * 100000));
      const decimals = String(Math.floor(rand() * 10000)).padStart(1 + Math.floor(rand() * 4), '0');
      const { reading } = readingOf(`$${whole}.${decimals}`, 'en');
      if (/^\d{1,2}$|^\d{2}0+$/.test(decimals)) {
        // Hundredths (or fewer, or zeros after them) are cents: the same value.
        const cents = decimals.padEnd(2, '0').slice(0, 2);
        expect(reading).toContain(Number(cents) === 0 ? 'dollar' : cardinalWords(cents));
      } else {
        expect(reading).toBe(`${numberWords(`${whole}.${decimals}`)} dollars`);
      }
      expect(wordsToNumber(reading.replace(/ (?:point|dollars?|cents?)\b.*$/u, ''))).toBe(BigInt(whole));
    }
  });

  it('years and ordinals in words', () => {
    expect(yearWords('1943')).toBe('nineteen forty three');
    expect(yearWords('1506')).toBe('fifteen oh six');
    expect(yearWords('2000')).toBe('two thousand');
    expect(yearWords('2012')).toBe('twenty twelve');
    expect(yearWords('1900')).toBe('nineteen hundred');
    expect(ordinalWords('20')).toBe('twentieth');
    expect(ordinalWords('1000000')).toBe('one millionth');
  });

  it('leaves what it is not sure of as written', () => {
    for (const text of ['2026-13-40', 'call me at noon', '1.2.3.4.5', 'A4 and B5', '13/14/2012']) {
      expect(readingOf(text, 'en').reading).toBe(text);
    }
  });

  it('British and Australian voices say "and" after hundred; American ones do not', () => {
    const text = '120, 2005, 1,234, 120,000, $1,925.21 and 1900';
    expect(rewriteForEngine(text, 'en', { andAfterHundred: true }).engineText).toBe(
      'one hundred and twenty, two thousand and five, one thousand two hundred and thirty four, ' +
        'one hundred and twenty thousand, one thousand nine hundred and twenty five dollars twenty one cents and nineteen hundred',
    );
    expect(rewriteForEngine(text, 'en').engineText).not.toContain(' and twenty');
    const options = (code: string) => prepareOptions(voiceSettings(code));
    expect(options('en_female_elara_br').andAfterHundred).toBe(true);
    expect(options('en_female_jessica_au').andAfterHundred).toBe(true);
    expect(options('en_female_emily_us').andAfterHundred).toBe(false);
  });

  it('the lexicon beats every rule', () => {
    const lexicon: LexiconRule[] = [
      { match: '$5', replacement: 'a fiver', kind: 'respell', case_sensitive: false, whole_word: false },
      { match: 'NYC', replacement: 'new york city', kind: 'respell', case_sensitive: true, whole_word: true },
    ];
    const { reading, changes } = readingOf('$5 in NYC on 2012-07-25', 'en', { lexicon });
    expect(reading).toBe('a fiver in new york city on July twenty fifth, twenty twelve');
    expect(changes.map((c) => [c.written, c.source, c.rule])).toEqual([
      ['$5', 'lexicon', null],
      ['NYC', 'lexicon', null],
      ['2012-07-25', 'rule', 'date'],
    ]);
  });

  it('maps the words of a reading back to what was written', () => {
    const source = 'Pay $1,234.12 on July 25, 2012 at 9:05 am for 5km.';
    const prepared = rewriteForEngine(source, 'en');
    const at = (word: string): string => {
      const cp = [...prepared.engineText.slice(0, prepared.engineText.indexOf(word))].length + 1;
      const { start, end } = prepared.toSource(cp, [...word].length);
      return source.slice(start, end);
    };
    expect(at('July')).toBe('July');
    expect(at('fifth')).toBe('25');
    expect(at('twelve,')).not.toBe('');
    expect(at('cents')).toBe('$1,234.12');
    expect(at('oh')).toBe('9:05 am');
    // A word event inside a written token is widened to the token ("5km").
    expect(at('kilometers')).toBe('5km');
  });
});

describe('English reading, second pass: context decides', () => {
  it('an en dash or minus sign before a number is "minus", not after a number', () => {
    checkAll(
      [
        ['to –2.7 percent', 'to minus two point seven percent'],
        ['fell to –2.7%', 'fell to minus two point seven percent'],
        ['−5 °C', 'minus five degrees Celsius'],
        ['at –5 °C', 'at minus five degrees Celsius'],
        ['from -3 to 4', 'from minus three to four'],
        ['from –3 to 4', 'from minus three to four'],
        ['10–20', 'ten to twenty'],
        ['10 – 20', 'ten to twenty'],
        ['10 –20', 'ten to twenty'],
        ['5% –8%', 'five percent to eight percent'],
      ],
      undefined,
      10,
    );
  });

  it('emergency and service numbers digit by digit where the context says so', () => {
    checkAll([
      ['Call 911', 'Call nine one one'],
      ['911 calls', 'nine one one calls'],
      ['dial 999.', 'dial nine nine nine.'],
      ['call 112 now', 'call one one two now'],
      ['a 911 dispatcher', 'a nine one one dispatcher'],
      ['Dial 411 for information', 'Dial four one one for information'],
      ['called 911 twice', 'called nine one one twice'],
      ['up to 999 people', 'up to nine hundred ninety nine people'],
      ['It cost 311 dollars', 'It cost three hundred eleven dollars'],
      ['room 112', 'room one hundred twelve'],
    ]);
  });

  it('four-digit numbers from 1000 to 2099 in pairs alone, after year words and before a name; a count before a lower-case noun', () => {
    checkAll([
      ['1994', 'nineteen ninety four'],
      ['2017 Chevrolet', 'twenty seventeen Chevrolet'],
      [
        'Nancy lived at 1428 Elm St. It was late.',
        'Nancy lived at fourteen twenty eight Elm Street. It was late.',
      ],
      ['FY 2017', 'F Y twenty seventeen'],
      ['until 1850', 'until eighteen fifty'],
      ['circa 1066', 'circa ten sixty six'],
      ['during 1918', 'during nineteen eighteen'],
      ['2005', 'two thousand five'],
      ['1943 people', 'one thousand nine hundred forty three people'],
      ['$1994', 'one thousand nine hundred ninety four dollars'],
      ['in 1943 people fled', 'in nineteen forty three people fled'],
    ]);
  });

  it('a four-digit number before a singular noun or after "fiscal" is a year; before a plural noun or a unit, or after a count or code word, a number', () => {
    checkAll([
      ['in the 2016 election', 'in the twenty sixteen election'],
      ['its fiscal 2023 first quarter ended', 'its fiscal twenty twenty three first quarter ended'],
      ['the 2022 season', 'the twenty twenty two season'],
      ['the 2020 census', 'the twenty twenty census'],
      ['his 1998 book', 'his nineteen ninety eight book'],
      ['the 2016 elections', 'the twenty sixteen elections'],
      ['(2019)', '(twenty nineteen)'],
      ['class of 2024', 'class of twenty twenty four'],
      ['since 1998, prices rose', 'since nineteen ninety eight, prices rose'],
      ['by 2030.', 'by twenty thirty.'],
      ['1998 was hot', 'nineteen ninety eight was hot'],
      ['2023 marks the anniversary', 'twenty twenty three marks the anniversary'],
      ['2019 has been', 'twenty nineteen has been'],
      ['2000 people', 'two thousand people'],
      ['1500 meters', 'one thousand five hundred meters'],
      ['1500 m', 'one thousand five hundred meters'],
      ['a 2000 mAh battery', 'a two thousand milliamp hour battery'],
      ['1200 students were', 'one thousand two hundred students were'],
      ['a crowd of 1500 people', 'a crowd of one thousand five hundred people'],
      ['more than 1500 were hurt', 'more than one thousand five hundred were hurt'],
      ['about 2000', 'about two thousand'],
      ['room 1203', 'room one thousand two hundred three'],
      ['flight 1549', 'flight one thousand five hundred forty nine'],
      ['3,000', 'three thousand'],
      ['FY2024', 'F Y twenty twenty four'],
      ['in FY23 and FY’05', 'in F Y twenty three and F Y oh five'],
      ['1800 calories a day', 'one thousand eight hundred calories a day'],
      ['2020 brings a new law', 'twenty twenty brings a new law'],
    ]);
  });

  it('a state abbreviated after a city is the state; elsewhere the word is left alone', () => {
    checkAll([
      [
        'at Grants-Milan, N.M., to a high at Fort Lauderdale, Fla.',
        'at Grants-Milan, New Mexico, to a high at Fort Lauderdale, Florida.',
      ],
      ['SPRINGFIELD, Ore. – A man', 'SPRINGFIELD, Oregon – A man'],
      ['MIDDLETOWN, Conn. (WFSB) - A part', 'MIDDLETOWN, Connecticut (W F S B) - A part'],
      ['BUFFALO, N.Y. — Buffalo Police', 'BUFFALO, New York — Buffalo Police'],
      ['Seattle, Wash., and Portland, Ore., are', 'Seattle, Washington, and Portland, Oregon, are'],
      ['Jackson, Miss. The mayor said', 'Jackson, Mississippi. The mayor said'],
      ['LOS ANGELES, Calif. (AP) —', 'LOS ANGELES, California (A.P) —'],
      ['Charleston, W.Va., police', 'Charleston, West Virginia, police'],
      ['PITTSBURGH, Pa. — The', 'PITTSBURGH, Pennsylvania — The'],
      ['WASHINGTON, D.C. — The', 'WASHINGTON, D.C. — The'],
      ['Thanks, Pa. See you.', 'Thanks, Pa. See you.'],
      ['Mass. transit', 'Mass. transit'],
      ['in Mass. and', 'in Mass. and'],
      ['Rep. Nancy Pelosi (D-Calif.) said', 'Representative Nancy Pelosi (Democrat of California) said'],
      ['Sen. Ted Cruz, R-Texas, said', 'Senator Ted Cruz, Republican of Texas, said'],
      ['Sen. Bernie Sanders (I-Vt.)', 'Senator Bernie Sanders (Independent of Vermont)'],
      ['Rep. Jim Jordan (R-Ohio)', 'Representative Jim Jordan (Republican of Ohio)'],
      ['the D-Day landings', 'the D-Day landings'],
    ]);
    // A city in capitals opening a dateline is said as words, not spelt.
    expect(readingOf('NEW YORK (AP) — The', 'en').reading).toBe('new YORK (A.P) — The');
    expect(readingOf('UN, EU leaders met', 'en').reading).toBe('U N, E U leaders met');
  });

  it('numbers to dial and codes in digit groups are read digit by digit; long counts stay numbers', () => {
    checkAll(
      [
        ['Meeting ID: 955 2562 4143', 'Meeting I D: nine five five, two five six two, four one four three'],
        ['Passcode: 123 456', 'Passcode: one two three, four five six'],
        [
          'account number 1234 5678 9012',
          'account number one two three four, five six seven eight, nine zero one two',
        ],
        ['PIN 1234 5678', 'PIN one two three four, five six seven eight'],
        [
          'the Ministry of Health (19003228), the Department (19009095)',
          'the Ministry of Health (one nine zero zero three two two eight), the Department (one nine zero zero nine zero nine five)',
        ],
        ['hotline 18001234', 'hotline one eight zero zero one two three four'],
        ['the 1022 Hotline has', 'the one zero two two Hotline has'],
        ['the 111 hotline', 'the one one one hotline'],
        ['call 5551234', 'call five five five one two three four'],
        ['Call 911', 'Call nine one one'],
      ],
      'telephone',
      0,
    );
    checkAll(
      [
        [
          'a population of 1234567',
          'a population of one million two hundred thirty four thousand five hundred sixty seven',
        ],
        ['We had 2000 3000', 'We had two thousand three thousand'],
        ['in 2019 1500 people', 'in twenty nineteen one thousand five hundred people'],
      ],
      undefined,
      3,
    );
  });

  it('ranges of dates, days, times and ordinals are read with "to"; codes keep their dash', () => {
    checkAll(
      [
        ['received February 1-February 28 will', 'received February first to February twenty eighth will'],
        ['Jan. 5-Feb. 3', 'January fifth to February third'],
        ['May 1 - June 30', 'May first to June thirtieth'],
        ['June 30-July 2', 'June thirtieth to July second'],
        ['March 3–5', 'March third to fifth'],
        ['March 3-5, 2024', 'March third to fifth, twenty twenty four'],
        ['2pm-5pm', 'two p.m. to five p.m.'],
        ['the 5am-7am shift', 'the five a.m. to seven a.m. shift'],
        ['1st-3rd', 'first to third'],
        ['open Monday-Friday', 'open Monday to Friday'],
        ['Mon-Fri 9am-5pm', 'Monday to Friday nine a.m. to five p.m.'],
        ['Sat - Sun', 'Saturday to Sunday'],
        ['a range of 5.25%-5.5%.', 'a range of five point two five percent to five point five percent.'],
        ['5%-10%', 'five percent to ten percent'],
      ],
      undefined,
    );
    checkAll(
      [
        ['No. 87 – March 12th, 2024', 'number eighty seven – March twelfth, twenty twenty four'],
        ['on 8th of September 2022', 'on eighth of September twenty twenty two'],
        ['on 25 July', 'on the twenty fifth of July'],
        ['The 6-foot-5 forward', 'The six-foot-five forward'],
        ['The plane, a Boeing 737 MAX 9, landed', 'The plane, a Boeing seven thirty seven MAX nine, landed'],
      ],
      undefined,
      3,
    );
    for (const kept of ['COVID-19', 'Sun-Times', 'Sat-nav']) expect(readingOf(kept, 'en').reading).toBe(kept);
    // A code of capitals and a number: the letters then the number, never "to".
    expect(readingOf('F-16', 'en').reading).toBe('F-sixteen');
  });

  it('blood pressure, video lines, "+" after a number, a unit abbreviation inside a sentence, odds, weekdays before a date, extensions, ZIP codes', () => {
    checkAll([
      ['Blood pressure of 120/80 mmHg', 'Blood pressure of one twenty over eighty millimeters of mercury'],
      ['his blood pressure was 140/90.', 'his blood pressure was one forty over ninety.'],
      ['1080p video', 'ten eighty p video'],
      ['in 720p', 'in seven twenty p'],
      ['ages 65+', 'ages sixty five plus'],
      ['100+ people', 'one hundred plus people'],
      ['C++ code', 'C++ code'],
      ['8 oz. of water', 'eight ounces of water'],
      ['It weighs 5 lbs. The box', 'It weighs five pounds. The box'],
      ['a 1-in-3 chance', 'a one-in-three chance'],
      ['under 18 U.S.C. § 1343', 'under eighteen U.S.C. § one thousand three hundred forty three'],
      ['1/2 cup', 'one half cup'],
      ['The 76ers beat the 49ers', 'The seventy sixers beat the forty niners'],
      ['on Tues., Nov. 7', 'on Tuesday, November seventh'],
      ['Sat. Oct. 14', 'Saturday October fourteenth'],
      ['He said Sun. is', 'He said Sun. is'],
      [
        'Call (555) 123-4567 ext. 89',
        'Call five five five, one two three, four five six seven extension eighty nine',
      ],
      ['Springfield, IL 62701', 'Springfield, Illinois six two seven zero one'],
      ['P.O. Box 1234', 'P O Box one thousand two hundred thirty four'],
    ]);
  });

  it('a US street block in hundreds; a house number before a street in pairs', () => {
    checkAll([
      ['the 3200 block of North Main Street', 'the thirty two hundred block of North Main Street'],
      ['on 2700 block of Main Street', 'on twenty seven hundred block of Main Street'],
      ['the 300 block of Elm', 'the three hundred block of Elm'],
      ['the 2000 block', 'the two thousand block'],
      ['the 1100 block of Oak Avenue', 'the eleven hundred block of Oak Avenue'],
      ['1600 Pennsylvania Avenue', 'sixteen hundred Pennsylvania Avenue'],
      ['at 1600 Pennsylvania Ave.', 'at sixteen hundred Pennsylvania Avenue.'],
      ['3200 blocks', 'three thousand two hundred blocks'],
      ['in the 4500 block of West Avenue', 'in the forty five hundred block of West Avenue'],
      ['the 100 block of', 'the one hundred block of'],
    ]);
  });

  it('two digits with a leading zero before a unit of time are a count; elsewhere digits', () => {
    checkAll([
      ['2 hours, 3 minutes and 02 seconds', 'two hours, three minutes and two seconds'],
      ['05 minutes', 'five minutes'],
      ['09 days', 'nine days'],
      ['007', 'zero zero seven'],
      ['at 9:05', 'at nine oh five'],
      ['agent 007 arrived', 'agent zero zero seven arrived'],
      ['code 05', 'code zero five'],
      ['after 03 days', 'after three days'],
      [
        'ran 10 km in 45 minutes and 08 seconds',
        'ran ten kilometers in forty five minutes and eight seconds',
      ],
      ['room 0512', 'room zero five one two'],
    ]);
  });

  it('street words without a full stop after a name, highways, routes and interstates', () => {
    checkAll([
      ['123 Laguna Ct, Town', 'one twenty three Laguna Court, Town'],
      ['2 San Tomas hwy', 'two San Tomas Highway'],
      ['Sun Blvd', 'Sun Boulevard'],
      ['Mulholland Dr', 'Mulholland Drive'],
      ['Kings Rd is long', 'Kings Road is long'],
      ['Penny Ln', 'Penny Lane'],
      ['Garden State Pkwy', 'Garden State Parkway'],
      ['Union Sq', 'Union Square'],
      ['Hwy 18', 'Highway eighteen'],
      ['Rte 66', 'Route sixty six'],
      ['Take I-95 north', 'Take I ninety five north'],
      ['I-405', 'I four oh five'],
      ['Ask Dr. Smith', 'Ask Doctor Smith'],
    ]);
  });

  it('house numbers before a street are said in pairs', () => {
    checkAll([
      ['105 Main Street', 'one oh five Main Street'],
      ['100 Park Ave', 'one hundred Park Avenue'],
      ['1205 N Oak Dr', 'twelve oh five North Oak Drive'],
      ['3000 Sand Hill Rd', 'three thousand Sand Hill Road'],
      ['12 Elm St', 'twelve Elm Street'],
      ['123 people', 'one hundred twenty three people'],
      ['725 Fifth Avenue', 'seven twenty five Fifth Avenue'],
      ['1600 Pennsylvania Avenue', 'sixteen hundred Pennsylvania Avenue'],
      ['221 Baker St.', 'two twenty one Baker Street.'],
      ['He counted 450 Main Street shops', 'He counted four fifty Main Street shops'],
    ]);
  });

  it('compass points as words after "the", before winds and in an address; an acronym elsewhere', () => {
    checkAll([
      ['1211 E Arques Ave', 'twelve eleven East Arques Avenue'],
      ['winds from the NW', 'winds from the Northwest'],
      ['NE winds', 'Northeast winds'],
      ['out of the SSW.', 'out of the South-southwest.'],
      ['to the E', 'to the East'],
      ['N Main St', 'North Main Street'],
      ['at 5 N Main', 'at five North Main'],
      ['the NNE', 'the North-northeast'],
      ['W wind', 'West wind'],
      ['NSW', 'N S W'],
      ['Section E', 'Section E'],
    ]);
  });

  it('"No" without its full stop before a number after "the" or "a" is "number"', () => {
    checkAll(
      [
        ['the No 1 seed', 'the number one seed'],
        ['a No 2 hit', 'a number two hit'],
        ['The No 10 shirt', 'The number ten shirt'],
        ['No 1 knows', 'No one knows'],
        ['the No. 1 seed', 'the number one seed'],
      ],
      undefined,
      5,
    );
  });

  it('toll-free numbers: "1-800" is "one eight hundred", the other prefixes digit by digit', () => {
    checkAll(
      [
        ['1-800-555-0199', 'one, eight hundred, five five five, zero one nine nine'],
        ['1 800 555 0199', 'one, eight hundred, five five five, zero one nine nine'],
        ['1-888-555-0199', 'one, eight eight eight, five five five, zero one nine nine'],
        ['1 877 555 0199', 'one, eight seven seven, five five five, zero one nine nine'],
        ['Call 800-555-0199 today.', 'Call eight zero zero, five five five, zero one nine nine today.'],
        ['1-866-555-0100', 'one, eight six six, five five five, zero one zero zero'],
      ],
      'telephone',
      6,
    );
  });

  it('"/" between a word and a rate\'s unit is "per"; between other words it is not said', () => {
    checkAll([
      ['50 calls/day', 'fifty calls per day'],
      ['$/kg', 'dollars per kilogram'],
      ['60 miles/hour', 'sixty miles per hour'],
      ['price in €/kWh', 'price in euros per kilowatt hour'],
      ['beds/night', 'beds per night'],
      ['visits/yr', 'visits per year'],
      ['cases/capita', 'cases per capita'],
      // "and/or" is said "and or" (held-out set 16).
      ['and/or', 'and or'],
      ['he/she', 'he or she'],
      // The readers of sets 13 to 17 say no slash between words.
      ['input/output', 'input output'],
      ['Credit/debit cards', 'Credit debit cards'],
      ['a funeral/memorial service', 'a funeral memorial service'],
      // Nor before a unit.
      ['100 km/h', 'one hundred kilometers per hour'],
    ]);
  });

  it('a measure before the noun it qualifies takes the singular unit', () => {
    checkAll([
      ['a 2 GB file', 'a two gigabyte file'],
      ['an 8 km run', 'an eight kilometer run'],
      ['a 5 kg bag of rice', 'a five kilogram bag of rice'],
      ['a 2GB file', 'a two gigabyte file'],
      ['A 3 m wall', 'A three meter wall'],
      ['a 10 mm bolt', 'a ten millimeter bolt'],
      ['a 2 GB of data', 'a two gigabytes of data'],
      ['2 GB files', 'two gigabyte files'],
      ['It weighs a 5 kg.', 'It weighs a five kilograms.'],
      ['the 5 kg bag', 'the five kilogram bag'],
      ['thin 1.7mm bezels.', 'thin one point seven millimeter bezels.'],
      ['a 3.5mm headphone jack', 'a three point five millimeter headphone jack'],
      ['supports 25W quick charging which', 'supports twenty five watt quick charging which'],
      ['a 4,500 mAh battery', 'a four thousand five hundred milliamp hour battery'],
      ['its 12MP main sensor', 'its twelve megapixel main sensor'],
      ['a 65W charger', 'a sixty five watt charger'],
      ['60 mph winds', 'sixty mile per hour winds'],
      ['a 100 Mbps connection', 'a one hundred megabit per second connection'],
      ['dropped to -12°F overnight.', 'dropped to minus twelve degrees Fahrenheit overnight.'],
      ['a 30°C day', 'a thirty degrees Celsius day'],
      ['2 tbsp sugar', 'two tablespoons sugar'],
      ['10 mg aspirin', 'ten milligrams aspirin'],
      ['a 500 mg tablet', 'a five hundred milligram tablet'],
      ['10 mm of rain', 'ten millimeters of rain'],
      ['5 km away', 'five kilometers away'],
      ['2 kg more', 'two kilograms more'],
      ['ran 10 km yesterday', 'ran ten kilometers yesterday'],
      ['a 48 MP camera', 'a forty eight megapixel camera'],
      ['20 km south of the city', 'twenty kilometers south of the city'],
      ['5 GB left', 'five gigabytes left'],
      ['gusts up to 30 mph possible.', 'gusts up to thirty miles per hour possible.'],
      ['a 5 GB downloadable file', 'a five gigabyte downloadable file'],
    ]);
  });

  it('money after a determiner and before the noun it qualifies takes the singular currency; elsewhere the plural', () => {
    checkAll(
      [
        ['a $90 billion share repurchase', 'a ninety billion dollar share repurchase'],
        ['the $10,000 fine', 'the ten thousand dollar fine'],
        ['a $65,000 loan from the bank', 'a sixty five thousand dollar loan from the bank'],
        ['a $300 administrative fee.', 'a three hundred dollar administrative fee.'],
        ['The $600 - 800 smartphone tier', 'The six hundred to eight hundred dollar smartphone tier'],
        ['a $25.00 administration fee', 'a twenty five dollar administration fee'],
        ['a $10 billion proposed merger', 'a ten billion dollar proposed merger'],
        ['a $50 monthly fee', 'a fifty dollar monthly fee'],
        ['a 50 EUR note', 'a fifty euro note'],
        ['It cost $300.', 'It cost three hundred dollars.'],
        ['$300 to spend', 'three hundred dollars to spend'],
        ['raised $5 million last year', 'raised five million dollars last year'],
        ['$5 million was spent', 'five million dollars was spent'],
        ['$5 million raised from donors', 'five million dollars raised from donors'],
        ['paid $50 monthly.', 'paid fifty dollars monthly.'],
        ['$10 a share', 'ten dollars a share'],
        ['$3 million in cash', 'three million dollars in cash'],
        ['a $2.50 fee', 'a two dollars fifty cents fee'],
        ['$20/mo plans', 'twenty dollars per month plans'],
        ['a $1.2 trillion infrastructure bill', 'a one point two trillion dollar infrastructure bill'],
        ['a record $5 billion deal', 'a record five billion dollar deal'],
        ['The storm caused $1 billion damage', 'The storm caused one billion dollars damage'],
        ['They paid $40 million cash.', 'They paid forty million dollars cash.'],
        ['won $2 million playing poker', 'won two million dollars playing poker'],
        ['She donated $1 million dollars.', 'She donated one million dollars.'],
      ],
      'money',
    );
  });

  it('capitals of two or three letters in mixed-case text are spelt unless said as a word; not in a line of capitals', () => {
    checkAll(
      [
        ['DNA is', 'D N.A is'],
        ['an MRI scan', 'an M R I scan'],
        ['the IRS', 'the I R S'],
        ['the WHO said', 'the W H O said'],
        ['The BEA reported', 'The B E.A reported'],
        ['the NCAA final', 'the N C.A.A final'],
        ['the ETA is', 'the E T.A is'],
        ['the UFO', 'the U F O'],
        ['I said NO to him', 'I said NO to him'],
        ['NASA and FEMA met', 'NASA and FEMA met'],
        ['He is OK', 'He is OK'],
      ],
      undefined,
      10,
    );
    // Letters apart, each said as its name: joined by full stops eSpeak links an R to the next
    // letter ("I.R.S" /ɑːɹ ɹɛs/); an "A" alone would be the article, so it is joined to a neighbour.
    const plain = (text: string) => phonemes(text).replace(/[ˈˌ_ ]/gu, '');
    expect(plain(readingOf('the IRS', 'en').reading)).toBe(plain('the I R S'));
    expect(plain('I.R.S')).not.toBe(plain('I R S'));
    expect(plain(readingOf('DNA is', 'en').reading)).not.toBe(plain('D N A is'));
    expect(plain(readingOf('DNA is', 'en').reading)).toBe(plain('D.N.A is'));
    expect(plain(readingOf('the AP said', 'en').reading)).toBe(plain('the A.P said'));
    // A headline in capitals is left to eSpeak: "WHO" there is the word.
    expect(readingOf('FIRE AT THE WHO', 'en').reading).toBe('FIRE at the WHO');
    expect(readingOf('The news.\nFIRE AT THE WHO', 'en').reading).toMatch(/FIRE at the WHO$/u);
  });

  it('a two-letter domain ending is spelt, except "co" and "me"; longer ones are said', () => {
    checkAll(
      [
        ['contact@site.io', 'contact at site dot I O'],
        ['bbc.co.uk', 'bbc dot co dot U K'],
        ['site.de/about', 'site dot D E slash about'],
        ['https://www.example.ai/path', 'w.w.w dot example dot A.I slash path'],
        ['nic.vn', 'nic dot V N'],
        ['me@about.me', 'me at about dot me'],
        ['john@example.com', 'john at example dot com'],
        ['www.gov.uk', 'w.w.w dot gov dot U K'],
      ],
      undefined,
      8,
    );
    // The letters are the names of the letters, not a word ("io", "ai").
    expect(phonemes(readingOf('site.io', 'en').reading)).not.toBe(phonemes('site dot io'));
  });
});

describe('English reading, fourth pass: marks, dimensions and recipes', () => {
  it('a foot or inch mark after a number is the unit, singular before the noun it qualifies', () => {
    checkAll(
      [
        ['booths are 12’ x 12’, and spots', 'booths are twelve feet by twelve feet, and spots'],
        ['that 13.5″ screen has', 'that thirteen point five inch screen has'],
        ['cut into 2″ squares', 'cut into two inch squares'],
        ['Roll out about ¼” thick', 'Roll out about a quarter inch thick'],
        ['He is 5\'10" tall.', 'He is five foot ten tall.'],
        ['It’s 12’ wide', 'It’s twelve feet wide'],
        ["a 6' ladder", 'a six foot ladder'],
        ['a 10’ x 12’ room', 'a ten foot by twelve foot room'],
        ['a 27" monitor', 'a twenty seven inch monitor'],
        ['snow reached 8″ overnight', 'snow reached eight inches overnight'],
        ['an 8-in. circle', 'an eight inch circle'],
        ['a 6-ft. fence', 'a six foot fence'],
      ],
      'measure',
    );
    // A mark that closes a quotation is a quote, not a unit.
    expect(readingOf('the “Top 10” list', 'en').reading).toBe('the “Top 10” list');
    expect(readingOf('‘Top 10’ songs', 'en').reading).toBe('‘Top 10’ songs');
    expect(readingOf('he said "call 10" and left', 'en').reading).not.toMatch(/inch/u);
  });

  it('"x" between dimensions or a resolution is "by"; other x is left', () => {
    checkAll(
      [
        ['Add to 11 x 8-inch pan, ungreased.', 'Add to eleven by eight inch pan, ungreased.'],
        ['in a 9 x 13-inch baking pan', 'in a nine by thirteen inch baking pan'],
        ['Cut into 2 x 2 inch squares', 'Cut into two by two inch squares'],
        // A screen's resolution in pairs, as the readers of sets 13, 16 and 18 say it.
        ['a resolution of 2256 x 1504', 'a resolution of twenty two fifty six by fifteen oh four'],
        ['1920x1080 pixels', 'nineteen twenty by ten eighty pixels'],
        ['(3840x2160)', '(thirty eight forty by twenty one sixty)'],
        ['a 720 x 480 video', 'a seven twenty by four eighty video'],
        ['a 1200 x 800 mm sheet', 'a one thousand two hundred by eight hundred millimeter sheet'],
        ['a 20 x 30 cm frame', 'a twenty by thirty centimeter frame'],
        ['a 4 x 6 x 8 ft box', 'a four by six by eight foot box'],
        ['a 3 x 5 m room', 'a three by five meter room'],
        ['a 10 x 20 ft. tent', 'a ten by twenty foot tent'],
        ['a 12 x 18 inch sign', 'a twelve by eighteen inch sign'],
      ],
      'measure',
    );
    // Without a mark, a unit or a resolution, "x" is not read as "by".
    expect(readingOf('2 x 3 = 6', 'en').reading).not.toMatch(/by/u);
    expect(readingOf('0x1F', 'en').reading).not.toMatch(/by/u);
  });

  it('recipe abbreviations and oven temperatures after a number', () => {
    checkAll(
      [
        ['2 1/2 c. flour', 'two and a half cups flour'],
        ['1 1/4 c. all-purpose flour', 'one and a quarter cups all-purpose flour'],
        ['2 c. (1 pound) butter, softened', 'two cups (one pound) butter, softened'],
        ['1 c. sugar', 'one cup sugar'],
        ['1/2 lb. butter', 'one half pound butter'],
        ['3 lbs. potatoes', 'three pounds potatoes'],
        ['8 oz. cream cheese', 'eight ounces cream cheese'],
        ['1 tsp. salt', 'one teaspoon salt'],
        ['2 tbsp. sugar', 'two tablespoons sugar'],
        ['1 pt. cream', 'one pint cream'],
        ['2 qt. water', 'two quarts water'],
        [
          'Bake at 325F for 20 minutes.',
          'Bake at three hundred twenty five degrees Fahrenheit for twenty minutes.',
        ],
        ['It was 98F outside.', 'It was ninety eight degrees Fahrenheit outside.'],
        ['Bake at 350°F until golden.', 'Bake at three hundred fifty degrees Fahrenheit until golden.'],
        ['Place in preheated 325° oven', 'Place in preheated three hundred twenty five degree oven'],
        ['a 90° angle', 'a ninety degree angle'],
      ],
      'measure',
    );
    // An F that is a seat, a room or a model stays a letter; "c." is a cup only after a number.
    expect(readingOf('seat 14F', 'en').reading).not.toMatch(/Fahrenheit/u);
    expect(readingOf('Room 212F', 'en').reading).not.toMatch(/Fahrenheit/u);
    expect(readingOf('c. 1850', 'en').reading).not.toMatch(/cup/u);
    expect(readingOf('It is 30 degrees today', 'en').reading).toBe('It is thirty degrees today');
  });
});

describe('English reading, fourth pass: listed days and reference marks', () => {
  it('days listed after a month and its day are ordinals; a count after a comma is not', () => {
    checkAll(
      [
        ['Yard Sale June 16 and 17, from 9 a.m.', 'Yard Sale June sixteenth and seventeenth, from nine a.m.'],
        ['on March 3, 4 and 5', 'on March third, fourth and fifth'],
        ['on May 1st and 2nd', 'on May first and second'],
        ['July 4 or 5, 2025', 'July fourth or fifth, twenty twenty five'],
        ['Sept. 9 and 10 at the fair', 'September ninth and tenth at the fair'],
        ['on Dec. 24, 25 and 26', 'on December twenty fourth, twenty fifth and twenty sixth'],
        ['Open Saturday, Aug. 3 and Sunday', 'Open Saturday, August third and Sunday'],
        ['April 12 & 13', 'April twelfth and thirteenth'],
        ['on Jan. 20 and 21', 'on January twentieth and twenty first'],
        ['June 16, 17 people came', 'June sixteenth, seventeen people came'],
      ],
      'date',
    );
    expect(readingOf('June 16 and 17 people', 'en').reading).not.toMatch(/seventeenth/u);
  });

  it('a bracketed reference mark against a word or punctuation is not read', () => {
    checkAll(
      [
        [
          'about 14 hours and 20 minutes,[5] with a charger',
          'about fourteen hours and twenty minutes, with a charger',
        ],
        ['the city.[12] It grew', 'the city. It grew'],
        ['born in 1950[citation needed] and raised', 'born in nineteen fifty and raised'],
        ['many effects.[3][4] The first', 'many effects. The first'],
        ['as reported[a] by', 'as reported by'],
        ['the law[7]: it', 'the law: it'],
        ['record highs[2-4] in', 'record highs in'],
        ['he said.”[9] Then', 'he said.” Then'],
        ['(in 2010)[11] and', '(in twenty ten) and'],
        ['the vote[who?] was', 'the vote was'],
      ],
      'abbreviation',
    );
    // Standing alone it is what the writer wrote.
    expect(readingOf('see [5] below', 'en').reading).toMatch(/\[/u);
  });
});

describe('English reading, fourth pass: records and numbers said in pairs', () => {
  it('a team\'s record in brackets or at home / on the road is wins and losses; a score stays "to"', () => {
    checkAll(
      [
        [
          'The Magic dropped to an NBA-worst 2-17 at home.',
          'The Magic dropped to an NBA-worst two and seventeen at home.',
        ],
        ['The Lakers (50-18) suddenly', 'The Lakers (fifty and eighteen) suddenly'],
        ['the Bruins (40-20-5) won', 'the Bruins (forty and twenty and five) won'],
        ['He went 10-3 on the road', 'He went ten and three on the road'],
        [
          'Boston (31-9) hosts Miami (22-19)',
          'Boston (thirty one and nine) hosts Miami (twenty two and nineteen)',
        ],
        ['the Knicks (25-30) lost', 'the Knicks (twenty five and thirty) lost'],
        ['they are 14-2 overall', 'they are fourteen and two overall'],
        [
          'a 7-1 record? 12-4 in conference play',
          'a seven and one record? twelve and four in conference play',
        ],
        [
          'Gonzaga (28-3) beat Colorado 82-42',
          'Gonzaga (twenty eight and three) beat Colorado eighty two to forty two',
        ],
        ['the Jazz (5-5) and', 'the Jazz (five and five) and'],
      ],
      'score',
      9,
    );
    // A range in brackets after a word that counts stays a range.
    expect(readingOf('Chapters (1-3) cover', 'en').reading).toMatch(/one to three/u);
    expect(readingOf('won 3-1', 'en').reading).toBe('won three to one');
  });

  it('a number after a post, local, flight or product name is said in pairs', () => {
    checkAll(
      [
        [
          'Frank L. Mitchell VFW Post 3335 supper',
          'Frank L. Mitchell V F W Post thirty three thirty five supper',
        ],
        ['Intel HD Graphics 620.', 'Intel H D Graphics six twenty.'],
        ['a Boeing 737 jet', 'a Boeing seven thirty seven jet'],
        ['Flight 1549 landed', 'Flight fifteen forty nine landed'],
        ['Teamsters Local 727 voted', 'Teamsters Local seven twenty seven voted'],
        ['Boy Scout Troop 284 will', 'Boy Scout Troop two eighty four will'],
        ['Masonic Lodge 1210', 'Masonic Lodge twelve ten'],
        ['a Radeon 680 card', 'a Radeon six eighty card'],
        ['American Legion Post 12 meets', 'American Legion Post twelve meets'],
        ['with 3335 members', 'with three thousand three hundred thirty five members'],
      ],
      undefined,
    );
  });
});

describe('English reading, fourth pass: words in capitals', () => {
  it('a run of capital words inside a line, and a short town before a dateline dash, are words', () => {
    for (const text of [
      'FREE SUMMER CONCERT SERIES: The Town of Pittsfield will play',
      'JAY — The menu for the supper',
      'ROME — The pope said',
      'GRAND OPENING SALE this weekend at the store',
      'BREAKING NEWS: the council voted',
    ])
      expect(readingOf(text, 'en').reading).toBe(text);
    // Real acronyms stay spelt, in a run or before a dash.
    expect(readingOf('FBI — The agency said', 'en').reading).not.toMatch(/^FBI/u);
    expect(readingOf('CIA — The agency said', 'en').reading).not.toMatch(/^CIA/u);
    expect(readingOf('the NBA said', 'en').reading).not.toMatch(/NBA/u);
    expect(readingOf('the NFL MVP said', 'en').reading).not.toMatch(/NFL|MVP/u);
  });
});

describe('English reading, fifth pass', () => {
  it('a spelt acronym with an A is heard as its letters, the A never the article', () => {
    const cases: [string, string][] = [
      ['DNA is', 'diːɛneɪɪz'],
      ['BEA prepares', 'biːiːeɪ'],
      ['the 1st century AD', 'eɪdiː'],
      ['the AP reported', 'eɪpiː'],
      ['the NCAA said', 'ɛnsiːeɪeɪ'],
      ['the USA is', 'juːɛseɪ'],
      ['NBA players', 'ɛnbiːeɪ'],
      ['the FDA and', 'ɛfdiːeɪ'],
      ['a DA IV', 'diːeɪfɔːɹ'],
      ['the CIA and', 'siːaɪeɪ'],
    ];
    for (const [written, letters] of cases) {
      const heard = sounds(readingOf(written, 'en').reading);
      expect({ written, heard: heard.includes(letters) }).toEqual({ written, heard: true });
    }
  });

  it('a record of wins and losses after a verb of standings or before "season" is "and"; a score stays "to"', () => {
    checkHeard(
      [
        [
          'the team had improved to 8-8 in 1981',
          'the team had improved to eight and eight in nineteen eighty one',
        ],
        ['They finished 10-6 and made the playoffs.', 'They finished ten and six and made the playoffs.'],
        ['The Jets went 9-7 on the road.', 'The Jets went nine and seven on the road.'],
        ['a 12-4 record', 'a twelve and four record'],
        ['after an 8-8 season', 'after an eight and eight season'],
        ['fell to 3-5 after the loss', 'fell to three and five after the loss'],
        ['a 5-2 start', 'a five and two start'],
        ['The Bears beat Detroit 24-17.', 'The Bears beat Detroit twenty four to seventeen.'],
        ['they won 3-1 at home', 'they won three to one at home'],
        ['the match finished 2-1', 'the match finished two to one'],
        ['they lost 21-14 to Dallas', 'they lost twenty one to fourteen to Dallas'],
      ],
      'score',
    );
    expect(readingOf('He went 23-of-32 for 310 yards.', 'en').reading).toContain(
      'twenty three of thirty two',
    );
    expect(readingOf('City went 2-0 up before the break', 'en').reading).toBe(
      'City went two to zero up before the break',
    );
  });

  it('a unit before the noun it qualifies is singular, a rate too; before a function word plural; "Cat. 2" is Category', () => {
    checkHeard([
      ['with 100 mph winds', 'with one hundred mile per hour winds'],
      ['a 70 mph speed limit', 'a seventy mile per hour speed limit'],
      ['a 120 km/h zone', 'a one hundred twenty kilometer per hour zone'],
      ['a 100 Mbps connection', 'a one hundred megabit per second connection'],
      ['a 3000 rpm engine', 'a three thousand R P M engine'],
      ['driving at 100 mph in the rain', 'driving at one hundred miles per hour in the rain'],
      ['winds of 70 mph and rain', 'winds of seventy miles per hour and rain'],
      ['moving 10 mph northeast', 'moving ten miles per hour northeast'],
      ['Helene up to Cat. 2 status', 'Helene up to Category two status'],
      ['a Cat 4 hurricane', 'a Category four hurricane'],
      ['a 30°C day', 'a thirty degrees Celsius day'],
    ]);
  });

  it('a model code of capitals and three or four digits in pairs; a year after mid-, late-, pre-, post- in pairs', () => {
    checkHeard([
      ['the Airbus A380 jet', 'the Airbus A-three eighty jet'],
      ['a Ford F150 truck', 'a Ford F-one fifty truck'],
      ['Nvidia H100 chips', 'Nvidia H-one hundred chips'],
      ['praise the S4 for its speed', 'praise the S four for its speed'],
      ['the A15 chip', 'the A-fifteen chip'],
      ['the M2 chip', 'the M two chip'],
      ['reviewed in mid-2013.', 'reviewed in mid twenty thirteen.'],
      ['the late-1990s boom', 'the late nineteen nineties boom'],
      ['back to pre-2020 levels', 'back to pre twenty twenty levels'],
      ['the post-1945 order', 'the post nineteen forty five order'],
      ['in early-2000s', 'in early two thousands'],
    ]);
  });

  it('a house number before a compass point with its full stop in pairs, the point said; initials before a name are letters', () => {
    checkHeard([
      ['held at 111 N. Burnett.', 'held at one eleven North Burnett.'],
      ['at 4501 W. Main Street', 'at forty five oh one West Main Street'],
      ['at 21 Depot St. in Phillips', 'at twenty one Depot Street in Phillips'],
      ['the office at 1200 S. Congress', 'the office at twelve hundred South Congress'],
      ['250 N. Korean troops', 'two hundred fifty N. Korean troops'],
      ['the J.S. Bridwell Agricultural Center', 'the J S Bridwell Agricultural Center'],
      ['J. R. R. Tolkien wrote it', 'J R R Tolkien wrote it'],
      ['the U.S. Army said', 'the U S Army said'],
      ['by A.J. Smith', 'by A.J Smith'],
      ['in Washington, D.C. The mayor', 'in Washington, D.C. The mayor'],
    ]);
    // A new sentence after a compass point keeps its full stop.
    expect(readingOf('Winds 10 N. Then it rained.', 'en').reading).toContain('N. Then');
  });

  it('life events before a year: married, born, died, reigned, circa, flourished; not before other numbers', () => {
    checkHeard(
      [
        ['Jane Seymour (m.1536), Anne', 'Jane Seymour (married fifteen thirty six), Anne'],
        ['Catherine Parr (m. 1543)', 'Catherine Parr (married fifteen forty three)'],
        ['John Smith (b. 1950)', 'John Smith (born nineteen fifty)'],
        ['Elizabeth I (d. 1603)', 'Elizabeth I (died sixteen oh three)'],
        ['Henry VIII (r. 1509–1547)', 'Henry the eighth (reigned fifteen oh nine to fifteen forty seven)'],
        ['a map c. 1500', 'a map circa fifteen hundred'],
        ['built ca. 1450', 'built circa fourteen fifty'],
        ['a poet (fl. 1420)', 'a poet (flourished fourteen twenty)'],
        ['Charlemagne (d. 814)', 'Charlemagne (died eight hundred fourteen)'],
      ],
      undefined,
    );
    expect(readingOf('the letter b. 5 times', 'en').reading).not.toContain('born');
    expect(readingOf('see p. 1603', 'en').reading).toBe('see page one thousand six hundred three');
  });

  it('a Roman numeral after a code in capitals is a cardinal; regnal names and wars stay', () => {
    checkHeard(
      [
        ['to approve the DA IV Upgrade', 'to approve the D.A four Upgrade'],
        ['a GS II position', 'a G S two position'],
        ['Level III', 'Level three'],
        ['Class II', 'Class two'],
        ['Henry VIII', 'Henry the eighth'],
        ['World War II', 'World War two'],
        ['the CPA III exam', 'the C P.A three exam'],
      ],
      'roman',
      7,
    );
    // A headline in capitals is left to eSpeak.
    expect(readingOf('WORLD WAR II ENDS', 'en').reading).toBe('WORLD WAR II ENDS');
    // "IV" before drip, line, fluids … is intravenous.
    expect(readingOf('the ICU IV line', 'en').reading).toBe('the I C U IV line');
  });

  it('a ratio is "to" where a word says so or no time fits; clock times stay; a unit after a hyphen; ppi and dpi spelt', () => {
    checkHeard([
      ['a 3:2 aspect ratio', 'a three to two aspect ratio'],
      ['a 16:9 screen', 'a sixteen to nine screen'],
      ['won by a 2:1 margin', 'won by a two to one margin'],
      ['a ratio of 3:1', 'a ratio of three to one'],
      ['odds of 5:1', 'odds of five to one'],
      ['a 30:1 ratio', 'a thirty to one ratio'],
      ['at 3:30 the bell rang', 'at three thirty the bell rang'],
      ['a 12:30 meeting', 'a twelve thirty meeting'],
      ['It features a 13.5-inch screen', 'It features a thirteen point five inch screen'],
      ['1504 ppi', 'one thousand five hundred four p p i'],
      ['print at 300 dpi', 'print at three hundred d p i'],
    ]);
  });

  it('"FMI" is for more information; capitals in brackets after the words they are the initials of are spelt', () => {
    checkHeard(
      [
        ['FMI 207-418-8313.', 'For more information two zero seven, four one eight, eight three one three.'],
        [
          'Phillips Area Community Center (PACC) will host',
          'Phillips Area Community Center (P.A C C) will host',
        ],
        ['the Bureau of Economic Analysis (BEA) said', 'the Bureau of Economic Analysis (B E.A) said'],
        [
          'National Aeronautics and Space Administration (NASA)',
          'National Aeronautics and Space Administration (NASA)',
        ],
        ['the PACE program', 'the PACE program'],
        ['Student Affairs Office (SAFO)', 'Student Affairs Office (SAFO)'],
      ],
      undefined,
      6,
    );
  });

  it('a user name in capitals or camel case is spelt and split; lower case is left', () => {
    checkHeard(
      [
        ['REIS@bea.gov', 'R E I S at bea dot gov'],
        ['GDPbyState@bea.gov', 'G D P by State at bea dot gov'],
        ['ITSupport@example.com', 'I T Support at example dot com'],
        ['JohnDoe@example.com', 'John Doe at example dot com'],
        ['john.doe@example.com', 'john dot doe at example dot com'],
        ['write to petra@fcanimalshelter.org.', 'write to petra at fcanimalshelter dot org.'],
      ],
      'email',
    );
  });

  it('money of round hundreds without a comma in hundreds; a date with its year before a dash is a range of dates', () => {
    checkHeard([
      ['the expenditure of $1500 for equipment', 'the expenditure of fifteen hundred dollars for equipment'],
      ['a $1200 fee', 'a twelve hundred dollar fee'],
      ['$1,500 for equipment', 'one thousand five hundred dollars for equipment'],
      ['$2000 in cash', 'two thousand dollars in cash'],
      [
        '(September 5, 1638 – September 1, 1715)',
        '(September fifth, sixteen thirty eight to September first, seventeen fifteen)',
      ],
      ['from May 1, 2020 - June 1, 2021', 'from May first, twenty twenty to June first, twenty twenty one'],
      ['No. 87 – March 12th', 'number eighty seven – March twelfth'],
    ]);
  });
});

describe('English reading, sixth pass', () => {
  it('capitals no English word could end like are spelt (tickers); words that can stay words', () => {
    checkHeard([
      ['AAPL Shares Rise Over 2%', 'A.A P L Shares Rise Over two percent'],
      ['Alphabet (GOOGL), and Amazon (AMZN)', 'Alphabet (G O O G L), and Amazon (A.M Z N)'],
      ['Intel (INTC) fell', 'Intel (I N T C) fell'],
      ['NATO and FEMA sent SWAT teams', 'NATO and FEMA sent SWAT teams'],
      ['the NASDAQ index and UNESCO', 'the NASDAQ index and UNESCO'],
      ['I said HELP, not STOP, FIRST of all', 'I said HELP, not STOP, FIRST of all'],
      ['the WORLD of THINGS and QUARTZ', 'the WORLD of THINGS and QUARTZ'],
    ]);
  });

  it('capitals, a hyphen and a number: the letters then the number, the hyphen silent', () => {
    checkHeard([
      ['carrying an AR-15 rifle', 'carrying an A.R fifteen rifle'],
      ['a Ford F-150 truck', 'a Ford F one fifty truck'],
      ['the B-52 bomber', 'the B fifty two bomber'],
      ['a K-12 school', 'a K twelve school'],
      ['a W-2 form', 'a W two form'],
      ['the I-95 corridor', 'the I ninety five corridor'],
      ['the Airbus A380 jet', 'the Airbus A-three eighty jet'],
    ]);
  });

  it('streets: a compass point with its full stop before a street, street words after a name or an ordinal, a postal code after a city, "@" between words', () => {
    checkHeard(
      [
        [
          'closing Henry St. from Marion St. to N. Broadway.',
          'closing Henry Street from Marion Street to North Broadway.',
        ],
        ['paving from N. Broadway St. to the West', 'paving from North Broadway Street to the West'],
        ['W. Henry St. will not be open', 'West Henry Street will not be open'],
        ['N. Main St and 9th Ave intersection', 'North Main Street and Ninth Avenue intersection'],
        ['the corner of S. 3rd Street', 'the corner of South Third Street'],
        ['Monroe St Closure', 'Monroe Street Closure'],
        ['Meet at 42nd St Station', 'Meet at forty second Street Station'],
        ['Visit St Louis today', 'Visit St Louis today'],
        ['George W. Bush said', 'George W. Bush said'],
        ['in Orlando, FL, Saturday', 'in Orlando, Florida, Saturday'],
        ['Austin, TX 78701', 'Austin, Texas seven eight seven zero one'],
        ['She moved to Dallas, TX.', 'She moved to Dallas, Texas.'],
        ['Portland, OR 97201', 'Portland, Oregon nine seven two zero one'],
        ['Bob, OK, fine', 'Bob, OK, fine'],
        ['on DeSiard Street @ Art Alley', 'on DeSiard Street at Art Alley'],
        ['mail me@x.com', 'mail me at x dot com'],
      ],
      undefined,
      10,
    );
  });

  it('recipes: tbs, T and t before an ingredient are spoons; º is a degree; an inch mark after a fraction; a hyphen before a unit is silent', () => {
    checkHeard(
      [
        ['1 tbs. soft butter', 'one tablespoon soft butter'],
        [
          'Combine 1 tbs. soft butter, 3 tbs. brown sugar, and ¼ cup of syrup.',
          'Combine one tablespoon soft butter, three tablespoons brown sugar, and one quarter cup of syrup.',
        ],
        ['Place 1 T butter and 1 tsp honey in', 'Place one tablespoon butter and one teaspoon honey in'],
        ['2 T. butter', 'two tablespoons butter'],
        ['1 t salt', 'one teaspoon salt'],
        ['a 5t truck', 'a five tonne truck'],
        ['Model 3 T and', 'Model three T and'],
        ['Bake at 350ºF for 40 minutes', 'Bake at three hundred fifty degrees Fahrenheit for forty minutes'],
        ['bake for 20 at 350º.', 'bake for twenty at three hundred fifty degrees.'],
        ['to a depth of 1/4".', 'to a depth of one quarter inch.'],
        ['a 2 1/2" pipe', 'a two and a half inch pipe'],
        ['he said "take 1/2" now', 'he said "take one half" now'],
        ['in a 1-cup glass measure', 'in a one cup glass measure'],
        ['a 2-liter bottle', 'a two liter bottle'],
      ],
      undefined,
      10,
    );
  });

  it('labels before a number: No. with a colon, tel, Tel., vol; not before words', () => {
    checkHeard([
      ['Phone No.: 318.376.1346', 'Phone number: three one eight, three seven six, one three four six'],
      ['tel: 318-998-3037', 'telephone: three one eight, nine nine eight, three zero three seven'],
      ['Tel. 555-123-4567', 'telephone five five five, one two three, four five six seven'],
      [
        'Makers of Canada Series, vol 12, 1927.',
        'Makers of Canada Series, volume twelve, nineteen twenty seven.',
      ],
      ['see Vol. 3 of', 'see volume three of'],
      ['No. I said', 'No. I said'],
      ['the Tel Aviv office', 'the Tel Aviv office'],
    ]);
  });

  it('separators: "5-to-50" is a range; a dash between a year and a clock time is a pause; a slash in a photo credit is a pause; a year before a designation in pairs', () => {
    checkHeard([
      ['asteroids 5-to-50 meters in diameter', 'asteroids five to fifty meters in diameter'],
      ['a 3-to-1 vote', 'a three to one vote'],
      ['Tuesday, May 14, 2024 - 4:30pm', 'Tuesday, May fourteenth, twenty twenty four, four thirty p.m.'],
      ['Friday, June 7, 2024 – 9 am', 'Friday, June seventh, twenty twenty four, nine a.m.'],
      ['from 2010 - 2015', 'from twenty ten to twenty fifteen'],
      ['open 9am - 5pm', 'open nine a.m. to five p.m.'],
      ['in Washington. (AP Photo/Mariam Zuhaib)', 'in Washington. (A.P Photo, Mariam Zuhaib)'],
      ['Image credit: NASA/MSFC', 'Image credit: NASA, M S F C'],
      ['Photo courtesy of NASA/JPL', 'Photo courtesy of NASA, J P L'],
      ['the AC/DC show', 'the AC DC show'],
      ['more threatening than 2023 BU, the rock', 'more threatening than twenty twenty three B U, the rock'],
      ['about 1500 US troops', 'about one thousand five hundred US troops'],
    ]);
  });

  it('sports: a record before tear or streak and after starting the season is "and" (0 is "oh"); a season in pairs; shots made of attempted; scores stay "to"', () => {
    checkHeard([
      ['who had been on an 11-2 tear', 'who had been on an eleven and two tear'],
      ['after starting the season 0-6.', 'after starting the season oh and six.'],
      ['a 7-1 streak', 'a seven and one streak'],
      ['from the 1987-88 season and', 'from the nineteen eighty seven eighty eight season and'],
      ['a 2004-05 budget', 'a two thousand four oh five budget'],
      ['from 1990-95', 'from nineteen ninety to ninety five'],
      [
        '31 points (13-24 FG), 6-8 FT',
        'thirty one points (thirteen of twenty four field goals), six of eight free throws',
      ],
      ['went 19-for-28 from the field', 'went nineteen for twenty eight from the field'],
      ['The Lakers won 3-0', 'The Lakers won three to nothing'],
    ]);
  });

  it('money in a title-case headline before a capitalised noun is singular; a capitalised scale is the scale', () => {
    checkHeard([
      [
        'Apple Announces $90B Share Buyback and Dividend Increase',
        'Apple Announces ninety billion dollar Share Buyback and Dividend Increase',
      ],
      ['Firm Wins $5 Million Contract For Roads', 'Firm Wins five million dollar Contract For Roads'],
      ['Company Pays $5 Million To Settle Suit', 'Company Pays five million dollars To Settle Suit'],
      ['Tesla Raises $2 Billion In New Funding', 'Tesla Raises two billion dollars In New Funding'],
      [
        'Apple said $90B Share Buyback plans were',
        'Apple said ninety billion dollars Share Buyback plans were',
      ],
      ['It cost $90 Billion', 'It cost ninety billion dollars'],
    ]);
  });

  it('a basketball score of three digits is said in pairs, also after a team and its comma; a range after other words is not', () => {
    checkAll(
      [
        [
          'tossed aside the Golden State Warriors, 123-113, Sunday',
          'tossed aside the Golden State Warriors, one twenty three to one thirteen, Sunday',
        ],
        [
          'the Lakers pummeled the Toronto Raptors, 121-101, at Air Canada Centre.',
          'the Lakers pummeled the Toronto Raptors, one twenty one to one oh one, at Air Canada Centre.',
        ],
        ['beat Ohio 110-98', 'beat Ohio one ten to ninety eight'],
        ['Pages, 110-120.', 'Pages, one hundred ten to one hundred twenty.'],
        ['in Dallas, 100-150 people', 'in Dallas, one hundred to one hundred fifty people'],
      ],
      undefined,
      5,
    );
  });

  it('a fraction of one after the article "a" does not say "one" again', () => {
    checkAll(
      [
        ['adding a ¼ inch of water', 'adding a quarter inch of water'],
        ['a 1/2 cup of milk', 'a half cup of milk'],
        ['A ½ cup', 'A half cup'],
        ['add 1/2 cup', 'add one half cup'],
        ['a 1/8 share', 'a one eighth share'],
      ],
      undefined,
      4,
    );
  });
});

describe('English reading, seventh pass', () => {
  it('opening hours: a short day beside a time or another day is its name; months joined by a dash are "to"; a clock with a point before a.m./p.m.', () => {
    checkHeard([
      ['Fri 5:45-7:15pm', 'Friday five forty five to seven fifteen p.m.'],
      ['Open Sat & Sun 10am-5pm', 'Open Saturday and Sunday ten a.m. to five p.m.'],
      ['Tue, Thu 6pm', 'Tuesday, Thursday six p.m.'],
      ['Mon and Wed: 9am', 'Monday and Wednesday: nine a.m.'],
      ['Sat: 10am-4pm', 'Saturday: ten a.m. to four p.m.'],
      ['The ferry runs May-Sept daily', 'The ferry runs May to September daily'],
      ['Jan–Mar 2024', 'January to March twenty twenty four'],
      ['Open Apr-Oct, daily', 'Open April to October, daily'],
      ['open 9.30am to 5.15pm', 'open nine thirty a.m. to five fifteen p.m.'],
      ['from 9.00 am daily', 'from nine a.m. daily'],
      ['tours 10.30-11.45am', 'tours ten thirty to eleven forty five a.m.'],
      ['It ends at 5 p.m.', 'It ends at five p.m.'],
      // Not a day or a clock: a star, a verb, a decimal with no a.m./p.m.
      ['The Sun rose and Sun Valley', 'The Sun rose and Sun Valley'],
      ['It costs 9.30 pounds', 'It costs nine point three zero pounds'],
      ['weighs 3.45 kg', 'weighs three point four five kilograms'],
    ]);
  });

  it('telephones: an area code with a slash, spaced three-three-four groups, brackets, 1-800 and +1 are digits in groups', () => {
    checkHeard(
      [
        [
          'Call 212/423-3500 for tickets.',
          'Call two one two, four two three, three five zero zero for tickets.',
        ],
        ['at 877 523 9849 or online', 'at eight seven seven, five two three, nine eight four nine or online'],
        ['free; 212 639 9675; daily', 'free; two one two, six three nine, nine six seven five; daily'],
        ['Call (212) 423 3500.', 'Call two one two, four two three, three five zero zero.'],
        ['Call 1-800-555-0199 now.', 'Call one, eight hundred, five five five, zero one nine nine now.'],
        ['Call +1 212 555 0100 now.', 'Call plus one, two one two, five five five, zero one zero zero now.'],
        ['Call 1 212 639 9675.', 'Call one, two one two, six three nine, nine six seven five.'],
      ],
      'telephone',
    );
    // Not phone lengths or a North American exchange: numbers.
    checkHeard(
      [
        [
          'about 1 234 5678 things',
          'about one two hundred thirty four five thousand six hundred seventy eight things',
        ],
        ['a ratio of 212/423 here', 'a ratio of two hundred twelve out of four hundred twenty three here'],
      ],
      undefined,
      2,
    );
  });

  it('money before a singular noun is "dollar" with or without a determiner; a measure in brackets before a noun is singular', () => {
    checkHeard([
      [
        'TESS is on a two-year, $337 million mission to expand',
        'TESS is on a two-year, three hundred thirty seven million dollar mission to expand',
      ],
      // "NASA's" is given as the word "Nasa's": eSpeak drops the "'s" of capitals.
      ["NASA's $337 million telescope has", "Nasa's three hundred thirty seven million dollar telescope has"],
      ['signed $5 billion deal with Apple', 'signed five billion dollar deal with Apple'],
      ['Its $5 million business grew', 'Its five million dollar business grew'],
      ['The five-mile (8 km) journey takes', 'The five-mile (eight kilometer) journey takes'],
      ['on the 5.2-mile (8.4 km) run.', 'on the five point two mile (eight point four kilometer) run.'],
      ['a 10-mile (16 km) hike through', 'a ten mile (sixteen kilometer) hike through'],
      // A price for each, an amount of a mass noun, a verb or a function word after: plural.
      ['Admission $18 adults, $15 seniors', 'Admission eighteen dollars adults, fifteen dollars seniors'],
      ['The storm caused $1 billion damage', 'The storm caused one billion dollars damage'],
      [
        'company discloses $58 million loss for 2023',
        'company discloses fifty eight million dollars loss for twenty twenty three',
      ],
      ['He paid $337 million in cash', 'He paid three hundred thirty seven million dollars in cash'],
      ['Biden signs $1.2 trillion spending bill', 'Biden signs one point two trillion dollar spending bill'],
      ['The storm caused $1 billion damage to homes', 'The storm caused one billion dollars damage to homes'],
      ['It costs $5 extra', 'It costs five dollars extra'],
      // a fare's direction after it is an adverb (set 8, unseen: pass 7 said "dollar")
      [
        'as low as $99 one-way or $214 round-trip.',
        'as low as ninety nine dollars one-way or two hundred fourteen dollars round-trip.',
      ],
      ['They came up $50 million short of', 'They came up fifty million dollars short of'],
      ['spent $5 million lobbying Congress', 'spent five million dollars lobbying Congress'],
      ['The road is 10 miles (16 km) long', 'The road is ten miles (sixteen kilometers) long'],
      ['It runs 10 miles (16 km) to the sea', 'It runs ten miles (sixteen kilometers) to the sea'],
    ]);
  });

  it('a fraction joined to a unit by a hyphen is an adjective (no "one", singular, the hyphen silent); "1/2 an inch" is half; "3/8ths" eighths', () => {
    checkHeard([
      ['So ½-inch drywall gets', 'So half inch drywall gets'],
      ['a 1¼-inch screw', 'a one and a quarter inch screw'],
      ['¾-inch plywood gets', 'three quarter inch plywood gets'],
      ['use 1/2-inch plywood', 'use half inch plywood'],
      ['a 3/4-inch pipe', 'a three quarter inch pipe'],
      ['Between 1/2 an inch and 3/8ths of an inch', 'Between half an inch and three eighths of an inch'],
      ['about 5/8th of an inch thick', 'about five eighths of an inch thick'],
      // No hyphen, no article after: as before.
      // Quarters before a unit are said as an adjective, as held-out sets 5, 14 and 15 say them.
      ['cut ¾ inch off', 'cut three quarter inch off'],
      ['add 1/2 cup', 'add one half cup'],
    ]);
  });

  it('blood pressure: a pair in its ranges after a blood-pressure word in the sentence or before mmHg is "over"; a statistic before "=", "<" or ">" is said', () => {
    checkHeard([
      [
        'The high blood pressure category, which was updated in 2017, is now 130/80, down from the previous 140/90 category.',
        'The high blood pressure category, which was updated in twenty seventeen, is now one thirty over eighty, down from the previous one forty over ninety category.',
      ],
      ['a reading of 120/80 is normal', 'a reading of one twenty over eighty is normal'],
      ['above 140/90 mmHg', 'above one forty over ninety millimeters of mercury'],
      ['my blood pressure was 118/76.', 'my blood pressure was one eighteen over seventy six.'],
      [
        'He ate 3/4 of it and 120/80 of them',
        'He ate three quarters of it and one hundred twenty eighty of them',
      ],
      ['information (OR = 3.32) and', 'information (O R equals three point three two) and'],
      ['(N = 5582)', '(N equals five thousand five hundred eighty two)'],
      ['(HR = 1.2)', '(H R equals one point two)'],
      ['p = 0.03', 'p equals zero point zero three'],
      ['p<.001 and p < 0.05', 'p less than point zero zero one and p less than zero point zero five'],
      ['this OR that = 5', 'this OR that = five'],
    ]);
  });

  it('datelines: ST., FT., MT. opening a line before a city in capitals; call signs in brackets spelt; an introduced acronym said as a word when English could say it', () => {
    checkHeard([
      ['ST. PAUL, Minn. (WCCO) – A man', 'Saint PAUL, Minnesota (W C C O) – A man'],
      ['ST. LOUIS (AP) — A man', 'Saint LOUIS (A.P) — A man'],
      ['FT. WORTH, Texas — Police said', 'Fort WORTH, Texas — Police said'],
      [
        'MINNEAPOLIS / ST. PAUL (11/05/2009) A total',
        'MINNEAPOLIS / Saint PAUL (November fifth, two thousand nine) A total',
      ],
      ['(CNN, WIAT) — Otherworldly discoveries alert!', '(C N N, W I.A T) — Otherworldly discoveries alert!'],
      ['DALLAS (WFAA) — A fire', 'DALLAS (W F.A.A) — A fire'],
      [
        'Polish Optical Gravitational Lensing Experiment (OGLE) ground telescope',
        'Polish Optical Gravitational Lensing Experiment (OGLE) ground telescope',
      ],
      [
        'the Transiting Exoplanet Survey Satellite (TESS) found',
        'the Transiting Exoplanet Survey Satellite (TESS) found',
      ],
      [
        'National Institute of Standards and Technology (NIST)',
        'National Institute of Standards and Technology (NIST)',
      ],
      // Not a word English says: spelt. Not opening a line: a unit or a code.
      [
        'the United States Department of Agriculture (USDA) said',
        'the United States Department of Agriculture (U S D.A) said',
      ],
      ['Phillips Area Community Center (PACC)', 'Phillips Area Community Center (P.A C C)'],
      ['the 6 FT. WALL', 'the six F T. WALL'],
    ]);
  });

  it('sports: a record after a team and "are"/"is" is "and" (0 is "oh"); OT in a sentence about a game is overtime, 2OT double overtime', () => {
    checkHeard([
      ['Eagles Are 4-0; Packers Top Pats in OT', 'Eagles Are four and oh; Packers Top Pats in overtime'],
      ['The Bills improved to 5-1 with the win.', 'The Bills improved to five and one with the win.'],
      ['The Jets fell to 2-7 after the loss.', 'The Jets fell to two and seven after the loss.'],
      ['Dallas is 3-3 this season', 'Dallas is three and three this season'],
      ['They won 24-21 in OT.', 'They won twenty four to twenty one in overtime.'],
      ['a 27-24 OT win over Denver', 'a twenty seven to twenty four overtime win over Denver'],
      ["the team's first 2OT game", "the team's first double overtime game"],
      // A score stays "to"; OT outside a game is spelt.
      ['The score is 2-1 now', 'The score is two to one now'],
      ['She sees an OT twice a week', 'She sees an O T twice a week'],
    ]);
  });

  it('a numeric date with hyphens is month first like one with slashes; a day over twelve first or points keep the day first', () => {
    checkHeard(
      [
        [
          'amended by vote of the people 3-9-1993: Sec.',
          'amended by vote of the people March ninth, nineteen ninety three: Sec.',
        ],
        ['the people 6-8-1976, effective', 'the people June eighth, nineteen seventy six, effective'],
        ['vote of the people 3/9/1993: and', 'vote of the people March ninth, nineteen ninety three: and'],
        ['born 25-12-1990 in', 'born the twenty fifth of December nineteen ninety in'],
        ['on 5.7.2012 at', 'on the fifth of July twenty twelve at'],
      ],
      'date',
      5,
    );
  });

  it('a law\'s section number is said in pairs; an "&" opening a sentence before a telephone is not read', () => {
    checkHeard([
      ['under Sec. 904 of the charter', 'under section nine oh four of the charter'],
      ['Section 230 of the law', 'Section two thirty of the law'],
      ['Section 1983 claims', 'Section nineteen eighty three claims'],
      ['see Section 8 housing', 'see Section eight housing'],
      [
        '1071 Fifth Ave. (at 89th St.). & 212/423-3500.',
        'ten seventy one Fifth Avenue (at eighty ninth Street). two one two, four two three, three five zero zero.',
      ],
      ['Info: & (212) 555-0100', 'Info: two one two, five five five, zero one zero zero'],
      ['Bread & butter. & 5 more', 'Bread and butter. and five more'],
    ]);
  });

  it('a web address in capitals: its ending said as a word, labels in capitals spelt', () => {
    checkHeard(
      [
        ['Source: MillionHearts.HHS.GOV', 'Source: MillionHearts dot H H S dot gov'],
        ['Visit CDC.GOV/flu today', 'Visit C D C dot gov slash flu today'],
        ['visit WWW.CDC.GOV now', 'visit w w w dot C D C dot gov now'],
        ['at example.com/path.', 'at example dot com slash path.'],
      ],
      'url',
      4,
    );
  });

  it('opening hours, more: Tues, Thurs and Fri are always days, a short day after "closed", "open", "until"; noon and midnight in a range; no doubled full stop after p.m.', () => {
    checkHeard([
      [
        'Hours: Mon–Thu 11am–9pm, Fri & Sat 11am–10pm, Sun noon–8pm.',
        'Hours: Monday to Thursday eleven a.m. to nine p.m., Friday and Saturday eleven a.m. to ten p.m., Sunday noon to eight p.m.',
      ],
      [
        'Open daily 10am-6pm (Thurs until 9pm); closed Tues.',
        'Open daily ten a.m. to six p.m. (Thursday until nine p.m.); closed Tuesday.',
      ],
      [
        'The museum is open Wed-Sun, 10.00am-5.30pm.',
        'The museum is open Wednesday to Sunday, ten a.m. to five thirty p.m.',
      ],
      ['open 10am-noon daily', 'open ten a.m. to noon daily'],
      ['closed Mon and Sat', 'closed Monday and Saturday'],
      ['Season runs Nov–Apr.', 'Season runs November to April.'],
      ['He sat on the Sun lounger', 'He sat on the Sun lounger'],
    ]);
    // The full stop after a.m./p.m. that ends a sentence is written once.
    expect(readingOf('It ends at 5pm. Then', 'en').reading).toBe('It ends at five p.m. Then');
    expect(readingOf('from 9.30am.', 'en').reading).toBe('from nine thirty a.m.');
  });

  it('more of the same kinds: a confidence interval of decimals is a range; "the 3-0 Eagles" a record; a call sign with its band spelt', () => {
    checkHeard([
      [
        '(HR = 1.2, 95% CI 1.1-1.4)',
        '(H R equals one point two, ninety five percent C I one point one to one point four)',
      ],
      ['the 3-0 Eagles host Dallas', 'the three and oh Eagles host Dallas'],
      ['The 10-6 Packers clinched', 'The ten and six Packers clinched'],
      ['Packers Top Pats 24-21 Thanks To', 'Packers Top Pats twenty four to twenty one Thanks To'],
      ['© 2024 KARE-TV', '© twenty twenty four K.A R E T V'],
      ['the KSTP-TV crew', 'the K S T P T V crew'],
      ['scores of 1-1 and 50-50 odds', 'scores of one-one and fifty-fifty odds'],
    ]);
  });

  it('a pair after "are"/"is" before a clock word, a time word or a unit is a range, never a record', () => {
    checkHeard([
      ['Daily Open Hours are 1-6 pm most weekdays.', 'Daily Open Hours are one to six p.m. most weekdays.'],
      ['Lessons are 7-9pm on Wednesdays.', 'Lessons are seven to nine p.m. on Wednesdays.'],
      ['Sessions are 2-4 hours long.', 'Sessions are two to four hours long.'],
      ['The shops are 5-10 km away.', 'The shops are five to ten kilometers away.'],
      ['The boards are 1-2 inches thick.', 'The boards are one to two inches thick.'],
      ['The Eagles are 4-0 and rolling.', 'The Eagles are four and oh and rolling.'],
      ['The Lakers are 2-1 in the series.', 'The Lakers are two and one in the series.'],
    ]);
  });

  it('records: two pairs in brackets after a team (league, overall) and "is now 3-3" are wins and losses', () => {
    checkHeard([
      [
        'The Rams (0-2, 4-7) stayed close early on.',
        'The Rams (oh and two, four and seven) stayed close early on.',
      ],
      [
        'Jefferson-Morgan (1-0, 5-1) rolled to a lead.',
        'Jefferson-Morgan (one and oh, five and one) rolled to a lead.',
      ],
      ['Jackson is now 3-3 on the season.', 'Jackson is now three and three on the season.'],
      ['The Lakers (50-18) won again.', 'The Lakers (fifty and eighteen) won again.'],
      ['See Pages (1-2, 4-7) for the rules.', 'See Pages (one to two, four to seven) for the rules.'],
      ['The score is now 3-3 after ten minutes.', 'The score is now three-three after ten minutes.'],
    ]);
  });

  it('ratings: a score out of 5 or 10 ending a review line, after "rated"/"give it" or before "stars" is "out of"; other fractions stay fractions', () => {
    checkHeard([
      ['Display 4/5', 'Display four out of five'],
      ['Battery Life 5/5', 'Battery Life five out of five'],
      ['Reception & Call Quality 4/5', 'Reception and Call Quality four out of five'],
      ['The film is rated 4/5 by critics.', 'The film is rated four out of five by critics.'],
      ['I give it 8/10.', 'I give it eight out of ten.'],
      ['It got 4/5 stars.', 'It got four out of five stars.'],
      ['Mix 3/5 of the flour', 'Mix three fifths of the flour'],
      ['Only 4/5 of voters came.', 'Only four fifths of voters came.'],
      ['About 3/10', 'About three tenths'],
    ]);
  });

  it('forms and law reports: N/A, w/, Dist. Ct., "U.S. v Langford", WWII; a plural in brackets "(s)" is the plural', () => {
    checkHeard([
      ['Background: N/A', 'Background: not applicable'],
      ['T-shirt included w/ registration:', 'T-shirt included with registration:'],
      ['Also, Dist. Ct. did not err.', 'Also, District Court did not err.'],
      ['U.S. v Langford is about a politician.', 'U S versus Langford is about a politician.'],
      ['He fought in WWII.', 'He fought in World War Two.'],
      ['WWI ended in 1918.', 'World War One ended in nineteen eighteen.'],
      ['or registration(s) will be cancelled.', 'or registrations will be cancelled.'],
      ['Bring the box(es) and item(s).', 'Bring the boxes and items.'],
      ['vitamin v is rare', 'vitamin v is rare'],
      ["Sct'd downpours will pop up.", 'Scattered downpours will pop up.'],
      ['R.I.M., which is in the midst', 'R I M, which is in the midst'],
      ['Adjusted, R.I.M. reported a profit.', 'Adjusted, R I M reported a profit.'],
      ['He was a P.O.W. in Korea.', 'He was a P O W in Korea.'],
    ]);
  });

  it('money: the currency written twice is said once; a scale joined by a hyphen ("$54-thousand") is the scale', () => {
    checkHeard([
      ['nearly $1 million dollars in narcotics', 'nearly one million dollars in narcotics'],
      ['More than $54-thousand in rewards', 'More than fifty four thousand dollars in rewards'],
      ['and $50-thousand worth of property', 'and fifty thousand dollars worth of property'],
      ['costs $5-10 each', 'costs five to ten dollars each'],
      [
        'a $25.00 processing and administrative fee (for each)',
        'a twenty five dollar processing and administrative fee (for each)',
      ],
      ['a $5-million deal', 'a five million dollar deal'],
      [
        'a non-refundable $25 processing and administrative fee to complete it',
        'a non-refundable twenty five dollar processing and administrative fee to complete it',
      ],
      ['He paid $5 dollars for it.', 'He paid five dollars for it.'],
    ]);
  });

  it('capitals: a short English word among words in capitals is the word ("TO", "IT"); "#" after capitals is "number"', () => {
    checkHeard([
      ['RECOMMEND TO COUNCIL TO ADOPT', 'RECOMMEND to COUNCIL to ADOPT'],
      ['NOW, THEREFORE, BE IT RESOLVED by the City', 'now, THEREFORE, be it RESOLVED by the City'],
      ['NEW YORK (AP) — A man', 'new YORK (A.P) — A man'],
      ['OPTION 1: WALK IT OUT', 'OPTION one: WALK it out'],
      [
        'A RESOLUTION APPROVING BUDGET AMENDMENT#13',
        'A RESOLUTION APPROVING BUDGET AMENDMENT number thirteen',
      ],
      ['a confidential ID# to use', 'a confidential I D number to use'],
      ['Our IT team is here.', 'Our IT team is here.'],
      ['He was #1 again.', 'He was number one again.'],
    ]);
  });

  it('council papers: a fiscal year across two years is both years; a council bill or ordinance number is said in pairs', () => {
    checkHeard([
      [
        'approve the FY 20/21 second budget amendment',
        'approve the F Y twenty twenty one second budget amendment',
      ],
      ['to complete FY 2020-21 budget.', 'to complete F Y twenty twenty twenty one budget.'],
      ['the FY 2005-06 budget', 'the F Y two thousand five oh six budget'],
      ['FY2024 and FY23 results', 'F Y twenty twenty four and F Y twenty three results'],
      ['CB 2340 was read the second time.', 'C B twenty three forty was read the second time.'],
      ['Ordinance 1234 passed.', 'Ordinance twelve thirty four passed.'],
      ['Ordinance 21-112, Public Hearing', 'Ordinance twenty one one twelve, Public Hearing'],
      ['Section 12-34 applies', 'Section twelve to thirty four applies'],
    ]);
  });

  it('recipes: a spoon letter after a fraction sign is the spoon, singular after a proper fraction, plural after a mixed one', () => {
    checkHeard([
      ['add 1½ t baking powder', 'add one and a half teaspoons baking powder'],
      ['and ¼ to ½ t salt', 'and one quarter to one half teaspoon salt'],
      ['stir in ½ T butter', 'stir in one half tablespoon butter'],
      ['add 2¼ cups flour', 'add two and a quarter cups flour'],
      ['1½ miles away', 'one and a half miles away'],
      ['add 1 t salt', 'add one teaspoon salt'],
    ]);
    // A size before "can" the container is singular; before "can" the verb the amount stays plural.
    checkHeard([
      ['1 8 oz can crushed pineapple', 'one eight ounce can crushed pineapple'],
      ['a 12 oz can of soda', 'a twelve ounce can of soda'],
      ['5 lbs can be lifted', 'five pounds can be lifted'],
      ['2 cups can fit here', 'two cups can fit here'],
      ['a 15 oz can diced tomatoes', 'a fifteen ounce can diced tomatoes'],
      ['6 oz can make a cake', 'six ounces can make a cake'],
    ]);
  });

  it('a height before "tall" is "six foot two"; feet and inches elsewhere keep their names', () => {
    checkHeard([
      ['at over 6\' 2" tall, with', 'at over six foot two tall, with'],
      ['He is 5\'11" tall.', 'He is five foot eleven tall.'],
      ['he is 5\'11" and fit', 'he is five feet eleven inches and fit'],
      ['a 6\'2" door', 'a six feet two inches door'],
      ['She stands 5\' 4" tall', 'She stands five foot four tall'],
      ['a 5\'0" gap', 'a five feet zero inches gap'],
    ]);
  });

  it('a unit over a period written short ("min/wk", "hrs/wk", "km/wk") is the unit per the period', () => {
    checkHeard([
      ['exercise 30 min/day, every day', 'exercise thirty minutes per day, every day'],
      ['work 40 hrs/wk at most', 'work forty hours per week at most'],
      ['walk 10 km/wk.', 'walk ten kilometers per week.'],
      ['a 120 km/h zone', 'a one hundred twenty kilometer per hour zone'],
      ['5 km/h', 'five kilometers per hour'],
      ['2 mg/kg', 'two milligrams per kilogram'],
    ]);
  });

  it('a school year with a slash is both years, when they follow each other; a state in brackets after a place, or before an airport code', () => {
    checkHeard([
      ['2019/2020 Kindergarten Registration', 'twenty nineteen twenty twenty Kindergarten Registration'],
      ['for the 2019/2020 school year', 'for the twenty nineteen twenty twenty school year'],
      ['at the Salem (Ore.) hospital', 'at the Salem (Oregon) hospital'],
      ['Center-Minocqua (Wis.) completed', 'Center-Minocqua (Wisconsin) completed'],
      ['from Portland, OR (PDX).', 'from Portland, Oregon (P D X).'],
      ['Washington Reagan, VA (DCA) on', 'Washington Reagan, Virginia (D C.A) on'],
    ]);
    // Not two years that follow each other, a bracket of more than a state, a postal code in brackets.
    for (const text of [
      'in 2019/2021 and',
      'said (Ore. and Wash.) no',
      'NEW YORK (AP) —',
      'Bob, OR (maybe) not',
    ]) {
      expect(readingOf(text, 'en').reading).not.toMatch(/twenty twenty one|Oregon|Washington|Alabama/);
    }
  });

  it('weather and court papers: m.p.h., a latitude or longitude, a charge "count I"; a middle initial is no numeral', () => {
    checkHeard([
      ['moving at 10 m.p.h. (16 km/h).', 'moving at ten miles per hour (sixteen kilometers per hour).'],
      ['gusts to 95 m.p.h. The storm', 'gusts to ninety five miles per hour. The storm'],
      [
        'latitude 15.1°N and longitude 114.8°W',
        'latitude fifteen point one degrees North and longitude one hundred fourteen point eight degrees West',
      ],
      [
        'manslaughter (count I) and a felony (count II).',
        'manslaughter (count one) and a felony (count two).',
      ],
      ['the head count I expected', 'the head count I expected'],
      ['at 80 m.p.h.', 'at eighty miles per hour.'],
    ]);
    expect(readingOf('and Mark D. Raffety, for appellee.', 'en').reading).toBe(
      'and Mark D. Raffety, for appellee.',
    );
    expect(readingOf('Mark II was built.', 'en').reading).toBe('Mark two was built.');
    // A party and state: the abbreviation from the table (not from the pattern); an unknown one stays.
    expect(readingOf('Joe Manchin (D-W.Va.) said', 'en').reading).toBe(
      'Joe Manchin (Democrat of West Virginia) said',
    );
    expect(readingOf('Mr. X (R-Foo.) said', 'en').reading).toContain('(R-Foo.)');
  });

  it('timetables, castles, tax forms and spec sheets (set 10): a four-digit 24-hour time, a monarch\'s "I", a form\'s number in pairs, a lone C after "Type"', () => {
    checkHeard([
      ['on board the 0531 from Sheffield', 'on board the oh five thirty one from Sheffield'],
      ['at Stalybridge at 0846 and', 'at Stalybridge at oh eight forty six and'],
      ['(2353 UTC)', '(twenty three fifty three U T C)'],
      ['at 1800 hours', 'at eighteen hundred hours'],
      ['under the orders of William I', 'under the orders of William the first'],
      ['submitted to William I at the castle.', 'submitted to William the first at the castle.'],
      ['by filing Form 4868, Application', 'by filing Form forty eight sixty eight, Application'],
      ['Approx. 610 images', 'Approximately six hundred ten images'],
      [
        'Shared lobby: 8:30am – 4:30pm, M-F',
        'Shared lobby: eight thirty a.m. to four thirty p.m., Monday to Friday',
      ],
      ['Martin Luther King, Jr Day', 'Martin Luther King, Junior Day'],
      ['cutoff times, etc, please', 'cutoff times, et cetera, please'],
      ['and Type C charging.', 'and Type C charging.'],
      ['a fever (> 100 degrees)', 'a fever (greater than one hundred degrees)'],
      ['more than 1,000 KW of power', 'more than one thousand kilowatts of power'],
      ['volunteers and $ 1 million in donations', 'volunteers and one million dollars in donations'],
      ['at 225 NW 27th Ave., Miami.', 'at two hundred twenty five Northwest twenty seventh Avenue, Miami.'],
      ['quake hits 4km SW of East Shore', 'quake hits four kilometers southwest of East Shore'],
    ]);
    // A pronoun after a monarch's name stays one; so does a year.
    expect(readingOf('Mary I love you', 'en').reading).toBe('Mary I love you');
    expect(readingOf('in 2015 the', 'en').reading).toBe('in twenty fifteen the');
  });

  it('home sales, race results, museum hours and power specs (set 11): five-digit house numbers, lap times, short days in hours, money per a word', () => {
    checkHeard([
      ['The home at 13620 West Carriage Lane in', 'The home at thirteen six twenty West Carriage Lane in'],
      ['at 24001 South Sunset Lakes Drive, sold', 'at twenty four oh oh one South Sunset Lakes Drive, sold'],
      [
        'Selah Bach (19:04.70), Chelsea',
        'Selah Bach (nineteen minutes four point seven zero seconds), Chelsea',
      ],
      ['Campbell (24:00.10) was', 'Campbell (twenty four minutes zero point one zero seconds) was'],
      ['Wed to Fri – 10 a.m. to 5 p.m.', 'Wednesday to Friday – ten a.m. to five p.m.'],
      ['Sun – Noon to 4 p.m.', 'Sunday – Noon to four p.m.'],
      ['a clear first bonus of $200 USD.', 'a clear first bonus of two hundred US dollars.'],
      ['for $1,404/case, deserves', 'for one thousand four hundred four dollars per case, deserves'],
      ['operated at 120VAC, and', 'operated at one hundred twenty volts A.C, and'],
      [
        'less than 1W (at 90VAC~240VAC).',
        'less than one watt (at ninety volts A.C to two hundred forty volts A.C).',
      ],
      ['a temperature of 25° C, with', 'a temperature of twenty five degrees Celsius, with'],
      ['the leg from No.2 to Milnerton', 'the leg from number two to Milnerton'],
      ['takes places from January-August.', 'takes places from January to August.'],
      ['Drink 2014-20.', 'Drink twenty fourteen to twenty twenty.'],
      ['the turn-of-the-18th-century plight', 'the turn-of-the-eighteenth-century plight'],
      [
        'is 4.37", but we were 0.77" below',
        'is four point three seven inches, but we were zero point seven seven inches below',
      ],
      ['• Nurture and Nap Time is 2 - 4 p.m. daily.', 'Nurture and Nap Time is two to four p.m. daily.'],
      ['- 8:10 AM - 10K Run', 'eight ten a.m. - ten K Run'],
    ]);
    // A year range before 2010 keeps its short second year; a sun and a verb stay words.
    expect(readingOf('in 1990-95', 'en').reading).toBe('in nineteen ninety to ninety five');
    expect(readingOf('The Sun - a newspaper', 'en').reading).toBe('The Sun - a newspaper');
    expect(readingOf('salaries of 50-60K a year', 'en').reading).toMatch(/^salaries of fifty to sixty /u);
    expect(readingOf('about ~5 kg', 'en').reading).toMatch(/^about +five kilograms$/u);
  });

  it('agendas, lotteries, frost dates, recipes and scales (set 12): Roman headings, drawn numbers, a month with its zero, a measure "or" another', () => {
    checkHeard([
      ['II. Public Hearing', 'Two. Public Hearing'],
      ['- IV. Discuss Consider and Action', 'Four. Discuss Consider and Action'],
      [
        'drawing were 13-14-41-49-59 with',
        'drawing were thirteen, fourteen, forty one, forty nine, fifty nine with',
      ],
      ['Average Last Frost: 02/15', 'Average Last Frost: February fifteenth'],
      ['Average First Frost: 12/15', 'Average First Frost: December fifteenth'],
      [
        'reflecting the 2021-2022 values will',
        'reflecting the twenty twenty one to twenty twenty two values will',
      ],
      [
        '20-40 lbs: 1 1/2 - 2 3/4 cups',
        'twenty to forty pounds: one and a half to two and three quarters cups',
      ],
      ['· 450g/1lb Self Raising Flour', 'four hundred fifty grams or one pound Self Raising Flour'],
      [
        '· 250-300ml/½pt Milk (approx)',
        'two hundred fifty to three hundred milliliters or half pint Milk (approximately)',
      ],
      ['Effective: 01Dec2016', 'Effective: the first of December twenty sixteen'],
      ['HO 1:87 scale', 'HO one to eighty seven scale'],
      ['Wed, 5 February 2025', 'Wednesday, the fifth of February twenty twenty five'],
      ['Group Tickets - (Min 25 paid tickets)', 'Group Tickets - (Minimum twenty five paid tickets)'],
      ['C.T. Branin Natatorium, Canton, OH', 'C T Branin Natatorium, Canton, Ohio.'],
    ]);
    // A postal code that is a word stays one after a name alone ("Mike, OK").
    expect(readingOf('Sure thing, Mike, OK', 'en').reading).toBe('Sure thing, Mike, OK');
    // An initial stays one; a clock stays a clock; a fraction after "by" or in a recipe stays one.
    expect(readingOf('I. M. Pei designed it', 'en').reading).toBe('I M Pei designed it');
    expect(readingOf('at 9:45 today', 'en').reading).toBe('at nine forty five today');
    expect(readingOf('add 3/4 cup', 'en').reading).toBe('add three quarter cup');
    expect(readingOf('add 2 3/4 cups', 'en').reading).toBe('add two and three quarters cups');
    expect(readingOf('pages 1200-1300 words', 'en').reading).toBe(
      'pages one thousand two hundred to one thousand three hundred words',
    );
  });

  it('trail guides, zoo facts, patch notes and police reports (set 13): a rating scale, "between … and", a dash after a version, Det., NO.', () => {
    checkHeard([
      ['Trailhead parking area Rating (1-5)', 'Trailhead parking area Rating (one to five)'],
      [
        'can weigh between 10,000–12,000 pounds!',
        'can weigh between ten thousand and twelve thousand pounds!',
      ],
      [
        'Version 4.6.3 - 27 November 2018',
        'Version four point six point three - the twenty seventh of November twenty eighteen',
      ],
      [
        'Graywolf Press, 2006. ISBN 9781555974503.',
        'Graywolf Press, two thousand six. I S B N nine seven eight one five five five nine seven four five zero three.',
      ],
      [
        'and resisting arrest, Det. Lt. Jeremy Christopher said',
        'and resisting arrest, Detective Lieutenant Jeremy Christopher said',
      ],
      ['NO. 12 Houston 85', 'Number twelve Houston eighty five'],
    ]);
    // A team's record in brackets after its name stays a record.
    expect(readingOf('Reds (3-1)', 'en').reading).toBe('Reds (three and one)');
  });

  it('gas prices, a volcano notice, an aquarium, a lab protocol (set 14): degrees F, ppm, µl, mos, lbs, RPM, AAA, ARM, an identifier after "#", a list of states', () => {
    checkHeard([
      ['Temperature | 68 - 82 degrees F |', 'Temperature, sixty eight to eighty two degrees Fahrenheit'],
      ['It was 20 deg C.', 'It was twenty degrees Celsius.'],
      [
        'Nitrite | 0 ppm | < 0.1 ppm |',
        'Nitrite, zero parts per million, less than zero point one parts per million',
      ],
      ['3. Resuspend in 500 μl lysis buffer.', 'Three. Resuspend in five hundred microliters lysis buffer.'],
      ['(less than 18 mos of age)', '(less than eighteen months of age)'],
      ['for each 550 lbs body weight', 'for each five hundred fifty pounds body weight'],
      [
        'recover liquid phase (7000 rpm for 1 min)',
        'recover liquid phase (seven thousand R P M for one minute)',
      ],
      ['AAA continues to expect', 'Triple A continues to expect'],
      ['the 5-year ARM averaged', 'the five-year Arm averaged'],
      ['Cleveland (VNUM #311240)', 'Cleveland (V N U M number three one one two four zero)'],
      [
        'in five states (Wyo., Utah, Colo., Okla. and Minn.) currently',
        'in five states (Wyoming, Utah, Colorado, Oklahoma and Minnesota) currently',
      ],
    ]);
    // A written singular before a noun stays singular; a short number after "#" stays a number.
    expect(readingOf('a 550 lb horse', 'en').reading).toBe('a five hundred fifty pound horse');
    expect(readingOf('the #1 hit', 'en').reading).toBe('the number one hit');
  });

  it('track meets, hockey, weather, cars and recipes (set 15): W-L-T records, an event\'s glued length, a wind between two points, lb-ft, a word acronym\'s "\'s", "(ex. 1)"', () => {
    checkHeard([
      [
        'The Rangers were 5-2-1 in their last eight.',
        'The Rangers were five and two and one in their last eight.',
      ],
      [
        'the visitors stay unbeaten at 4-0-3 after',
        'the visitors stay unbeaten at four and oh and three after',
      ],
      ['Girls 400m Relay - 58.20', 'Girls four hundred meter Relay - fifty eight point two zero'],
      [
        'Gusts from a S-SW wind near 30 mph.',
        'Gusts from a South Southwest wind near thirty miles per hour.',
      ],
      ['It makes 420 lb-ft of torque.', 'It makes four hundred twenty pound-feet of torque.'],
      ["FEMA's teams and the FBI's agents", "Fema's teams and the F B I's agents"],
      ['3/4 tsp baking soda', 'three quarter teaspoon baking soda'],
      ['Small values (ex. 2) are early builds.', 'Small values (for example two) are early builds.'],
    ]);
    // A length with a space, or before a day, keeps its plural; three numbers elsewhere are no record.
    expect(readingOf('ran 400m Monday', 'en').reading).toBe('ran four hundred meters Monday');
    expect(readingOf('3/4 of the vote', 'en').reading).toBe('three quarters of the vote');
    expect(readingOf('the 2-5-10 rule', 'en').reading).not.toMatch(/ and /u);
  });

  it('recalls, parcels, trials, weather and timetables (set 16): codes, marks, ranges of one unit, counts of a total, capitals, coordinates', () => {
    checkHeard([
      [
        'coating with UPC 41303-01572 due to',
        'coating with U P C four one three zero three zero one five seven two due to',
      ],
      [
        'bags no larger than 12” x 6” x 12” and/or clutches',
        'bags no larger than twelve inches by six inches by twelve inches and or clutches',
      ],
      ['approximately 8 ½” by 3”.', 'approximately eight and a half inches by three inches.'],
      ['a 5/8” or 3/4” meter', 'a five eighths inch or three quarter inch meter'],
      ['check in before 1:00 P.m. today', 'check in before one p.m. today'],
      ['John Piccone’s St. Paul bungalow', 'John Piccone’s Saint Paul bungalow'],
      ['First Bus S/bound, Last Bus N/Bound', 'First Bus Southbound, Last Bus Northbound'],
      ['your Rx number', 'your R X number'],
      ['won by 6 wkts', 'won by six wickets'],
      ['Lee Corp of Perryville', 'Lee Corporation of Perryville'],
      ['The central pressure is 985 mb.', 'The central pressure is nine hundred eighty five millibars.'],
      ['a 25mb attachment', 'a twenty five megabyte attachment'],
      ['| 2kg – 3kg | Ksh350.00 |', 'two kilograms to three kilograms, three hundred fifty shillings'],
      ['Medium Parcels (5kg–10kg)', 'Medium Parcels (five kilograms to ten kilograms)'],
      ['The fare will be £1.50 from Sunday.', 'The fare will be one pound fifty from Sunday.'],
      [
        '43.9% (323/736) patients',
        'forty three point nine percent (three hundred twenty three out of seven hundred thirty six) patients',
      ],
      ['closed up 11/32 today', 'closed up eleven thirty seconds today'],
      ['1 Imperial cup = 10 fluid ounces', 'one Imperial cup equals ten fluid ounces'],
      ['SAN JUAN CAPISTRANO CITY COUNCIL, today', 'San Juan Capistrano City Council, today'],
      [
        'LOCATION: 28.6 N, 86.9 W, about 135 miles',
        'LOCATION: twenty eight point six North, eighty six point nine West, about one hundred thirty five miles',
      ],
      ['Selby whitewashed Neil Richardson 5-0.', 'Selby whitewashed Neil Richardson five to nothing.'],
    ]);
    // A quote closed by the mark stays a quote; a known acronym in capitals stays spelt.
    expect(readingOf('the “Top 3/4”', 'en').reading).toBe('the “Top three quarters”');
    expect(readingOf('THE GOP PLAN WORKS', 'en').reading).toContain('G O P');
    expect(readingOf('2pm-5pm', 'en').reading).toBe('two p.m. to five p.m.');
  });

  it('museums, cars, forecasts, knitting, specs and tables (set 17): days, mileage, gusts, sums, units in brackets, race tables', () => {
    checkHeard([
      ['- Sat, Dec 14: Museum closes early', 'Saturday, December fourteenth: Museum closes early'],
      ['Friday, November 1 st is the', 'Friday, November first is the'],
      ['November 2 nd and 3 rd , and', 'November second and third, and'],
      [
        'Rail Travel Summary for Week 16: 16-22 July',
        'Rail Travel Summary for Week sixteen: the sixteenth to the twenty second of July',
      ],
      [
        'gas mileage is listed as 27/36 mpg or 27/34 with automatic',
        'gas mileage is listed as twenty seven thirty six miles per gallon or twenty seven thirty four with automatic',
      ],
      ['at 30 mpg highway, but', 'at thirty miles per gallon highway, but'],
      ['at $24K to $32K either.', 'at twenty four thousand dollars to thirty two thousand dollars either.'],
      [
        'Wind: NW 7-12G18 Low: 24-29',
        'Wind: Northwest seven to twelve gusting to eighteen Low: twenty four to twenty nine',
      ],
      ['4.2 Earthquake SE of Volcano', 'four point two Earthquake Southeast of Volcano'],
      ['a 10 x 10cm (4in x 4in) square', 'a ten by ten centimeters (four inches by four inches) square'],
      [
        '48cm x 22sts = 1056 ÷ 10cm= 105.6',
        'forty eight centimeters times twenty two stitches equals one thousand fifty six divided by ten centimeters equals one hundred five point six',
      ],
      ['Water temp was 63.', 'Water temperature was sixty three.'],
      ['On Thursday 10/23/14 there', 'On Thursday October twenty third, twenty fourteen there'],
      ['• 861,865 Chestnut Dr', 'eight sixty one, eight sixty five Chestnut Drive'],
      ['entered with a 9-1 career record', 'entered with a nine and one career record'],
      ['excepting only 1961 and 1978.', 'excepting only nineteen sixty one and nineteen seventy eight.'],
      [
        'Actual Product Length (ft.) | 8 ft | Thickness (in.) | 1.5 in |',
        'Actual Product Length (feet), eight feet, Thickness (inches), one point five inches',
      ],
      ['Chemical retention | 0.15 lb/ft3 |', 'Chemical retention, zero point one five pounds per cubic foot'],
      ['2.3 WSD™ and Everyday® Coat', 'two point three W S D and Everyday Coat'],
      ['Alpha Black Aluminum w/TCT Carbon stays', 'Alpha Black Aluminum with T C T Carbon stays'],
      ['Crank | Shimano 105 50/34 |', 'Crank, Shimano one hundred five fifty thirty four'],
      ['1 | Stanley | KEN | 28:31 |', 'one, Stanley, K E N, twenty eight minutes thirty one seconds'],
      [
        'The Wall | 20:27 | 1:21:50 |',
        'The Wall, twenty minutes twenty seven seconds, one hour twenty one minutes fifty seconds',
      ],
      [
        'Service 2 60 mins 06:30 07:00 18:30 18:00',
        'Service two sixty minutes six thirty seven hundred eighteen thirty eighteen hundred',
      ],
      ['5/1 ARM 3.23%', 'five one Arm three point two three percent'],
      ['Data from a NOAA Hurricane Hunter', 'Data from a Noah Hurricane Hunter'],
    ]);
    // What must stay as it was: a score before a month's day, a count on a street, a ratio, a
    // lone "in", an oven's "temp", numerals in brackets, a timetable's clock.
    checkHeard([
      ['They won 5-3 May 4 at home', 'They won five to three May fourth at home'],
      ['1,200 Main Street businesses', 'one thousand two hundred Main Street businesses'],
      ['a ratio of 19/28', 'a ratio of nineteen out of twenty eight'],
      ['he was 5 in, the', 'he was five in, the'],
      ['350F on the oven temp.', 'three hundred fifty degrees Fahrenheit on the oven temp.'],
      ['| Bus | 9:15 | 10:30 |', 'Bus, nine fifteen, ten thirty'],
      [
        'Boston had been 8-0-1 in its past nine home games.',
        'Boston had been eight and oh and one in its past nine home games.',
      ],
      ['a G7 summit with winds', 'a G seven summit with winds'],
      ['at 07:00 we met', "at seven o'clock we met"],
    ]);
    expect(readingOf('see (i) and (ii)', 'en').reading).toBe('see (i) and (ii)');
  });
});

describe('English reading, seventeenth pass (the failures of held-out set 18)', () => {
  it('reads dosage charts, torques, contract numbers, star names, resolutions and bus timetables', () => {
    checkHeard([
      ['Drops 160mg/5mL here', 'Drops one hundred sixty milligrams per five milliliters here'],
      ['24-35 lbs | 2-3 yrs |', 'twenty four to thirty five pounds, two to three years'],
      ['add 2 ½ tsp. salt', 'add two and a half teaspoons salt'],
      [
        'Tightening torque: 31.4 ~ 38.2 N.m (3.2 ~ 3.9 kgf.m)',
        'Tightening torque: thirty one point four to thirty eight point two newton meters (three point two to three point nine kilogram-force meters)',
      ],
      ['the Gothic[?] style in about 1350, and', 'the Gothic style in about thirteen fifty, and'],
      ['GAAP diluted earnings', 'Gap diluted earnings'],
      ['Contract Number C16162262 With', 'Contract Number C one six one six two two six two With'],
      ['the Overpass Project (PE-11011).', 'the Overpass Project (P E one one oh one one).'],
      ['the star K2-72, which', 'the star K two seventy two, which'],
      ['Please use the Map / GPS version.', 'Please use the Map, G P S version.'],
      [
        'Heat the oven to 180 deg C / Gas Mark 4.',
        'Heat the oven to one hundred eighty degrees Celsius, Gas Mark four.',
      ],
      ['has 1920×1080.', 'has nineteen twenty by ten eighty.'],
      ['Heritage Square (S 12th Street), Lakeshore', 'Heritage Square (South twelfth Street), Lakeshore'],
      ['at :15 and :45 past the hour.', 'at fifteen and forty five past the hour.'],
      ['or call 30 min prior', 'or call thirty minutes prior'],
      [
        'of the .NET framework for Unix, Windows, MacOS and',
        'of the dot net framework for Unix, Windows, Mac O S and',
      ],
      ['on the U.S.’s eastern seaboard', 'on the U S’s eastern seaboard'],
      ['Opposition | Old Halesonians 4ths |', 'Opposition, Old Halesonians fourths'],
      ['1-1 at half time.', 'One to one at half time.'],
      ['about 2½ -4 inches tall', 'about two and a half to four inches tall'],
      ['the Apple iPhone 6s Plus, as', 'the Apple iPhone six s Plus, as'],
      [
        'while the 6S Plus has a 2,915mAh one.',
        'while the six S Plus has a two thousand nine hundred fifteen milliamp hour one.',
      ],
      ['for the Highway 101 Overpass Project', 'for the Highway one oh one Overpass Project'],
      ['on Route 128 north', 'on Route one twenty eight north'],
      ['After that, your APR will vary', 'After that, your A.P R will vary'],
      ['the screen updates (Hz).', 'the screen updates (hertz).'],
      ['win tied the series 3-3 in front', 'win tied the series three to three in front'],
      ['placed three .30-caliber shell casings', 'placed three thirty-caliber shell casings'],
      ['a .357-caliber revolver', 'a three fifty seven-caliber revolver'],
      ["The men's 2011 convictions were", "The men's twenty eleven convictions were"],
      ['Sunday morning October 7/8.', 'Sunday morning October seventh to eighth.'],
      ['Apple iPhone 4, AT&T: 95%', 'Apple iPhone four, A.T and T: ninety five percent'],
      ['See Apr. for details, and MAY 2020', 'See April for details, and May twenty twenty'],
    ]);
    // What must stay as it was: a count after "in about" before a plural noun, equivalent
    // measures, a quarter's range, a short model code, a dateline's slash, a Bible verse.
    checkHeard([
      ['in about 1500 cases', 'in about one thousand five hundred cases'],
      ['450g/1lb flour', 'four hundred fifty grams or one pound flour'],
      ['Q1-3 sales', 'Q one to three sales'],
      ['the A380 landed', 'the A-three eighty landed'],
      ['MINNEAPOLIS / ST. PAUL', 'Minneapolis slash Saint Paul'],
      ['John 3:16 says', 'John three sixteen says'],
      ['a 50-50 split', 'a fifty-fifty split'],
      ['Route 5 buses', 'Route five buses'],
      ["the company's 2000 employees", "the company's two thousand employees"],
    ]);
  });
});

describe('English reading, eighteenth pass (the failures of held-out set 19)', () => {
  it('reads runways, feet with a closing mark, sizes, letter pairs, climate tables and sweeps', () => {
    checkHeard([
      [
        'a single Runway  7/25 which is 11,800’ x 200’, oriented',
        'a single Runway seven twenty five which is eleven thousand eight hundred feet by two hundred feet, oriented',
      ],
      ['Runways 9L/27R are closed', 'Runways nine left twenty seven right are closed'],
      ['from the centerline by 1,024’.', 'from the centerline by one thousand twenty four feet.'],
      ['Full-frame (approx. 36x24mm):', 'Full-frame (approximately thirty six by twenty four millimeters):'],
      ['room A/C units over 12,000 BTU', 'room A.C units over twelve thousand B T U'],
      ['courses are S/U graded; I/O ports', 'courses are S U graded; I O ports'],
      ['Design Group V aircraft', 'Design Group five aircraft'],
      ['(or ST. Louis) OF FRANCE', '(or Saint Louis) of France'],
      [
        'Avg number of days max >= 90 F° (POR)',
        'Average number of days max greater than or equal to ninety degrees Fahrenheit (P O R)',
      ],
      ['| Jan | Feb | Mar | Apr | May |', 'January, February, March, April, May'],
      [
        'a gross tonnage of 156,907 dwt',
        'a gross tonnage of one hundred fifty six thousand nine hundred seven deadweight tons',
      ],
      ['Mean cell volume (MCV) 80 98 fL', 'Mean cell volume (M C V) eighty ninety eight femtoliters'],
      ['stored in another file (a.s.o.).', 'stored in another file (and so on).'],
      ['as they fell 3-0 to Ohio County.', 'as they fell three to nothing to Ohio County.'],
      [
        'in the E-Gals 3-0 (25-18, 25-18, 25-22) sweep',
        'in the E-Gals three to nothing (twenty five to eighteen, twenty five to eighteen, twenty five to twenty two) sweep',
      ],
    ]);
    // What must stay as it was: "N/A", a code with an "x" and a plural, a record after "fell to",
    // a fraction of a cup, a quote's closing mark, a month alone in capitals, a range after "fell".
    checkHeard([
      ['Background: N/A', 'Background: not applicable'],
      ['an MP3s file and 2x4s', 'an M P threes file and two x fours'],
      ['they fell to 8-8 on the year', 'they fell to eight and eight on the year'],
      ['add 1/2 cup sugar', 'add one half cup sugar'],
      ['Taxiway ‘A’ is lighted', 'Taxiway ‘A’ is lighted'],
      ['your APR will vary', 'your A.P R will vary'],
      ['Prices fell 10-20 percent', 'Prices fell ten to twenty percent'],
    ]);
  });
});
