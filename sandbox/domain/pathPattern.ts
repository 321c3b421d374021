/**
 * Path patterns of injected faults: a route pattern such as `/v2/portfolio-wallets/:id/strategy`
 * (`:name` matches one path segment) and/or `*` wildcards (any characters), matched against the
 * whole request path (a trailing `/` on the path is ignored).
 *
 * Compiled to a small automaton and run without backtracking: every character of the path is read
 * once, against at most one state per wildcard, so a pattern such as `/******!` costs what
 * `/*!` does. (A regular expression built from the pattern backtracked exponentially.)
 */

/** A pattern is at most this long... */
export const MAX_PATH_PATTERN_LENGTH = 200;
/** ...and holds at most this many wildcards (`*` or `:name`), consecutive `*` counting once. */
export const MAX_PATH_PATTERN_WILDCARDS = 16;

type Token =
  | { kind: "char"; char: string }
  /** Any run of characters, empty included (`*`). */
  | { kind: "any" }
  /** One character other than `/` (the first of a `:name` segment)... */
  | { kind: "segmentChar" }
  /** ...then any run of characters other than `/`. */
  | { kind: "segmentRest" };

export interface PathPattern {
  readonly source: string;
  matches(path: string): boolean;
}

const PARAM = /^:[A-Za-z_][A-Za-z0-9_]*/;

/** How many wildcards the pattern holds (consecutive `*` count once). */
export function countWildcards(pattern: string): number {
  return tokenize(pattern).filter((t) => t.kind === "any" || t.kind === "segmentChar").length;
}

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i] ?? "";
    if (char === "*") {
      if (tokens.at(-1)?.kind !== "any") tokens.push({ kind: "any" });
      i += 1;
      continue;
    }
    const param = char === ":" ? PARAM.exec(pattern.slice(i, i + MAX_PATH_PATTERN_LENGTH)) : null;
    if (param !== null) {
      tokens.push({ kind: "segmentChar" }, { kind: "segmentRest" });
      i += param[0].length;
      continue;
    }
    tokens.push({ kind: "char", char });
    i += 1;
  }
  return tokens;
}

/** Compiles a pattern; callers validate its length and wildcard count first (see the constants). */
export function compilePathPattern(source: string): PathPattern {
  const tokens = tokenize(source);
  const accepting = tokens.length;
  // States are token positions; `any` and `segmentRest` may match nothing, so they are skipped over.
  const closure = (states: Set<number>): Set<number> => {
    for (const state of states) {
      const token = tokens[state];
      if (token?.kind === "any" || token?.kind === "segmentRest") states.add(state + 1);
    }
    return states;
  };
  const run = (path: string): boolean => {
    let states = closure(new Set([0]));
    for (const char of path) {
      const next = new Set<number>();
      for (const state of states) {
        const token = tokens[state];
        if (token === undefined) continue;
        if (token.kind === "any") next.add(state);
        else if (token.kind === "segmentRest") {
          if (char !== "/") next.add(state);
        } else if (token.kind === "segmentChar") {
          if (char !== "/") next.add(state + 1);
        } else if (token.char === char) next.add(state + 1);
      }
      if (next.size === 0) return false;
      states = closure(next);
    }
    return states.has(accepting);
  };
  return {
    source,
    matches: (path) => run(path) || (path.length > 1 && path.endsWith("/") && run(path.slice(0, -1))),
  };
}
