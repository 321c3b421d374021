/** What a V8 `.cpuprofile` (written by `node --cpu-prof`) says about where the time went. */
export interface CpuProfileSummary {
  totalMs: number;
  /** Every script URL seen in the profile. */
  scripts: string[];
  /** Self time per script (package-level for node_modules), most first. */
  byScript: { script: string; selfMs: number }[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

/** Groups a script URL by package (`node_modules/@scope/name`) or by file. */
function scriptOf(url: string): string {
  if (url === "") return "(native / idle / gc)";
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return inModules ? `node_modules/${inModules[1]}` : url.replace(/^file:\/\//, "");
}

export function summarizeCpuProfile(text: string): CpuProfileSummary {
  const profile = JSON.parse(text) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let index = 0; index < samples.length; index++) {
    const node = nodes.get(samples[index]!);
    if (node === undefined) continue;
    const script = scriptOf(node.callFrame.url);
    selfMs.set(script, (selfMs.get(script) ?? 0) + (deltas[index] ?? 0) / 1000);
  }
  return {
    totalMs: (profile.endTime - profile.startTime) / 1000,
    scripts: [...new Set(profile.nodes.map((node) => node.callFrame.url).filter((url) => url !== ""))],
    byScript: [...selfMs.entries()]
      .map(([script, ms]) => ({ script, selfMs: ms }))
      .sort((a, b) => b.selfMs - a.selfMs),
  };
}
