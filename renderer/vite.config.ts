import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Builds the studio UI into dist/renderer, which the headless server serves at `/`. */
export default defineConfig({
  root: here('.'),
  // Relative asset addresses: the same build works at the server's root and under a reverse
  // proxy's sub-path (`location /tts/ { proxy_pass http://127.0.0.1:8787/; }`).
  base: './',
  plugins: [react()],
  build: {
    outDir: here('../dist/renderer'),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
  },
});
