// @ts-check
/**
 * Local ESLint plugin `layers` with one rule, `layers/imports`: the architecture's layering,
 * checked on RESOLVED paths rather than on import-specifier globs.
 *
 * For each import in a linted file (`import`, `import type`, `export … from`, `export * from`,
 * `import('…')` and `require('…')` with a string literal, `import('…')` types,
 * `import x = require('…')`):
 *
 * - A relative or absolute specifier is resolved against the importing file's directory to a
 *   root-relative path (extension dropped; a folder stands for its index). Importer and target
 *   are each mapped to the layer with the longest matching path prefix. The target must be in
 *   the importer's own layer or in one of its `allow`ed layers; a target outside every layer is
 *   reported too.
 * - A layer with `entries` is entered only through them: an import from another layer must
 *   resolve to one of its entry files (`x/index` also matches the folder `x`); files inside the
 *   layer import each other freely. This keeps a layer's inside its own (VS Code's
 *   `code-no-deep-import-of-internal` is the model): e.g. no route can import the engine's
 *   render steps or worker pool and render on the HTTP thread. `import type` is refused too, so
 *   the entry stays the one list of what a layer offers.
 * - A bare specifier names a package. A package listed in some layer's `packages` may be imported
 *   only by the layers that list it (`@scope/*` covers a whole scope). Node builtins (`node:fs`,
 *   `fs`, …) are refused in layers with `builtins: false`.
 * - Every file the rule runs on must belong to a layer ("outside any layer"), so the layer map
 *   cannot silently drift from the tree. Choose the files with the config block's `files`.
 *
 * Options (one object; the table lives in eslint.config.js):
 *   root:   absolute path the layer paths are relative to (the repository root).
 *   layers: { [name]: { paths: string[], allow?: string[], entries?: string[], packages?: string[],
 *             builtins?: boolean } }  (entries: root-relative, extension-less paths)
 */

import { isBuiltin } from 'node:module';
import path from 'node:path';

/** @typedef {{ paths: string[], allow?: string[], entries?: string[], packages?: string[], builtins?: boolean }} Layer */

/** `a/b/index` and `a/b` name the same module (a folder stands for its index). */
const withoutIndex = (/** @type {string} */ rel) => rel.replace(/\/index$/, '');

const EXTENSION = /(\.d)?\.[cm]?[jt]sx?$/;

/** Root-relative, `/`-separated, extension-less path of an absolute file or folder path. */
const relative = (/** @type {string} */ root, /** @type {string} */ file) =>
  path.relative(root, file).split(path.sep).join('/').replace(EXTENSION, '');

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
const packageName = (/** @type {string} */ spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

const matchesPackage = (/** @type {string} */ name, /** @type {string} */ pattern) =>
  pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;

/** @type {import('eslint').Rule.RuleModule} */
const imports = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the layer map: which layers and packages each layer may import.' },
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        required: ['root', 'layers'],
        properties: {
          root: { type: 'string' },
          layers: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              additionalProperties: false,
              required: ['paths'],
              properties: {
                paths: { type: 'array', items: { type: 'string' }, minItems: 1 },
                allow: { type: 'array', items: { type: 'string' } },
                entries: { type: 'array', items: { type: 'string' }, minItems: 1 },
                packages: { type: 'array', items: { type: 'string' } },
                builtins: { type: 'boolean' },
              },
            },
          },
        },
      },
    ],
    messages: {
      unlayeredFile: '{{file}} is outside any layer: add it to a layer in eslint.config.js, or move it.',
      layer:
        "Layer {{from}} may not import layer {{to}} ('{{spec}}' resolves to {{target}}). {{from}} may import: {{allowed}}.",
      unlayeredTarget:
        "Layer {{from}} may not import {{target}} ('{{spec}}'), which is outside any layer. {{from}} may import: {{allowed}}.",
      deep: "Layer {{from}} may not import {{target}} ('{{spec}}') inside layer {{to}}: import it from {{to}}'s entry, {{entries}} (add what is missing there).",
      package: "Layer {{from}} may not import the package '{{name}}': only {{owners}} may.",
      builtin: "Layer {{from}} may not import the Node builtin '{{spec}}': its code must run without Node.",
    },
  },

  create(context) {
    const { root, layers } = /** @type {{ root: string, layers: Record<string, Layer> }} */ (
      context.options[0]
    );
    for (const [name, layer] of Object.entries(layers)) {
      for (const other of layer.allow ?? []) {
        if (!(other in layers))
          throw new Error(`layers/imports: layer ${name} allows unknown layer ${other}`);
      }
    }

    /** Name of the layer holding a root-relative path (longest matching prefix wins), or undefined. */
    const layerOf = (/** @type {string} */ rel) => {
      let best = { name: /** @type {string | undefined} */ (undefined), length: -1 };
      for (const [name, layer] of Object.entries(layers)) {
        for (const p of layer.paths) {
          if ((rel === p || rel.startsWith(`${p}/`)) && p.length > best.length)
            best = { name, length: p.length };
        }
      }
      return best.name;
    };

    const filename = context.physicalFilename;
    const from = layerOf(relative(root, filename));
    if (from === undefined) {
      return {
        Program(node) {
          context.report({ node, messageId: 'unlayeredFile', data: { file: path.relative(root, filename) } });
        },
      };
    }
    const own = layers[from];
    const allowed = new Set([from, ...(own.allow ?? [])]);
    const allowedText = [...allowed].join(', ');

    /** @param {import('estree').Node} node @param {unknown} source */
    const check = (node, source) => {
      if (!source || typeof source !== 'object') return;
      const literal =
        /** @type {{ type: string, value?: unknown, quasis?: { value: { cooked: string } }[], expressions?: unknown[] }} */ (
          source
        );
      const spec =
        literal.type === 'Literal' && typeof literal.value === 'string'
          ? literal.value
          : literal.type === 'TemplateLiteral' && literal.expressions?.length === 0
            ? literal.quasis?.[0]?.value.cooked
            : undefined;
      if (spec === undefined) return;

      if (spec.startsWith('.') || spec.startsWith('/')) {
        const target = relative(root, path.resolve(path.dirname(filename), spec));
        const to = layerOf(target);
        if (to !== undefined && allowed.has(to)) {
          const entries = to === from ? undefined : layers[to].entries;
          if (entries && !entries.some((entry) => withoutIndex(entry) === withoutIndex(target))) {
            const data = { from, to, spec, target, entries: entries.join(', ') };
            context.report({ node, messageId: 'deep', data });
          }
          return;
        }
        const data = { from, to: to ?? '', spec, target, allowed: allowedText };
        context.report({ node, messageId: to === undefined ? 'unlayeredTarget' : 'layer', data });
        return;
      }
      if (isBuiltin(spec)) {
        if (own.builtins === false) context.report({ node, messageId: 'builtin', data: { from, spec } });
        return;
      }
      const name = packageName(spec);
      const owners = Object.keys(layers).filter((l) =>
        (layers[l].packages ?? []).some((pattern) => matchesPackage(name, pattern)),
      );
      if (owners.length > 0 && !owners.includes(from)) {
        context.report({ node, messageId: 'package', data: { from, name, owners: owners.join(', ') } });
      }
    };

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require')
          check(node, node.arguments[0]);
      },
      // TypeScript-only syntax: `type T = import('…').T` and `import x = require('…')`.
      /** @param {any} node */
      TSImportType: (node) => check(node, node.source ?? node.argument?.literal),
      /** @param {any} node */
      TSExternalModuleReference: (node) => check(node, node.expression),
    };
  },
};

export default { meta: { name: 'layers' }, rules: { imports } };
