// `node scripts/shape.mjs [ROOT]`: the code's shape, measured the same way before and after a redesign (issue 46's
// "Must show"): source files and lines per top folder (tests and generated files apart), functions over 60 and over
// 100 lines, the names each package entry exports, the names for answering a request, the store fork's
// `shared`/`onShared` mentions, and the import cycles. Read with the TypeScript compiler API, so it runs offline on
// any checkout (copy it there); not part of the package.

import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname);
const ts = createRequire(join(root, 'package.json'))('typescript');
const SKIP = new Set(['node_modules', 'dist', 'artifacts', 'reports', '.git']);

/** Every TypeScript source file under `root` (not declarations), repository-relative. */
function sources(dir = root) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.[cm]?ts$/.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name) ? [relative(root, path)] : [];
  });
}

/** Which of source, test or generated a file is. */
function kindOf(file) {
  if (/(^|\/)generated\//.test(file)) return 'generated';
  if (/\.test\.[cm]?ts$/.test(file) || /^(test|conformance\/test|bench\/test)\//.test(file)) return 'test';
  if (/(^|\/)test-support\.ts$/.test(file)) return 'test';
  return 'source';
}

const files = sources();
const texts = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
const lineCount = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

// 1. Files and lines per top folder.
const table = new Map();
for (const file of files) {
  const top = file.includes('/') ? `${file.split('/')[0]}/` : '(root)';
  const row = table.get(top) ?? { source: [0, 0], test: [0, 0], generated: [0, 0] };
  const cell = row[kindOf(file)];
  cell[0] += 1;
  cell[1] += lineCount(texts.get(file));
  table.set(top, row);
}
const out = [];
const say = (line = '') => out.push(line);
say(`# Shape of ${root}`);
say();
say('## Files and lines per top folder (source | tests | generated)');
const totals = { source: [0, 0], test: [0, 0], generated: [0, 0] };
for (const [top, row] of [...table].sort()) {
  for (const k of Object.keys(totals)) for (const i of [0, 1]) totals[k][i] += row[k][i];
  say(
    `${top.padEnd(14)} ${row.source.join(' files, ').padStart(16)} lines | ${row.test.join(' files, ')} lines | ${row.generated.join(' files, ')} lines`,
  );
}
say(
  `${'total'.padEnd(14)} ${totals.source.join(' files, ').padStart(16)} lines | ${totals.test.join(' files, ')} lines | ${totals.generated.join(' files, ')} lines`,
);

// 2. Long functions, in source files (not tests, not generated).
/** A readable name for a function-like node. */
function nameOf(node, sf) {
  if (node.name) {
    const owner = ts.isClassLike(node.parent) && node.parent.name ? `${node.parent.name.text}.` : '';
    return `${owner}${node.name.getText(sf)}`;
  }
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p)) return p.name.getText(sf);
  if (p && ts.isPropertyAssignment(p)) return p.name.getText(sf);
  if (p && ts.isCallExpression(p)) return `(callback of ${p.expression.getText(sf).slice(0, 40)})`;
  return '(anonymous)';
}
const long = [];
for (const file of files.filter((f) => kindOf(f) === 'source')) {
  const sf = ts.createSourceFile(file, texts.get(file), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > 60) long.push({ where: `${file}:${start + 1}`, name: nameOf(node, sf), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
long.sort((a, b) => b.lines - a.lines);
say();
say(`## Functions over 60 lines: ${long.length}; over 100: ${long.filter((f) => f.lines > 100).length}`);
for (const f of long) say(`${String(f.lines).padStart(4)}  ${f.name}  (${f.where})`);

// 3. Names exported per package entry.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = Object.entries(pkg.exports ?? {})
  .map(([name, target]) => [name, typeof target === 'string' ? target : target?.import?.default])
  .filter(([, target]) => typeof target === 'string' && target.endsWith('.js'))
  .map(([name, target]) => [name, target.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts')]);
const options = {
  ...ts.convertCompilerOptionsFromJson(
    { ...JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '')).compilerOptions },
    root,
  ).options,
  noEmit: true,
};
const program = ts.createProgram(
  entries.map(([, file]) => join(root, file)),
  options,
);
const checker = program.getTypeChecker();
say();
say('## Names exported per package entry');
for (const [name, file] of entries) {
  const sf = program.getSourceFile(join(root, file));
  const symbol = sf && checker.getSymbolAtLocation(sf);
  const names = symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : [];
  say(`${name.padEnd(14)} ${String(names.length).padStart(3)}  ${names.sort().join(', ')}`);
}

// 4. The names for answering a request, declared anywhere in mock/, and the store fork's mentions.
const ANSWER_NAMES = [
  'Handler',
  'AnswerHandler',
  'Answer',
  'AsyncHandler',
  'Responder',
  'respond',
  'handle',
  'answer',
  'answerLayer',
  'fetch',
];
const declared = new Map();
for (const file of files.filter((f) => f.startsWith('mock/') && kindOf(f) === 'source')) {
  const sf = ts.createSourceFile(file, texts.get(file), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    const n = node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
    const declares =
      ts.isFunctionDeclaration(node) ||
      ts.isTypeAliasDeclaration(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isMethodSignature(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isPropertySignature(node) ||
      ts.isVariableDeclaration(node);
    if (n && declares && ANSWER_NAMES.includes(n)) declared.set(n, [...(declared.get(n) ?? []), file]);
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
say();
say(`## Names for answering a request declared in mock/: ${declared.size}`);
for (const [n, where] of [...declared].sort()) say(`${n}: ${[...new Set(where)].join(', ')}`);
const forkMentions = (file) => (texts.get(file)?.match(/\b(shared|onShared)\b/g) ?? []).length;
const coreSources = files.filter((f) => f.startsWith('mock/core/') && kindOf(f) === 'source');
say();
say(
  `## \`shared\`/\`onShared\` mentions: mock/core/mock.ts ${forkMentions('mock/core/mock.ts')}, mock/core/ (sources) ${coreSources.reduce((n, f) => n + forkMentions(f), 0)}`,
);

// 5. Import cycles among every file but the *.test.ts ones (relative imports, type-only ones included, as madge counts them).
const graph = new Map();
for (const file of files.filter((f) => !/\.test\.[cm]?ts$/.test(f))) {
  const sf = ts.createSourceFile(file, texts.get(file), ts.ScriptTarget.Latest, true);
  const targets = new Set();
  const add = (spec) => {
    if (!spec.startsWith('.')) return;
    const to = relative(root, resolve(dirname(join(root, file)), spec)).replace(/\.js$/, '.ts');
    if (texts.has(to)) targets.add(to);
  };
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      add(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      ts.isStringLiteral(node.arguments[0] ?? {})
    )
      add(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  graph.set(file, [...targets].sort());
}
// Tarjan's strongly connected components: each component of more than one file holds at least one cycle.
let index = 0;
const stack = [];
const meta = new Map();
const components = [];
function connect(v) {
  meta.set(v, { index, low: index, on: true });
  index += 1;
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!meta.has(w)) {
      connect(w);
      meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
    } else if (meta.get(w).on) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
  }
  if (meta.get(v).low === meta.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      meta.get(w).on = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component.sort());
  }
}
for (const v of graph.keys()) if (!meta.has(v)) connect(v);
/** One shortest cycle through the component's first file, for reading (madge lists each cycle it meets). */
function cycleThrough(component) {
  const inside = new Set(component);
  const start = component[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [];
        for (let at = v; at !== undefined; at = previous.get(at)) path.unshift(at);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return component;
}
say();
say(
  `## Import cycles (strongly connected groups of files; test helpers in, *.test.ts files out): ${components.length}`,
);
for (const c of components.sort((a, b) => a[0].localeCompare(b[0])))
  say(
    `${c.length} files: ${cycleThrough(c).join(' -> ')}${c.length > cycleThrough(c).length - 1 ? ` (group: ${c.join(', ')})` : ''}`,
  );

process.stdout.write(`${out.join('\n')}\n`);
