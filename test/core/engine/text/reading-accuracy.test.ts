/**
 * How often the text stage's reading sounds the way a careful reader says it (issue 37, point 6),
 * heard through the real eSpeak: the harness itself (test/fixtures/reading-accuracy.ts), then
 * floors on the twelve case sets (test/fixtures/reading-cases/). `npm run bench:reading` prints the
 * per-class tables and the failures.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { loadPhonemizer, type EspeakPhonemizer } from '../../../fixtures/espeak';
import {
  PhonemeComparator,
  READING_CASE_SETS,
  comparablePhonemes,
  measureCases,
  measureSet,
  parseReadingCases,
  withEquivalentReadings,
  type ReadingCaseSetName,
  type SetAccuracy,
} from '../../../fixtures/reading-accuracy';

/**
 * The share of each set's cases that must be right (ours), as measured on main after issue 37's
 * eighth pass (2026-11-29), so a reading that gets worse fails here. Never above what is measured:
 * a floor that fails on the day it is set is no floor. Sets 1 to 7 have been read by whoever
 * wrote the rules (tuned on); set 8 was not when it was measured: the measure of the goal on
 * unseen text. In brackets, each set's figure when it was first measured unseen.
 */
const FLOORS: Record<ReadingCaseSetName, number> = {
  'en-classes': 1, // 249 of 249
  'en-sentences': 0.98, // 122 of 124
  'en-sentences-2': 0.99, // 132 of 133 (its reader says the slash of "Fillmore/Hertel"; sets 13 to 17 say none between words)
  'en-sentences-3': 0.98, // 178 of 180
  'en-sentences-4': 0.99, // 134 of 135 (128 when unseen)
  'en-sentences-5': 1, // 211 of 211 (171 when unseen)
  'en-sentences-6': 0.99, // 183 of 184 (158 when unseen)
  'en-sentences-7': 0.967, // 383 of 396 (331 when unseen)
  'en-sentences-8': 0.885, // 202 of 228 (182 unseen; then "V6", "$99 one-way", prices per unit, mpg, "2019/2020", "(Ore.)")
  'en-sentences-9': 0.878, // 202 of 230 (193 unseen; then m.p.h., "15.1°N", "count I", "Mark D. Raffety", "16-Jan-2009", "S-99-727"; "983 mb" near a pressure)
  'en-sentences-10': 0.878, // 209 of 238 (184 unseen; then "(42/47)" out of, "DON AINES" in capitals, four-digit 24-hour times, "William I", "Form 4868", Approx., M-F, Jr, etc, "Type C", KW, "$ 1", "NW 27th", "SW of"; "tied the series 3-3", ".30-caliber")
  'en-sentences-11': 0.899, // 205 of 228 (182 unseen; then 5-digit house numbers, lap times "19:04.70", "Wed to Fri", "$200 USD", "$1,404/case", VAC, "25° C", "No.2", "January-August.", "2014-20", "mid-19th-century", a tilde range, inch marks among quotes; "the men's 2011 convictions")
  'en-sentences-12': 0.84, // 195 of 232 (165 unseen; then Roman headings "II.", drawn numbers "13-14-41-49-59", "02/15", "2021-2022 values", "1 1/2 - 2 3/4", "450g/1lb", "01Dec2016", "1:87", "Wed, 5 February", "Min 25", "(approx)"; APR, "(Hz)")
  'en-sentences-13': 0.87, // 161 of 185 (152 unseen; then a rating scale "(1-5)", "between 10,000–12,000", a dash after a version, ISBN, Det., NO.; "October 7/8")
  'en-sentences-14': 0.861, // 206 of 239 (186 unseen; then degrees F, ppm, µl, mos, lbs before a noun, RPM, AAA, ARM, "#311240", a list of states; "3/4 cup")
  'en-sentences-15': 0.87, // 216 of 248 (195 unseen; then records "8-0-1", "100m Dash", "3/4 cup", "N-NW wind", lb-ft, "NASA’s", "(ex. 1)"; "1-0 lead" one to nothing, addresses without their scheme)
  'en-sentences-16': 0.902, // 213 of 236 (181 unseen; then "UPC 41303-01572", "12” x 6” x 12”", "5kg–10kg", Ksh, "£1.50", "(323/736)", "985mb" near a pressure, "28.6 N, 86.9 W", "P.m.", capital headings "SAN JUAN", "St. Paul" after a possessive; later a timetable's "07:00" seven hundred, NOAA "Noah")
  'en-sentences-17': 0.91, // 213 of 234 (182 unseen; then "Sat, Dec 14", "November 1 st", "16-22 July", mileage "27/36 mpg", gusts "7-12G18", "SE of Volcano", "÷", "10cm=", "(ft.)", "1.5 in |", "lb/ft3", "w/TCT", "™", "861,865 Chestnut Dr", "9-1 career record", a race table's "28:31", "10/23/14", "10:16:27 PM", a slash between words, "5/1 ARM")
  'en-sentences-18': 0.922, // 213 of 231 (182 unseen, by two helpers blind to the rules; then "160mg/5mL" per, "yrs", "2 ½ tsp.", N.m and kgf.m, "[?]", "in about 1350", GAAP, "C16162262", "K2-72", "Map / GPS", resolutions in pairs, "S 12th Street", ":15 past", .NET, MacOS, "U.S.’s", "4ths", "1-1 at half time", "iPhone 6s", "Highway 101")
  'en-sentences-19': 0.883, // 205 of 232 (185 unseen, by two helpers blind to the rules; then runways "7/25", feet with a closing mark "11,800’ x 200’", "36x24mm", A/C and S/U, "Group V", "ST. Louis", Avg, "F°", a row of months, dwt, fL, a.s.o., "fell 3-0", a sweep's set scores)
  'vi-classes': 0.95, // 240 of 252 (most of the rest: words of addresses spelt or not, "://")
  'vi-sentences': 1, // 168 of 168
  'vi-sentences-2': 0.99, // 133 of 134
  'vi-sentences-3': 0.98, // 171 of 173 (its "học sinh/sinh viên" with a pause; sets 8 and 10 say "hoặc"; its UNESCO "u nét xcô", sets 12 and 17 "u nét cô")
  'vi-sentences-4': 1, // 148 of 148 (139 when unseen)
  'vi-sentences-5': 0.99, // 179 of 180 (146 when unseen)
  'vi-sentences-6': 1, // 168 of 168 (153 when unseen)
  'vi-sentences-7': 0.99, // 252 of 254 (212 when unseen)
  'vi-sentences-8': 0.945, // 209 of 221 (194 unseen; 2026-12-01: scores, dotted dates, "vùng I", VNA, SGTT, KT&ĐT, JAXA; then "USD/ounce")
  'vi-sentences-9': 0.934, // 199 of 213 (174 unseen; then holiday dates, prices per room and night, "IX -X", EVNHANOI, "17 /11/2020", "1.Cầu")
  'vi-sentences-10': 0.913, // 200 of 219 (167 unseen; then rates with "/" after a counted noun, decimal points, "gram", "Nm", ">", "./.", "V-League", section numerals, "MiniEV")
  'vi-sentences-11': 0.902, // 204 of 226 (188 unseen; then kWp, MWp, kcal, bạt, xen, "mỗi kWh", "km/ giờ", "đồng/độ TSC/kg", "đ/kg", "x rộng", "5~10", TTĐT, "Đài TH", a leading bullet)
  'vi-sentences-12': 0.852, // 190 of 223 (164 unseen; then "- II." headings, "thế kỷ II, III", "149,100" prices, "g = 10", m/s2, "đồng/ người", "đồng/USD", falling ranges after "niên đại", "1 mét - 1,3 mét", "Boeing 747")
  'vi-sentences-13': 0.668, // 125 of 187 (116 unseen; 28 failures are foreign names the writer respelt; then game scores after vươn lên, dẫn, cân bằng, "20/18", "thứ 2-thứ 6", table bars)
  'vi-sentences-14': 0.934, // 199 of 213 (173 unseen; then legal documents' numbers "10/2012/QH13", "10kg/22lb", "tháng 2,3", "250 W", NTĐ, CAT; "nhà 3 tầng 60m2", "32GB/64GB", "đặc biệt/Thương gia")
  'vi-sentences-15': 0.905, // 212 of 234 (181 unseen; then a match's minutes "85'", "30/4-1/5", "(30/4-4/5)", "đến hết 4/5", lists "23 - 23,25 - 24", "IR 50404", "24H", BC, "S21+", "5x", "32GB/64GB")
  'vi-sentences-16': 0.886, // 203 of 229 (166 unseen; then "VNĐ" Việt Nam đồng, "Tuyến số 01", "Đến 05", "840k/đêm", "3tr2", "15:18.87", "+1,40%", "PCB40 + 31", "Thông tư số 10/2019", "1818/TTr-VP", ko, sp, covid, "13.3” ~ 17.3”", "86,75/100", "✔", "½", "TEST NHANH", "cổ phiếu/phiên")
  'vi-sentences-17': 0.924, // 209 of 226 (187 unseen; then tickers before their company, "TM.", LTS, NDT, CCDC, TSCD, "Tp HCM", "→", "5 Vỉ x 10 Viên", a 12-digit number digit by digit, "độ II", NPK "16:16:8", "INR 10,000", ppi, "số hiệu VN")
  'vi-sentences-18': 0.905, // 201 of 222 (172 unseen; then V/v, KKH, TCN, mL, "Ngã 4", "1tr300k", "15k/20 cốc", "đồng/ lượng", "ngày 8, 9.10", "5.2 - 6.2", "(kcal)", "(%/năm)", GHz, "Hành vi", "I.Hoàn", "Tuyến 08", "01 Lit", "+ " and "ü " opening a line, "6h 30 – 7h00", DOJI)
  'vi-sentences-19': 0.935, // 202 of 216 (172 unseen, by two helpers blind to the rules; then "Nǎm" with a caron, "triệu ha", "Giá/người/lượt", "/200m3", a legal point's letter, "tỷ lệ 10:1", a table's amounts, "100 000 Won", "5×18.2×50%", "4,5-6.0", "Ngày Chiến thắng 30-4", "đồng/CP", "(0292) 3832663", "quý III – IV/2024", DVKT, TMH, UBCK, "TT 43")
};

let espeak: EspeakPhonemizer;
let comparator: PhonemeComparator;

beforeAll(async () => {
  espeak = await loadPhonemizer();
  comparator = new PhonemeComparator(espeak);
});

/** What eSpeak alone makes of `text` in `voice`, comparable; the comparator is made again (its voice changed). */
function espeakAlone(text: string, voice: 'vi' | 'en-us'): string {
  espeak.espeak.set_voice(voice);
  const phonemes = comparablePhonemes(espeak.phonemes(text), voice === 'vi' ? 'vi' : 'en');
  comparator = new PhonemeComparator(espeak);
  return phonemes;
}

describe('the comparator: phoneme equality through eSpeak', () => {
  it('hears a wrong Vietnamese number as wrong: "mười lăm" (15) is not "mười năm"', () => {
    expect(comparator.sameSpeech('mười lăm', 'mười năm', 'vi')).toBe(false);
    expect(comparator.sameSpeech('mười lăm', 'mười lăm', 'vi')).toBe(true);
  });

  it('hears tones: "ba" is not "bà", "tư" is not "tứ"', () => {
    expect(comparator.sameSpeech('ba', 'bà', 'vi')).toBe(false);
    expect(comparator.sameSpeech('thứ tư', 'thứ tứ', 'vi')).toBe(false);
  });

  it('accepts the equivalent Vietnamese readings of the one table', () => {
    expect(comparator.sameSpeech('hai nghìn', 'hai ngàn', 'vi')).toBe(true);
    // The form kept is eSpeak's own for digits: its "24" is right, its "15" is not.
    expect(comparator.sameSpeech('24', 'hai mươi tư', 'vi')).toBe(true);
    expect(comparator.sameSpeech('15', 'mười lăm', 'vi')).toBe(false);
    expect(comparator.sameSpeech('một trăm linh năm', 'một trăm lẻ năm', 'vi')).toBe(true);
    expect(comparator.sameSpeech('hai mươi tư', 'hai mươi bốn', 'vi')).toBe(true);
    expect(comparator.sameSpeech('hai mươi lăm', 'hai mươi năm', 'vi')).toBe(true);
    expect(comparator.sameSpeech('hai nghìn không trăm hai mươi tư', 'hai nghìn hai mươi tư', 'vi')).toBe(
      true,
    );
  });

  it('keeps the equivalences narrow: "mười năm" is not 15, "bốn" alone is not "tư"', () => {
    expect(withEquivalentReadings('mười năm', 'vi')).toBe('mười năm');
    expect(comparator.sameSpeech('tháng tư', 'tháng bốn', 'vi')).toBe(false);
    expect(comparator.sameSpeech('một nghìn', 'một ngàn', 'vi')).toBe(true);
    // A word that merely contains "ngàn" or "lẻ" is left alone.
    expect(withEquivalentReadings('ngàng lẻo', 'vi')).toBe('ngàng lẻo');
  });

  it('accepts "đô la Mỹ" for "đô la" and "xen ti mét" for "xăng ti mét", not another currency or unit', () => {
    expect(comparator.sameSpeech('năm triệu đô la Mỹ', 'năm triệu đô la', 'vi')).toBe(true);
    // USD in a sentence, before a comma (set 6's AMC sentence), either way.
    expect(
      comparator.sameSpeech(
        'lên một phẩy một tỉ đô la Mỹ, cùng với',
        'lên một phẩy một tỉ đô la, cùng với',
        'vi',
      ),
    ).toBe(true);
    expect(comparator.sameSpeech('lên một tỉ đô-la-Mỹ, cùng với', 'lên một tỉ đô la, cùng với', 'vi')).toBe(
      true,
    );
    expect(comparator.sameSpeech('lên một tỉ đô la Mỹ, cùng với', 'lên một tỉ đồng, cùng với', 'vi')).toBe(
      false,
    );
    expect(comparator.sameSpeech('hai xăng ti mét', 'hai xen ti mét', 'vi')).toBe(true);
    expect(comparator.sameSpeech('hai xăng-ti-mét', 'hai xen ti mét', 'vi')).toBe(true);
    expect(comparator.sameSpeech('năm triệu đô la', 'năm triệu đồng', 'vi')).toBe(false);
    expect(comparator.sameSpeech('năm triệu đô la Úc', 'năm triệu đô la', 'vi')).toBe(false);
    expect(comparator.sameSpeech('hai xen ti mét', 'hai mi li mét', 'vi')).toBe(false);
    // "xăng" on its own is petrol, not a unit.
    expect(withEquivalentReadings('giá xăng tăng', 'vi')).toBe('giá xăng tăng');
  });

  it('accepts the long and short Vietnamese names of a spelt letter, not another letter', () => {
    const same: [string, string][] = [
      ['e lờ', 'lờ'],
      ['em mờ', 'mờ'],
      ['en nờ', 'nờ'],
      ['en', 'nờ'],
      ['e rờ', 'rờ'],
      ['ét xì', 'ét'],
      ['ích xì', 'ích'],
      ['vê kép', 'đúp lê vê'],
      ['giê', 'gờ'],
    ];
    for (const [long, short] of same)
      expect(comparator.sameSpeech(`xê ${long} bê`, `xê ${short} bê`, 'vi'), `${long} / ${short}`).toBe(true);
    expect(comparator.sameSpeech('e lờ', 'e rờ', 'vi')).toBe(false);
    expect(comparator.sameSpeech('em mờ', 'en nờ', 'vi')).toBe(false);
    expect(comparator.sameSpeech('ét', 'ích', 'vi')).toBe(false);
    expect(comparator.sameSpeech('vê kép', 'vê', 'vi')).toBe(false);
    // Words that only contain a letter name are left alone ("lợi ích", "gia", "xe en").
    expect(withEquivalentReadings('lợi ích gia đình', 'vi')).toBe('lợi ích gia đình');
  });

  it('hears a lone "gi" as "di": eSpeak alone says it as a bare consonant', () => {
    espeak.espeak.set_voice('vi');
    const bare = comparablePhonemes(espeak.phonemes('gi'), 'vi');
    const di = comparablePhonemes(espeak.phonemes('di'), 'vi');
    expect(bare).toBe('z'); // no vowel: not what any reader says
    expect(di).toBe('zi');
    comparator = new PhonemeComparator(espeak); // its voice was changed behind its back
    expect(comparator.sameSpeech('ba gi ga bai', 'ba di ga bai', 'vi')).toBe(true);
    expect(comparator.phonemes('gi', 'vi')).toBe(di);
    // "gi" inside a syllable ("gia", "giờ") is left alone.
    expect(withEquivalentReadings('gia giờ gì', 'vi')).toBe('gia giờ gì');
  });

  it('hears the letter D of a spelt acronym as "đê" or "dê", and keeps the words "đê" and "dê" apart', () => {
    expect(comparator.sameSpeech('màn hình hát đê', 'màn hình hát dê', 'vi')).toBe(true);
    expect(comparator.sameSpeech('anh tê ca đê', 'anh tê ca dê', 'vi')).toBe(true);
    expect(comparator.sameSpeech('công ty đê hát a', 'công ty dê hát a', 'vi')).toBe(true);
    // Not a letter name next to it: the dyke and the goat are different words.
    expect(comparator.sameSpeech('con đê', 'con dê', 'vi')).toBe(false);
    expect(comparator.sameSpeech('thịt dê', 'thịt đê', 'vi')).toBe(false);
    expect(withEquivalentReadings('dê núi', 'vi')).toBe('dê núi');
    // Another letter is still another letter.
    expect(comparator.sameSpeech('hát đê', 'hát bê', 'vi')).toBe(false);
  });

  it('hears M said "em" or "mờ" and O said "ô" or "o" in a spelt acronym, and keeps the words apart', () => {
    expect(comparator.sameSpeech('một giờ giê em tê', 'một giờ gờ mờ tê', 'vi')).toBe(true);
    expect(comparator.sameSpeech('tấm nền lờ tê pê ô', 'tấm nền lờ tê pê o', 'vi')).toBe(true);
    expect(comparator.sameSpeech('quang học ô i ét', 'quang học o i ét', 'vi')).toBe(true);
    expect(comparator.sameSpeech('em tôi', 'mờ tôi', 'vi')).toBe(false);
    expect(comparator.sameSpeech('cái ô', 'cái o', 'vi')).toBe(false);
    expect(comparator.sameSpeech('gờ mờ tê', 'gờ nờ tê', 'vi')).toBe(false);
  });

  it('hears M and O that way in whole sentences too (AMC, TPO first before a dash); what else differs still fails', () => {
    const amc = 'chuỗi rạp chiếu phim lớn nhất thế giới a em xê Theater đã chứng kiến doanh thu tăng';
    expect(comparator.sameSpeech(amc, amc.replace('a em xê', 'a mờ xê'), 'vi')).toBe(true);
    const tpo =
      'tê pê ô - Hòa Minzy bức xúc khi bất ngờ bị đem ra so sánh với Sơn Tùng em tê pê, rapper Pháo.';
    expect(comparator.sameSpeech(tpo, tpo.replace('tê pê ô', 'tê pê o'), 'vi')).toBe(true);
    // The readings of those sentences that fail do so for another reason: a quarter read as a
    // range, "M-TP" as "mờ-thành phố".
    const quarter = `${amc} trong quý bốn năm hai nghìn không trăm hai mươi ba`;
    expect(comparator.sameSpeech(quarter, quarter.replace('quý bốn năm', 'quý bốn đến'), 'vi')).toBe(false);
    expect(comparator.sameSpeech(tpo, tpo.replace('em tê pê', 'mờ-thành phố'), 'vi')).toBe(false);
  });

  it('hears letters spelt by their Vietnamese names as the Latin letters alone, only in a run or an address', () => {
    // eSpeak says a lone Latin letter nearly as its name, not quite: N is "en nờ", T not dental.
    expect(espeakAlone('tuoitre chấm v n', 'vi')).not.toBe(espeakAlone('tuoitre chấm vê en', 'vi'));
    expect(espeakAlone('h t t p', 'vi')).not.toBe(espeakAlone('hát tê tê pê', 'vi'));
    const same: [string, string][] = [
      ['xem tại tuoitre chấm vê en', 'xem tại tuoitre chấm v n'],
      ['a chấm bê xê a còng gờ meo chấm com', 'a chấm b c a còng g mail chấm com'],
      ['hát tê tê pê ét vê kép vê kép vê kép chấm nvidia', 'h t t p s w w w chấm nvidia'],
      ['đúp lê vê đúp lê vê chấm vê tê vê chấm vê nờ', 'w w chấm vtv chấm v n'],
      ['ích chấm com', 'x chấm com'],
      ['địa chỉ tin a còng giê meo chấm com', 'địa chỉ tin a còng gmail chấm com'],
    ];
    for (const [names, letters] of same)
      expect(comparator.sameSpeech(names, letters, 'vi'), names).toBe(true);
    // Another letter, a letter more or less, another word are still heard.
    expect(comparator.sameSpeech('tuoitre chấm vê en', 'tuoitre chấm v m', 'vi')).toBe(false);
    expect(comparator.sameSpeech('a bê xê a còng', 'a b d a còng', 'vi')).toBe(false);
    expect(comparator.sameSpeech('hát tê tê pê chấm com', 'h t p chấm com', 'vi')).toBe(false);
    expect(comparator.sameSpeech('tin a còng gờ meo', 'tin a còng gờ mai', 'vi')).toBe(false);
    expect(comparator.sameSpeech('xê ca vê', 'c k w', 'vi')).toBe(false);
    // Y ("i dài") is not made "y": eSpeak says a lone "y" as "i".
    expect(comparator.sameSpeech('ích i dài dét', 'ích i dét', 'vi')).toBe(false);
    // A name that is also a word, standing alone, and a lone Latin letter are left as written.
    expect(withEquivalentReadings('tê chân, bê tông, hát một bài, khu A', 'vi')).toBe(
      'tê chân, bê tông, hát một bài, khu A',
    );
  });

  it('hears a clock time the same with or without "phút" after its minutes, and keeps a duration', () => {
    expect(comparator.sameSpeech('lúc mười bốn giờ ba mươi phút', 'lúc mười bốn giờ ba mươi', 'vi')).toBe(
      true,
    );
    expect(comparator.sameSpeech('bảy giờ năm phút sáng', 'bảy giờ năm sáng', 'vi')).toBe(true);
    expect(comparator.sameSpeech('chờ ba mươi phút', 'chờ ba mươi', 'vi')).toBe(false);
    expect(comparator.sameSpeech('hai giờ ba mươi phút', 'hai giờ ba mươi giây', 'vi')).toBe(false);
    // Set 7's tour programme: both ends of a span of times, and one at the end of a sentence.
    expect(
      comparator.sameSpeech(
        'mười lăm giờ ba mươi phút đến mười bảy giờ ba mươi phút: Quý khách',
        'mười lăm giờ ba mươi đến mười bảy giờ ba mươi: Quý khách',
        'vi',
      ),
    ).toBe(true);
    expect(comparator.sameSpeech('lúc năm giờ bốn mươi phút', 'lúc năm giờ bốn mươi', 'vi')).toBe(true);
  });

  it('keeps "phút" before seconds, and makes nothing one after "phút N giây"', () => {
    const time = 'mười hai giờ ba mươi phút bốn mươi lăm giây';
    expect(withEquivalentReadings(time, 'vi')).toBe(time);
    // Without "phút", 12:30:45 and 12:34:15 would sound alike.
    expect(comparator.sameSpeech(time, 'mười hai giờ ba mươi bốn phút mươi lăm giây', 'vi')).toBe(false);
    // A race time's hundredths: "48 giây 06" is "giây không sáu", not "giây sáu" (48.6 s).
    expect(
      comparator.sameSpeech('ba phút bốn mươi tám giây sáu', 'ba phút bốn mươi tám giây không sáu', 'vi'),
    ).toBe(false);
    expect(withEquivalentReadings('hai phút ba mươi giây', 'vi')).toBe('hai phút ba mươi giây');
  });

  it('hears J of a spelt acronym said "giê" or "di", and keeps the word "di" and other letters', () => {
    expect(comparator.sameSpeech('chuyến bay vê di năm trăm', 'chuyến bay vê giê năm trăm', 'vi')).toBe(true);
    expect(comparator.sameSpeech('Ảnh: xê di hát ca', 'Ảnh: xê giê hát ca', 'vi')).toBe(true);
    // Another letter next to it is still another letter.
    expect(comparator.sameSpeech('chuyến bay vê di năm', 'chuyến bay vê bê năm', 'vi')).toBe(false);
    expect(comparator.sameSpeech('Ảnh: xê di hát ca', 'Ảnh: xê di hát xê', 'vi')).toBe(false);
    // "di" in a word, with no letter name beside it, is left alone.
    expect(withEquivalentReadings('sự di chuyển của di sản', 'vi')).toBe('sự di chuyển của di sản');
    expect(comparator.sameSpeech('sự di chuyển', 'sự gờ chuyển', 'vi')).toBe(false);
  });

  it('hears "đề xi" and "đê xi" before a unit as one, not the words "đề" and "đê" elsewhere', () => {
    expect(
      comparator.sameSpeech('hai trăm mi li gam trên đề xi lít', 'hai trăm mi li gam trên đê xi lít', 'vi'),
    ).toBe(true);
    expect(comparator.sameSpeech('ba đề xi mét', 'ba đê xi mét', 'vi')).toBe(true);
    expect(comparator.sameSpeech('đề bài', 'đê bài', 'vi')).toBe(false);
  });

  it('hears a span between two dates with its dash silent or said, and keeps other dashes', () => {
    const silent =
      'kháng chiến (hai tháng tư năm một nghìn chín trăm bốn mươi bảy - hai tháng tư năm hai nghìn không trăm hai mươi hai)';
    expect(comparator.sameSpeech(silent, silent.replace(' - ', ' đến '), 'vi')).toBe(true);
    expect(
      comparator.sameSpeech(
        'từ mười tháng năm – mười hai tháng năm',
        'từ mười tháng năm đến mười hai tháng năm',
        'vi',
      ),
    ).toBe(true);
    // A score's dash is not a span: "ba - hai" is "ba hai", never "ba đến hai".
    expect(withEquivalentReadings('thắng ba - hai', 'vi')).toBe('thắng ba - hai');
    expect(comparator.sameSpeech('thắng ba - hai', 'thắng ba đến hai', 'vi')).toBe(false);
    // Another date is still another date.
    expect(comparator.sameSpeech(silent, silent.replace(' - hai tháng tư', ' đến ba tháng tư'), 'vi')).toBe(
      false,
    );
    expect(
      comparator.sameSpeech(
        'September fifth, sixteen thirty eight – September first',
        'September fifth, sixteen thirty eight to September first',
        'en',
      ),
    ).toBe(true);
    expect(withEquivalentReadings('the Yankees – Red Sox game', 'en')).toBe('the Yankees – Red Sox game');
  });

  it('hears "fifteen hundred" as "one thousand five hundred", and nothing else as a thousand', () => {
    expect(comparator.sameSpeech('fifteen hundred dollars', 'one thousand five hundred dollars', 'en')).toBe(
      true,
    );
    expect(comparator.sameSpeech('thirty two hundred block', 'three thousand two hundred block', 'en')).toBe(
      true,
    );
    expect(comparator.sameSpeech('fifteen hundred dollars', 'one thousand six hundred dollars', 'en')).toBe(
      false,
    );
    // "twenty hundred" is not said; "one hundred fifteen" and the years stay as they are.
    expect(withEquivalentReadings('twenty hundred', 'en')).toBe('twenty hundred');
    expect(withEquivalentReadings('one hundred fifteen', 'en')).not.toContain('thousand');
    expect(withEquivalentReadings('nineteen eighty one', 'en')).toBe('nineteen eighty one');
  });

  it('hears a three-digit number in pairs or with "hundred", "a" or "one" hundred, a quarter or a fourth', () => {
    expect(
      comparator.sameSpeech(
        'won one twenty three to one thirteen',
        'won one hundred twenty three to one hundred thirteen',
        'en',
      ),
    ).toBe(true);
    expect(comparator.sameSpeech('one eleven North Burnett', 'one hundred eleven North Burnett', 'en')).toBe(
      true,
    );
    expect(comparator.sameSpeech('once every a hundred years', 'once every one hundred years', 'en')).toBe(
      true,
    );
    expect(comparator.sameSpeech('one quarter cup', 'a quarter cup', 'en')).toBe(true);
    expect(comparator.sameSpeech('one fourth cup', 'one quarter cup', 'en')).toBe(true);
    expect(comparator.sameSpeech('add one half inch of water', 'add a half inch of water', 'en')).toBe(true);
    expect(comparator.sameSpeech('one and a half cups', 'one and half cups', 'en')).toBe(false);
    expect(
      comparator.sameSpeech(
        'Senator Smith, Democrat of Connecticut',
        'Senator Smith, Democrat, Connecticut',
        'en',
      ),
    ).toBe(true);
    // Another number is another number; a digit after "hundred" (105) and thousands are kept.
    expect(comparator.sameSpeech('one twenty three', 'one hundred thirty three', 'en')).toBe(false);
    expect(withEquivalentReadings('one hundred five', 'en')).toBe('one hundred five');
    expect(withEquivalentReadings('two thousand one hundred twenty', 'en')).toBe(
      'two thousand one hundred twenty',
    );
    expect(comparator.sameSpeech('one half cup', 'one quarter cup', 'en')).toBe(false);
  });

  it('hears spelt letters with an A as letters, whether written apart or with points', () => {
    expect(comparator.sameSpeech('the D N A is', 'the D N.A is', 'en')).toBe(true);
    expect(comparator.sameSpeech('for which B E A prepares', 'for which B E.A prepares', 'en')).toBe(true);
    expect(comparator.sameSpeech('the first century A D', 'the first century A.D', 'en')).toBe(true);
    // Another letter is another letter; the article "a" and words in capitals are left alone.
    expect(comparator.sameSpeech('the D N A is', 'the D N E is', 'en')).toBe(false);
    expect(withEquivalentReadings('a dog and A Dog', 'en')).toBe('a dog and A Dog');
    expect(withEquivalentReadings('the NBA and CNN', 'en')).toBe('the NBA and CNN');
  });

  it('hears an acronym in brackets after its own words spelt or as the words, nothing looser', () => {
    expect(
      comparator.sameSpeech(
        'Phòng Cảnh sát Giao thông (xê ét gờ tê) Công an',
        'Phòng Cảnh sát Giao thông (cảnh sát giao thông) Công an',
        'vi',
      ),
    ).toBe(true);
    expect(comparator.sameSpeech('vận động viên (vê đê vê).', 'vận động viên (vận động viên).', 'vi')).toBe(
      true,
    );
    expect(
      comparator.sameSpeech(
        'Phillips Area Community Center (P A C C) will',
        'Phillips Area Community Center (P.A.C.C) will',
        'en',
      ),
    ).toBe(true);
    expect(
      comparator.sameSpeech(
        'Phillips Area Community Center (P A C C) will',
        'Phillips Area Community Center (Phillips Area Community Center) will',
        'en',
      ),
    ).toBe(true);
    expect(comparator.sameSpeech('đường huyện (đê hát) và', 'đường huyện (đường huyện) và', 'vi')).toBe(true);
    // Letters that are not the initials, and words that are not the ones before, stay apart.
    expect(comparator.sameSpeech('đường huyện (đại học) và', 'đường huyện (đường huyện) và', 'vi')).toBe(
      false,
    );
    expect(comparator.sameSpeech('Ban tổ chức (bê tê xê)', 'Ban tổ chức (bê xê tê)', 'vi')).toBe(false);
    expect(withEquivalentReadings('Center (P A C) x', 'en')).toBe('Center (P.A.C) x');
  });

  it('hears a hyphened or "&" Vietnamese acronym in brackets after its words spelt or as the words, "và" having no letter', () => {
    const kh = 'Mới đây, Bộ Kế hoạch và Đầu tư (Kế hoạch và Đầu tư) báo cáo';
    expect(comparator.sameSpeech(kh.replace('(Kế hoạch và Đầu tư)', '(ca hát đê tê)'), kh, 'vi')).toBe(true);
    const vh = 'Sở Văn hóa, Thể thao và Du lịch (Văn hóa, Thể thao và Du lịch) tỉnh';
    for (const spelt of ['(vê hát tê tê đê lờ)', '(vê hát tê tê và đê lờ)'])
      expect(
        comparator.sameSpeech(vh.replace('(Văn hóa, Thể thao và Du lịch)', spelt), vh, 'vi'),
        spelt,
      ).toBe(true);
    // Other initials, a letter more, or the words read with "và" dropped are still heard.
    expect(comparator.sameSpeech(kh.replace('(Kế hoạch và Đầu tư)', '(ca hát đê xê)'), kh, 'vi')).toBe(false);
    expect(comparator.sameSpeech(kh.replace('(Kế hoạch và Đầu tư)', '(ca hát vê đê tê)'), kh, 'vi')).toBe(
      false,
    );
    expect(comparator.sameSpeech(kh.replace('(Kế hoạch và Đầu tư)', '(Kế hoạch Đầu tư)'), kh, 'vi')).toBe(
      false,
    );
  });

  it('hears a unit in brackets after its own name as written, spelt or as the name again, nothing looser', () => {
    const named = 'less than two thousand three hundred milligrams (milligrams) of sodium';
    for (const short of ['(mg)', '(m g)', '(m.g.)'])
      expect(comparator.sameSpeech(named.replace('(milligrams)', short), named, 'en'), short).toBe(true);
    expect(comparator.sameSpeech('one milligram (mg) of', 'one milligram (milligram) of', 'en')).toBe(true);
    expect(
      comparator.sameSpeech('five square meters (m2) of', 'five square meters (square meters) of', 'en'),
    ).toBe(true);
    const vi = 'hai trăm mi li gam (mi li gam) muối';
    for (const short of ['(mg)', '(mờ gờ)', '(m g)'])
      expect(comparator.sameSpeech(vi.replace('(mi li gam)', short), vi, 'vi'), short).toBe(true);
    expect(comparator.sameSpeech('ba xăng-ti-mét (cm) dài', 'ba xen ti mét (xen ti mét) dài', 'vi')).toBe(
      true,
    );
    // Another unit's symbol, a symbol after another unit's name, another name: still heard.
    expect(comparator.sameSpeech('milligrams (kg) of', 'milligrams (milligrams) of', 'en')).toBe(false);
    expect(comparator.sameSpeech('grams (mg) of', 'grams (grams) of', 'en')).toBe(false);
    expect(comparator.sameSpeech('milligrams (mg) of', 'milligrams (grams) of', 'en')).toBe(false);
    expect(comparator.sameSpeech('hai gam (mg) muối', 'hai gam (gam) muối', 'vi')).toBe(false);
    expect(withEquivalentReadings('the dose (mg) is', 'en')).toBe('the dose (mg) is');
  });

  it('still hears real differences after the variants: 15, currencies', () => {
    expect(comparator.sameSpeech('mười năm', 'mười lăm', 'vi')).toBe(false);
    expect(comparator.sameSpeech('mười đô la', 'mười đồng', 'vi')).toBe(false);
    expect(comparator.sameSpeech('hai mươi lăm đô la Mỹ', 'hai mươi năm đô la', 'vi')).toBe(true);
  });

  it('hears "Inc." said "ink" as "Incorporated" after a company name, and nothing else', () => {
    // eSpeak alone says the written "Inc." as the word "ink".
    expect(espeakAlone('Group Inc. beat', 'en-us')).toBe(espeakAlone('Group ink beat', 'en-us'));
    expect(
      comparator.sameSpeech(
        'PNC Financial Services Group Inc. (P N C) beat',
        'PNC Financial Services Group Incorporated (P N C) beat',
        'en',
      ),
    ).toBe(true);
    expect(comparator.sameSpeech('Apple Inc (Nasdaq', 'Apple Incorporated (Nasdaq', 'en')).toBe(true);
    // Another word is another word; "ink" and the verb "incorporated" are left as they are.
    expect(comparator.sameSpeech('Services Group Inc. beat', 'Services Group Corporation beat', 'en')).toBe(
      false,
    );
    expect(comparator.sameSpeech('Group Inc. beat', 'Group Incorporation beat', 'en')).toBe(false);
    expect(comparator.sameSpeech('black ink', 'black incorporated', 'en')).toBe(false);
    expect(withEquivalentReadings('the town was incorporated; Inc. is short', 'en')).toBe(
      'the town was incorporated; Inc. is short',
    );
  });

  it('hears a slash between two lower-case words said as nothing, "or" or "and"; not numbers, "and/or" or addresses', () => {
    expect(
      comparator.sameSpeech(
        'for each department/fund identified',
        'for each department or fund identified',
        'en',
      ),
    ).toBe(true);
    expect(comparator.sameSpeech('the funeral/memorial service', 'the funeral memorial service', 'en')).toBe(
      true,
    );
    expect(
      comparator.sameSpeech(
        'Sawzall and heat/air conditioning unit.',
        'Sawzall and heat and air conditioning unit.',
        'en',
      ),
    ).toBe(true);
    // Another word is still another word; a fraction, "and/or", an address and capitals are kept.
    expect(
      comparator.sameSpeech('the funeral/memorial service', 'the funeral for memorial service', 'en'),
    ).toBe(false);
    expect(comparator.sameSpeech('each department/fund', 'each department/find', 'en')).toBe(false);
    expect(withEquivalentReadings('cut 1/2 cup, this and/or that', 'en')).toBe(
      'cut 1/2 cup, this and/or that',
    );
    expect(comparator.sameSpeech('this and/or that', 'this and that', 'en')).toBe(false);
    expect(withEquivalentReadings('visit shelter.org/maine-mega-sale or me/you@x.com', 'en')).toBe(
      'visit shelter.org/maine-mega-sale or me/you@x.com',
    );
    expect(withEquivalentReadings('Design/Form Factor', 'en')).toBe('Design/Form Factor');
    // "and" beside a number word, an ordinal or a letter is kept: a number read without it is heard.
    expect(
      comparator.sameSpeech('four percent and fifteen percent', 'four percent fifteen percent', 'en'),
    ).toBe(false);
    expect(withEquivalentReadings('the first and third, at four p m and is', 'en')).toBe(
      'the first and third, at four p m and is',
    );
  });

  it('accepts "oh" and "zero" for a digit in English, nothing else', () => {
    expect(comparator.sameSpeech('nine oh five', 'nine zero five', 'en')).toBe(true);
    expect(comparator.sameSpeech('nine oh five', 'nine one five', 'en')).toBe(false);
    expect(comparator.sameSpeech('one hundred twenty three', 'one hundred and twenty three', 'en')).toBe(
      false,
    );
  });

  it('ignores punctuation, spacing, hyphens and letter case, not words', () => {
    expect(comparator.sameSpeech('Hello, world!', 'hello world', 'en')).toBe(true);
    expect(comparator.sameSpeech('twenty-five', 'twenty five', 'en')).toBe(true);
    expect(comparator.sameSpeech('Xin chào, các bạn.', 'xin chào các bạn', 'vi')).toBe(true);
    expect(comparator.sameSpeech('twenty five', 'twenty nine', 'en')).toBe(false);
  });

  it('strips stress marks, separators, pauses and language marks from eSpeak IPA, nothing else', () => {
    expect(comparablePhonemes('m_ˈyə2_j_ l_ˈa7_m_\n(en)_ˈʌ1_b_(vi)_ t_ˌe1\n')).toBe('myə2jla7mʌ1bte1');
    expect(comparablePhonemes('h_ə_l_ˈoʊ | w_ˈɜː_l_d', 'en')).toBe('həloʊwɜːld');
  });

  it('writes a Vietnamese syllable one way: level tone 1, 7 or unmarked, tone before or after the glide', () => {
    expect(comparablePhonemes('h_ˈaːɪ1 s_ˈaʊɜ b_ˈaɪ4 b_ˈaː7', 'vi')).toBe('haːjsaɜwba4jbaː');
    expect(comparablePhonemes('h_ˈaː1_j s_ˈaɜ_w b_ˈa4_j b_ˈaː1', 'vi')).toBe('haːjsaɜwba4jbaː');
    // The text-to-phonemes call leaves the level tone unmarked and puts " | " between clauses.
    expect(comparablePhonemes('h_ˈaːɪ s_ˈaʊɜ | b_ˈaɪ4 b_ˈaː', 'vi')).toBe('haːjsaɜwba4jbaː');
    // Other tones stay apart: "ba" (level), "bà" (huyền), "bá" (sắc), "bạ" (nặng).
    expect(new Set(['baː1', 'baː2', 'baːɜ', 'baː6'].map((t) => comparablePhonemes(t, 'vi'))).size).toBe(4);
  });

  it('scores ours against eSpeak alone per class and lists the failures', () => {
    const cases = parseReadingCases(
      [
        '# a comment',
        'class\twritten\tspoken\tsource',
        'cardinal\tmười lăm\tmười lăm\town',
        'cardinal\tmười lăm\tmười năm\town',
        'word\txin chào\txin chào\town',
      ].join('\n'),
    );
    const result = measureCases(comparator, 'vi-classes', 'vi', cases);
    expect(result.classes.get('cardinal')).toEqual({ n: 2, ours: 1, espeakAlone: 1 });
    expect(result.classes.get('word')).toEqual({ n: 1, ours: 1, espeakAlone: 1 });
    expect(result.total).toEqual({ n: 3, ours: 2, espeakAlone: 2 });
    expect(result.failures).toEqual([
      { class: 'cardinal', written: 'mười lăm', ours: 'mười lăm', expected: 'mười năm', line: 4 },
    ]);
    const oursOnly = measureCases(comparator, 'vi-classes', 'vi', cases, { espeakAlone: false });
    expect(oursOnly.total).toEqual({ n: 3, ours: 2, espeakAlone: 0 });
  });

  it('refuses a malformed case file rather than dropping a case', () => {
    expect(() => parseReadingCases('class\twritten\tspoken\tsource\ncardinal\t15\tmười lăm\n')).toThrow(
      /4 non-empty/,
    );
    expect(() => parseReadingCases('written\tspoken\n')).toThrow(/header/);
  });
});

describe('accuracy on the case sets (through the real eSpeak)', () => {
  const measured = new Map<ReadingCaseSetName, SetAccuracy>();
  const measure = (set: ReadingCaseSetName): SetAccuracy => {
    let result = measured.get(set);
    if (!result) measured.set(set, (result = measureSet(comparator, set, { espeakAlone: false })));
    return result;
  };

  it.each(READING_CASE_SETS.map((s) => [s.name] as const))('%s: at or above its floor', (set) => {
    const result = measure(set);
    expect(result.total.n).toBeGreaterThanOrEqual(set.includes('sentences') ? 120 : 200);
    expect(result.total.ours / result.total.n).toBeGreaterThanOrEqual(FLOORS[set]);
  });

  it('every class set has at least 15 cases per class', () => {
    for (const set of ['en-classes', 'vi-classes'] as const) {
      const result = measure(set);
      for (const [name, score] of result.classes)
        expect(score.n, `${set} ${name}`).toBeGreaterThanOrEqual(15);
    }
  });
});
