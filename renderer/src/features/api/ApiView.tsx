import { useEffect } from 'react';
import { FormattedMessage } from 'react-intl';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { studioUrl } from '../../lib/api-client';
import { useStudio } from '../../stores';
import { ApiKeysPanel } from './ApiKeysPanel';
import { BaseUrlPanel } from './BaseUrlPanel';
import { CreditsPanel } from './CreditsPanel';
import { ExamplesPanel } from './ExamplesPanel';
import { useKeyQuestions } from './key-questions';

/**
 * Base URLs (the cloud API and OpenAI's route), keys with their signing secrets (shown, copied,
 * rotated), the credits of one key or all, and examples in curl, JavaScript and Python
 * (examples.ts: the same text the tests run). Each panel reads its own part of api-view-slice.ts.
 */
export function ApiView() {
  const session = useStudio((s) => s.session);
  const error = useStudio((s) => s.apiError);
  const creditsKey = useStudio((s) => s.apiCreditsKey);
  const reset = useStudio((s) => s.resetApiView);
  const load = useStudio((s) => s.loadApiView);

  // Each visit starts afresh, and leaves nothing behind (a new key's text is shown once).
  useEffect(() => {
    reset();
    return reset;
  }, [reset]);
  // The keys and the credits of the key shown, read again when that key changes.
  useEffect(() => {
    const first = setTimeout(() => void load(), 0);
    return () => clearTimeout(first);
  }, [load, creditsKey]);

  const { question, setQuestion, rotate, revoke } = useKeyQuestions();
  const base = session?.base_url ?? studioUrl(document.baseURI);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>
            <FormattedMessage id="api.title" defaultMessage="API" />
          </h1>
          <p>
            <FormattedMessage
              id="api.intro"
              defaultMessage="Other apps use this studio through the same API as the cloud service, or through OpenAI's speech API."
            />
          </p>
        </div>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <BaseUrlPanel base={base} />
      <ApiKeysPanel actions={{ rotate, revoke }} />
      <CreditsPanel />
      <ExamplesPanel base={base} />
      <ConfirmDialog
        request={question?.request ?? null}
        onCancel={() => setQuestion(null)}
        onConfirm={() => {
          const go = question?.go;
          setQuestion(null);
          void go?.();
        }}
      />
    </>
  );
}
