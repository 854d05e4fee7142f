import zlib from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import express, { type Express, type Request, type RequestHandler } from 'express';
import helmet from 'helmet';
import cookieParser from 'cookie-parser';
import type { Knex } from 'knex';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { errorHandler, notFoundHandler } from './errors.js';
import { contextLog, createLogger, httpLogger, requestLogger, type Logger } from './log.js';
import { createMetrics, type Metrics } from './metrics.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { jsonBody } from './middleware/body.js';
import { installLeanJson } from './leanJson.js';
import { installLazyCompression } from './middleware/lazyCompression.js';
import { precompressedAssets } from './middleware/precompressed.js';
import { staticHeaders } from './middleware/staticHeaders.js';
import { createCsrf } from './middleware/csrf.js';
import { RateLimiter } from './middleware/rateLimit.js';
import { sessionMiddleware } from './middleware/session.js';
import { bearerMiddleware } from './middleware/bearer.js';
import { PermissionStore } from './services/permissions.js';
import { sessionCacheFor } from './services/sessionCache.js';
import { authRouter, verifyEmail } from './routes/auth.js';
import { apiTokensRouter } from './routes/apiTokens.js';
import { publicInviteRouter } from './routes/publicInvite.js';
import { publicHandoffRouter } from './routes/publicHandoff.js';
import { publicMeetingsRouter } from './routes/publicMeetings.js';
import { publicConversationRouter } from './routes/publicConversation.js';
import { ownHandoffsRouter } from './routes/ownHandoffs.js';
import { emailsRouter } from './routes/emails.js';
import { storageRouter } from './routes/storage.js';
import { storagePublic } from './routes/storagePublic.js';
import { accountLogoRouter } from './routes/accountLogo.js';
import { importRouter } from './routes/usersImport.js';
import { PROJECT_ROOT } from './paths.js';
import { mountHealth } from './routes/health.js';
import { mountResources } from './resources.js';
import { accountSummaryRouter } from './routes/accountSummary.js';
import { publicPagesRouter } from './routes/publicPages.js';
import { appRouter } from './routes/app.js';
import { profileRouter } from './routes/profile.js';
import { captureAppPages } from './routes/appPages.js';
import { registerRouter } from './routes/register.js';
import { playRouter } from './routes/play.js';
import { playerPages } from './routes/playerPages.js';
import { collectionRouter } from './routes/collection.js';
import { openApiHandler } from './routes/openapi.js';
import { createJobs } from './jobs/index.js';
import { registerTimedJobs } from './jobs/timed.js';
import { registerMailJob } from './mail/outbox.js';
import { jobsRouter } from './routes/jobs.js';

export const ADMIN_DIST = path.join(PROJECT_ROOT, 'admin', 'dist');

export interface AppOptions {
  db: Knex;
  config: Config;
  mailer?: Mailer;
  /** The process's logger (default: one from config.logLevel, JSON on stdout). */
  logger?: Logger;
  /** Replaces AppContext.log and the error mapper's log (tests silence them); request lines still go to `logger`. */
  log?: (msg: string, extra?: unknown) => void;
}

export function createApp(options: AppOptions): { app: Express; context: AppContext; metrics: Metrics } {
  const { config } = options;
  // A request's transactions name its user for the history the database keeps: through ctx(req).db (api/db/actor.ts).
  const db = options.db;
  const logger = options.logger ?? createLogger(config);
  const log = options.log ?? contextLog(logger);
  const metrics = createMetrics(db, { processMetrics: Boolean(config.metricsToken || config.metricsPort), jobCounts: () => context.jobs.counts() });
  const csrf = createCsrf(config);
  const context: AppContext = {
    db,
    config,
    mailer: options.mailer ?? createMailer(config, log),
    permissions: new PermissionStore(db),
    sessionCache: sessionCacheFor(db, (m) => log(m)),
    limiter: new RateLimiter(db),
    // Over the knex as given (not the actor wrapper): pg-boss borrows the pool's connections (api/jobs/db.ts).
    jobs: createJobs(options.db, config, { log: (msg, extra) => context.log(msg, extra) }),
    log,
    issueCsrf: csrf.issue,
    csrfHeaderValid: csrf.headerValid,
    services: {},
  };

  // The queue's handlers: mail (api/mail/outbox.ts) and the timed work; they run where jobs.start() is called.
  registerMailJob(context);
  registerTimedJobs(context);

  const s3Origin = s3CspSources(config);

  const app = express();
  app.locals.ctx = context;
  // What ctx(req).log is for a request (api/context.ts): the lines its services write carry its id.
  app.locals.logFor = (req: Request) => options.log ?? contextLog(logger, req);
  app.disable('x-powered-by');
  // API answers are no-store: hashing every body for an ETag nobody can use is wasted work (files set their own).
  app.set('etag', false);
  installLeanJson(app);
  if (config.trustProxy) app.set('trust proxy', 1);
  app.use(httpLogger(logger));
  app.use(metrics.timing);
  // Documents (the admin, files) get the full set; /api answers get the REST set (OWASP REST Security): nothing loads
  // from a JSON answer, nothing frames it, and the document-only headers would only add bytes to every call.
  const documentHeaders = staticHeaders(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          // MUI (emotion) injects style tags at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          // Browsers PUT to presigned URLs, and follow redirects to presigned GETs, at the public S3 address.
          imgSrc: ["'self'", 'data:', 'blob:', ...s3Origin],
          mediaSrc: ["'self'", 'blob:', ...s3Origin],
          connectSrc: ["'self'", ...s3Origin],
          frameSrc: ["'self'"],
          upgradeInsecureRequests: config.secureCookies ? [] : null,
        },
      },
      strictTransportSecurity: config.secureCookies,
    }),
  );
  const apiHeaders = staticHeaders(apiSecurityHeaders(config.secureCookies));
  app.use((req, res, next) => (req.url.startsWith('/api/') ? apiHeaders : documentHeaders)(req, res, next));
  // compression(), put on a response only when it could compress it (see the module): small answers skip its wrapping.
  // Brotli at quality 1 for what the API answers (compression's default is 4): a list page of 25 leads (20 KB of JSON)
  // took 105 µs at 4 and 48 µs at 2, 0.6% larger (3,650 → 3,672 bytes); at 1 (brotli's one-pass compressor) about 30%
  // less than at 2 and 18% larger (a 25 KB page: 76 → 54 µs, 4,357 → 5,143 bytes), still smaller than gzip at any
  // speed that cheap (level 1: 66 µs, 4,975 bytes). Compressing was the largest single part of a list page's CPU after
  // the socket writes. Static files are precompressed at 11.
  installLazyCompression(app, { brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } } });

  // Probes and metrics: no session, no cookie.
  mountHealth(app, logger);
  app.get('/metrics', metrics.publicEndpoint({ token: config.metricsToken, internalPort: config.metricsPort }));

  // Built admin assets: content-hashed, so cached for a year, and served before any session work; compressed by the
  // build where it wrote a .br/.gz copy (api/middleware/precompressed.ts), else on the fly.
  app.use('/assets', precompressedAssets(path.join(ADMIN_DIST, 'assets'), { immutable: true, maxAge: '365d' }));
  app.use('/assets', express.static(path.join(ADMIN_DIST, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }));
  // Stored media (GET/HEAD) and the local driver's signed uploads (PUT): no session, no CSRF (see the router).
  app.use('/storage', storagePublic());
  // The player's manifest and events: the code is the credential; no session, no CSRF (see the router).
  app.use('/api/1/play', playRouter());
  // The totem player's pages and service worker: no session or CSRF cookie either (see the router).
  app.use('/play', playerPages(config.secureCookies));

  app.use(cookieParser());
  // An API call with `Authorization: Bearer <token>` is authenticated by the token alone, before (instead of) the session.
  app.use(bearerMiddleware());
  app.use(sessionMiddleware());
  app.use(csrf.ensureCookie);

  const api = express.Router();
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  api.use(csrf.protect);
  api.use(jsonBody({ limit: '1mb' }));
  api.use('/auth/tokens', apiTokensRouter());
  api.use('/auth', authRouter());
  api.use('/invite', publicInviteRouter());
  api.use('/register', registerRouter());
  api.use('/c', collectionRouter());
  api.get('/users/verify/:token', verifyEmail);
  api.use('/users/import', importRouter());
  // Every declared resource, entry and account alike, through one pipeline (api/resources.ts).
  mountResources(api);
  api.use('/accounts/:accountId', accountSummaryRouter());
  api.use('/storage', storageRouter());
  api.use('/accounts/:accountId', accountLogoRouter());
  api.use('/emails', emailsRouter());
  api.use('/jobs', jobsRouter());
  api.use('/app', appRouter());
  api.use('/profile', profileRouter());
  // The OpenAPI document of every route above and below (api/openapi/), built on its first call.
  api.get('/openapi.json', openApiHandler());
  // Paths of their own (/handoff/…, /handoffs) under no common prefix: last, so no other call walks their routes.
  api.use(publicHandoffRouter());
  api.use(publicMeetingsRouter());
  api.use(publicConversationRouter());
  api.use(ownHandoffsRouter());
  api.use(notFoundHandler);
  app.use('/api/1', api);

  // The public form page (its own build and a stricter CSP: it carries an account's custom CSS).
  app.use(publicPagesRouter(s3Origin, config.secureCookies));
  // The capture app (/app): its own build, service worker and manifest.
  app.use(captureAppPages(s3Origin, config.secureCookies));
  // The admin single-page app answers every other GET.
  const index = path.join(ADMIN_DIST, 'index.html');
  app.get(/.*/, (_req, res) => {
    if (fs.existsSync(index)) res.sendFile(index, { headers: { 'Cache-Control': 'no-cache' } });
    else res.type('html').send(PLACEHOLDER);
  });
  app.use(notFoundHandler);
  // 500s at error level, with their stack, on the request's logger (its id is the body's requestId).
  app.use(errorHandler(options.log ?? ((msg, err, req) => requestLogger(req, logger).error({ err }, msg))));
  return { app, context, metrics };
}

const PLACEHOLDER = `<!doctype html><meta charset="utf-8"><title>Leadstage</title>
<body style="font-family:sans-serif;padding:2rem"><h1>Leadstage</h1><p>The API runs at <code>/api/1</code>. The admin is not built yet: run <code>npm run build</code>.</p></body>`;

/**
 * The headers of an API answer: no content may load from it (`default-src 'none'`), nothing may frame it, no MIME
 * sniffing, same-origin readers only, and HSTS behind TLS. Routes that answer with a file set their own CSP.
 */
function apiSecurityHeaders(hsts: boolean): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    strictTransportSecurity: hsts,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
}

/** Where the browser meets S3 (presigned PUTs, redirected GETs): the public endpoint, its bucket subdomains, or AWS. */
function s3CspSources(config: Config): string[] {
  if (config.storage.driver !== 's3') return [];
  const s3 = config.storage.s3;
  const endpoint = s3.publicEndpoint ?? s3.endpoint;
  if (!endpoint) return ['https://*.amazonaws.com'];
  const url = new URL(endpoint);
  return s3.forcePathStyle ? [url.origin] : [url.origin, `${url.protocol}//*.${url.host}`];
}
