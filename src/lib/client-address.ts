// The key under which per-address limits count a client: its IPv4 address, or the /64 network of its IPv6 address
// (one subscriber gets a whole /64, so counting single IPv6 addresses would hand an attacker endless fresh ones).
import ipaddr from 'ipaddr.js';

export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
