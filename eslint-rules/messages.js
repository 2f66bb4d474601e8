// @ts-check
/**
 * `messages/no-words-in-jsx`: the interface's words come from its message catalogues
 * (renderer/src/i18n), never from JSX. It is formatjs's `no-literal-string-in-jsx` (text, and
 * string literals in children and in the labelling props), reporting only strings that hold a
 * word (two lower-case letters in a row): punctuation, symbols and acronyms between messages
 * ("/", "·", "×", "MP3", "IPA") are not words to translate.
 */
import formatjs from 'eslint-plugin-formatjs';

const base = formatjs.rules['no-literal-string-in-jsx'];

/** Two lower-case letters in a row, once HTML entities (&nbsp;, &times;) are taken out. */
const hasWords = (/** @type {string} */ text) => /\p{Ll}{2}/u.test(text.replace(/&[a-z]+;|&#\w+;/gi, ''));

/** @type {import('eslint').Rule.RuleModule} */
const noWordsInJsx = {
  meta: { ...base.meta, docs: { description: 'No untranslated words in JSX: use a message.' } },
  create(context) {
    const filtered = Object.create(context, {
      report: {
        value(/** @type {any} */ descriptor) {
          if (hasWords(context.sourceCode.getText(descriptor.node))) context.report(descriptor);
        },
      },
    });
    return base.create(filtered);
  },
};

export default { rules: { 'no-words-in-jsx': noWordsInJsx } };
