/**
 * No words in JSX: the repository's eslint.config.js refuses words written in the interface's
 * JSX (text, string children, labelling props) and lets punctuation, acronyms and messages
 * through (`messages/no-words-in-jsx`, eslint-rules/messages.js).
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RULE = 'messages/no-words-in-jsx';
const FILE = 'renderer/src/features/lexicon/Planted.tsx';

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      files: ['**/*.tsx'],
      languageOptions: { parserOptions: { projectService: false } },
    },
    ruleFilter: ({ ruleId }) => ruleId === RULE,
  });
});

async function reports(jsx: string): Promise<number> {
  const code = `import { FormattedMessage } from 'react-intl';\nexport const V = ({ n }: { n: number }) => (${jsx});\n`;
  const [result] = await eslint.lintText(code, { filePath: FILE });
  const messages = result?.messages ?? [];
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.filter((m) => m.ruleId === RULE).length;
}

describe('messages/no-words-in-jsx', () => {
  it.each([
    ['text', '<p>Save the draft</p>'],
    ['a string child', "<p>{'Save'}</p>"],
    ['a conditional child', "<p>{n > 1 ? 'voices' : 'voice'}</p>"],
    ['a template child', '<p>{`${n} voices`}</p>'],
    ['aria-label', '<button aria-label="Close dialog" />'],
    ['title', '<span title="Rendered segments" />'],
    ['placeholder', '<input placeholder="Search…" />'],
    ['a component’s label', '<Field label="Voice" />'],
  ])('refuses words in %s', async (_, jsx) => {
    expect(await reports(jsx)).toBeGreaterThan(0);
  });

  it.each([
    ['a message', '<p><FormattedMessage id="x.save" defaultMessage="Save the draft" /></p>'],
    ['punctuation between values', '<p>{n} / {n} · {n}×</p>'],
    ['an acronym', '<option value="mp3">MP3</option>'],
    ['an entity', '<p>&nbsp;&times;</p>'],
    ['props that are not words', '<div aria-live="polite" aria-describedby="x-hint" className="row wide" />'],
  ])('lets %s through', async (_, jsx) => {
    expect(await reports(jsx)).toBe(0);
  });
});
