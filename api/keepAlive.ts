import type { Server } from 'node:http';

/**
 * How long an idle keep-alive connection stays open: longer than the proxies in front keep theirs (Caddy's default 2
 * minutes, docker-compose.yml; 60 s for nginx's upstream keepalive and most cloud load balancers). Node's own default
 * is 5 s: a proxy that sends the next request on a connection at the moment Node closes it gets a reset, which it may
 * retry for a GET but answers 502 for a POST (a lead, a registration). The proxy closes first instead. A connection
 * idle this long costs a socket and a few KB; shutdown closes idle ones at once (api/shutdown.ts).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 130_000;

/**
 * The server's keep-alive timeout (above), and its time to receive a request's headers just past it: the usual pairing,
 * so that no Node version's headers timer ends a kept connection first (Node's own request timeout, 300 s, still bounds
 * a request that trickles in).
 */
export function keepIdleConnections(server: Server): Server {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  return server;
}
