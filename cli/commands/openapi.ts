import { Command } from "commander";
import { publishedOpenApiDocument } from "../../sdk/nodejs/contract/serviceDocument.ts";

/**
 * `portfolio-wallet openapi`: prints the OpenAPI 3.1 document of the service (what a sandbox
 * serves at GET /openapi.json), or with `--admin` the sandbox admin API's, to generate clients in
 * other languages (docs/openapi.md). Needs no service and no credentials. The service's document
 * comes from the contract; only `--admin` loads the sandbox, whose API it describes.
 */
export function openapiCommand(): Command {
  return new Command("openapi")
    .description(
      "Print the service's OpenAPI 3.1 document (the sandbox serves it at /openapi.json), for generating clients in other languages.",
    )
    .option("--admin", "print the sandbox admin API's document instead")
    .action(async (flags: { admin?: boolean }) => {
      const document =
        flags.admin === true
          ? (await import("../../sandbox/index.ts")).sandboxOpenApiDocuments().admin
          : publishedOpenApiDocument();
      process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    });
}
