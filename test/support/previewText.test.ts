import { describe, expect, test } from "vitest";
import { changesInPreviewText } from "./previewText.ts";

describe("changesInPreviewText", () => {
  test("reads the summary's counts as preview --json names them, leaving out the unchanged", () => {
    const text = [
      "Previewing update (dev):",
      "     Type                                   Name        Plan",
      " ~   portfolio-wallet:index:PortfolioWallet  treasury    update",
      "",
      "Resources:",
      "    + 2 to create",
      "    ~ 1 to update",
      "    - 1 to delete",
      "    +-1 to replace",
      "    3 unchanged",
      "",
      "Duration: 2s",
    ].join("\n");
    expect(changesInPreviewText(text)).toEqual({ create: 2, update: 1, delete: 1, replace: 1 });
    expect(changesInPreviewText("Resources:\n    4 unchanged\n")).toEqual({});
  });

  test("a preview without a summary, or a summary line it does not know, fails instead of reading nothing", () => {
    expect(() => changesInPreviewText("error: preview failed\n")).toThrow(/no "Resources:" summary/);
    expect(() => changesInPreviewText("Resources:\n    + 1 to import\n")).toThrow(
      /not known here: .*to import/,
    );
  });
});
