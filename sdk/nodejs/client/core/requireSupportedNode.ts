import { unsupportedNodeMessage } from "./nodeVersion.ts";

/**
 * Imported first by the package's root entry (ES module and CommonJS builds alike), so that on an
 * older Node.js a program stops here, with the versions named, before any module that would fail
 * with an unrelated error is evaluated.
 */
const problem = unsupportedNodeMessage("@portfolio-wallet/pulumi");
if (problem !== undefined) throw new Error(problem);
