import type { Manuscript, ManuscriptOptions } from '../../shared/manuscript';

/** One format's reader: the whole file's bytes and its name (for messages). */
export type ManuscriptReader = (
  bytes: Uint8Array,
  fileName: string,
  options: ManuscriptOptions,
) => Promise<Manuscript>;
