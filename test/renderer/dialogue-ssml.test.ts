import { describe, expect, it } from 'vitest';
import { parseSsml } from '../../electron/shared/ssml';
import {
  dialogueToSsml,
  escapeSsmlText,
  planDialogue,
  remapParagraphVoices,
  splitParagraphs,
  splitQuotes,
  offsetAt,
  ssmlErrorPlace,
  type DialogueVoices,
} from '../../renderer/src/lib/dialogue-ssml';

const NARRATOR = 'en_male_onyx_default';
const CHARACTER = 'en_female_nova_default';
const voices = (over: Partial<DialogueVoices> = {}): DialogueVoices => ({
  narrator: NARRATOR,
  character: CHARACTER,
  paragraphs: {},
  ...over,
});
/** Each quoted part as the reader sees it. */
const quoted = (text: string) =>
  splitQuotes(text)
    .filter((p) => p.quoted)
    .map((p) => p.text);

describe('dialogue SSML', () => {
  it('paragraphs are separated by blank lines; a single line break stays inside', () => {
    expect(splitParagraphs('  One\nstill one.\n\n\n Two. \n \t\nThree\n\n')).toEqual([
      { index: 0, text: 'One\nstill one.' },
      { index: 1, text: 'Two.' },
      { index: 2, text: 'Three' },
    ]);
    expect(splitParagraphs('A\r\n\r\nB').map((p) => p.text)).toEqual(['A', 'B']);
  });

  it('finds quoted speech of each kind, marks included', () => {
    expect(quoted('He said “Hello there,” and left.')).toEqual(['“Hello there,”']);
    expect(quoted('He said "Hello there," and left.')).toEqual(['"Hello there,"']);
    expect(quoted('Il dit « Bonjour » et partit.')).toEqual(['« Bonjour »']);
    expect(quoted('Er sagte „Guten Tag“ und ging.')).toEqual(['„Guten Tag“']);
    expect(quoted('Powiedział „Dzień dobry” i wyszedł.')).toEqual(['„Dzień dobry”']);
    // British single quotes: a right quote inside a word is an apostrophe. (A plural possessive
    // before a space, "the boys’ bikes", still reads as a closing mark: it cannot be told apart.)
    expect(quoted('‘I don’t know,’ she said, ‘it’s late.’')).toEqual(['‘I don’t know,’', '‘it’s late.’']);
    expect(quoted('The dogs’ owner and rock ’n’ roll.')).toEqual([]);
    // The parts cover the text exactly, in order.
    const text = 'A “b” c "d" e «f» g „h“ i';
    expect(
      splitQuotes(text)
        .map((p) => p.text)
        .join(''),
    ).toBe(text);
    expect(quoted(text)).toEqual(['“b”', '"d"', '«f»', '„h“']);
  });

  it('straight quotes after a word are inch marks, not speech', () => {
    expect(quoted('He was 5\'11" tall and 6" wider.')).toEqual([]);
    expect(quoted('A board 12" long, "she said".')).toEqual(['"she said"']);
  });

  it('nested quotes: the same kind nests, other kinds belong to the quotation', () => {
    expect(quoted('He said “she told me “run” twice” and ran.')).toEqual(['“she told me “run” twice”']);
    expect(quoted('“Read «Le Monde», dear,” he said.')).toEqual(['“Read «Le Monde», dear,”']);
    expect(quoted('„Sie rief „Halt“ laut“ dann.')).toEqual(['„Sie rief „Halt“ laut“']);
  });

  it('an unclosed quote runs to the end of its paragraph, not into the next', () => {
    const plan = planDialogue('He said “Wait for me\nat the harbour.\n\nThe boat left.', voices());
    expect(plan[0]!.spans).toEqual([
      { text: 'He said ', voice: NARRATOR, quoted: false },
      { text: '“Wait for me\nat the harbour.', voice: CHARACTER, quoted: true },
    ]);
    expect(plan[1]!.spans).toEqual([{ text: 'The boat left.', voice: NARRATOR, quoted: false }]);
    // A stray closing mark is narration.
    expect(quoted('The end” of it.')).toEqual([]);
  });

  it('builds SSML: <p> per paragraph, <voice> where the voice is not the narrator’s', () => {
    const text = 'The keeper turned. “Who is there?” she asked.\n\nNobody answered.';
    expect(dialogueToSsml(text, voices())).toBe(
      '<speak>\n' +
        `<p>The keeper turned. <voice name="${CHARACTER}">“Who is there?”</voice> she asked.</p>\n` +
        '<p>Nobody answered.</p>\n' +
        '</speak>',
    );
  });

  it('a paragraph’s voice overrides narrator and character in that paragraph only', () => {
    const elara = 'en_female_elara_br';
    const text = '“Hello,” said Anna.\n\n“Hi,” said Ben.\n\nThey walked on.';
    const ssml = dialogueToSsml(text, voices({ paragraphs: { 1: elara, 7: 'en_male_echo_default' } }));
    expect(ssml).toBe(
      '<speak>\n' +
        `<p><voice name="${CHARACTER}">“Hello,”</voice> said Anna.</p>\n` +
        `<p><voice name="${elara}">“Hi,” said Ben.</voice></p>\n` +
        '<p>They walked on.</p>\n' +
        '</speak>',
    );
    // A paragraph given to the narrator is read by the narrator whole, quotes included.
    expect(dialogueToSsml('“Hi,” she said.', voices({ paragraphs: { 0: NARRATOR } }))).toBeUndefined();
    // Without a character voice, only the paragraph assignment switches voice.
    expect(dialogueToSsml('A “b”.\n\nC “d”.', voices({ character: null, paragraphs: { 1: elara } }))).toBe(
      `<speak>\n<p>A “b”.</p>\n<p><voice name="${elara}">C “d”.</voice></p>\n</speak>`,
    );
  });

  it('the SSML reads as the API reads it: each run in the voice the plan gives it', () => {
    const text =
      'Tom & Jerry met at 5 < 6 o’clock. “Who’s there?” she asked.\n\n' +
      '“Me,” he said, «and him».\n\nNobody answered “at all';
    const plan = voices({ paragraphs: { 1: 'en_female_elara_br' } });
    const document = parseSsml(dialogueToSsml(text, plan)!, { voiceCode: NARRATOR });
    const heard = document.runs.map((r) => [
      document.text.slice(r.start, r.end).trim(),
      r.voiceCode ?? NARRATOR,
    ]);
    expect(heard).toEqual([
      ['Tom & Jerry met at 5 < 6 o’clock.', NARRATOR],
      ['“Who’s there?”', CHARACTER],
      ['she asked.', NARRATOR],
      ['“Me,” he said, «and him».', 'en_female_elara_br'],
      ['Nobody answered', NARRATOR],
      ['“at all', CHARACTER],
    ]);
  });

  it('escapes &, < and > in the text', () => {
    expect(escapeSsmlText('a < b && c > d')).toBe('a &lt; b &amp;&amp; c &gt; d');
    const ssml = dialogueToSsml('Tom & Jerry: “<speak> is a tag & 1 < 2”', voices());
    expect(ssml).toBe(
      '<speak>\n' +
        `<p>Tom &amp; Jerry: <voice name="${CHARACTER}">“&lt;speak&gt; is a tag &amp; 1 &lt; 2”</voice></p>\n` +
        '</speak>',
    );
    expect(ssml!.match(/</g)).toHaveLength(6); // only the markup's own tags open with "<"
  });

  it('plain text stays plain: no assignment, or every part read by the narrator', () => {
    const text = 'She said “hello” & smiled.\n\nThe end.';
    expect(dialogueToSsml(text, voices({ character: null }))).toBeUndefined();
    expect(dialogueToSsml(text, voices({ character: NARRATOR }))).toBeUndefined();
    expect(dialogueToSsml('No speech here at all.', voices())).toBeUndefined();
    expect(dialogueToSsml('', voices())).toBeUndefined();
  });

  it('finds the place an SSML error names, and its offset in the text', () => {
    const message = 'SSML: <voice> is not closed (line 2, column 5).';
    expect(ssmlErrorPlace(message)).toEqual({ line: 2, column: 5 });
    expect(ssmlErrorPlace('Write or paste some text first.')).toBeUndefined();
    const text = '<speak>\nabc <voice>x\n</speak>';
    expect(offsetAt(text, 2, 5)).toBe(text.indexOf('<voice>'));
    expect(offsetAt(text, 1, 1)).toBe(0);
    expect(offsetAt(text, 2, 99)).toBe(text.indexOf('\n</speak>'));
    expect(offsetAt(text, 9, 1)).toBe(text.length);
  });
});

describe('paragraph voices after an edit', () => {
  const before = 'Intro.\n\n“Hi,” said Ben.\n\nOutro.';
  it('follow their paragraph when one is inserted or removed above it', () => {
    expect(remapParagraphVoices(before, 'New.\n\nIntro.\n\n“Hi,” said Ben.\n\nOutro.', { 1: 'a' })).toEqual({
      2: 'a',
    });
    expect(remapParagraphVoices(before, '“Hi,” said Ben.\n\nOutro.', { 1: 'a', 2: 'b' })).toEqual({
      0: 'a',
      1: 'b',
    });
  });
  it('stay at their index when the paragraph itself is edited; go when it is gone', () => {
    expect(remapParagraphVoices(before, 'Intro.\n\n“Hi,” said Benjamin.\n\nOutro.', { 1: 'a' })).toEqual({
      1: 'a',
    });
    expect(remapParagraphVoices(before, 'Intro.', { 2: 'b' })).toEqual({});
    expect(remapParagraphVoices(before, before, {})).toEqual({});
  });
});
