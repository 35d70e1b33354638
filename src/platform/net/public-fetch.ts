import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors.ts';

/**
 * Fetching a page a user named, without letting the user reach what only the server can reach
 * (SSRF). Every address the connection would use is checked at connection time, in the socket's
 * own DNS lookup, so a name that answers differently the second time (DNS rebinding) is checked
 * on the answer actually used; IP literals are checked before connecting; every redirect is a new
 * request checked the same way. Only public unicast addresses pass (no loopback, private, link-
 * local, cloud metadata, carrier NAT, unique-local, multicast, reserved, IPv4 inside IPv6, NAT64,
 * 6to4 or Teredo), except networks the operator allows explicitly (a setting, off by default).
 */
export interface PublicFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  userAgent: string;
  /** Content types accepted (the part before ";"). */
  accept: readonly string[];
  /** CIDR networks that may be fetched although not public (RECIPE_IMPORT_ALLOWED_NETWORKS). */
  allowedNetworks: readonly string[];
  /** The resolver; tests give one whose answers change. */
  lookup?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

export interface FetchedPage {
  url: string;
  contentType: string;
  body: string;
}

const refused = (detail: string) =>
  new AppError(422, 'url_not_allowed', 'This address cannot be fetched', detail);
const unreachable = (detail: string) =>
  new AppError(422, 'page_unreachable', 'The page could not be fetched', detail);

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

function parseNetworks(networks: readonly string[]): [Parsed, number][] {
  return networks.map((cidr) => ipaddr.parseCIDR(cidr));
}

/** Whether a resolved address may be connected to. */
export function isPublicAddress(address: string, allowed: readonly [Parsed, number][] = []): boolean {
  if (!ipaddr.isValid(address)) return false;
  // "::ffff:127.0.0.1" is 127.0.0.1: judged as the IPv4 address it carries.
  const ip = ipaddr.process(address);
  if (allowed.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits))) return true;
  return ip.range() === 'unicast';
}

async function systemLookup(hostname: string): Promise<{ address: string; family: number }[]> {
  return dns.promises.lookup(hostname, { all: true, verbatim: true });
}

/** A socket lookup that answers only with checked addresses (all of them must be public). */
function checkedLookup(options: PublicFetchOptions, allowed: [Parsed, number][]): LookupFunction {
  const resolve = options.lookup ?? systemLookup;
  return (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (answers) => {
        const bad = answers.find((a) => !isPublicAddress(a.address, allowed));
        if (answers.length === 0 || bad) {
          const error = Object.assign(new Error(`refused address ${bad?.address ?? 'none'}`), {
            code: 'EREFUSED_ADDRESS',
          });
          callback(error, '', 0);
          return;
        }
        if (lookupOptions.all) callback(null, answers);
        else callback(null, answers[0]!.address, answers[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

function checkUrl(raw: string, allowed: [Parsed, number][]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('Not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused('Only http and https URLs can be imported.');
  if (url.username || url.password) throw refused('URLs with credentials cannot be imported.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !isPublicAddress(host, allowed)) throw refused('The address is not a public one.');
  if (host === 'localhost' || host.endsWith('.localhost')) throw refused('The address is not a public one.');
  return url;
}

interface Response {
  status: number;
  location: string | undefined;
  contentType: string;
  body: Buffer;
}

function decompressor(encoding: string | undefined): Transform | undefined {
  const e = (encoding ?? '').trim().toLowerCase();
  if (e === 'gzip' || e === 'x-gzip') return zlib.createGunzip();
  if (e === 'deflate') return zlib.createInflate();
  if (e === 'br') return zlib.createBrotliDecompress();
  return undefined;
}

function requestOnce(
  url: URL,
  options: PublicFetchOptions,
  allowed: [Parsed, number][],
  signal: AbortSignal,
): Promise<Response> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      {
        signal,
        // A fresh connection each time: a pooled socket would skip the address check.
        agent: false,
        lookup: checkedLookup(options, allowed),
        headers: {
          'user-agent': options.userAgent,
          accept: 'text/html,application/xhtml+xml,application/ld+json;q=0.9,*/*;q=0.1',
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        const contentType = (response.headers['content-type'] ?? '').toLowerCase();
        if (status >= 300 && status < 400) {
          response.resume();
          resolve({ status, location, contentType, body: Buffer.alloc(0) });
          return;
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > options.maxBytes) {
          response.destroy();
          reject(unreachable(`The page is larger than ${options.maxBytes} bytes.`));
          return;
        }
        // Decompressed size is what counts: a small gzip can hold gigabytes.
        const unzip = decompressor(response.headers['content-encoding']);
        const stream: NodeJS.ReadableStream = unzip ? response.pipe(unzip) : response;
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            response.destroy();
            unzip?.destroy();
            reject(unreachable(`The page is larger than ${options.maxBytes} bytes.`));
            return;
          }
          chunks.push(chunk);
        });
        stream.on('end', () => resolve({ status, location, contentType, body: Buffer.concat(chunks) }));
        stream.on('error', (error: Error) =>
          reject(unreachable(`The page could not be read: ${error.message}`)),
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EREFUSED_ADDRESS') reject(refused('The address is not a public one.'));
      else if (error.name === 'AbortError') reject(unreachable(`No answer within ${options.timeoutMs} ms.`));
      else reject(unreachable(`The site did not answer (${error.code ?? error.message}).`));
    });
  });
}

/** The text of a page: charset from the header, else from a <meta> of the page, else UTF-8. */
function decodeBody(body: Buffer, contentType: string): string {
  const declared = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  const sniffed = /<meta[^>]+charset=["']?([\w-]+)/i.exec(body.subarray(0, 4096).toString('latin1'))?.[1];
  for (const label of [declared, sniffed, 'utf-8']) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(body);
    } catch {
      // unknown label: try the next
    }
  }
  return body.toString('utf8');
}

export async function fetchPublicPage(raw: string, options: PublicFetchOptions): Promise<FetchedPage> {
  const allowed = parseNetworks(options.allowedNetworks);
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = checkUrl(raw, allowed);
  for (let hop = 0; ; hop += 1) {
    const response = await requestOnce(url, options, allowed, signal);
    if (response.status >= 300 && response.status < 400 && response.location) {
      if (hop >= options.maxRedirects) throw unreachable(`More than ${options.maxRedirects} redirects.`);
      url = checkUrl(new URL(response.location, url).toString(), allowed);
      continue;
    }
    if (response.status < 200 || response.status >= 300)
      throw unreachable(`The site answered ${response.status}.`);
    const type = response.contentType.split(';')[0]!.trim();
    if (!options.accept.includes(type))
      throw new AppError(
        422,
        'unsupported_page',
        'Not a web page',
        `The address answers ${type || 'no content type'}, not a web page.`,
      );
    return { url: url.toString(), contentType: type, body: decodeBody(response.body, response.contentType) };
  }
}
