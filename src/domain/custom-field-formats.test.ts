import { describe, expect, it } from 'vitest';
import { formatNumber, formatTime, numberFormatProblem, parseDateWith, timeFormatProblem } from './custom-field-formats.js';

const at = (iso: string) => Date.parse(iso);

describe('timeFormatProblem: which strftime formats a date or datetime field may have', () => {
  it.each([
    ['%Y-%m-%d', null],
    ['%d %b %Y', null],
    ['%-d/%-m/%y %H:%M', null],
    ['100%% on %Y', null],
    ['%Q', /not a directive/],
    ['%Y %', /lone %/],
    ['no directive', /no directive/],
    ['', /1 to 100/],
    ['%Y'.repeat(60), /1 to 100/],
  ])('%s', (format, expected) => {
    const problem = timeFormatProblem(format);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
});

describe('formatTime: an instant in a strftime format, UTC', () => {
  it.each([
    ['%Y-%m-%d', '2026-03-05T10:04:09Z', '2026-03-05'],
    ['%d %b %Y', '2026-03-05T00:00:00Z', '05 Mar 2026'],
    ['%-d %B %Y', '2026-03-05T00:00:00Z', '5 March 2026'],
    ['%a %d/%m/%y %I:%M %p', '2026-03-05T15:04:09Z', 'Thu 05/03/26 03:04 PM'],
    ['%Y-%m-%d %H:%M:%S %Z', '2026-03-05T23:59:59+02:00', '2026-03-05 21:59:59 +0000'],
    ['day %j, 100%%', '2026-02-01T00:00:00Z', 'day 032, 100%'],
  ])('%s of %s is %s', (format, iso, shown) => {
    expect(formatTime(format, at(iso))).toBe(shown);
  });
});

describe('parseDateWith: a day written in a strftime format', () => {
  it.each([
    ['%d/%m/%Y', '05/03/2026', '2026-03-05'],
    ['%d/%m/%Y', '5/3/2026', '2026-03-05'],
    ['%d %b %Y', '5 mar 2026', '2026-03-05'],
    ['%d %b %Y', ' 05 Mar 2026 ', '2026-03-05'],
    ['%m/%d/%Y', '02/29/2024', '2024-02-29'],
    ['%d/%m/%Y', '31/04/2026', null],
    ['%m/%d/%Y', '02/29/2026', null],
    ['%d/%m/%Y', '2026-03-05', null],
    ['%d/%m/%Y', '05/03/2026 junk', null],
    ['%Q', '123', null],
  ])('%s reads %j as %j', (format, text, day) => {
    expect(parseDateWith(format, text)).toBe(day);
  });
});

describe('numberFormatProblem and formatNumber: printf-like number formats', () => {
  it.each([
    ['%.2f', 1234.5, '1234.50'],
    ['%,.2f', 1234567.891, '1,234,567.89'],
    ['%,.2f', -1234567.891, '-1,234,567.89'],
    ['%.0f', 2.5, '3'],
    ['%d', 1234.6, '1235'],
    ['%,d', 1234567, '1,234,567'],
    ['%f', 1.5, '1.500000'],
    ['$%,.2f', 1999.999, '$2,000.00'],
    ['%.1f kg', 12.34, '12.3 kg'],
    ['%.0f%%', 45, '45%'],
    ['%.2f', -0.001, '0.00'],
    ['%,.1f', 999.96, '1,000.0'],
  ])('%s shows %d as %s', (format, value, shown) => {
    expect(numberFormatProblem(format)).toBeNull();
    expect(formatNumber(format, value)).toBe(shown);
  });

  it.each([
    ['', /1 to 100/],
    ['%s', /one directive/],
    ['%.2f %.2f', /one directive/],
    ['%.7f', /at most 6 decimals/],
    ['%.2d', /decimals on %d/],
    ['plain', /one directive/],
    ['%Y-%m-%d', /one directive/],
  ])('refuses %j', (format, problem) => {
    expect(numberFormatProblem(format)).toMatch(problem);
  });
});
