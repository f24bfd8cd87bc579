import { describe, expect, it } from 'vitest';
import { addressKey } from './client-address.js';

describe('addressKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['not an address', 'not an address'],
  ])('%s counts as %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });

  it('two addresses of one /64 share a key; the next /64 does not', () => {
    expect(addressKey('2001:db8:0:1::a')).toBe(addressKey('2001:db8:0:1:ffff::b'));
    expect(addressKey('2001:db8:0:1::a')).not.toBe(addressKey('2001:db8:0:2::a'));
  });
});
