import type { ReactNode } from 'react';
import { defineMessages, FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import { CopyButton } from '../../components/CopyButton';
import { getDesktop } from '../../lib/desktop';

const m = defineMessages({
  routeSpeech: {
    id: 'api.routes.speech',
    defaultMessage: 'speech: the audio itself, streamed as it renders',
  },
  routeModels: {
    id: 'api.routes.models',
    defaultMessage: "the models (OpenAI's names and ours); no key needed",
  },
  routeVoices: {
    id: 'api.routes.voices',
    defaultMessage: "the voices: OpenAI's names, Kokoro's and every voice code; no key needed",
  },
  routeCaptioned: {
    id: 'api.routes.captioned',
    defaultMessage: "Kokoro-FastAPI's speech with each word's times",
  },
  appOpenWebUi: {
    id: 'api.apps.openWebUi',
    defaultMessage: 'Audio → TTS engine OpenAI, API base {base}/v1 and a key',
  },
  appSillyTavern: {
    id: 'api.apps.sillyTavern',
    defaultMessage: 'OpenAI Compatible TTS, endpoint {base}/v1/audio/speech',
  },
  appOpenAiClients: { id: 'api.apps.openAiClients', defaultMessage: 'base URL {base}/v1, model tts-1' },
  appKokoroName: { id: 'api.apps.kokoro.name', defaultMessage: 'Kokoro-FastAPI clients' },
  appKokoro: {
    id: 'api.apps.kokoro',
    defaultMessage: 'base URL {base}/v1, model kokoro, voices such as af_heart or af_bella+af_sky',
  },
  appBrowserName: { id: 'api.apps.browser.name', defaultMessage: 'KoboldAI Lite, browser extensions' },
  appBrowser: {
    id: 'api.apps.browser',
    defaultMessage: "name the page's origin in Settings → Allowed origins",
  },
  appCloudName: { id: 'api.apps.cloud.name', defaultMessage: "The cloud service's clients" },
  appCloud: {
    id: 'api.apps.cloud',
    defaultMessage: 'base URL {base}; their voice codes through Settings → Voice codes of other services',
  },
});

const OPENAI_ROUTES = [
  ['POST /v1/audio/speech', m.routeSpeech],
  ['GET /v1/models', m.routeModels],
  ['GET /v1/audio/voices', m.routeVoices],
  ['POST /dev/captioned_speech', m.routeCaptioned],
] as const;

/**
 * Apps tested with their own requests (docs/API.md: "Apps that work with it"), and where to point
 * them (`{base}` in the message). An app's own name is a plain string; a description of apps, a message.
 */
const APPS: readonly (readonly [app: string | MessageDescriptor, how: MessageDescriptor])[] = [
  ['Open WebUI', m.appOpenWebUi],
  ['SillyTavern', m.appSillyTavern],
  ['LibreChat, AnythingLLM, Home Assistant (openai_tts)', m.appOpenAiClients],
  [m.appKokoroName, m.appKokoro],
  [m.appBrowserName, m.appBrowser],
  [m.appCloudName, m.appCloud],
];

/** The base URLs (the cloud API's, OpenAI's route), the routes and the apps that work with them. */
export function BaseUrlPanel({ base }: { base: string }) {
  const intl = useIntl();
  const openAiBase = `${base}/v1`;
  return (
    <div className="panel">
      <h2 style={{ marginBottom: 8 }}>
        <FormattedMessage id="api.base.title" defaultMessage="Base URL" />
      </h2>
      <div className="copy-row">
        <code>{base}</code>
        <CopyButton
          text={base}
          label={intl.formatMessage({ id: 'api.base.copy', defaultMessage: 'Copy base URL' })}
        />
      </div>
      <p className="hint" style={{ margin: '8px 0 0' }}>
        <FormattedMessage
          id="api.base.docs"
          defaultMessage="Every route, its fields and answers: the <reference>API reference</reference> and its <openapi>OpenAPI 3.1 document</openapi> (both readable without a key)."
          values={{
            reference: (chunks: ReactNode[]) => <DocLink href={`${base}/api-docs`}>{chunks}</DocLink>,
            openapi: (chunks: ReactNode[]) => <DocLink href={`${base}/openapi.json`}>{chunks}</DocLink>,
          }}
        />
      </p>
      <h2 style={{ margin: '16px 0 8px' }}>
        <FormattedMessage id="api.openai.title" defaultMessage="OpenAI-compatible route" />
      </h2>
      <p className="hint">
        <FormattedMessage
          id="api.openai.hint"
          defaultMessage="For the <code>openai</code> packages and apps that take an OpenAI base URL: give them this one and an API key."
          values={{ code: (chunks: ReactNode[]) => <code>{chunks}</code> }}
        />
      </p>
      <div className="copy-row">
        <code>{openAiBase}</code>
        <CopyButton
          text={openAiBase}
          label={intl.formatMessage({ id: 'api.openai.copy', defaultMessage: 'Copy OpenAI base URL' })}
        />
      </div>
      <ul
        className="small"
        aria-label={intl.formatMessage({
          id: 'api.openai.routes',
          defaultMessage: 'OpenAI-compatible routes',
        })}
        style={{ margin: '8px 0 0', paddingLeft: 18 }}
      >
        {OPENAI_ROUTES.map(([route, what]) => (
          <li key={route}>
            <code>{route}</code>: {intl.formatMessage(what)}
          </li>
        ))}
      </ul>
      <h2 style={{ margin: '16px 0 8px' }}>
        <FormattedMessage id="api.apps.title" defaultMessage="Works with" />
      </h2>
      <ul
        className="small"
        aria-label={intl.formatMessage({
          id: 'api.apps.list',
          defaultMessage: 'Apps that work with this server',
        })}
        style={{ margin: 0, paddingLeft: 18 }}
      >
        {APPS.map(([app, how]) => (
          <li key={how.id}>
            <strong>{typeof app === 'string' ? app : intl.formatMessage(app)}</strong>:{' '}
            {intl.formatMessage(how, { base })}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A link to a page of this server that opens beside the studio: a new tab in a browser, the
 * system browser from the desktop window (which opens no second window).
 */
function DocLink({ href, children }: { href: string; children: ReactNode }) {
  const desktop = getDesktop();
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={
        desktop
          ? (event) => {
              event.preventDefault();
              void desktop.openExternal(href).catch(() => undefined);
            }
          : undefined
      }
    >
      {children}
    </a>
  );
}
