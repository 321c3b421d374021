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
    files: ["sandbox/console/web/src/**/*.js"],
    languageOptions: {
      parserOptions: { project: "sandbox/console/web/tsconfig.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
);
