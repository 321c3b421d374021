import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends vitest's output with one plain line, `Tests: N passed, N failed, N skipped`, after the
 * default reporter's summary: the form CI tooling reads, printed by the test runner itself.
 * Unhandled errors count as failures, so a run that crashed never reads as green.
 */
export default class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const testModule of testModules) {
      if (testModule.state() === "failed" && [...testModule.children.allTests()].length === 0) failed++;
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
    }
    console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
