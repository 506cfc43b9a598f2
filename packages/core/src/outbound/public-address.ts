import { isIPv4, isIPv6 } from 'node:net';

/** [first address as uint32, prefix length]: IPv4 ranges a wallet must never make us reach. */
const NON_PUBLIC_V4: readonly (readonly [number, number])[] = [
  [v4('0.0.0.0'), 8], // "this network"
  [v4('10.0.0.0'), 8], // private
  [v4('100.64.0.0'), 10], // carrier-grade NAT
  [v4('127.0.0.0'), 8], // loopback
  [v4('169.254.0.0'), 16], // link-local, including the 169.254.169.254 cloud metadata service
  [v4('172.16.0.0'), 12], // private
  [v4('192.0.0.0'), 24], // IETF protocol assignments
  [v4('192.0.2.0'), 24], // TEST-NET-1
  [v4('192.88.99.0'), 24], // 6to4 relay anycast
  [v4('192.168.0.0'), 16], // private
  [v4('198.18.0.0'), 15], // benchmarking
  [v4('198.51.100.0'), 24], // TEST-NET-2
  [v4('203.0.113.0'), 24], // TEST-NET-3
  [v4('224.0.0.0'), 4], // multicast
  [v4('240.0.0.0'), 4], // reserved, including 255.255.255.255 broadcast
];

function v4(text: string): number {
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function isPublicV4(address: number): boolean {
  return NON_PUBLIC_V4.every(([base, bits]) => Math.floor(address / 2 ** (32 - bits)) !== Math.floor(base / 2 ** (32 - bits)));
}

/** Eight 16-bit groups of a valid IPv6 text, whatever its form (compressed, dotted IPv4 tail, zone). */
function ipv6Groups(text: string): number[] {
  const [head = '', tail] = text.replace(/%.*$/, '').split('::') as [string, string | undefined];
  const groups = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((g) => (g.includes('.') ? [Math.floor(v4(g) / 65536), v4(g) % 65536] : [parseInt(g, 16)]));
  };
  const left = groups(head);
  if (tail === undefined) return left;
  const right = groups(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function isPublicV6(g: number[]): boolean {
  const embeddedV4 = (hi: number, lo: number) => hi * 65536 + lo;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // ::a.b.c.d (IPv4-compatible, also :: and ::1), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated):
  // the connection goes to the IPv4 address, so that is what must be public.
  if (zeros(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return isPublicV4(embeddedV4(g[6]!, g[7]!));
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return isPublicV4(embeddedV4(g[6]!, g[7]!));
  // NAT64 well-known prefix 64:ff9b::/96 reaches the embedded IPv4 address; 64:ff9b:1::/48 is local-use.
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return isPublicV4(embeddedV4(g[6]!, g[7]!));
  // 6to4 2002::/16 carries the IPv4 address in bits 16..47.
  if (g[0] === 0x2002) return isPublicV4(embeddedV4(g[1]!, g[2]!));
  // Everything else public is global unicast 2000::/3, minus the special-purpose blocks inside it.
  if ((g[0]! & 0xe000) !== 0x2000) return false; // ::/8 rest, fc00::/7 ULA, fe80::/10, fec0::/10, ff00::/8, 64:ff9b:1::/48, 100::/64…
  if (g[0] === 0x2001 && g[1]! < 0x200) return false; // 2001::/23 IETF assignments: Teredo 2001::/32, benchmarking, ORCHID
  if (g[0] === 0x2001 && g[1] === 0xdb8) return false; // documentation
  if ((g[0]! & 0xfff0) === 0x3ff0) return false; // 3fff::/20 documentation (RFC 9637)
  return true;
}

/**
 * True only for a globally routable unicast address. Anything unparseable, private, loopback,
 * link-local, multicast, reserved, documentation, or an IPv6 form that tunnels to such an IPv4
 * address (mapped, compatible, NAT64, 6to4, Teredo), is not public: callers refuse it.
 */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return isPublicV4(v4(address));
  if (isIPv6(address)) return isPublicV6(ipv6Groups(address));
  return false;
}
