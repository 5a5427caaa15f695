/**
 * The ajv setup behind getValidator (spec/index.ts): one Ajv 2020-12 instance
 * with ajv-formats and the spec's component schemas, compiling a validator per
 * schema name, open or closed. The same validators can also be emitted as
 * JavaScript source with ajv's standalone code, which the mock's bundle
 * (mock/start.cjs) carries in place of this module: a start then compiles no
 * schema and loads no ajv compiler.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import type { OpenApiDocument } from './index.ts';

const SPEC_ID = 'https://petstore.invalid/petstore.openapi.yaml';

// Both are CommonJS; their default exports are the functions.
const addFormats = (addFormatsModule as unknown as { default: FormatsPlugin }).default;
const standaloneCode = (standaloneModule as unknown as { default: typeof standaloneModule.default }).default;

/** Where a component schema stands in the ajv instance (the spec is added under SPEC_ID). */
function componentRef(name: string): string {
  return `${SPEC_ID}#/components/schemas/${name}`;
}

/** A component schema closed: no properties beyond those it names. */
function closedSchema(name: string): object {
  // Pets is an array: each item is closed, not the array.
  if (name === 'Pets') return { type: 'array', items: { $ref: componentRef('Pet'), unevaluatedProperties: false } };
  return { $ref: componentRef(name), unevaluatedProperties: false };
}

function createAjv(doc: OpenApiDocument, emitSource: boolean): Ajv2020 {
  // validateSchema is off: compiling the 2020-12 meta-schema costs ~45 ms of every start; spec.test.ts
  // checks each component schema against that meta-schema instead, and strict mode still refuses unknown keywords.
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictTypes: false,
    validateSchema: false,
    code: { source: emitSource, esm: true },
  });
  addFormats(ajv);
  // The spec is added whole so that `#/components/schemas/...` references resolve as written.
  ajv.addKeyword('components');
  ajv.addSchema({ $id: SPEC_ID, components: { schemas: doc.components.schemas } });
  return ajv;
}

let runtimeAjv: Ajv2020 | undefined;

/**
 * The validator for component schema `name`, open or closed (the caller keeps it). One ajv
 * instance serves the process, made from the `doc` of the first call: pass the same document.
 */
export function compileValidator(doc: OpenApiDocument, name: string, closed: boolean): ValidateFunction {
  if (!Object.hasOwn(doc.components.schemas, name)) throw new Error(`spec has no schema named ${name}`);
  runtimeAjv ??= createAjv(doc, false);
  return closed ? runtimeAjv.compile(closedSchema(name)) : runtimeAjv.getSchema(componentRef(name))!;
}

/** The export name of a generated validator: an identifier, since the module is ESM. */
function exportName(name: string, closed: boolean): string {
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name))
    throw new Error(`schema name ${JSON.stringify(name)} is not an identifier; the standalone validators need one`);
  return `${name}_${closed ? 'closed' : 'open'}`;
}

/**
 * An ES module, as source, exporting a `compileValidator` with the same
 * signature and errors as this module's that returns validators generated
 * ahead of time by ajv's standalone code, for every component schema of `doc`,
 * open and closed (its own `doc` argument is then ignored).
 */
export function standaloneValidatorsSource(doc: OpenApiDocument): string {
  const ajv = createAjv(doc, true);
  const refs: Record<string, string> = {};
  const names = Object.keys(doc.components.schemas);
  for (const name of names) {
    // Open: the component itself, as compileValidator takes it; closed: a schema of its own, with an id to name it by.
    refs[exportName(name, false)] = componentRef(name);
    const closedId = `https://petstore.invalid/closed/${name}`;
    ajv.addSchema({ $id: closedId, ...closedSchema(name) });
    refs[exportName(name, true)] = closedId;
  }
  const table = names.map(
    (name) => `  ${JSON.stringify(name)}: [${exportName(name, false)}, ${exportName(name, true)}],`,
  );
  return (
    `${standaloneCode(ajv, refs)}\n` +
    `const generated = {\n${table.join('\n')}\n};\n` +
    'export function compileValidator(_doc, name, closed) {\n' +
    '  if (!Object.hasOwn(generated, name)) throw new Error(`spec has no schema named ${name}`);\n' +
    '  return generated[name][closed ? 1 : 0];\n' +
    '}\n'
  );
}
