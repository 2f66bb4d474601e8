/**
 * What counts as whitespace when text is cut into chunks and when engine word events are
 * mapped back to the source. Offsets are UTF-16 code units, as everywhere in the engine.
 */

/** Whether the UTF-16 code unit `c` is a space, tab, line break or other Unicode space (Zs, BOM). */
export function isSpaceCode(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
