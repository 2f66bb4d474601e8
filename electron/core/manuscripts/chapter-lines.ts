/**
 * Lines that start a chapter in a text file (plain text and Markdown): the app's own marker
 * `[chapter: Title]` (the same rule as the audiobook export's chapters, engine/text/chapters.ts,
 * restated here as the manuscripts layer does not import the engine), and for plain text
 * `#`/`##` headings and a chapter's name standing alone on its line: "Chapter 3",
 * "CHAPTER III", "Chapter Three: The Storm", "Chương 3", "Chương một", "CHƯƠNG IV - Về quê"
 * ("Chapter I.]", closing a Project Gutenberg illustration's bracket, is "Chapter I").
 */

export const MARKER_RE = /^[ \t]*\[chapter:[ \t]*(.*?)[ \t]*\][ \t]*$/i;
const HEADING_RE = /^ {0,3}(#{1,2})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
export const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;

const ENGLISH_NUMBER =
  '(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)';
const VIETNAMESE_NUMBER =
  '(?:một|hai|ba|bốn|tư|năm|lăm|sáu|bảy|bẩy|tám|chín|mười|mươi|mốt|trăm|linh|lẻ|thứ|nhất|nhì|cuối)';
const NUMBER = `(?:\\d{1,4}|[ivxlcdm]{1,8}|${ENGLISH_NUMBER}(?:[ -]${ENGLISH_NUMBER})*|${VIETNAMESE_NUMBER}(?: ${VIETNAMESE_NUMBER})*)`;
const NAMED_RE = new RegExp(
  `^[ \\t]*(?:chapter|chương|chuong)[ \\t]+${NUMBER}[ \\t]*(?:[:.\\-–—][ \\t]*(.*?))?[ \\t]*$`,
  'iu',
);

/** The chapter title a `[chapter: …]` line gives, or null. */
export function markerTitle(line: string): string | null {
  const match = MARKER_RE.exec(line);
  return match ? match[1]! : null;
}

/** The title a plain-text chapter line gives (marker, `#`/`##` heading, or a chapter's name alone), or null. */
export function plainTextChapterTitle(line: string): string | null {
  const marker = markerTitle(line);
  if (marker !== null) return marker;
  const heading = HEADING_RE.exec(line);
  if (heading) return heading[2]!;
  if (line.length <= 120 && NAMED_RE.test(line.normalize('NFC'))) {
    const title = line.trim().replace(/[ \t]+/g, ' ');
    // "Chapter I.]": the end of a Project Gutenberg "[Illustration: …" holding the heading.
    return title.includes('[') ? title : title.replace(/[ \t.]*\]$/, '');
  }
  return null;
}
