import { expect, test } from "vitest";
import * as entry from "../../sdk/nodejs/index.ts";
import {
  RESOURCE_DESCRIPTORS,
  RESOURCE_KINDS,
  type ResourceTypeName,
} from "../../sdk/nodejs/resources/resourceTypes.ts";

// The package's entry exports each kind's class under its descriptor's `type`. A kind registered in
// resourceTypes.ts whose class the entry does not export is a compile error here (the entry must
// have a property of every kind's type name), where it would otherwise surface only when the
// package schema is generated (its docs are read from the classes the entry reaches).
const classes: Record<ResourceTypeName, unknown> = entry;

test("the entry exports every kind's resource class under its type name", () => {
  for (const kind of RESOURCE_KINDS) {
    expect(classes[RESOURCE_DESCRIPTORS[kind].type], kind).toBeTypeOf("function");
  }
});
