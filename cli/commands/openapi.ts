import { Command } from "commander";
import { sandboxOpenApiDocuments } from "../../sandbox/index.ts";

/**
 * `portfolio-wallet openapi`: prints the OpenAPI 3.1 document of the service (what a sandbox
 * serves at GET /openapi.json), or with `--admin` the sandbox admin API's, to generate clients in
 * other languages (docs/openapi.md). Needs no service and no credentials.
 */
export function openapiCommand(): Command {
  return new Command("openapi")
    .description(
      "Print the service's OpenAPI 3.1 document (the sandbox serves it at /openapi.json), for generating clients in other languages.",
    )
    .option("--admin", "print the sandbox admin API's document instead")
    .action((flags: { admin?: boolean }) => {
      const documents = sandboxOpenApiDocuments();
      process.stdout.write(
        `${JSON.stringify(flags.admin === true ? documents.admin : documents.service, null, 2)}\n`,
      );
    });
}
