/**
 * The API page's code examples, built for this server's base URL and a key (or a placeholder):
 * the cloud API (submit and poll, or `response_type: "direct"`) and OpenAI's route, in curl,
 * JavaScript (`fetch`, the `openai` package) and Python (`requests`, `openai`). The page shows
 * exactly this text, and test/renderer/api-examples.test.ts runs it against a real server.
 */

import { defineMessages } from 'react-intl';

/** Placeholders a reader replaces with a value from an earlier answer (curl only). */
export const REQUEST_ID_PLACEHOLDER = '<request_id>';
export const AUDIO_LINK_PLACEHOLDER = '<audio_link>';
/** Shown when no key was just created: a key's full text is shown only once. */
export const KEY_PLACEHOLDER = '<your API key>';

export const EXAMPLE_LANGUAGES = [
  'curl',
  'js-fetch',
  'js-openai',
  'python-requests',
  'python-openai',
] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

export const LANGUAGE_LABELS: Record<ExampleLanguage, string> = {
  curl: 'curl',
  'js-fetch': 'JavaScript (fetch)',
  'js-openai': 'JavaScript (openai)',
  'python-requests': 'Python (requests)',
  'python-openai': 'Python (openai)',
};

/** Which API an example calls. */
export type ExampleApi = 'cloud-poll' | 'cloud-direct' | 'openai';

/** What each example calls, as the page says it (a message, in the interface's language). */
export const API_LABEL_MESSAGES = defineMessages<ExampleApi>({
  'cloud-poll': {
    id: 'api.examples.cloudPoll',
    defaultMessage: 'Cloud API: submit, then poll until finished',
  },
  'cloud-direct': {
    id: 'api.examples.cloudDirect',
    defaultMessage: 'Cloud API: one call that waits for the audio (response_type "direct")',
  },
  openai: {
    id: 'api.examples.openai',
    defaultMessage: 'OpenAI-compatible route: POST /v1/audio/speech, GET /v1/models, GET /v1/audio/voices',
  },
});

export interface Example {
  api: ExampleApi;
  language: ExampleLanguage;
  code: string;
}

export interface ExampleOptions {
  /** The server's base URL, without a trailing slash. */
  baseUrl: string;
  /** A full API key, or undefined for the placeholder. */
  apiKey?: string | undefined;
}

const TEXT = 'Hello from Narration Studio.';
const VOICE_CODE = 'en_female_emily_us';

/** `value` in single quotes for a POSIX shell. */
function sh(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A string literal of JavaScript and of Python (JSON's escapes are valid in both). */
function lit(value: string): string {
  return JSON.stringify(value);
}

function curlExamples(base: string, key: string): Example[] {
  const auth = `-H ${sh(`Authorization: Bearer ${key}`)}`;
  const body = (extra: Record<string, string>) =>
    sh(JSON.stringify({ input_text: TEXT, voice_code: VOICE_CODE, audio_type: 'mp3', ...extra }));
  const submit = (extra: Record<string, string>) => `curl -s -X POST ${base}/api/v1/tts \\
  ${auth} \\
  -H 'Content-Type: application/json' \\
  -d ${body(extra)}`;
  return [
    {
      api: 'cloud-poll',
      language: 'curl',
      code: `# 1. Submit: the answer's result.request_id names the request
${submit({})}

# 2. Poll until result.status is SUCCESS (or FAILURE): result.audio_link is then the file
curl -s ${base}/api/v1/tts/${REQUEST_ID_PLACEHOLDER} \\
  ${auth}

# 3. Download it (the link carries its own token: no key needed)
curl -s -o speech.mp3 "${AUDIO_LINK_PLACEHOLDER}"`,
    },
    {
      api: 'cloud-direct',
      language: 'curl',
      code: `# Waits for the render: result.audio_link is in the answer
${submit({ response_type: 'direct' })}

curl -s -o speech.mp3 "${AUDIO_LINK_PLACEHOLDER}"`,
    },
    {
      api: 'openai',
      language: 'curl',
      code: `# The voices (OpenAI's six names and every voice code) and models: no key needed
curl -s ${base}/v1/audio/voices
curl -s ${base}/v1/models

# Speech: the audio itself, streamed as it renders
curl -s ${base}/v1/audio/speech \\
  ${auth} \\
  -H 'Content-Type: application/json' \\
  -d ${sh(JSON.stringify({ model: 'tts-1', voice: 'alloy', input: TEXT, response_format: 'mp3' }))} \\
  -o speech.mp3`,
    },
  ];
}

function fetchExamples(base: string, key: string): Example[] {
  const head = `const BASE = ${lit(base)};
const KEY = ${lit(key)};
const headers = { Authorization: \`Bearer \${KEY}\`, 'Content-Type': 'application/json' };`;
  const submit = (extra: string) => `const submitted = await fetch(\`\${BASE}/api/v1/tts\`, {
  method: 'POST',
  headers,
  body: JSON.stringify({
    input_text: ${lit(TEXT)},
    voice_code: ${lit(VOICE_CODE)},
    audio_type: 'mp3',${extra}
  }),
}).then((response) => response.json());
if (submitted.status !== 1) throw new Error(submitted.error_message);`;
  const download = `const audio = await fetch(record.audio_link).then((response) => response.arrayBuffer());
console.log(record.request_id, record.status, audio.byteLength, 'bytes of mp3');`;
  return [
    {
      api: 'cloud-poll',
      language: 'js-fetch',
      code: `${head}

${submit('')}
let record = submitted.result;
while (record.status === 'new' || record.status === 'processing') {
  await new Promise((resolve) => setTimeout(resolve, 500));
  const polled = await fetch(\`\${BASE}/api/v1/tts/\${record.request_id}\`, { headers });
  record = (await polled.json()).result;
}
if (record.status !== 'SUCCESS') throw new Error(record.error_message);
${download}`,
    },
    {
      api: 'cloud-direct',
      language: 'js-fetch',
      code: `${head}

${submit("\n    response_type: 'direct',")}
const record = submitted.result;
if (record.status !== 'SUCCESS') throw new Error(record.error_message ?? record.status);
${download}`,
    },
    {
      api: 'openai',
      language: 'js-fetch',
      code: `${head}

const voices = await fetch(\`\${BASE}/v1/audio/voices\`).then((response) => response.json());
const models = await fetch(\`\${BASE}/v1/models\`).then((response) => response.json());
console.log(voices.voices.length, 'voices;', models.data.map((model) => model.id).join(', '));

const speech = await fetch(\`\${BASE}/v1/audio/speech\`, {
  method: 'POST',
  headers,
  body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: ${lit(TEXT)}, response_format: 'mp3' }),
});
if (!speech.ok) throw new Error((await speech.json()).error.message);
const audio = await speech.arrayBuffer();
console.log(audio.byteLength, 'bytes of mp3');`,
    },
    {
      api: 'openai',
      language: 'js-openai',
      code: `import { writeFile } from 'node:fs/promises';
import OpenAI from 'openai';

const client = new OpenAI({ baseURL: ${lit(`${base}/v1`)}, apiKey: ${lit(key)} });

const models = await client.models.list();
console.log(models.data.map((model) => model.id).join(', '));

// voice: OpenAI's names (alloy, echo, …) or any voice code, e.g. ${VOICE_CODE}
const speech = await client.audio.speech.create({
  model: 'tts-1',
  voice: 'alloy',
  input: ${lit(TEXT)},
  response_format: 'mp3',
});
await writeFile('speech.mp3', Buffer.from(await speech.arrayBuffer()));
console.log('saved speech.mp3');`,
    },
  ];
}

function pythonExamples(base: string, key: string): Example[] {
  const head = `import time
import requests

BASE = ${lit(base)}
HEADERS = {"Authorization": ${lit(`Bearer ${key}`)}}`;
  const submit = (extra: string) => `submitted = requests.post(f"{BASE}/api/v1/tts", headers=HEADERS, json={
    "input_text": ${lit(TEXT)},
    "voice_code": ${lit(VOICE_CODE)},
    "audio_type": "mp3",${extra}
}).json()
if submitted["status"] != 1:
    raise RuntimeError(submitted["error_message"])`;
  const download = `with open("speech.mp3", "wb") as f:
    f.write(requests.get(record["audio_link"]).content)
print(record["request_id"], record["status"], "saved speech.mp3")`;
  return [
    {
      api: 'cloud-poll',
      language: 'python-requests',
      code: `${head}

${submit('')}
record = submitted["result"]
while record["status"] in ("new", "processing"):
    time.sleep(0.5)
    record = requests.get(f"{BASE}/api/v1/tts/{record['request_id']}", headers=HEADERS).json()["result"]
if record["status"] != "SUCCESS":
    raise RuntimeError(record["error_message"])
${download}`,
    },
    {
      api: 'cloud-direct',
      language: 'python-requests',
      code: `${head}

${submit('\n    "response_type": "direct",')}
record = submitted["result"]
if record["status"] != "SUCCESS":
    raise RuntimeError(record["error_message"] or record["status"])
${download}`,
    },
    {
      api: 'openai',
      language: 'python-requests',
      code: `${head}

voices = requests.get(f"{BASE}/v1/audio/voices").json()["voices"]
models = requests.get(f"{BASE}/v1/models").json()["data"]
print(len(voices), "voices;", ", ".join(model["id"] for model in models))

speech = requests.post(f"{BASE}/v1/audio/speech", headers=HEADERS, json={
    "model": "tts-1",
    "voice": "alloy",
    "input": ${lit(TEXT)},
    "response_format": "mp3",
})
if not speech.ok:
    raise RuntimeError(speech.json()["error"]["message"])
with open("speech.mp3", "wb") as f:
    f.write(speech.content)
print(len(speech.content), "bytes of mp3")`,
    },
    {
      api: 'openai',
      language: 'python-openai',
      code: `from openai import OpenAI

client = OpenAI(base_url=${lit(`${base}/v1`)}, api_key=${lit(key)})

print(", ".join(model.id for model in client.models.list()))

# voice: OpenAI's names (alloy, echo, …) or any voice code, e.g. ${VOICE_CODE}
with client.audio.speech.with_streaming_response.create(
    model="tts-1",
    voice="alloy",
    input=${lit(TEXT)},
    response_format="mp3",
) as response:
    response.stream_to_file("speech.mp3")
print("saved speech.mp3")`,
    },
  ];
}

/** Every example, for `options`'s base URL and key. */
export function buildExamples({ baseUrl, apiKey }: ExampleOptions): Example[] {
  const base = baseUrl.replace(/\/+$/, '');
  const key = apiKey ?? KEY_PLACEHOLDER;
  return [...curlExamples(base, key), ...fetchExamples(base, key), ...pythonExamples(base, key)];
}

/** The example of `api` in `language`, if there is one (the `openai` packages speak OpenAI's route only). */
export function findExample(
  examples: readonly Example[],
  api: ExampleApi,
  language: ExampleLanguage,
): Example | undefined {
  return examples.find((e) => e.api === api && e.language === language);
}
