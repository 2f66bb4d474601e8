import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Builds the studio UI into dist/renderer, which the headless server serves at `/`. */
export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react()],
  build: {
    outDir: here('../dist/renderer'),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
  },
});
