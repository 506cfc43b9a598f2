import { lookup as dnsLookup } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/**
 * Name resolution used before every wallet-triggered fetch: every address of the name, as
 * `dns.lookup(host, {all: true})` answers. Injectable so tests never reach a real resolver.
 */
export type OutboundLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (getaddrinfo, so /etc/hosts applies, as for any other outgoing connection). */
export const systemLookup: OutboundLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });
