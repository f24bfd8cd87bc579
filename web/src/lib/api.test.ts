// How the app reads Tidemark's answers (lib/api.ts): query strings, JSON:API errors turned into messages per field,
// and the message a page shows for any error.
import { describe, expect, it } from 'vitest';

// api.ts reaches the router, which listens to the browser's history as it loads: a window that only listens.
(globalThis as { window?: unknown }).window ??= { addEventListener() {}, location: { pathname: '/', search: '' } };
const { ApiError, messageOf, NetworkError, problemsOf, withQuery } = await import('./api');

describe('withQuery', () => {
  it.each([
    ['/v2/shipments', undefined, '/v2/shipments'],
    ['/v2/shipments', {}, '/v2/shipments'],
    ['/v2/shipments', { 'page[number]': 2, 'page[size]': 25 }, '/v2/shipments?page%5Bnumber%5D=2&page%5Bsize%5D=25'],
    ['/v2/shipments', { include: ['containers', 'pod_terminal'] }, '/v2/shipments?include=containers%2Cpod_terminal'],
    ['/v2/shipments', { q: '', a: null, b: undefined, c: false }, '/v2/shipments?c=false'],
    ['/v2/shipments?x=1', { y: 'a b' }, '/v2/shipments?x=1&y=a+b'],
  ])('%s %j → %s', (path, query, url) => {
    expect(withQuery(path, query)).toBe(url);
  });
});

describe('problemsOf', () => {
  it.each([
    [
      'a JSON:API error on an attribute',
      422,
      {
        errors: [
          { status: '422', title: 'Invalid', detail: 'must be https', source: { pointer: '/data/attributes/url' }, code: 'invalid' },
        ],
      },
      [{ message: 'Must be https.', field: 'url', parameter: null, code: 'invalid' }],
    ],
    [
      'a relationship, and a pointer outside /data',
      422,
      {
        errors: [
          { title: 'Missing', source: { pointer: '/data/relationships/shipment/data' } },
          { detail: 'Taken!', source: { pointer: '/email' } },
        ],
      },
      [
        { message: 'Missing.', field: 'shipment', parameter: null, code: null },
        { message: 'Taken!', field: 'email', parameter: null, code: null },
      ],
    ],
    [
      'a query parameter',
      400,
      { errors: [{ title: 'bad filter', source: { parameter: 'filter[status]' } }] },
      [{ message: 'Bad filter.', field: null, parameter: 'filter[status]', code: null }],
    ],
    [
      'the reference API’s error[]',
      404,
      { error: [{ title: 'Not found' }] },
      [{ message: 'Not found.', field: null, parameter: null, code: null }],
    ],
    [
      'no words: the status’s',
      429,
      { errors: [{}] },
      [{ message: 'Too many requests; wait a moment and try again.', field: null, parameter: null, code: null }],
    ],
    ['no body', 503, null, [{ message: 'The service is unavailable right now.', field: null, parameter: null, code: null }]],
    ['an unknown status', 418, 'teapot', [{ message: 'The server answered 418.', field: null, parameter: null, code: null }]],
  ])('%s', (_name, status, body, problems) => {
    expect(problemsOf(status, body)).toEqual(problems);
  });
});

describe('ApiError', () => {
  const err = new ApiError(422, [
    { message: 'Must be https.', field: 'url', parameter: null, code: null },
    { message: 'Again.', field: 'url', parameter: null, code: null },
    { message: 'Unknown event.', field: 'events', parameter: null, code: null },
    { message: 'Try later.', field: null, parameter: null, code: null },
  ]);

  it('gives the first message per field to the form controls, the rest to the summary', () => {
    expect(err.fields).toEqual({ url: 'Must be https.', events: 'Unknown event.' });
    expect(err.general(['url'])).toEqual(['Unknown event.', 'Try later.']);
    expect(err.message).toBe('Must be https. Again. Unknown event. Try later.');
  });
});

describe('messageOf', () => {
  it.each([
    ['an API error', new ApiError(404, problemsOf(404, null)), 'Not found.'],
    [
      'a rate limit with Retry-After',
      new ApiError(429, problemsOf(429, null), { retryAfter: 30 }),
      'Too many attempts. Try again in 30 seconds.',
    ],
    ['no connection', new NetworkError(), 'Could not reach Tidemark. Check the connection and try again.'],
    ['a bug', new TypeError('x is undefined'), 'Something went wrong in the app. Reload the page and try again.'],
  ])('%s', (_name, err, message) => {
    expect(messageOf(err)).toBe(message);
  });
});
