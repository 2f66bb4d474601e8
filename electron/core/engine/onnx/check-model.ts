/** The voice library's model check: a pack's `.onnx` is usable when the engine can open it as its family. */

import { openKokoroModel } from './kokoro-model';
import { openPiperModel } from './piper-model';

/**
 * Opens the model as `family` and closes it again.
 * @throws AppError VOICE_PACK_INVALID for a file that is not such a model (the message names its base name)
 */
export async function checkVoiceModel(path: string, family: 'piper' | 'kokoro'): Promise<void> {
  const model = family === 'piper' ? await openPiperModel(path) : await openKokoroModel(path);
  await model.close();
}
