// The package ships JavaScript only; markdown.ts uses it as a markdown-it plugin.
declare module 'markdown-it-footnote' {
  import type { MarkdownIt } from 'markdown-it';
  const footnote: (md: MarkdownIt) => void;
  export default footnote;
}
