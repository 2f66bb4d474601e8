/** Voices: the catalogue and its auditions, the voice packs, and the user's custom voices. */

import type { Voice } from '../../../electron/shared/api';
import { CUSTOM_VOICE_ROUTES } from '../../../electron/shared/custom-voices';
import { readCustomVoicePages } from './custom-voice-pages';
import type { ApiClient, ApiTransport } from './api-client';

export function voiceMethods(
  transport: ApiTransport,
): Pick<
  ApiClient,
  | 'voices'
  | 'audition'
  | 'auditionUrl'
  | 'voicePacks'
  | 'voicePackSampleUrl'
  | 'voicePackSample'
  | 'installVoicePack'
  | 'cancelVoicePack'
  | 'removeVoicePack'
  | 'importVoicePack'
  | 'assignVoice'
  | 'customVoices'
  | 'createCustomVoice'
  | 'updateCustomVoice'
  | 'deleteCustomVoice'
  | 'auditionCustomVoice'
  | 'customVoiceAuditionUrl'
> {
  const { baseUrl, send, call, query, elementQuery } = transport;
  return {
    voices: async () => (await call<{ items: Voice[] }>('GET', '/api/v1/voices')).items,
    async audition(voiceCode, body = {}, signal) {
      const response = await send(
        'POST',
        `/api/v1/voices/${encodeURIComponent(voiceCode)}/audition`,
        body,
        signal,
      );
      return response.blob();
    },
    auditionUrl: (voiceCode, body = {}) =>
      `${baseUrl}/api/v1/voices/${encodeURIComponent(voiceCode)}/audition${elementQuery(body)}`,
    voicePacks: () => call('GET', '/api/v1/voice-packs'),
    voicePackSampleUrl: (id, speaker = 0) =>
      `${baseUrl}/api/v1/voice-packs/${encodeURIComponent(id)}/sample${elementQuery({ speaker })}`,
    async voicePackSample(id, speaker = 0) {
      const response = await send(
        'GET',
        `/api/v1/voice-packs/${encodeURIComponent(id)}/sample${query({ speaker })}`,
      );
      return response.blob();
    },
    installVoicePack: (id) => call('POST', '/api/v1/voice-packs/install', { id }),
    cancelVoicePack: (id) => call('POST', `/api/v1/voice-packs/${encodeURIComponent(id)}/cancel`, {}),
    removeVoicePack: (id) => call('POST', `/api/v1/voice-packs/${encodeURIComponent(id)}/remove`, {}),
    importVoicePack: (file, fileName) =>
      call('POST', `/api/v1/voice-packs/import${query({ file_name: fileName })}`, undefined, {
        body: file,
        type: /\.zip$/i.test(fileName) ? 'application/zip' : 'application/gzip',
      }),
    assignVoice: (voiceCode, body) =>
      call('PUT', `/api/v1/voice-packs/assignments/${encodeURIComponent(voiceCode)}`, body),
    customVoices: () => readCustomVoicePages((path) => call('GET', path)),
    createCustomVoice: (input) => call('POST', CUSTOM_VOICE_ROUTES, input),
    updateCustomVoice: (code, input) =>
      call('PUT', `${CUSTOM_VOICE_ROUTES}/${encodeURIComponent(code)}`, input),
    async deleteCustomVoice(code) {
      await send('DELETE', `${CUSTOM_VOICE_ROUTES}/${encodeURIComponent(code)}`);
    },
    async auditionCustomVoice(code, body = {}, signal) {
      const path = `${CUSTOM_VOICE_ROUTES}/${encodeURIComponent(code)}/audition`;
      return (await send('POST', path, body, signal)).blob();
    },
    customVoiceAuditionUrl: (code, body = {}) =>
      `${baseUrl}${CUSTOM_VOICE_ROUTES}/${encodeURIComponent(code)}/audition${elementQuery(body)}`,
  };
}
