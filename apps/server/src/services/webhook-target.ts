// Where a webhook may be delivered (SSRF): an http(s) URL whose host resolves only to public
// addresses. Loopback, private, link-local, unique-local, CGNAT and unspecified addresses are
// refused unless OWNVOICE_WEBHOOKS_ALLOW_PRIVATE says this server may reach its own network.
// Checked when an endpoint is added and again at each delivery (a name may resolve elsewhere later).
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { errors } from '../errors.js';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** Whether `address` is one a webhook may not reach by default (IPv4-mapped IPv6 as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The endpoint's URL parsed, refused with a clear 400 when it may not be delivered to. */
export async function checkWebhookTarget(url: string, allowPrivate: boolean): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw errors.validation('Give the full address of your endpoint, starting with https:// (or http://).');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw errors.validation('A webhook endpoint is an https:// (or http://) address.');
  }
  if (allowPrivate) return parsed;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw errors.validation(`The endpoint's host "${host}" could not be found.`);
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
    throw errors.validation(
      `The endpoint's host "${host}" is on a private, loopback or link-local address, which webhooks may not reach.`,
    );
  }
  return parsed;
}
