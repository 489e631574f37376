/**
 * The running local runtime as a browser meets the deployed stack: the web app over TLS and HTTP/2
 * on one origin (CloudFront, `HttpVersion.HTTP2_AND_3` in infra/lib/web.ts) and the API on another
 * (API Gateway), which answers CORS preflights from the stack's own configuration. The local
 * runtime serves both from one plain HTTP/1.1 origin: measured there, Lighthouse's simulation
 * queues the app's many small chunks on six connections and leaves out the API's preflights.
 * For tests and benches only (test/e2e/deployed-origins.e2e.ts, npm run bench:lighthouse): the
 * certificate is a throwaway self-signed one.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { createSecureServer, type Http2SecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { API_CORS_ALLOW_HEADERS, API_CORS_ALLOW_METHODS, API_CORS_MAX_AGE_SECONDS } from '../../infra/lib/api-cors.js';

export interface ProductionOrigins {
  webOrigin: string;
  apiOrigin: string;
  /** The paths of the CORS preflights the API origin has answered, in order. */
  preflights: string[];
  stop(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'http2-settings', 'host']);

function selfSignedCertificate(dir: string): { key: Buffer; cert: Buffer } {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
      ],
      {
        stdio: 'ignore',
      },
    );
  } catch {
    throw new Error('openssl is needed to serve the production-like origins (apt-get install openssl), or measure the local server as it is with --http1');
  }
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

function forwardedHeaders(headers: IncomingHttpHeaders, upstreamHost: string, rewriteOrigin: (origin: string) => string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (!name.startsWith(':') && !HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
  out.host = upstreamHost;
  if (typeof out.origin === 'string') out.origin = rewriteOrigin(out.origin);
  return out;
}

function listen(server: Http2SecureServer): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done((server.address() as AddressInfo).port));
  });
}

/** WebSocket upgrades (the live feed) go through as raw bytes, as a load balancer passes them. */
function pipeUpgrade(upstreamPort: number, upstreamHost: string, rewriteOrigin: (origin: string) => string) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const up = connect(upstreamPort, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i];
        const lower = name.toLowerCase();
        const value = lower === 'host' ? upstreamHost : lower === 'origin' ? rewriteOrigin(req.rawHeaders[i + 1]) : req.rawHeaders[i + 1];
        lines.push(`${name}: ${value}`);
      }
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      up.pipe(socket).pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  };
}

/** Serves `upstream` (the local runtime's origin, e.g. http://localhost:3000) as a web origin and an API origin. */
export async function startProductionOrigins(upstream: string, workDir: string): Promise<ProductionOrigins> {
  const upstreamUrl = new URL(upstream);
  const upstreamPort = Number(upstreamUrl.port || 80);
  const upstreamHost = upstreamUrl.host;
  const tls = selfSignedCertificate(workDir);
  let webOrigin = '';
  let apiOrigin = '';
  const preflights: string[] = [];
  const toUpstream = (origin: string) => (origin === webOrigin ? upstreamUrl.origin : origin);

  function proxy(
    req: Http2ServerRequest,
    res: Http2ServerResponse,
    respond: (upstreamRes: IncomingMessage, headers: Record<string, string | string[]>) => void,
  ) {
    const upstreamReq = request(
      { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: forwardedHeaders(req.headers, upstreamHost, toUpstream) },
      (upstreamRes) => {
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(upstreamRes.headers))
          if (!HOP_BY_HOP.has(name) && !name.startsWith('access-control-') && value !== undefined) headers[name] = value;
        respond(upstreamRes, headers);
      },
    );
    upstreamReq.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstreamReq);
  }

  const web = createSecureServer({ ...tls, allowHTTP1: true }, (req, res) =>
    proxy(req, res, (upstreamRes, headers) => {
      // As the deployed policy lets the app reach the API's origin (https://*.amazonaws.com, wss too).
      const csp = headers['content-security-policy'];
      if (typeof csp === 'string')
        headers['content-security-policy'] = csp.replace("connect-src 'self'", `connect-src 'self' ${apiOrigin} ${apiOrigin.replace(/^https:/, 'wss:')}`);
      if (!req.url?.startsWith('/config.json') || upstreamRes.statusCode !== 200) {
        res.writeHead(upstreamRes.statusCode ?? 502, headers);
        upstreamRes.pipe(res);
        return;
      }
      // The deployed config.json names the API's own origin for the API, its realtime endpoint and Cognito.
      const chunks: Buffer[] = [];
      upstreamRes.on('data', (chunk: Buffer) => chunks.push(chunk));
      upstreamRes.on('end', () => {
        const config = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        for (const [key, value] of Object.entries(config))
          if (typeof value === 'string' && value.startsWith(upstreamUrl.origin))
            config[key] = (key === 'webUrl' ? webOrigin : apiOrigin) + value.slice(upstreamUrl.origin.length);
        delete headers['content-length'];
        res.writeHead(200, headers);
        res.end(JSON.stringify(config));
      });
    }),
  );

  const api = createSecureServer({ ...tls, allowHTTP1: true }, (req, res) => {
    const origin = req.headers.origin;
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      preflights.push(path);
      // The HTTP API answers from its CORS configuration; Cognito, AppSync and the function URL allow what is asked.
      const allowHeaders =
        path === '/api' || path.startsWith('/api/') ? API_CORS_ALLOW_HEADERS.join(',') : String(req.headers['access-control-request-headers'] ?? '');
      res.writeHead(origin === webOrigin ? 204 : 403, {
        ...(origin === webOrigin ? { 'access-control-allow-origin': webOrigin } : {}),
        'access-control-allow-methods': API_CORS_ALLOW_METHODS.join(','),
        'access-control-allow-headers': allowHeaders,
        'access-control-max-age': String(API_CORS_MAX_AGE_SECONDS),
      });
      res.end();
      return;
    }
    proxy(req, res, (upstreamRes, headers) => {
      if (origin === webOrigin) headers['access-control-allow-origin'] = webOrigin;
      headers.vary = 'Origin';
      res.writeHead(upstreamRes.statusCode ?? 502, headers);
      upstreamRes.pipe(res);
    });
  });
  api.on('upgrade', pipeUpgrade(upstreamPort, upstreamHost, toUpstream));
  const sockets = new Set<Duplex>();
  for (const server of [web, api])
    server.on('secureConnection', (socket: Duplex) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });

  webOrigin = `https://localhost:${await listen(web)}`;
  apiOrigin = `https://localhost:${await listen(api)}`;
  return {
    webOrigin,
    apiOrigin,
    preflights,
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return Promise.all(
        [web, api].map(
          (server) =>
            new Promise<void>((done) => {
              server.close(() => done());
            }),
        ),
      ).then(() => undefined);
    },
  };
}
