import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { runFromPrebuiltJar } from "./harness/javaJar.ts";
import { LanguageProject } from "./harness/languageProject.ts";
import { installJavaSdk } from "./harness/sdks.ts";
import { describeTreasuryLifecycle } from "./harness/treasuryLifecycle.ts";

/**
 * A Java program outside this repository, as a Java user has it: a Maven project depending on the
 * SDK generated from the package schema (sdk/java), installed into the local Maven repository with
 * `mvn install` as docs/languages.md says before it is published, and on com.pulumi:pulumi from
 * Maven Central; the plugin installed from its release archive; the real engine with the Java
 * language host. Run through the treasury lifecycle every language shares
 * (harness/treasuryLifecycle.ts), from the program's prebuilt jar (docs/languages.md, "Running a
 * prebuilt jar"): the lifecycle's `pulumi` commands are not about Maven, which the host would
 * otherwise start twice for each of them. The host's Maven route (`mvn compile exec:java`) is run by
 * test/docs/newcomerPath.engine.test.ts with examples/java.
 */

describeTreasuryLifecycle(
  "a Java program with the generated SDK and the native plugin",
  async () => {
    const project = await LanguageProject.create(
      path.join(import.meta.dirname, "programs", "java-treasury"),
      "java",
    );
    await installJavaSdk(project);
    await runFromPrebuiltJar(project, "treasury");
    return project;
  },
  {
    setUpTimeoutMs: 900_000,
    stepTimeoutMs: 600_000,
    languageIndependentSteps: false,
    // The code `pulumi import` prints compiles, as printed, against the SDK (in the program's jar):
    // its input types are the SDK's package, com.portfoliowallet.portfoliowallet (the schema's namespace).
    checkImportCode: async (printed, project) => {
      const start = printed.indexOf("package generated_program;");
      expect(start, `pulumi import printed no Java program:\n${printed}`).toBeGreaterThanOrEqual(0);
      const code = printed.slice(start, printed.lastIndexOf("}") + 1);
      expect(code).toContain("import com.portfoliowallet.portfoliowallet.inputs.PositionInputArgs;");
      const sources = path.join(project.root, "imported", "generated_program");
      mkdirSync(sources, { recursive: true });
      writeFileSync(path.join(sources, "App.java"), `${code}\n`);
      const classes = path.join(project.root, "imported", "classes");
      await project.run(
        "javac",
        [
          "-cp",
          path.join(project.dir, "target", "treasury.jar"),
          "-d",
          classes,
          path.join(sources, "App.java"),
        ],
        project.root,
      );
    },
  },
);
