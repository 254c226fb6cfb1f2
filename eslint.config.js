// Typed lint, and the layering of src/ (lint/layering.js, explained in docs/architecture.md).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import local from './lint/layering.js';

const clockFromInjection = {
  selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
  message: 'Time comes from the injected Clock (src/lib/clock.ts).',
};
// Shipped code names a parameter for what it is; one letter is for expression-bodied lambdas.
const namedParameters = {
  selector:
    ":matches(FunctionDeclaration, FunctionExpression, TSDeclareFunction, TSEmptyBodyFunctionExpression, TSMethodSignature, TSFunctionType, ArrowFunctionExpression[body.type='BlockStatement']) > Identifier.params[name=/^[A-Za-z]$/]",
  message: 'Name the parameter for what it is: one letter is for expression-bodied lambdas only.',
};

export default tseslint.config(
  { ignores: ['dist/**', '.build/**', 'node_modules/**', 'deploy/**', 'coverage/**', '**/testdata/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs', 'bin/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      'no-restricted-syntax': ['error', clockFromInjection],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-support.ts'],
    rules: { 'no-restricted-syntax': ['error', clockFromInjection, namedParameters] },
  },
  {
    // yaml and commander through the modules the build bundles them into (scripts/build.mjs).
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-support.ts', 'src/lib/yaml-package.ts', 'src/cli/commander-package.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'yaml', message: 'Import src/lib/yaml-package.ts (bundled at build).', allowTypeImports: true },
            {
              name: 'commander',
              message: 'Import src/cli/commander-package.ts (bundled at build).',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { local },
    rules: { 'local/layering': ['error', { src: `${import.meta.dirname}/src` }] },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'scripts/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-syntax': 'off',
      // node:test's test()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', name: ['test', 'it', 'describe', 'suite'], package: 'node:test' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: globals.node },
  },
);
