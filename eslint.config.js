// ESLint: typescript-eslint's type-aware recommended rules (floating promises, unsafe any, …) on
// every TypeScript file of the repository. A rule switched off or narrowed here says why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['generated/**', 'node_modules/**', '.tmp/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
