import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { heavyStartOrder } from "./heavyLanes.ts";

/**
 * Vitest's order (the tiers one after the other; in a tier, the longest or the largest file first),
 * with the heavy tier's files in the order test/support/heavyLanes.ts gives them.
 */
export class HeavyLanesSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const heavy = sorted.filter((spec) => spec.project.name === "heavy");
    const byPath = new Map(heavy.map((spec) => [path.relative(root, spec.moduleId), spec]));
    const ordered = heavyStartOrder([...byPath.keys()]).map((file) => byPath.get(file)!);
    const first = sorted.findIndex((spec) => spec.project.name === "heavy");
    if (first === -1) return sorted;
    const rest = sorted.filter((spec) => spec.project.name !== "heavy");
    return [...rest.slice(0, first), ...ordered, ...rest.slice(first)];
  }
}
