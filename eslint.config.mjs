// ESLint's flat config for the page's modules (web/js): the recommended rules, browser globals,
// ES modules. Run by `python build.py test --only lint`.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["web/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      // `catch (err) {}` is the codebase's way of saying "any failure: fall back"; a leading
      // underscore marks a value kept for its position (destructuring, parameters).
      "no-unused-vars": ["error", { caughtErrors: "none", argsIgnorePattern: "^_",
                                    varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_",
                                    ignoreRestSiblings: true }],
      // `let x = null; try { x = read() } catch (err) { x = null }`: the explicit first value is
      // the codebase's idiom for reads that may throw.
      "no-useless-assignment": "off",
    },
  },
];
