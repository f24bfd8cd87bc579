import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isForbiddenAddress, type Resolver } from './ssrf.js';

describe('isForbiddenAddress', () => {
  it.each([
    // IPv4
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.5',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '255.255.255.255',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '192.0.2.10',
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1',
    // IPv6
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'fd00:ec2::254',
    'ff02::1',
    '2001:db8::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.5',
    '::ffff:169.254.169.254',
    '[::ffff:192.168.0.1]',
    '::ffff:0:10.0.0.1',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::8.8.8.8',
    '2002:7f00:0001::1',
    '2002:0a00:0005::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '::127.0.0.1',
    '::808:808',
    // not addresses
    '',
    'localhost',
    '999.1.1.1',
    'example.com',
  ])('forbids %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:0808:0808::1',
  ])('allows public %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

/** A resolver with fixed answers; an unknown name fails like NXDOMAIN. Records what was asked. */
function fakeResolver(answers: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolver = async (hostname: string) => {
    asked.push(hostname);
    const a = answers[hostname];
    if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return a;
  };
  return Object.assign(resolver, { asked });
}

describe('checkWebhookUrl', () => {
  const resolver = fakeResolver({
    'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'internal.example.com': ['10.0.0.5'],
    'mixed.example.com': ['93.184.215.14', '169.254.169.254'],
    'v6-local.example.com': ['fd00:ec2::254'],
  });
  const strict = { allowPrivate: false, resolver };

  it.each([
    'https://hooks.example.com/tidemark',
    'https://hooks.example.com:8443/tidemark?x=1',
    'https://8.8.8.8/hook',
    'https://[2606:4700:4700::1111]/hook',
    // Unresolvable now: accepted, checked again at connect time.
    'https://not-yet.example.com/hook',
  ])('accepts %s', async (url) => {
    expect(await checkWebhookUrl(url, strict)).toEqual({ ok: true });
  });

  it.each([
    ['not a url', 'not a valid absolute URL'],
    ['/relative/path', 'not a valid absolute URL'],
    ['http://hooks.example.com/hook', 'must use https'],
    ['ftp://hooks.example.com/hook', 'must use https'],
    ['https://user:pw@hooks.example.com/hook', 'must not contain a user name or password'],
    ['https://127.0.0.1/hook', 'address 127.0.0.1 is private, loopback, link-local or reserved'],
    ['https://2130706433/hook', 'address 127.0.0.1'],
    ['https://0x7f.1/hook', 'address 127.0.0.1'],
    ['https://10.1.2.3/hook', 'address 10.1.2.3'],
    ['https://169.254.169.254/latest/meta-data', 'address 169.254.169.254'],
    ['https://[::1]/hook', 'address ::1'],
    ['https://[::ffff:127.0.0.1]/hook', 'address ::ffff:7f00:1'],
    ['https://[fd00:ec2::254]/hook', 'address fd00:ec2::254'],
    ['https://localhost/hook', 'host localhost is the local machine'],
    ['https://api.localhost./hook', 'is the local machine'],
    ['https://internal.example.com/hook', 'host internal.example.com resolves to 10.0.0.5'],
    ['https://mixed.example.com/hook', 'resolves to 169.254.169.254'],
    ['https://v6-local.example.com/hook', 'resolves to fd00:ec2::254'],
  ])('refuses %s', async (url, reason) => {
    const result = await checkWebhookUrl(url, strict);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toContain(reason);
      expect(result.reason).toMatch(/^The URL.*\.$/);
    }
  });

  it('does not resolve IP literals', async () => {
    const r = fakeResolver({});
    await checkWebhookUrl('https://10.0.0.1/x', { allowPrivate: false, resolver: r });
    await checkWebhookUrl('https://8.8.8.8/x', { allowPrivate: false, resolver: r });
    expect(r.asked).toEqual([]);
  });

  it('with allowPrivate: http and private targets pass, without resolving', async () => {
    const r = fakeResolver({});
    for (const url of ['http://127.0.0.1:3000/hook', 'http://localhost/hook', 'https://internal.example.com/hook', 'http://10.0.0.5/']) {
      expect(await checkWebhookUrl(url, { allowPrivate: true, resolver: r })).toEqual({ ok: true });
    }
    expect(r.asked).toEqual([]);
  });

  it('with allowPrivate: still only http(s), still no credentials', async () => {
    expect((await checkWebhookUrl('file:///etc/passwd', { allowPrivate: true })).ok).toBe(false);
    expect((await checkWebhookUrl('http://a:b@127.0.0.1/', { allowPrivate: true })).ok).toBe(false);
  });
});
