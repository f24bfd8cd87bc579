// Builds the web app (web/) into dist/web/: esbuild bundles web/src/main.tsx and web/styles.css into
// content-hashed files under assets/, and index.html is generated from web/index.html with those names.
//
//   node scripts/build-web.mjs [--outdir <dir>] [--dev]
//
// --outdir: where to write (default dist/web); --dev: no minification. The build writes a staging folder
// beside the output and swaps it in at the end, so a running server never sees a half-written app.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { outdir: { type: 'string' }, dev: { type: 'boolean', default: false } } });
const outDir = resolve(values.outdir ?? join(root, 'dist/web'));
const staging = `${outDir}.tmp-${process.pid}`;
const assetsDir = join(staging, 'assets');
const PUBLIC = '/assets/';

rmSync(staging, { recursive: true, force: true });
mkdirSync(assetsDir, { recursive: true });

try {
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: 'web/src/main.tsx', styles: 'web/styles.css' },
    outdir: assetsDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16'],
    tsconfig: 'web/tsconfig.json',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    publicPath: PUBLIC,
    loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file', '.json': 'json' },
    minify: !values.dev,
    sourcemap: 'linked',
    metafile: true,
    charset: 'utf8',
    define: { 'process.env.NODE_ENV': values.dev ? '"development"' : '"production"' },
    logLevel: 'warning',
  });

  const outputs = Object.entries(result.metafile.outputs);
  const urlOf = (file) => PUBLIC + relative(assetsDir, resolve(root, file)).split('\\').join('/');
  const entry = (source, ext) => {
    const found = outputs.find(([file, o]) => o.entryPoint === source && file.endsWith(ext));
    if (!found) throw new Error(`esbuild produced no ${ext} for ${source}`);
    return found;
  };
  const [appFile, app] = entry('web/src/main.tsx', '.js');
  const [stylesFile] = entry('web/styles.css', '.css');
  // Chunks the entry imports at once: preloaded in parallel with it.
  const preload = app.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => urlOf(i.path));

  // The icon: copied under a name with its content hash, like everything esbuild writes.
  const iconSource = join(root, 'web/assets/icon.svg');
  const iconHash = createHash('sha256').update(readFileSync(iconSource)).digest('hex').slice(0, 10);
  const iconName = `${basename(iconSource, extname(iconSource))}-${iconHash}${extname(iconSource)}`;
  copyFileSync(iconSource, join(assetsDir, iconName));

  const manifest = {
    app: urlOf(appFile),
    styles: urlOf(stylesFile),
    icon: PUBLIC + iconName,
    preload,
  };

  const indent = (lines, n) => lines.join(`\n${' '.repeat(n)}`);
  const head = [
    `<link rel="icon" type="image/svg+xml" href="${manifest.icon}" />`,
    `<link rel="stylesheet" href="${manifest.styles}" />`,
    ...preload.map((href) => `<link rel="modulepreload" href="${href}" />`),
  ];
  const template = readFileSync(join(root, 'web/index.html'), 'utf8');
  for (const marker of ['<!-- build: head -->', '<!-- build: scripts -->']) {
    if (!template.includes(marker)) throw new Error(`web/index.html lacks the marker ${marker}`);
  }
  const html = template
    .replace('<!-- build: head -->', indent(head, 4))
    .replace('<!-- build: scripts -->', `<script type="module" src="${manifest.app}"></script>`);
  writeFileSync(join(staging, 'index.html'), html);
  writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  mkdirSync(dirname(outDir), { recursive: true });
  rmSync(outDir, { recursive: true, force: true });
  renameSync(staging, outDir);
  const files = outputs.length + 1;
  console.log(`web app built: ${relative(process.cwd(), outDir) || '.'} (${files} assets, entry ${manifest.app})`);
} catch (err) {
  rmSync(staging, { recursive: true, force: true });
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
}
