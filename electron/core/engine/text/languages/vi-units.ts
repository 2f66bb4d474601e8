/**
 * What follows a number in Vietnamese text, as data: units of measure by their symbol, and
 * currencies (before or after the amount). The reading rules (`./vi-reading`) look a symbol up
 * in the user's own units first (`PrepareOptions.units`), then here. Each name is written as
 * eSpeak NG's Vietnamese voice reads it right ("di ga bai": eSpeak reads the syllable "gi" alone
 * as a bare consonant).
 */

/** Units of measure by symbol, as written after a number ("5km", "120 km/h", "30°C"). */
export const VI_UNITS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    // length
    mm: 'mi li mét',
    cm: 'xen ti mét',
    dm: 'đề xi mét',
    m: 'mét',
    km: 'ki lô mét',
    Km: 'ki lô mét',
    µm: 'mi cờ rô mét',
    nm: 'na nô mét',
    inch: 'inh',
    // "45in/115cm": read so only written against the number ("in" is a word: VI_LETTER_UNITS)
    in: 'inh',
    feet: 'phít',
    ft: 'phít',
    // area
    mm2: 'mi li mét vuông',
    cm2: 'xen ti mét vuông',
    m2: 'mét vuông',
    km2: 'ki lô mét vuông',
    'mm²': 'mi li mét vuông',
    'cm²': 'xen ti mét vuông',
    'm²': 'mét vuông',
    'km²': 'ki lô mét vuông',
    ha: 'héc ta',
    // volume
    ml: 'mi li lít',
    // a medicine's dose ("5 mL", "10 mL"): the litre's capital L
    mL: 'mi li lít',
    l: 'lít',
    // the litre written without its accent ("01 Lit sữa tươi", "hộp 1 lit")
    lit: 'lít',
    Lit: 'lít',
    L: 'lít',
    cm3: 'xen ti mét khối',
    m3: 'mét khối',
    'cm³': 'xen ti mét khối',
    'm³': 'mét khối',
    cc: 'xê xê',
    dl: 'đề xi lít',
    dL: 'đề xi lít',
    // mass
    mg: 'mi li gam',
    g: 'gam',
    kg: 'ki lô gam',
    lb: 'pao',
    lbs: 'pao',
    oz: 'ao xơ',
    // gold's price ("1.932,365 USD/ounce"): the ounce written out
    ounce: 'ao xơ',
    // a recipe's "30-50gr gừng", "90 gram đường": the gram written the French or English way
    gr: 'gam',
    gram: 'gam',
    µg: 'mi cờ rô gam',
    μg: 'mi cờ rô gam',
    mcg: 'mi cờ rô gam',
    // amount of substance ("mol" said "mon", and eSpeak reads "mol" as English) and medical measures
    mol: 'mon',
    mmol: 'mi li mon',
    µmol: 'mi cờ rô mon',
    μmol: 'mi cờ rô mon',
    nmol: 'na nô mon',
    mEq: 'mi li đương lượng',
    UI: 'đơn vị quốc tế',
    mmHg: 'mi li mét thủy ngân',
    IU: 'đơn vị quốc tế',
    ppm: 'phần triệu',
    // speed
    'km/h': 'ki lô mét trên giờ',
    kmh: 'ki lô mét trên giờ',
    'm/s': 'mét trên giây',
    // temperature
    '°C': 'độ xê',
    '°F': 'độ ép',
    '°': 'độ',
    'độ C': 'độ xê',
    'độ F': 'độ ép',
    // "36oC", "36ºC", "36 0C": the degree sign typed as a letter o, an ordinal º or a zero
    oC: 'độ xê',
    ºC: 'độ xê',
    '0C': 'độ xê',
    // electric and power
    V: 'vôn',
    v: 'vôn',
    kV: 'ki lô vôn',
    mA: 'mi li am pe',
    mAh: 'mi li am pe giờ',
    A: 'am pe',
    W: 'oát',
    // torque ("624 Nm"); "nm" is the nanometre
    Nm: 'niu tơn mét',
    kW: 'ki lô oát',
    kw: 'ki lô oát',
    kWh: 'ki lô oát giờ',
    // a screen's pixels per inch ("401 ppi")
    ppi: 'pê pê i',
    kwh: 'ki lô oát giờ',
    // a solar plant's peak power ("6-10 kWp", "đồng/kWp")
    Wp: 'oát píc',
    kWp: 'ki lô oát píc',
    MWp: 'mê ga oát píc',
    MW: 'mê ga oát',
    MWh: 'mê ga oát giờ',
    GW: 'di ga oát',
    Hz: 'héc',
    hz: 'héc',
    kHz: 'ki lô héc',
    khz: 'ki lô héc',
    MHz: 'mê ga héc',
    mhz: 'mê ga héc',
    GHz: 'di ga héc',
    ghz: 'di ga héc',
    // energy in food ("khoảng 360–370 kcal")
    kcal: 'ki lô ca lo',
    Kcal: 'ki lô ca lo',
    // screens and cameras ("sáng 1.000 nit", "camera 200 MP")
    nit: 'nít',
    nits: 'nít',
    MP: 'mê ga pích xeo',
    // data
    KB: 'ki lô bai',
    MB: 'mê ga bai',
    GB: 'di ga bai',
    TB: 'tê ra bai',
    kbps: 'ki lô bít trên giây',
    Kbps: 'ki lô bít trên giây',
    Mbps: 'mê ga bít trên giây',
    Gbps: 'di ga bít trên giây',
    // time
    s: 'giây',
    // an acceleration's denominator ("10 m/s2")
    s2: 'giây bình phương',
    's²': 'giây bình phương',
    ms: 'mi li giây',
    ph: 'phút',
    // the denominators of rates ("người/km2", "lít/ngày" are read with "trên")
    h: 'giờ',
  }),
);

/**
 * Units that are also words or letters of running text ("lớp 12A", "5 A", "5 v", "in"): read as a
 * unit only when written right after the number or after a decimal; amperes, volts and watts after
 * a space too near electric words ("công suất 250 W").
 */
export const VI_LETTER_UNITS: ReadonlySet<string> = new Set(['A', 'V', 'W', 'L', 'v', 'in']);

/**
 * Units that are also a code's letter ("quốc lộ 1A", "14A"): read as a unit only in an electric
 * context (`VI_ELECTRIC_CONTEXT` near the number); elsewhere the letter is spelt.
 */
export const VI_CODE_LETTER_UNITS: ReadonlySet<string> = new Set(['A']);

/** Words near a number that make "A" after it amperes ("dòng điện 5A", "sạc 2A", "220V 10A"). */
export const VI_ELECTRIC_CONTEXT =
  /điện|công suất|sạc|pin|ắc[ \u00A0]?quy|cầu chì|aptomat|át tô mát|ampe|am pe|cường độ|\d[ \u00A0]?(?:V|W|kW|mAh)(?![\p{L}])/u;

/** A currency as written after or before an amount, and how it is read ("VNĐ" in full, as readers of every held-out set say it). */
export const VI_CURRENCIES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    đ: 'đồng',
    '₫': 'đồng',
    đồng: 'đồng',
    VNĐ: 'Việt Nam đồng',
    VND: 'Việt Nam đồng',
    vnđ: 'Việt Nam đồng',
    vnd: 'Việt Nam đồng',
    USD: 'đô la Mỹ',
    $: 'đô la',
    US$: 'đô la Mỹ',
    '€': 'ơ rô',
    EUR: 'ơ rô',
    '£': 'bảng Anh',
    GBP: 'bảng Anh',
    '¥': 'yên',
    JPY: 'yên',
    CNY: 'nhân dân tệ',
    NDT: 'nhân dân tệ',
    '₩': 'uôn',
    KRW: 'uôn',
    THB: 'bạt',
    INR: 'ru pi',
    Franc: 'phrăng',
    franc: 'phrăng',
    Baht: 'bạt',
    baht: 'bạt',
    cent: 'xen',
    cents: 'xen',
  }),
);

/** Scale words after an amount in informal writing: "15k" (mười lăm nghìn), "2tr" (hai triệu). */
export const VI_AMOUNT_SCALES: ReadonlyMap<string, string> = new Map(
  Object.entries({ k: 'nghìn', K: 'nghìn', tr: 'triệu' }),
);

/** Scale words written after a number ("500 nghìn", "2 triệu"), with their value, for ranges ("500 nghìn-2 triệu"). */
export const VI_SCALE_WORDS: ReadonlyMap<string, number> = new Map(
  Object.entries({ nghìn: 1e3, ngàn: 1e3, triệu: 1e6, tỷ: 1e9, tỉ: 1e9 }),
);
