// The package's own pages: the index of its resources and functions, and installation with every
// configuration key.
import { configKeyOf, SETTINGS, type SettingName } from "../../sdk/nodejs/stackSettings.ts";
import { pageName, shortName, type PackageSchema } from "./packageSchema.ts";
import { cell, GENERATED_NOTE, typeText } from "./pageParts.ts";

export function indexPage(schema: PackageSchema): string {
  const link = (token: string) => `- [${shortName(token)}](api-docs/${pageName(token)}.md)`;
  return (
    `${GENERATED_NOTE}# ${schema.displayName ?? schema.name} ${schema.version}\n\n${(schema.description ?? "").trim()}\n\n` +
    `Package \`${schema.name}\`. Installation and the provider's settings: [installation-configuration.md](installation-configuration.md).\n\n` +
    `## Resources\n\n${Object.keys(schema.resources).sort().map(link).join("\n")}\n\n` +
    `## Functions\n\n${Object.keys(schema.functions).sort().map(link).join("\n")}\n`
  );
}

export function installationPage(schema: PackageSchema): string {
  const rows = Object.entries(schema.config.variables).map(([name, variable]) => {
    const setting = SETTINGS[name as SettingName] as { env: string; secret?: boolean } | undefined;
    const env = setting === undefined ? "" : `\`${setting.env}\``;
    return `| \`${configKeyOf(name as SettingName)}\` | ${typeText(variable)} | ${env} | ${variable.secret === true ? "yes" : "no"} | ${cell(variable.description)} |`;
  });
  return (
    `${GENERATED_NOTE}# Installation and configuration\n\n` +
    `## Installation\n\n` +
    `The provider is a plugin (a Node.js program: Node.js 22.19 or newer on \`PATH\`) and an SDK per language. ` +
    `The steps per language, including getting an SDK before it is published, are in [languages.md](../languages.md).\n\n` +
    `| Language | Package |\n| --- | --- |\n` +
    `| TypeScript, JavaScript | \`@portfolio-wallet/pulumi\` (npm; dynamic resources, no plugin needed) |\n` +
    `| Python | \`pulumi_portfolio_wallet\` (from \`sdk/python\`; not yet on PyPI) |\n` +
    `| Go | \`github.com/portfolio-wallet/pulumi-portfolio-wallet/sdk/go/portfoliowallet\` (from \`sdk/go\`) |\n` +
    `| Java | \`com.portfoliowallet:pulumi-portfolio-wallet\` (from \`sdk/java\`; not yet on Maven Central) |\n` +
    `| YAML | the type tokens \`${schema.name}:<Type>\` |\n\n` +
    `The plugin: \`pulumi plugin install resource ${schema.name} ${schema.version} --file pulumi-resource-${schema.name}-v${schema.version}.tar.gz\` (the archive each release carries).\n\n` +
    `## Configuration\n\n` +
    `Stack settings, each with an environment variable the provider reads when the setting is absent. ` +
    `Set the secret ones with \`pulumi config set --secret\`: stored in plain text they work, with a warning.\n\n` +
    `| Setting | Type | Environment variable | Secret | Description |\n| --- | --- | --- | --- | --- |\n${rows.join("\n")}\n`
  );
}
