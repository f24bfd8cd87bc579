// The SSRF guard: webhook URLs are chosen by accounts, so without it any account could make the worker POST to
// the host's loopback services, the private network or the cloud metadata endpoint. Checked when a URL is saved
// (here) and again at every connection (transport.ts), because DNS may answer differently the second time.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** All addresses a hostname resolves to. Injectable so tests never depend on (or reach) real DNS. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** Cloud metadata over IPv6 (AWS Nitro). Inside fc00::/7 already; listed so the intent survives any range change. */
const METADATA_V6 = [ipaddr.IPv6.parse('fd00:ec2::254')];
/** RFC 8215 local-use NAT64: translates to whatever the local operator decides, so the embedded IPv4 means nothing. */
const LOCAL_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');

/**
 * True for every address a webhook must not reach: anything but ordinary public unicast. That is loopback,
 * RFC 1918 private, link-local (169.254/16 with the metadata address, fe80::/10), unique local fc00::/7, CGNAT
 * 100.64/10, unspecified, broadcast, multicast, reserved and documentation ranges, and IPv6 forms that carry an
 * IPv4 address (mapped, translated, NAT64, 6to4) when that IPv4 is forbidden. Unparsable input is forbidden too.
 */
export function isForbiddenAddress(ip: string): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip.replace(/^\[(.*)\]$/, '$1'));
  } catch {
    return true;
  }
  if (addr.kind() === 'ipv4') return (addr as ipaddr.IPv4).range() !== 'unicast';
  const v6 = addr as ipaddr.IPv6;
  if (METADATA_V6.some((m) => v6.match(m, 128))) return true;
  const embedded = embeddedIPv4(v6);
  if (embedded === 'forbidden') return true;
  if (embedded) return embedded.range() !== 'unicast';
  return v6.range() !== 'unicast';
}

/** The IPv4 address an IPv6 form routes to; 'forbidden' for forms we refuse whatever they carry; null for none. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | 'forbidden' | null {
  const p = v6.parts;
  const last32 = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  if (v6.match(LOCAL_NAT64)) return 'forbidden';
  switch (v6.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
    case 'rfc6052': // 64:ff9b::a.b.c.d
      return last32();
    case '6to4': // 2002:aabb:ccdd::/48
      return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]);
    case 'teredo': // the IPv4 is obfuscated and the relay reaches anything: no reason to allow it
      return 'forbidden';
    default:
      // IPv4-compatible ::a.b.c.d (deprecated by RFC 4291, and :: and ::1 are already special).
      return p.slice(0, 6).every((x) => x === 0) ? 'forbidden' : null;
  }
}

/** A URL host as an IP literal without brackets, or null for a hostname. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(bare) ? bare : null;
}

/** RFC 6761: `localhost` and its subdomains are loopback whatever a resolver says. */
export function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

export type UrlCheck = { ok: true } | { ok: false; reason: string };

export interface UrlCheckOptions {
  /** `TIDEMARK_WEBHOOKS_ALLOW_PRIVATE`: http and every address allowed (development, tests). */
  allowPrivate: boolean;
  resolver?: Resolver;
}

const PUBLIC_ONLY = 'webhooks can only be delivered to public internet addresses';

/**
 * The create-time check of a webhook or trigger URL; the reasons are sentences for the API's 422 details. A
 * hostname that does not resolve now is accepted (its DNS may not exist yet); the transport checks every address
 * again when it connects.
 */
export async function checkWebhookUrl(url: string, opts: UrlCheckOptions): Promise<UrlCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'The URL is not a valid absolute URL.' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { ok: false, reason: 'The URL must use https.' };
  if (parsed.protocol === 'http:' && !opts.allowPrivate) return { ok: false, reason: 'The URL must use https.' };
  // Credentials in the URL would be stored and shown in plain text; custom headers are the place for them.
  if (parsed.username || parsed.password) {
    return { ok: false, reason: 'The URL must not contain a user name or password; send credentials in a custom header instead.' };
  }
  if (opts.allowPrivate) return { ok: true };

  const host = parsed.hostname;
  const literal = ipLiteral(host);
  if (literal) {
    return isForbiddenAddress(literal)
      ? { ok: false, reason: `The URL's address ${literal} is private, loopback, link-local or reserved; ${PUBLIC_ONLY}.` }
      : { ok: true };
  }
  if (isLocalhostName(host)) return { ok: false, reason: `The URL's host ${host} is the local machine; ${PUBLIC_ONLY}.` };

  let addresses: string[];
  try {
    addresses = await (opts.resolver ?? systemResolver)(host);
  } catch {
    return { ok: true };
  }
  const forbidden = addresses.find(isForbiddenAddress);
  if (forbidden !== undefined) {
    return {
      ok: false,
      reason: `The URL's host ${host} resolves to ${forbidden}, a private, loopback, link-local or reserved address; ${PUBLIC_ONLY}.`,
    };
  }
  return { ok: true };
}
