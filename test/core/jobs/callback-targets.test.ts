/**
 * Which callback destinations a server reachable from other machines refuses: every spelling
 * of an internal address as the URL parser (and undici after it) reads it, and names judged by
 * the connection's own lookup. Only `localhost` is resolved (from /etc/hosts: no traffic).
 */

import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  callbackTargets,
  internalAddressKind,
  parseAllowedCallbackHost,
  restrictsCallbacks,
  type CallbackTargets,
} from '../../../electron/core/jobs/callback-targets';

const restricted = callbackTargets({ restricted: true });

/** What `targets.lookup` hands the socket for `host` (all addresses), or the error it fails with. */
function lookup(targets: CallbackTargets, host: string): Promise<LookupAddress[] | Error> {
  return new Promise((resolve) =>
    targets.lookup!(host, { all: true }, (error, addresses) =>
      resolve(error ?? (addresses as LookupAddress[])),
    ),
  );
}

describe('when callbacks are restricted', () => {
  it('restricts when reachable from elsewhere (auto), always (refuse), never (allow)', () => {
    expect(restrictsCallbacks(undefined, false)).toBe(false);
    expect(restrictsCallbacks('auto', false)).toBe(false);
    expect(restrictsCallbacks('auto', true)).toBe(true);
    expect(restrictsCallbacks('refuse', false)).toBe(true);
    expect(restrictsCallbacks('allow', true)).toBe(false);
  });
});

describe('internal addresses', () => {
  it('refuses every spelling of loopback, unspecified, private, link-local and metadata addresses', () => {
    const refused: Record<string, string> = {
      'http://127.0.0.1:8787/api/v1/keys': 'loopback',
      'http://2130706433/': 'loopback', // decimal
      'http://0x7f.1/': 'loopback', // hex, short form
      'http://017700000001/': 'loopback', // octal
      'http://127.1/': 'loopback',
      'http://[::1]/': 'loopback',
      'http://[::ffff:127.0.0.1]/': 'loopback', // IPv4-mapped IPv6
      'http://[0:0:0:0:0:ffff:7f00:1]/': 'loopback',
      'http://[64:ff9b::7f00:1]/': 'loopback', // NAT64
      'http://[2002:7f00:1::]/': 'loopback', // 6to4
      'http://0.0.0.0/': 'unspecified',
      'http://0/': 'unspecified',
      'http://[::]/': 'unspecified',
      'http://10.1.2.3/': 'private',
      'http://172.31.255.255/': 'private',
      'http://192.168.0.10/': 'private',
      'http://100.64.0.1/': 'private',
      'http://[fd12:3456::1]/': 'private',
      'http://169.254.1.1/': 'link-local',
      'http://[fe80::1]/': 'link-local',
      'http://169.254.169.254/latest/meta-data/': 'cloud metadata',
      'http://[::ffff:169.254.169.254]/': 'cloud metadata',
      'http://[fd00:ec2::254]/': 'cloud metadata',
      'http://100.100.100.200/': 'cloud metadata',
      'http://224.0.0.1/': 'multicast',
      'http://255.255.255.255/': 'reserved',
    };
    for (const [url, kind] of Object.entries(refused)) {
      const parsed = new URL(url);
      expect(internalAddressKind(parsed.hostname), url).toBe(kind);
      expect(restricted.refusal(parsed), url).toMatch(
        new RegExp(`is a ${kind} address: .*--allow-callback-host`),
      );
    }
  });

  it('lets public addresses and names through at submit (names are judged when resolved)', () => {
    for (const url of [
      'https://93.184.216.34/hook',
      'http://[2606:2800:220:1:248:1893:25c8:1946]/',
      'http://172.32.0.1/',
      'http://[::ffff:8.8.8.8]/',
      'https://hooks.example.com/x',
      'http://localhost:9/',
    ]) {
      expect(restricted.refusal(new URL(url)), url).toBeUndefined();
    }
  });

  it('refuses nothing on a server reachable on loopback only', async () => {
    const open = callbackTargets({ restricted: false });
    expect(open.refusal(new URL('http://127.0.0.1:9/'))).toBeUndefined();
    expect(open.refusal(new URL('http://169.254.169.254/'))).toBeUndefined();
    expect(open.lookup).toBeUndefined();
  });
});

describe('--allow-callback-host', () => {
  it('allows a name, an address or a range, and nothing else', () => {
    const targets = callbackTargets({
      restricted: true,
      allowed: ['hooks.internal', '127.0.0.1', '10.0.0.0/8', '::1'],
    });
    expect(targets.refusal(new URL('http://127.0.0.1:9/'))).toBeUndefined();
    expect(targets.refusal(new URL('http://[::ffff:127.0.0.1]:9/'))).toBeUndefined();
    expect(targets.refusal(new URL('http://[::1]:9/'))).toBeUndefined();
    expect(targets.refusal(new URL('http://10.200.0.1/'))).toBeUndefined();
    expect(targets.refusal(new URL('http://127.0.0.2/'))).toMatch(/loopback/);
    expect(targets.refusal(new URL('http://192.168.1.1/'))).toMatch(/private/);
    expect(targets.refusal(new URL('http://169.254.169.254/'))).toMatch(/metadata/);
  });

  it('refuses values that are neither a name, an address nor a range', () => {
    for (const bad of ['', 'http://x/', '10.0.0.0/33', 'a b', '1.2.3.4/x']) {
      expect(() => parseAllowedCallbackHost(bad), bad).toThrow(/--allow-callback-host/);
    }
    expect(parseAllowedCallbackHost('LocalHost.')).toEqual({ name: 'localhost' });
  });
});

describe('the connection lookup of a restricted server', () => {
  it('refuses a name that resolves to loopback: "not allowed", the address and the reason for the log only', async () => {
    const error = await lookup(restricted, 'localhost');
    expect(error).toBeInstanceOf(Error);
    expect((error as Error & { code: string }).code).toBe('CALLBACK_REFUSED');
    expect((error as Error).message).toBe('not allowed');
    expect((error as Error & { reason: string }).reason).toMatch(
      /^localhost resolves to (127\.0\.0\.1|::1), a loopback address: .*--allow-callback-host/,
    );
  });

  it('hands the socket only allowed addresses: by name, or by address', async () => {
    for (const allowed of ['localhost', '127.0.0.1']) {
      const targets = callbackTargets({ restricted: true, allowed: [allowed] });
      const addresses = await lookup(targets, 'localhost');
      expect(Array.isArray(addresses), allowed).toBe(true);
      expect((addresses as LookupAddress[]).map((a) => a.address)).toContain('127.0.0.1');
    }
  });

  it('answers a single address when the socket asks for one', async () => {
    const targets = callbackTargets({ restricted: true, allowed: ['127.0.0.1'] });
    const [address, family] = await new Promise<[unknown, unknown]>((resolve, reject) =>
      targets.lookup!('localhost', { family: 4 }, (error, a, f) => (error ? reject(error) : resolve([a, f]))),
    );
    expect([address, family]).toEqual(['127.0.0.1', 4]);
  });
});
