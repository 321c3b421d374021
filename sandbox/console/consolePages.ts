import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Context, Hono } from "hono";
import type { SandboxEnv } from "../http/env.ts";
import { HttpError } from "../http/errors.ts";
import { consoleDir } from "./consoleDir.cts";

/** Where the console lives: its pages under this path, its files under `/assets`, its reads under `/api`. */
export const CONSOLE_PREFIX = "/_console";
const ASSETS_PREFIX = `${CONSOLE_PREFIX}/assets/`;
const API_PREFIX = `${CONSOLE_PREFIX}/api/`;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/**
 * Every response of the console says what the page may do: scripts, styles and requests of this
 * origin only (no CDN, no inline script, so data shown on a page can never run as code), no
 * framing, no referrer (a page's address never leaves it).
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; "),
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/**
 * The browser files under `web/assets/`, by the URL path that serves each. Only these are served:
 * no part of a request's path ever reaches the file system.
 */
function listAssets(assetsDir: string): Map<string, { file: string; contentType: string }> {
  const assets = new Map<string, { file: string; contentType: string }>();
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(assetsDir, relative), { withFileTypes: true })) {
      const entryPath = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(entryPath);
      const contentType = CONTENT_TYPES[path.extname(entry.name)];
      if (entry.isFile() && contentType !== undefined)
        assets.set(`${ASSETS_PREFIX}${entryPath}`, { file: path.join(assetsDir, entryPath), contentType });
    }
  };
  walk("");
  return assets;
}

async function sendFile(c: Context<SandboxEnv>, file: string, contentType: string, cache: string) {
  const body = await readFile(file);
  return c.body(body, 200, { ...SECURITY_HEADERS, "Content-Type": contentType, "Cache-Control": cache });
}

/**
 * Serves the console (docs/console.md): one HTML page for every console path (the page routes in
 * the browser), and its scripts and styles. Mounted before the bearer check, since a browser
 * loads a page without headers; the page then calls the API with the token the user signs in
 * with, and `/_console/api/*` (consoleApi.ts) is authenticated like the rest of the API.
 */
export function mountConsolePages(app: Hono<SandboxEnv>): void {
  const webDir = path.join(consoleDir, "web");
  const assets = listAssets(path.join(webDir, "assets"));
  const page = path.join(webDir, "index.html");

  app.get(CONSOLE_PREFIX, (c) => c.redirect(`${CONSOLE_PREFIX}/`, 302));
  app.get(`${CONSOLE_PREFIX}/*`, async (c, next) => {
    const requestPath = c.req.path;
    if (requestPath.startsWith(API_PREFIX)) return next();
    if (requestPath.startsWith(ASSETS_PREFIX)) {
      const asset = assets.get(requestPath);
      if (asset === undefined)
        throw new HttpError(404, "not_found", `no console file ${requestPath.slice(0, 200)}`);
      // Revalidated on every load, so a sandbox upgrade never runs yesterday's script.
      return sendFile(c, asset.file, asset.contentType, "no-cache");
    }
    return sendFile(c, page, CONTENT_TYPES[".html"]!, "no-store");
  });
}
