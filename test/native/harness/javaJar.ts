import type { LanguageProject } from "./languageProject.ts";

/**
 * A Java project switched to run from a prebuilt jar, as docs/languages.md ("Running a prebuilt
 * jar") says: `mvn package` builds target/<jarName>.jar with every dependency in it (the project's
 * pom.xml has maven-shade-plugin and that finalName), and Pulumi.yaml's `runtime: java` becomes
 * `runtime.options.binary`, so that the Java host runs `java -jar` instead of starting Maven twice
 * for every `pulumi` command. For tests and benches that are not about Maven; the Maven route
 * itself is run by test/docs/newcomerPath.engine.test.ts (examples/java).
 */
export async function runFromPrebuiltJar(project: LanguageProject, jarName: string): Promise<void> {
  await project.run("mvn", ["--batch-mode", "--quiet", "package"]);
  const settings = project.readFile("Pulumi.yaml");
  const withBinary = settings.replace(
    /^runtime: java$/m,
    `runtime:\n  name: java\n  options:\n    binary: target/${jarName}.jar`,
  );
  if (withBinary === settings)
    throw new Error(`${project.dir}/Pulumi.yaml: no \`runtime: java\` line to replace`);
  project.writeFile("Pulumi.yaml", withBinary);
}
