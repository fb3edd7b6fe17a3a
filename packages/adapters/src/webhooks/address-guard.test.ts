import { describe, expect, it } from 'vitest';
import { AddressGuard, BlockedAddressError, canonicalHost, forbiddenReason } from './address-guard.js';
import { receiverCheck } from './receiver-check.js';

describe('forbiddenReason: the SSRF address rule', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.5', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'unspecified, loopback or IPv4-compatible'],
    ['::', 'unspecified, loopback or IPv4-compatible'],
    ['fc00::1', 'private (unique local)'],
    ['fd12:3456::1', 'private (unique local)'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['64:ff9b::a00:1', 'NAT64'],
    // IPv4-mapped IPv6 follows the IPv4 rule, in every spelling.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:c0a8:101', 'private'],
  ])('%s is refused (%s)', (ip, why) => {
    expect(forbiddenReason(ip)).toBe(why);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2001:4860:4860::8888',
  ])('%s is public', (ip) => {
    expect(forbiddenReason(ip)).toBeNull();
  });
});

describe('AddressGuard', () => {
  const resolver = (answers: Record<string, string[]>) => async (host: string) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a name resolving to a private, link-local or reserved address, and any name with one such address', async () => {
    const guard = new AddressGuard(
      [],
      resolver({
        'intranet.example': ['10.0.0.5'],
        'metadata.example': ['169.254.169.254'],
        'mixed.example': ['93.184.216.34', '192.168.0.1'],
        'v6.example': ['fd00::1'],
        'reserved.example': ['240.1.1.1'],
        'public.example': ['93.184.216.34'],
      }),
    );
    for (const host of ['intranet.example', 'metadata.example', 'mixed.example', 'v6.example', 'reserved.example']) {
      await expect(guard.check(host)).rejects.toBeInstanceOf(BlockedAddressError);
    }
    await expect(guard.check('public.example')).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(guard.check('nowhere.example')).rejects.toThrow('has no address');
  });

  it('checks IP literals without resolving, brackets and mapped forms included', async () => {
    const guard = new AddressGuard([], async () => {
      throw new Error('must not resolve');
    });
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:7f00:1]', '10.0.0.1', '[fe80::1]']) {
      await expect(guard.check(host)).rejects.toBeInstanceOf(BlockedAddressError);
    }
  });

  it('lets allow-listed hosts and addresses through', async () => {
    const guard = new AddressGuard(
      ['hooks.internal', '127.0.0.1', '::1'],
      resolver({ 'hooks.internal': ['10.9.9.9'], 'loop.example': ['127.0.0.1'] }),
    );
    await expect(guard.check('hooks.internal')).resolves.toMatchObject({ address: '10.9.9.9' });
    await expect(guard.check('127.0.0.1')).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(guard.check('[::1]')).resolves.toMatchObject({ address: '::1', family: 6 });
    await expect(guard.check('loop.example')).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(guard.check('10.9.9.9')).rejects.toBeInstanceOf(BlockedAddressError);
  });
});

describe('one host check for every receiver: webhook and HR URLs, SMTP hosts', () => {
  it.each([
    ['127.0.0.1.', '127.0.0.1'],
    ['localhost.', 'localhost'],
    ['LocalHost', 'localhost'],
    ['0x7f.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['mail.example.co.za.', 'mail.example.co.za'],
  ])('%s is spelled %s', (host, canonical) => {
    expect(canonicalHost(host)).toBe(canonical);
  });

  it('refuses loopback spelled with a trailing dot, localhost and names under it, in any scheme, without DNS', async () => {
    const check = receiverCheck([], async () => {
      throw new Error('must not resolve');
    });
    for (const url of [
      'smtp://127.0.0.1.',
      'smtp://localhost.',
      'smtp://localhost',
      'smtp://mail.localhost',
      'smtp://0x7f.1',
      'smtp://[::1]',
      'https://127.0.0.1./hook',
      'https://localhost./hook',
      'https://LOCALHOST/hook',
    ])
      await expect(check(url), url).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('resolves names with a trailing dot as the name itself, and lets allow-listed localhost through', async () => {
    const seen: string[] = [];
    const check = receiverCheck(['localhost'], async (host) => {
      seen.push(host);
      return host === 'intranet.example' ? [{ address: '10.0.0.9', family: 4 }] : [];
    });
    await expect(check('smtp://intranet.example.')).rejects.toMatchObject({ kind: 'invalid' });
    expect(seen).toEqual(['intranet.example']);
    await expect(check('https://localhost./hook')).resolves.toBeUndefined();
  });
});
