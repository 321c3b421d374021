import { existsSync } from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Context, Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { SandboxEnv } from "../http/env.ts";
import { HttpError } from "../http/errors.ts";
import { bundleConsole, CONSOLE_BUNDLE_NAME } from "./consoleBundle.ts";
import { consoleDir } from "./consoleDir.cts";

/** Where the console lives: its pages under this path, its files under `/assets`, its reads under `/api`. */
export const CONSOLE_PREFIX = "/_console";
const ASSETS_PREFIX = `${CONSOLE_PREFIX}/assets/`;
const API_PREFIX = `${CONSOLE_PREFIX}/api/`;

/**
 * Every response of the console says what the page may do: scripts, styles and requests of this
 * origin only (no CDN, no inline script, so data shown on a page can never run as code), no
 * framing by any page, and a browsing context group of its own. Hono's `secureHeaders`; the
 * sandbox-wide one (http/transportMiddleware.ts) adds `nosniff`, `X-Frame-Options: DENY` and
 * `Referrer-Policy: no-referrer` (a page's address never leaves it) to these.
 */
const consoleSecurityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", "data:"],
    connectSrc: ["'self'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  crossOriginOpenerPolicy: true,
  // The sandbox-wide middleware's concern, or not wanted (HSTS: the sandbox speaks plain HTTP).
  xContentTypeOptions: false,
  xFrameOptions: false,
  referrerPolicy: false,
  removePoweredBy: false,
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});

/** Sets a response's caching once its file is found. */
const caching =
  (value: string) =>
  (_file: string, c: Context<SandboxEnv>): void => {
    c.header("Cache-Control", value);
  };

/**
 * The console's script as served when no built bundle is beside this module (a sandbox run from
 * the repository's sources): bundled once per process, on first request (consoleBundle.ts).
 */
function bundleFromSources(): () => Promise<string> {
  let bundled: Promise<string> | undefined;
  return () => {
    if (bundled === undefined) {
      bundled = bundleConsole();
      // A failed bundle (a syntax error being edited) is tried again on the next request.
      bundled.catch(() => (bundled = undefined));
    }
    return bundled;
  };
}

/**
 * Serves the console (docs/console.md): one HTML page for every console path (the page routes in
 * the browser), and its files: `assets/console.js` (the bundle of web/src/), the stylesheet and the
 * icon. Mounted before the bearer check, since a browser loads a page without headers; the page
 * then calls the API with the token the user signs in with, and `/_console/api/*` (consoleApi.ts)
 * is authenticated like the rest of the API.
 */
/**
 * The routes mountConsolePages adds: what a browser loads (the page, its script and files), not
 * API operations, so the OpenAPI documents leave them out (test/openapi/document.test.ts).
 */
export const CONSOLE_PAGE_ROUTES: readonly string[] = [
  CONSOLE_PREFIX,
  `${CONSOLE_PREFIX}/*`,
  `${ASSETS_PREFIX}${CONSOLE_BUNDLE_NAME}`,
  `${ASSETS_PREFIX}*`,
];

export function mountConsolePages(app: Hono<SandboxEnv>): void {
  const webDir = path.join(consoleDir, "web");
  const assetsDir = path.join(webDir, "assets");
  const builtBundle = existsSync(path.join(assetsDir, CONSOLE_BUNDLE_NAME));
  const sourceBundle = bundleFromSources();

  app.get(CONSOLE_PREFIX, (c) => c.redirect(`${CONSOLE_PREFIX}/`, 302));
  app.use(`${CONSOLE_PREFIX}/*`, async (c, next) => {
    if (c.req.path.startsWith(API_PREFIX)) return next();
    return consoleSecurityHeaders(c, next);
  });
  if (!builtBundle)
    app.get(`${ASSETS_PREFIX}${CONSOLE_BUNDLE_NAME}`, async (c) =>
      c.body(await sourceBundle(), 200, {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": "no-cache",
      }),
    );
  // Only what is under web/assets/ (serveStatic refuses `..`, encoded slashes and the like).
  // Revalidated on every load, so a sandbox upgrade never runs yesterday's script.
  app.get(
    `${ASSETS_PREFIX}*`,
    serveStatic<SandboxEnv>({
      root: assetsDir,
      rewriteRequestPath: (requestPath) => requestPath.slice(ASSETS_PREFIX.length),
      onFound: caching("no-cache"),
    }),
    (c) => {
      throw new HttpError(404, "not_found", `no console file ${c.req.path.slice(0, 200)}`);
    },
  );
  const page = serveStatic<SandboxEnv>({
    path: path.join(webDir, "index.html"),
    onFound: caching("no-store"),
  });
  app.get(`${CONSOLE_PREFIX}/*`, async (c, next) =>
    c.req.path.startsWith(API_PREFIX) ? next() : page(c, next),
  );
}
