/**
 * The downloadable neural voice packs: Piper voices of our languages (Piper has no Japanese or
 * Korean voice) and the Kokoro-82M v1.0 ONNX exports. Data only; nothing is bundled, users
 * download from the public repositories (or an organisation's mirror of them) or import files.
 *
 * Where the data comes from:
 * - Piper: file paths, sizes and md5 digests are `rhasspy/wyoming-piper`
 *   `wyoming_piper/voices.json` (commit 1ba47976ab4b0a8f9299f5cf0e247a76192ee347), which lists
 *   the files of `rhasspy/piper-voices` v1.0.0. Download URLs follow
 *   `<base>/rhasspy/piper-voices/resolve/v1.0.0/<lang>/<locale>/<name>/<quality>/<file>`.
 *   Sample rates follow the tiers Piper publishes (x_low and low 16 kHz, medium and high
 *   22.05 kHz); the installed config's `audio.sample_rate` is what the manifest records.
 *   Licences are those of the training data as each voice's MODEL_CARD states them; only a few
 *   cards could be read (quoted verbatim in public material), the rest say "unknown, see model
 *   card" rather than guess. The MODEL_CARD is downloaded with every voice.
 * - Kokoro: `onnx-community/Kokoro-82M-v1.0-ONNX` (Apache-2.0) at revision
 *   1939ad2a8e416c0acfeecc08a694d14ef25f2231. Sizes and sha256 of every file (the model files,
 *   the tokenizer/config and all voices; the sha256 of an LFS file is its Hugging Face object
 *   id) were recorded by several public projects pinned to that revision, which agree on every
 *   digest. Only voices of our languages are listed (en-US, en-GB, es, fr, ja, zh).
 *
 * Every Kokoro file has a SHA-256. Piper's files have the MD5 the publisher lists (the only
 * digest `voices.json` carries; the `.onnx.json` and MODEL_CARD files are not LFS objects, so
 * no SHA-256 of them is published at all); they are fetched under the same rule as everything
 * (https, or http only to loopback or a configured mirror; redirects never leave https).
 */

import type {
  CatalogueEntry,
  CatalogueFile,
  KokoroPrecision,
  KokoroVoice,
  VoicePackQuality,
} from '../../shared/voice-packs';
import { KOKORO_SAMPLE_RATE, KOKORO_VOICE_BYTES } from '../../shared/voice-packs';
import { speakerGenderCoverage } from './speaker-metadata';
import { licenceWords, namedLicence, type LicenceTerms } from '../../shared/licence-terms';

/** The public host every catalogue URL is relative to; `--voice-mirror` replaces it. */
export const DEFAULT_VOICE_MIRROR = 'https://huggingface.co';

const UNKNOWN_LICENCE: LicenceTerms = { note: 'unknown_see_card' };
const KOKORO_LICENCE = namedLicence('Apache-2.0');
const PIPER_REPO = 'rhasspy/piper-voices';
const PIPER_REVISION = 'v1.0.0';
const KOKORO_REPO = 'onnx-community/Kokoro-82M-v1.0-ONNX';
const KOKORO_REVISION = '1939ad2a8e416c0acfeecc08a694d14ef25f2231';

/** Piper sample rate per tier, as Piper's samples page defines the tiers. */
const PIPER_SAMPLE_RATES: Record<VoicePackQuality, number> = {
  x_low: 16000,
  low: 16000,
  medium: 22050,
  high: 22050,
};

type Md5 = string;
/** [id, speakers, .onnx size, md5, .onnx.json size, md5, MODEL_CARD size, md5, speaker names] */
type PiperRow = [string, number, number, Md5, number, Md5, number, Md5, string[]?];

// prettier-ignore
const PIPER_ROWS: PiperRow[] = [
  ['en_GB-alan-low', 1, 63104526, '2acae8c79395ab109a7572f0afa61fff', 4170, '4c0fa2c6763bf49b343cbb4f655a147b', 309, 'b116c3cbdebac99ade9af03807cb9301'],
  ['en_GB-alan-medium', 1, 63201294, '8f6b35eeb8ef6269021c6cb6d2414c9b', 4888, 'b11d9afd0a8f5372c42a52fbd6e021d4', 320, '24a2232470ca1be071debf53c984666e'],
  ['en_GB-alba-medium', 1, 63201294, 'c07f313752bb3aba8061041666251654', 4888, 'dbb6f2ede31082710665221417906e13', 324, 'd5a8716acb311b20e0f28710d0fcc982'],
  ['en_GB-aru-medium', 12, 76754097, '7862d75539b8ef867e7c04e772d323ea', 5048, '903a8ec4cdfea0123a004ab4a87e547c', 368, '09496f38078e0eefe220a497b7b70631',
    ['03', '06', '10', '01', '09', '08', '11', '05', '12', '02', '07', '04']],
  ['en_GB-jenny_dioco-medium', 1, 63201294, 'd08f2f7edf0c858275a7eca74ff2a9e4', 4895, 'e999a9c0aa535fb42e43b04cebcd65d2', 298, 'ff351d05502764d5b4a074e0648e9434'],
  ['en_GB-northern_english_male-medium', 1, 63201294, '4c9a9735bfb76ad67c8b31b23d6840a0', 4847, '0ce3f61a9604616ed475c921fdeedb1a', 305, '8d1b725154c658ead4f068389c319c82'],
  ['en_GB-semaine-medium', 4, 76737711, '3634c3b388165d3b698ea07ba3cac7d2', 5076, 'c30f92604f6ce3f378e7211440f13c8f', 332, '340045a0ec470eaf3bec271ea746f946',
    ['prudence', 'spike', 'obadiah', 'poppy']],
  ['en_GB-southern_english_female-low', 1, 63104526, '596c7ed4d8488cf64e027765dce2dad1', 4189, '7548456e9f2bc4c16bf818be26618ea1', 296, '77ac998c8b37842ef98594567f141629'],
  ['en_GB-vctk-medium', 109, 76952753, '573025290fdc68812543b7438ace0c29', 6637, '68e82dee4c9a723e804f9fc0b14f1802', 326, 'b88a963e3bee27bc4fff84563f1be388'],
  ['en_US-amy-low', 1, 63104526, '3c3f6a6ec605f3a59763256d3b2db012', 4164, '85a339b51379b13bbbb0784382ca75bc', 273, 'e1cdd84aa7493b8fbe1e6471f6f93cea'],
  ['en_US-amy-medium', 1, 63201294, '778d28aeb95fcdf8a882344d9df142fc', 4882, '7f37dadb26340c90ebc8088e0b252310', 281, '6fca05ee5bfe8b28211b88b86b47e822'],
  ['en_US-arctic-medium', 18, 76766385, '497c47037c2e279faf467e0a06f965d2', 5148, 'b7ed018d74f0d5ba7cd49051de43a461', 289, 'efe5b89e46cf8e0efa254203da8c7baf',
    ['awb', 'rms', 'slt', 'ksp', 'clb', 'lnh', 'aew', 'bdl', 'jmk', 'rxr', 'fem', 'ljm', 'slp', 'aup', 'ahw', 'axb', 'eey', 'gka']],
  ['en_US-danny-low', 1, 63104526, '73cc296e178ab3d2a5698179b629cd12', 4166, 'c0aa454db4e5a6581e45799c79aa99c6', 275, '62d30d0cccea265949980cb48212ebee'],
  ['en_US-hfc_female-medium', 1, 63201294, '7abec91f1d6e19e913fbc4a333f62787', 5033, 'c3d00f54dac3b4068f2576c15c5da3bc', 354, 'a4a7b5da65e03e6972e44e9555a59aef'],
  ['en_US-hfc_male-medium', 1, 63201294, 'cd2fda1933f0653d3ddc85e5f30ebdd2', 5033, '9b4849dbc1e72f35de7391528dea60d9', 352, '0bc174f6fe7a6d795a790110e8bf9096'],
  ['en_US-joe-medium', 1, 63201294, '74fd6a4dc39e0aa9dce145d7f5acd4f6', 4794, '811036b9c1451545f9495fdc1baa0754', 280, '7d25cb111aa9699518764a1cb3943af1'],
  ['en_US-kathleen-low', 1, 63104526, 'dd1ab131724b1cff76fe388252bec47b', 4169, 'd970eebfe8e9f8515e405659da658f9b', 281, '0585e0a798d093c9ee090b99d9c8f68e'],
  ['en_US-kusal-medium', 1, 63201294, '95334de7385a03c5c9de25b920c33492', 4884, '722e434f8e1a768dd6b6fab5b4cfde4d', 279, 'b627e950e8e10a1ec7b30e5f9b312a05'],
  ['en_US-l2arctic-medium', 24, 76778673, 'a71d8acf9b01676931cd548f739382cd', 5252, 'a0f29a10628f08dccd757aca57ccb163', 365, '8d5e9dc31cba2a9b7ee68a2a70e084f2',
    ['TXHC', 'THV', 'SVBI', 'ZHAA', 'PNV', 'TLV', 'ERMS', 'MBMPS', 'HQTV', 'TNI', 'ASI', 'HJK', 'LXC', 'NCC', 'YKWK', 'YDCK', 'HKK', 'NJS', 'YBAA', 'RRBI', 'BWC', 'ABA', 'EBVS', 'SKA']],
  ['en_US-lessac-high', 1, 113895201, '99d1f6181a7f5ccbe3f117ba8ce63c93', 4883, '02e8e364c86b5d3b75e81704b0369856', 347, '2ff564555f6d6cde3c19dcc8f3815428'],
  ['en_US-lessac-low', 1, 63201294, '31883a7506589feadf3c3474fd8ef658', 4882, '64876daa19dd042b368cd64fa379a75f', 345, '999cbf2c337d8fb2f21b0fa2c95e9e85'],
  ['en_US-lessac-medium', 1, 63201294, '2fc642b535197b6305c7c8f92dc8b24f', 4885, 'c1f2b7bddefe113f3255ff9ef234cfd3', 351, '42f2dd4a98149e12fc70b301d9579dfd'],
  ['en_US-libritts-high', 904, 136673811, '61d7845257f8abdc27476f606151ef8d', 20163, 'cb1564bb779f3b1f87e2de778adeb669', 255, 'cdeac934f1154489924a071470b22365'],
  ['en_US-libritts_r-medium', 904, 78580914, 'bb2c2776cffbfd736c7c497f620c0ca6', 20123, 'c740db18a0dab11b13ce0292ea1196c6', 279, 'ae42a6ca5f3fdc81690d4fe191b6fdee'],
  ['en_US-ryan-high', 1, 120786792, '5d879a17bddf5007f76655b445ba78b4', 4166, '444ff9d6c17218a0eb1d12a20559d869', 265, '9c966517ed0bfbffbfdb218e99dbeadd'],
  ['en_US-ryan-low', 1, 63104526, '32f6a995d6d561cd040b20a76f4edb1e', 4165, '38eb0602e1f8bf627a0d9a747723cbf6', 263, '030252d21b0bd1048c37a9eb7f94eb17'],
  ['en_US-ryan-medium', 1, 63201294, '8f06d3aff8ded5a7f13f907e6bec32ac', 4883, 'f173a2b5202b3e4128ccc3ed8195306c', 306, '79d9200481a9dcabfa1803cb9e31c28a'],
  ['es_ES-carlfm-x_low', 1, 28130791, '4137b5aee01ea6241080fc4dbe59a8ee', 4159, 'f4ab058cc8b5d024f1b123d06049df22', 250, '19cb47bbe9e07e8d7937cfd39027d3a9'],
  ['es_ES-davefx-medium', 1, 63201294, 'dc515cd4ecc5f6f72fe14a941188fc9c', 4817, 'dd157b5eaf6930bf949cf416d9a9307a', 275, '5569c0fb20448308466216428b52f392'],
  ['es_ES-mls_10246-low', 1, 63104526, 'ab8e93c9d2714fd4481fbca4e2a38891', 4160, '8948a322c81cae2bc5fb1b9bbbc4961e', 257, 'a345cefedda92347f53ea9a84d1b3983'],
  ['es_ES-mls_9972-low', 1, 63104526, '587f2fc38dc3f582e771c3748465e2a2', 4159, '97195bce39639d77af82c9c9c2110620', 256, '4ba8c18ce72a202a49312ee1914ca6b0'],
  ['es_ES-sharvard-medium', 2, 76733615, '77e6f9c26e92799fb04bb90b46bf1834', 4903, 'e49cab310ce362145f7d94b347c291ff', 392, 'b600a21381af84fa21b29f519a3a829a',
    ['M', 'F']],
  ['es_MX-ald-medium', 1, 63201294, '86374058e59b41ac3b7fe4181e1daad6', 4889, '31c5463bf001d6e69bf57fc5916c0908', 320, 'a858af3698e0c7cda6c9ad5d0d11b651'],
  ['fr_FR-gilles-low', 1, 63104526, 'f984386d1f0927597f09a3ec10b11b5d', 4158, '38b1775fef8b9de50f15f63c5d8b8643', 300, '9317af9efdb0d9986d42357b180f06e2'],
  ['fr_FR-mls-medium', 125, 76733750, '87831389d3ae92347d91e38b0c57add9', 7036, 'be41a30aab03788f5e5c4fe51620ccbe', 222, '88d84c1c548aa27c1d119d2964f8fcf0'],
  ['fr_FR-mls_1840-low', 1, 63104526, '1873b5d95cb0aad9909d32d1747ae72b', 4160, 'eb0a76447f47f9114f832b1a0da9a8b3', 257, '35d860ab0a8497966c73da525728e711'],
  ['fr_FR-siwis-low', 1, 28130791, 'fcb614122005d70f27e4e61e58b4bb56', 4157, '5222111c6eaa632c7ea01a5a8938e5e1', 274, '5d4a6b6e8d4a476e9b415ec0c1f030da'],
  ['fr_FR-siwis-medium', 1, 63201294, '20e876e8c839e9b11a26085858f2300c', 4875, 'a407e7e6901feb79c2ea2a5466076cce', 284, '2b9ea48b15e9e1fd25f95b415caaf66f'],
  ['fr_FR-tom-medium', 1, 63511038, '5b460c2394a871e675f5c798af149412', 4959, '964d58602df7adf76c2401b070f68ea2', 233, 'd82342c0c27cfbe9342814c7da46cb83'],
  ['fr_FR-upmc-medium', 2, 76733615, '6837ede9408c7e1b39fa4a126af9e865', 4996, '574571ae93aba72dbd159582981037da', 316, '9a49df5c79d89290ac626ebe08f05830',
    ['jessica', 'pierre']],
  ['vi_VN-25hours_single-low', 1, 63104526, '54ff8fb35b0084336377ddd10717e1fa', 4176, 'd626bc458e9eb1a12650709bfc89d4a2', 343, '25eb4744418cd7b8da0a9096dcfa6e61'],
  ['vi_VN-vais1000-medium', 1, 63201294, '5e42428c4f6131f75557cf156c9c1526', 4860, '5ec9669253541d64ba97f60e422f1ad0', 361, '1beeecba9042e5925b0c5fbd138c779d'],
  ['vi_VN-vivos-x_low', 65, 27789413, 'd5880d32e340f57489dcb9d4f1f7aa04', 5592, '708356072a75e33cff652f1b5d455795', 272, '6bd1265a94a8f6bcce74a5b1145a7f95'],
  ['zh_CN-huayan-medium', 1, 63201294, '40cdb7930ff91b81574d5f0489e076ea', 4822, '1fda3ec1d0d3a5a74064397ea8fe0af0', 276, 'b23255ace0cda4c2e02134d8a70c2e03'],
  ['zh_CN-huayan-x_low', 1, 20628813, '2b96570db6becd09814a608c8d14a64f', 4164, '39efce50e05f04893ae656f9008698f7', 237, '715587a977945498c5741b74eb81a1fd'],
];

/**
 * Each Piper voice's licence as its own MODEL_CARD states it, with the card's `License:` line
 * quoted. All 45 cards were read verbatim from a git copy of `rhasspy/piper-voices`
 * (github.com/smseagle/piper-voices, commit a7f3e54c34a5b592ac748477405ad7286d53bdaf, history
 * from Michael Hansen's first commit); every card's md5 equals the md5 `voices.json` lists for
 * v1.0.0 (the PIPER_ROWS above), so these are the very cards of the pinned revision.
 * Where a card names no licence ("See URL", "See LICENSE file", "Unknown") the entry says so;
 * where the dataset the card links states its own licence, that is added with its source.
 * The `rhasspy/piper-voices` repository itself is published under MIT.
 */
const CARD = (line: string) => `MODEL_CARD: "* License: ${line}"`;
const CC_BY_4 = 'https://creativecommons.org/licenses/by/4.0/';
const SEE_URL_MIMIC3: LicenceTerms = { note: 'card_see_url_mimic3' };
const LESSAC_LICENCE = 'https://www.cstr.ed.ac.uk/projects/blizzard/2013/lessac_blizzard2013/license.html';
const LESSAC = [
  namedLicence('Blizzard 2013 Lessac', [{ code: 'name', name: LESSAC_LICENCE }], true),
  CARD(LESSAC_LICENCE),
] as const;
const RYAN = [
  namedLicence('CC-BY-NC-SA-4.0', [{ code: 'non_commercial' }]),
  CARD('CC BY-NC-SA 4.0'),
] as const;
const MLS = [
  namedLicence('CC-BY-4.0', [{ code: 'name', name: 'Multilingual LibriSpeech, OpenSLR 94' }]),
  CARD('CC BY 4.0'),
] as const;
const ALAN = [
  { note: 'card_see_url_mycroft_reserved' },
  `${CARD('See URL')}, URL https://github.com/MycroftAI/mimic3-voices/blob/master/voices/en_UK/apope_low; that folder's LICENSE: "Copyright 2022 Mycroft AI / All Rights Reserved"`,
] as const;
const HFC = [
  namedLicence('CC-BY-NC-SA-4.0', [
    { code: 'non_commercial' },
    { code: 'name', name: 'Hi-Fi-CAPTAIN, NICT' },
  ]),
  CARD('https://creativecommons.org/licenses/by-nc-sa/4.0/deed.en'),
] as const;
const SIWIS = [
  namedLicence('CC-BY-4.0', [{ code: 'corpus', name: 'SIWIS French' }]),
  CARD('CC-BY 4.0'),
] as const;
const HUAYAN = [
  { note: 'card_unknown' },
  `${CARD('Unknown')}, dataset https://github.com/PlayVoice/HuaYan_TTS`,
] as const;

const PIPER_LICENCES: Record<string, readonly [licence: LicenceTerms, source: string]> = {
  'en_GB-alan-low': ALAN,
  'en_GB-alan-medium': ALAN,
  'en_GB-alba-medium': [namedLicence('CC-BY-4.0'), CARD(CC_BY_4)],
  'en_GB-aru-medium': [namedLicence('CC-BY-4.0', [{ code: 'speech_corpus', name: 'ARU' }]), CARD(CC_BY_4)],
  'en_GB-jenny_dioco-medium': [
    { note: 'card_see_url_jenny' },
    `${CARD('See URL')}, URL https://github.com/dioco-group/jenny-tts-dataset; its README: "Attribution is required … The voice must be referred to as "Jenny" … Commercial use is permitted."`,
  ],
  'en_GB-northern_english_male-medium': [
    namedLicence('CC-BY-SA-4.0', [{ code: 'name', name: 'OpenSLR 83' }]),
    CARD('CC-BY-SA 4.0 International'),
  ],
  'en_GB-semaine-medium': [
    namedLicence('CC-BY-NC-SA-4.0', [{ code: 'non_commercial' }]),
    CARD('http://creativecommons.org/licenses/by-nc-sa/4.0/'),
  ],
  'en_GB-southern_english_female-low': [
    namedLicence('CC-BY-SA-4.0', [{ code: 'name', name: 'OpenSLR 83' }]),
    CARD('CC-BY-SA 4.0 International'),
  ],
  'en_GB-vctk-medium': [namedLicence('CC-BY-4.0', [{ code: 'name', name: 'VCTK' }]), CARD(CC_BY_4)],
  'en_US-amy-low': [SEE_URL_MIMIC3, `${CARD('See URL')}, URL https://github.com/MycroftAI/mimic3-voices`],
  'en_US-amy-medium': [SEE_URL_MIMIC3, `${CARD('See URL')}, URL https://github.com/MycroftAI/mimic3-voices`],
  'en_US-arctic-medium': [
    { note: 'card_see_licence_file_arctic' },
    `${CARD('See LICENSE file')}, dataset http://www.festvox.org/cmu_arctic/; the CMU ARCTIC licence as copied in MycroftAI/mimic3-voices voices/en_US/cmu-arctic_low/LICENSE: "Permission to use, copy, modify, and license this software and its documentation for any purpose, is hereby granted without fee"`,
  ],
  'en_US-danny-low': [SEE_URL_MIMIC3, `${CARD('See URL')}, URL https://github.com/MycroftAI/mimic3-voices`],
  'en_US-hfc_female-medium': HFC,
  'en_US-hfc_male-medium': HFC,
  'en_US-joe-medium': [namedLicence('CC0-1.0'), CARD('CC0')],
  'en_US-kathleen-low': [namedLicence('CC0-1.0'), CARD('CC0')],
  'en_US-kusal-medium': [
    { note: 'card_see_url_mimic2' },
    `${CARD('See URL')}, URL https://github.com/MycroftAI/mimic2`,
  ],
  'en_US-l2arctic-medium': [
    namedLicence('CC-BY-NC-4.0', [{ code: 'non_commercial' }, { code: 'name', name: 'L2-ARCTIC' }]),
    CARD('https://creativecommons.org/licenses/by-nc/4.0/'),
  ],
  'en_US-lessac-high': LESSAC,
  'en_US-lessac-low': LESSAC,
  'en_US-lessac-medium': LESSAC,
  'en_US-libritts-high': [
    namedLicence('CC-BY-4.0', [{ code: 'name', name: 'LibriTTS, OpenSLR 60' }]),
    CARD('CC BY 4.0'),
  ],
  'en_US-libritts_r-medium': [
    namedLicence('CC-BY-4.0', [{ code: 'name', name: 'LibriTTS-R, OpenSLR 141' }]),
    CARD('CC BY 4.0'),
  ],
  'en_US-ryan-high': RYAN,
  'en_US-ryan-low': RYAN,
  'en_US-ryan-medium': RYAN,
  'es_ES-carlfm-x_low': [{ note: 'public_domain' }, CARD('Public domain')],
  'es_ES-davefx-medium': [namedLicence('CC0-1.0'), CARD('CC0')],
  'es_ES-mls_10246-low': MLS,
  'es_ES-mls_9972-low': MLS,
  'es_ES-sharvard-medium': [
    namedLicence('CC-BY-3.0', [{ code: 'corpus', name: 'Sharvard' }]),
    CARD('http://creativecommons.org/licenses/by/3.0/'),
  ],
  'es_MX-ald-medium': [namedLicence('Unlicense'), CARD('http://unlicense.org')],
  'fr_FR-gilles-low': [namedLicence('CC0-1.0'), CARD('CC0')],
  'fr_FR-mls-medium': [
    namedLicence('CC-BY-4.0', [{ code: 'name', name: 'Multilingual LibriSpeech, OpenSLR 94' }]),
    CARD('CC-BY 4.0'),
  ],
  'fr_FR-mls_1840-low': MLS,
  'fr_FR-siwis-low': SIWIS,
  'fr_FR-siwis-medium': SIWIS,
  'fr_FR-tom-medium': [namedLicence('AGPL-3.0'), CARD('AGPLv3')],
  'fr_FR-upmc-medium': [namedLicence('CC-BY-SA-4.0'), CARD('http://creativecommons.org/licenses/by-sa/4.0/')],
  'vi_VN-25hours_single-low': [{ note: 'card_unknown' }, `${CARD('Unknown')}, dataset "InfoRe Technology 1"`],
  'vi_VN-vais1000-medium': [
    namedLicence('CC-BY-4.0', [{ code: 'corpus', name: 'VAIS-1000' }]),
    CARD(CC_BY_4),
  ],
  'vi_VN-vivos-x_low': [
    namedLicence('CC-BY-NC-SA-4.0', [{ code: 'non_commercial' }, { code: 'corpus', name: 'VIVOS' }]),
    CARD('CC BY-NC-SA 4.0'),
  ],
  'zh_CN-huayan-medium': HUAYAN,
  'zh_CN-huayan-x_low': HUAYAN,
};

/**
 * The public sample recordings of the Piper voices: `rhasspy/piper-samples`, layout
 * `samples/<lang>/<locale>/<name>/<quality>/speaker_<n>.mp3` (one per speaker), on its default
 * branch: no single commit holds all of ours (at 39872caa… `es_ES-mls_9972-low` still sat under a
 * misspelled `mls_9772/` and `fr_FR-tom-medium` was not there yet), and a sample once fetched is
 * kept, so the branch moving on changes nothing already heard.
 */
const PIPER_SAMPLES_REPO = 'rhasspy/piper-samples';
const PIPER_SAMPLES_REVISION = 'master';

/** The host the sample paths are relative to; a sample mirror replaces it. */
export const DEFAULT_SAMPLE_MIRROR = 'https://raw.githubusercontent.com';

function piperEntry(row: PiperRow): CatalogueEntry {
  const [id, numSpeakers, onnxSize, onnxMd5, jsonSize, jsonMd5, cardSize, cardMd5, speakers] = row;
  const match = /^(([a-z]{2,3})_[A-Z]{2})-(.+)-(x_low|low|medium|high)$/.exec(id);
  if (!match) throw new Error(`catalogue: bad Piper id ${id}`);
  const [, locale, language, name, quality] = match as unknown as [
    string,
    string,
    string,
    string,
    VoicePackQuality,
  ];
  const folder = `${language}/${locale}/${name}/${quality}`;
  const file = (path: string, size: number, md5: string, role: CatalogueFile['role']): CatalogueFile => ({
    path,
    url: `${PIPER_REPO}/resolve/${PIPER_REVISION}/${folder}/${path}`,
    size,
    digest: { algorithm: 'md5', hex: md5 },
    role,
  });
  const files = [
    file(`${id}.onnx`, onnxSize, onnxMd5, 'model'),
    file(`${id}.onnx.json`, jsonSize, jsonMd5, 'config'),
    file('MODEL_CARD', cardSize, cardMd5, 'card'),
  ];
  const [terms, licenceSource] = PIPER_LICENCES[id] ?? [UNKNOWN_LICENCE, 'model card not found'];
  return {
    id,
    family: 'piper',
    languages: [language],
    locales: [locale],
    quality,
    sample_rate: PIPER_SAMPLE_RATES[quality],
    num_speakers: numSpeakers,
    speakers: speakers ?? (numSpeakers === 1 ? [] : null),
    voices: [],
    files,
    size: files.reduce((sum, f) => sum + f.size, 0),
    licence: licenceWords(terms),
    licence_terms: terms,
    licence_source: licenceSource,
    source_url: `${DEFAULT_VOICE_MIRROR}/${PIPER_REPO}/tree/${PIPER_REVISION}/${folder}`,
    model_card_url: `${DEFAULT_VOICE_MIRROR}/${PIPER_REPO}/blob/${PIPER_REVISION}/${folder}/MODEL_CARD`,
    samples: `${PIPER_SAMPLES_REPO}/${PIPER_SAMPLES_REVISION}/samples/${folder}/`,
    speaker_genders: speakerGenderCoverage(id, numSpeakers, speakers ?? (numSpeakers === 1 ? [] : null)),
  };
}

/** Kokoro voice name prefixes: language/accent letter, then f(emale) or m(ale). */
const KOKORO_LOCALES: Record<string, string> = {
  a: 'en_US',
  b: 'en_GB',
  e: 'es_ES',
  f: 'fr_FR',
  h: 'hi_IN',
  i: 'it_IT',
  j: 'ja_JP',
  p: 'pt_BR',
  z: 'zh_CN',
};

/** Locale, language and gender of a Kokoro voice from its name (`af_heart` → en_US, female). */
export function kokoroVoiceInfo(name: string, file = `voices/${name}.bin`): KokoroVoice {
  const locale = KOKORO_LOCALES[name[0] ?? ''] ?? 'und';
  const gender = name[1] === 'f' ? 'female' : name[1] === 'm' ? 'male' : null;
  return { name, locale, language: locale.split('_')[0]!, gender, file };
}

/** Kokoro v1.0 voices of our languages, with the sha256 recorded at the pinned revision. */
// prettier-ignore
const KOKORO_VOICES: [name: string, sha256: string][] = [
  ['af_alloy', 'c4a6b876047fd7fb472edf4ebd63cfac7c3b958a7cae7c106e8f038ca6308c45'],
  ['af_aoede', '4a004c33430762e2461eedb2013fad808ef4ab3121f5300f554476caf58d8361'],
  ['af_bella', 'f69d836209b78eb8c66e75e3cda491e26ea838a3674257e9d4e5703cbaf55c8b'],
  ['af_heart', 'd583ccff3cdca2f7fae535cb998ac07e9fcb90f09737b9a41fa2734ec44a8f0b'],
  ['af_jessica', 'a240a5e3c15b43563d6e923bdca8ef5613a23471d9b77653694012435df23bd8'],
  ['af_kore', '9be5221b6a941c04b561959b8ff0b06e809444dcc4ab7e75a7b23606f691819e'],
  ['af_nicole', 'cd2191ab31b914ed7b318416b0e4440fdf392ddad9106a060819aa600a64f59a'],
  ['af_nova', '18778272caa0d0eebaea251c35fd635f038434f9eee5e691d02a174bd328414f'],
  ['af_river', '00a2bcf82b1d86e8f19902ede58c65ccf6c0e43b44b7d74fad54e5d8933c9c30'],
  ['af_sarah', '4409fbc125afabacc615d94db5398d847006a737b0247d6892b7a9a0007a2f0a'],
  ['af_sky', '4435255c9744f3f31659e0d714ab7689bf65d9e77ec1cce060f083912614f0b9'],
  ['am_adam', '162b035ed91cfc48b6046982184c645f72edcdd1b82843347f605d7bf7b15716'],
  ['am_echo', '3968b92c3c4cd1c4416dbded36c13eaa388a90d5788d02a13e4d781f5f8cf3c3'],
  ['am_eric', 'e8b5be17edd1e3636901ce7598baafe2dc8dd8ff707a0c23bf9e461add7e2832'],
  ['am_fenrir', 'c27989f741f7ee34d273a39d8a595cc0837d35f5ced9a29b7cc162614616df43'],
  ['am_liam', '52403be32fd047c6a44517cb0bcd6b134f2a18baa73e70ef41651e0eab921ade'],
  ['am_michael', '1d1f21dd8da39c30705cd4c75d039d265e9bc4a2a93ed09bc9e1b1225eb95ba1'],
  ['am_onyx', 'da5d135b424164916d75a68ffb4c2abce3d7d5ccc82dd1ee6cf447ce286145e6'],
  ['am_puck', 'fcf73c989033e9233e0b98713eca600c8c74dcc1614b37009d5450ff4a2274a0'],
  ['am_santa', '61150cf726ab6c5ed7a99f90a304f91f5a72c00c592e89ec94e5df11c319227a'],
  ['bf_alice', '08afa6ba24da61ea5e8efa139e5aadc938d83f0a6da5a900adaf763ac1da5573'],
  ['bf_emma', '669fe0647f9dd04fcab92f1439a40eeb4c8b4ab1f82e4996fe3d918ce4a63b73'],
  ['bf_isabella', '3754352c4aaa46d17f27654ab7518d65b62ad6163a0f55a5f4330c2da2c4e94f'],
  ['bf_lily', '5e0ee32ebe64a467124976b14e69590746f1c4ce41a12b587a50c862edfea335'],
  ['bm_daniel', '6b3194bbceffb746733cbc22c8f593dd44e401a71d53895a2dca891bc595a1e8'],
  ['bm_fable', 'f889083196807b4adb15e9204252165f503b8d33d3982e681c52443c49d798f1'],
  ['bm_george', 'c4b235a4c1f2cd3b939fed08b899ce9385638b763f7b73a59616c4fc9bd6c9bc'],
  ['bm_lewis', 'b8f671cef828c30e66fdf0b0756a76bba58f6bb3398cbbf27058642acbcedb97'],
  ['ef_dora', 'f66ec66bd295acb18372e37008533a9a3228483ccd294e7538d5d9294ac9a532'],
  ['em_alex', '27809e9eafdcbcfff90a3016c697568676531de2a2c39cee29c96c7bd6b83e95'],
  ['em_santa', 'ad43b774e1ca24d05c6161297d8aeb770ac3d29bb95daf516727af5f7d543683'],
  ['ff_siwis', 'a35f5675ad08948e326ae75fd0ea16ba5d0042e4f76b5f3d1df77d0a48c54861'],
  ['jf_alpha', '56b479360aad9f367aeb8cef908f9201cf48b4555e488c5f4590c9dfcd978bb6'],
  ['jf_gongitsune', '0f1181f3772d27b7c12aaf4bcd71e31b186c4146e330d074a3dc64ee392af396'],
  ['jf_nezumi', '13cb71eebb0b48739d444558322aa35a8c9a489b80e1e631f14d2e6aea93026b'],
  ['jf_tebukuro', '29c6c0561b4288d59639677bebe7533c919743d5ea68d0d2ae992644beea6696'],
  ['jm_kumo', '09e959d239724c734d65661f06f14cdabcddfd476bfaaad905a937099ae9e64f'],
  ['zf_xiaobei', '5dde6e1c9c4f12c8b327bc29c0cee361a23b52b952c04636858ba637ec66e640'],
  ['zf_xiaoni', '08892b62a39af0a615cd0581238db7e19e44c578e8fa0bfd0e586e93327d9cba'],
  ['zf_xiaoxiao', '03adb5d5e3ddd88b047954e974e651cb0a4b524c985057e5d872e962c7be1169'],
  ['zf_xiaoyi', 'bc1555c5c486099196ac254bae5e0bb543c121952a3092f50b7d8724f1bc36b3'],
  ['zm_yunjian', 'de48a00bdbf3649f07162269a2b6e0513604389bfac8a2e6c75cb34b323ad6fa'],
  ['zm_yunxi', '7243892fb4e560d47014090ddf010f8b8b790f3c6b029ff82b2ac06aa4e27c8b'],
  ['zm_yunxia', '6b2b8fc15b3df19a368daebe5c581c7fabf433ee5b8a17ffd6b3d723cff8936d'],
  ['zm_yunyang', '261e2c89470534dbbcb8fd98b8fdc495ec94063d9bb6c8277f7be43cccba3f42'],
];

// prettier-ignore
const KOKORO_MODELS: Record<KokoroPrecision, [url: string, size: number, sha256: string]> = {
  fp32: ['onnx/model.onnx', 325532232, '8fbea51ea711f2af382e88c833d9e288c6dc82ce5e98421ea61c058ce21a34cb'],
  fp16: ['onnx/model_fp16.onnx', 163234740, 'ba4527a874b42b21e35f468c10d326fdff3c7fc8cac1f85e9eb6c0dfc35c334a'],
  q8: ['onnx/model_quantized.onnx', 92361116, 'fbae9257e1e05ffc727e951ef9b9c98418e6d79f1c9b6b13bd59f5c9028a1478'],
};

// prettier-ignore
const KOKORO_SUPPORT: [path: string, size: number, sha256: string, role: CatalogueFile['role']][] = [
  ['tokenizer.json', 3497, '77a02c8e164413299b4b4c403b14f8e0e1c1b727db4d46a09d6327b861060a34', 'vocab'],
  ['tokenizer_config.json', 113, 'be1cb066d6ef6b074b3f15e6a6dd21ac88ff3cdaedf325f0aaed686c70f75d20', 'extra'],
  ['config.json', 44, 'df34b4f930b23447cd4dc410fabfb42eb3f24e803e6c3f97d618fb359380a36f', 'extra'],
];

/** The Kokoro model file's name inside a pack, whatever the precision. */
export const KOKORO_MODEL_FILE = 'model.onnx';

function kokoroEntry(precision: KokoroPrecision): CatalogueEntry {
  const base = `${KOKORO_REPO}/resolve/${KOKORO_REVISION}`;
  const sha = (hex: string) => ({ algorithm: 'sha256' as const, hex });
  const [modelUrl, modelSize, modelSha] = KOKORO_MODELS[precision];
  const voices = KOKORO_VOICES.map(([name]) => kokoroVoiceInfo(name));
  const files: CatalogueFile[] = [
    {
      path: KOKORO_MODEL_FILE,
      url: `${base}/${modelUrl}`,
      size: modelSize,
      digest: sha(modelSha),
      role: 'model',
    },
    ...KOKORO_SUPPORT.map(([path, size, hex, role]) => ({
      path,
      url: `${base}/${path}`,
      size,
      digest: sha(hex),
      role,
    })),
    ...KOKORO_VOICES.map(([name, hex]) => ({
      path: `voices/${name}.bin`,
      url: `${base}/voices/${name}.bin`,
      size: KOKORO_VOICE_BYTES,
      digest: sha(hex),
      role: 'voice' as const,
    })),
  ];
  return {
    id: `kokoro-v1.0-${precision}`,
    family: 'kokoro',
    languages: [...new Set(voices.map((v) => v.language))].sort(),
    locales: [...new Set(voices.map((v) => v.locale))].sort(),
    // Kokoro outranks every Piper tier in naturalness; the three exports share the tier and
    // differ in size and speed (ties are broken by precision, see assignment.ts).
    quality: 'high',
    precision,
    sample_rate: KOKORO_SAMPLE_RATE,
    num_speakers: voices.length,
    speakers: voices.map((v) => v.name),
    voices,
    files,
    size: files.reduce((sum, f) => sum + f.size, 0),
    licence: licenceWords(KOKORO_LICENCE),
    licence_terms: KOKORO_LICENCE,
    licence_source: 'model card of onnx-community/Kokoro-82M-v1.0-ONNX (license: apache-2.0)',
    source_url: `${DEFAULT_VOICE_MIRROR}/${KOKORO_REPO}/tree/${KOKORO_REVISION}`,
    model_card_url: `${DEFAULT_VOICE_MIRROR}/${KOKORO_REPO}/blob/${KOKORO_REVISION}/README.md`,
    // No per-voice sample recordings are published with the ONNX exports.
    samples: null,
    // Kokoro's voice names state their gender (af_… American female, am_… male).
    speaker_genders: voices.every((v) => v.gender) ? 'known' : 'partial',
  };
}

/** Every downloadable pack: Piper voices by id, then the three Kokoro exports. */
export const CATALOGUE: readonly CatalogueEntry[] = [
  ...PIPER_ROWS.map(piperEntry),
  kokoroEntry('fp32'),
  kokoroEntry('fp16'),
  kokoroEntry('q8'),
];

const BY_ID = new Map(CATALOGUE.map((entry) => [entry.id, entry]));

/** The catalogue entry with this id, or undefined. */
export function findCatalogueEntry(
  id: string,
  catalogue: readonly CatalogueEntry[] = CATALOGUE,
): CatalogueEntry | undefined {
  return catalogue === CATALOGUE ? BY_ID.get(id) : catalogue.find((entry) => entry.id === id);
}

/** The URL of speaker `speaker`'s public sample of `entry` under `base`; undefined when none. */
export function sampleUrl(base: string, entry: CatalogueEntry, speaker: number): string | undefined {
  if (!entry.samples) return undefined;
  return `${base.replace(/\/+$/, '')}/${entry.samples}speaker_${speaker}.mp3`;
}

/** A catalogue file's download URL under `mirror` (trailing slashes of the base ignored). */
export function catalogueFileUrl(mirror: string, file: CatalogueFile): string {
  return `${mirror.replace(/\/+$/, '')}/${file.url}`;
}
