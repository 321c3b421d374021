import path from "node:path";
import { LanguageProject } from "./harness/languageProject.ts";
import { installPythonSdk } from "./harness/sdks.ts";
import { describeTreasuryLifecycle } from "./harness/treasuryLifecycle.ts";

/**
 * A Python program outside this repository, as a Python user has it: the SDK generated from the
 * package schema (sdk/python) installed with pip beside `pulumi` from PyPI, the plugin installed
 * from its release archive, the real engine with the Python language host, run through the
 * treasury lifecycle every language shares (harness/treasuryLifecycle.ts).
 */

describeTreasuryLifecycle("a Python program with the generated SDK and the native plugin", async () => {
  const project = await LanguageProject.create(
    path.join(import.meta.dirname, "programs", "python-treasury"),
    "python",
  );
  project.writeFile("requirements.txt", "pulumi==3.259.0\n");
  await installPythonSdk(project);
  return project;
});
