import type { ComponentProps } from 'react';
import { VoiceSelect } from '../../components/VoiceSelect';
import { useStudio } from '../../stores';

/**
 * A voice picker of the open project (its narrator, a character, a regenerate): the catalogue and
 * only the custom voices the project may cast (its key's and the studio's, as the server says:
 * GET /api/v1/custom-voices?project=<id>), not every voice the signed-in studio sees, whose
 * others the project would refuse with UNKNOWN_VOICE.
 */
export function ProjectVoiceSelect(props: Omit<ComponentProps<typeof VoiceSelect>, 'customVoices'>) {
  const projectVoices = useStudio((s) => s.projectVoices);
  return <VoiceSelect {...props} customVoices={projectVoices} />;
}
