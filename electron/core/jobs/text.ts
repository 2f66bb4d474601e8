/**
 * The billable character count, in one place for jobs and server: the engine's own cleaning
 * and counting (code points of the NFC text with control characters dropped), so what is
 * charged at submit is exactly what the engine reports.
 */
export { cleanText, countCharacters } from '../engine/text';
