import { AppError } from '../../shared/errors';
import type { ManuscriptReader } from './reader';

/** Placeholder until its reader lands (this session's work in progress): refuses every file. */
export const readOdt: ManuscriptReader = (_bytes, fileName) =>
  Promise.reject(new AppError('UNSUPPORTED_MEDIA_TYPE', `"${fileName}": this format's reader is not written yet.`));
