/**
 * The name of a zip entry as its writer meant it. yauzl decodes a name as UTF-8 when the entry's
 * UTF-8 flag (general purpose bit 11) is set or an Info-ZIP Unicode Path field (0x7075) gives it,
 * else as CP437 (the zip format's default). Many writers put UTF-8 names without the flag
 * (Debian's and macOS's `zip`, Java's and Python's older zip modules), and CP437 turns "Chương"
 * into "Chã░Ã©ng": a name with bytes past ASCII that are valid UTF-8 is read as UTF-8 (text in
 * CP437 is almost never valid UTF-8), others stay CP437 as yauzl read them.
 */

/** General purpose flag bit 11: the name is UTF-8. */
const UTF8_FLAG = 0x0800;
/** Info-ZIP Unicode Path extra field. */
const UNICODE_PATH_FIELD = 0x7075;

/** What the name is decided from: the fields of yauzl's `Entry` (decodeStrings on). */
export interface ZipNameFields {
  fileName: string;
  fileNameRaw: Buffer;
  generalPurposeBitFlag: number;
  extraFields: readonly { id: number }[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The entry's name: UTF-8 when its bytes are valid UTF-8 beyond ASCII, else as yauzl decoded it. */
export function zipEntryName(entry: ZipNameFields): string {
  if ((entry.generalPurposeBitFlag & UTF8_FLAG) !== 0) return entry.fileName;
  if (entry.extraFields.some((field) => field.id === UNICODE_PATH_FIELD)) return entry.fileName;
  if (!entry.fileNameRaw.some((byte) => byte >= 0x80)) return entry.fileName;
  let name: string;
  try {
    name = utf8.decode(entry.fileNameRaw);
  } catch {
    return entry.fileName;
  }
  // ASCII bytes read the same in both (so yauzl's checks of `..` and absolute paths still hold);
  // yauzl turned backslashes into slashes unless asked for strict names: the same here.
  return entry.fileName.includes('\\') ? name : name.replaceAll('\\', '/');
}
