/**
 * The pronunciation lexicon (`core/lexicon`), its one entry: the store of the data directory's
 * lexicon.json and where that file lives. The engine never reads it: jobs, the server and the CLI
 * hand its entries to the engine as data.
 */

export { LEXICON_FILE, lexiconPath } from './layout';
export { createLexiconStore, preparedEntry, type LexiconStore } from './lexicon-store';
