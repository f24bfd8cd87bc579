import { describe, expect, it } from 'vitest';
import { formatStreamUrl, parseStreamUrl } from './stream-url.js';

describe('parseStreamUrl', () => {
  it.each([
    ['tcp://ais.example.net:5631', { transport: 'tcp', host: 'ais.example.net', port: 5631 }],
    ['udp://0.0.0.0:10110/', { transport: 'udp', host: '0.0.0.0', port: 10110 }],
    [' tcp://[::1]:10110 ', { transport: 'tcp', host: '::1', port: 10110 }],
    ['udp://127.0.0.1:0', { transport: 'udp', host: '127.0.0.1', port: 0 }],
  ])('%s', (text, address) => {
    expect(parseStreamUrl(text)).toEqual(address);
    expect(parseStreamUrl(formatStreamUrl(parseStreamUrl(text)))).toEqual(address);
  });

  it.each([
    '',
    'ais.example.net:5631',
    'http://ais.example.net:80',
    'tcp://ais.example.net',
    'tcp://user@host:1',
    'tcp://h:1/feed',
    'tcp://h:0',
    'udp://h:65536',
  ])('refuses %o, naming it', (text) => {
    expect(() => parseStreamUrl(text)).toThrow(JSON.stringify(text));
  });
});
