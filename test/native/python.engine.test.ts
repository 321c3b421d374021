import path from "node:path";
import { LanguageProject } from "./harness/languageProject.ts";
import { installPythonSdk } from "./harness/sdks.ts";
import { describeTreasuryLifecycle } from "./harness/treasuryLifecycle.ts";

/**
 * A Python program outside this repository, as a Python user has it: the SDK generated from the
 * package schema (sdk/python) installed with pip beside `pulumi` from PyPI, the plugin installed
 * from its release archive, the real engine with the Python language host, run through the
 * treasury lifecycle every language shares (harness/treasuryLifecycle.ts). The native plugin's
 * language-independent steps (approval during `up`, refresh, bad input at preview, a funded wallet
 * destroy will not drop) run here only, not again for Go and Java.
 */

describeTreasuryLifecycle(
  "a Python program with the generated SDK and the native plugin",
  async () => {
    const project = await LanguageProject.create(
      path.join(import.meta.dirname, "programs", "python-treasury"),
      "python",
    );
    project.writeFile("requirements.txt", "pulumi==3.259.0\n");
    await installPythonSdk(project);
    return project;
  },
  { languageIndependentSteps: true },
);
