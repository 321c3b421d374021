// Lint rules: typescript-eslint's recommended set, plus the few rules that catch
// money-handling mistakes early (floating promises would let a failed request pass silently).
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      "dist/**",
      ".pulumi-state/**",
      ".sandbox-data/**",
      "**/*.js",
      // The console's browser scripts are checked JavaScript (JSDoc types), linted like the rest.
      "!sandbox/console/web/src/**/*.js",
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.cts"],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // A new status or kind must be handled where it is switched on, never fall into a default by accident.
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: true },
      ],
    },
  },
  {
    // The unit files share their workers' module registry (vitest.config.ts, isolate: false): a
    // module mock or a stubbed global would reach every file the worker runs after.
    files: ["test/**/*.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        ...["mock", "doMock", "stubGlobal", "stubEnv"].map((property) => ({
          object: "vi",
          property,
          message: "Unit files share modules (vitest.config.ts): pass a fake through a parameter instead.",
        })),
      ],
    },
  },
  {
    files: ["sandbox/console/web/src/**/*.js"],
    languageOptions: {
      parserOptions: { project: "sandbox/console/web/tsconfig.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Type-checked with Node's types (the console API's answers are typed from the sandbox's own
      // views), but bundled for a browser: no Node module or global, and no server code as a value.
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["node:*"], message: "The console runs in a browser." },
            {
              regex: "/(?:domain|store|http|routes|signing)/",
              message: "The console runs in a browser: take only types from the sandbox (payloads.js).",
            },
          ],
        },
      ],
      "no-restricted-globals": [
        "error",
        "process",
        "Buffer",
        "require",
        "module",
        "__dirname",
        "__filename",
        "global",
      ],
    },
  },
);
