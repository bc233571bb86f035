// One spelling per host, so that every web check (deny lists, WebFetch rules, the sandbox's allowed
// hosts) compares like with like: a rule written one way holds for every other way of writing the
// same host (`0x7f.1`, `2130706433`, `[::ffff:127.0.0.1]`, `LOCALHOST.` …).

import { isIP } from 'node:net';

/**
 * The canonical form of a host name or address, or undefined when it is no valid host: lowercase,
 * IDN names in punycode, trailing dots removed, IPv4 in any numeric spelling (decimal, octal, hex,
 * short forms) as a dotted quad, IPv6 compressed without brackets, and an IPv4-mapped or
 * IPv4-compatible IPv6 address as its IPv4 address.
 */
export function canonicalHost(host: string): string | undefined {
  let current = host.trim();
  if (current === '' || /[\s/\\?#@]/.test(current)) return undefined;
  // A bare IPv6 address is bracketed for the URL parser, which does the rest of the work (it is
  // the parser every browser and fetch() use, so Smith reads a host as they connect to it).
  for (let round = 0; round < 4; round++) {
    const inner = current.replace(/^\[(.*)\]$/, '$1');
    const forParser = isIP(inner) === 6 ? `[${inner}]` : current;
    let parsed: string;
    try {
      parsed = new URL(`http://${forParser}/`).hostname;
    } catch {
      return undefined;
    }
    const unbracketed = parsed.replace(/^\[(.*)\]$/, '$1');
    const stripped = isIP(unbracketed) === 6 ? (embeddedIpv4(unbracketed) ?? unbracketed) : unbracketed.replace(/\.+$/, '');
    if (stripped === '') return undefined;
    if (stripped === current) return stripped;
    current = stripped;
  }
  return current;
}

/** True for a canonical host that is an IP address (v4 or v6). */
export function isIpAddress(canonical: string): boolean {
  return isIP(canonical) !== 0;
}

/**
 * True for a canonical host that is this machine: `localhost` and `*.localhost` (which resolve to
 * loopback by standard), 127.0.0.0/8, ::1, and the unspecified addresses 0.0.0.0 and ::, which
 * connect to this machine too.
 */
export function isLoopbackHost(canonical: string): boolean {
  return (
    canonical === 'localhost' ||
    canonical.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(canonical) ||
    canonical === '0.0.0.0' ||
    canonical === '::1' ||
    canonical === '::'
  );
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible (::a.b.c.d) IPv6 address. */
function embeddedIpv4(ipv6: string): string | undefined {
  const groups = expandIpv6(ipv6);
  if (!groups) return undefined;
  const zeros = (n: number) => groups.slice(0, n).every((g) => g === 0);
  const mapped = zeros(5) && groups[5] === 0xffff;
  // ::, ::1 are IPv6's own; anything else with 96 zero bits is the deprecated IPv4-compatible form.
  const compatible = zeros(6) && (groups[6] !== 0 || groups[7]! > 1);
  if (!mapped && !compatible) return undefined;
  const high = groups[6]!;
  const low = groups[7]!;
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (hex groups, `::` at most once). */
function expandIpv6(address: string): number[] | undefined {
  const [head = '', tail] = address.split('::');
  const part = (text: string) => (text === '' ? [] : text.split(':').map((g) => Number.parseInt(g, 16)));
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  const missing = 8 - front.length - back.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const groups = [...front, ...new Array<number>(missing).fill(0), ...back];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}
