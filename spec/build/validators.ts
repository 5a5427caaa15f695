/**
 * The ajv setup, used at build time only: one Ajv 2020-12 instance with
 * ajv-formats and the spec's component schemas, compiling a validator per
 * schema name, open or closed, and emitting the same validators as an ES
 * module with ajv's standalone code (spec/generated/validators.ts, which
 * getValidator serves: nothing compiles a schema at run time). The formats
 * the schemas use are copied into that module from ajv-formats, so that
 * loading the validators does not load ajv-formats.
 */
import { Ajv2020, Name, type ValidateFunction } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { OpenApiDocument } from '../openapi-document.ts';

const SPEC_ID = 'https://petstore.invalid/petstore.openapi.yaml';
/** The name the generated module gives its copy of the formats. */
const FORMATS_NAME = 'inlineFormats';

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
    // The generated code reads each format from FORMATS_NAME instead of requiring ajv-formats.
    code: { source: emitSource, esm: true, ...(emitSource ? { formats: new Name(FORMATS_NAME) } : {}) },
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

/** ajv's standalone code `require`s the runtime helpers it uses; an ES module imports them instead (then `prelude`). */
function importRequires(code: string, prelude: string): string {
  const modules = [...new Set([...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!))];
  const imports = modules.map((name, i) => `import * as required${i} from ${JSON.stringify(`${name}.js`)};\n`);
  const body = modules.reduce(
    (text, name, i) => text.replaceAll(`require(${JSON.stringify(name)})`, `required${i}`),
    code,
  );
  return imports.join('') + prelude + body.replace(/^"use strict";/, '');
}

/** The values of every `format` keyword in `schema`, at any depth. */
function formatsIn(schema: unknown, found = new Set<string>()): Set<string> {
  if (schema === null || typeof schema !== 'object') return found;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'format' && typeof value === 'string') found.add(value);
    else formatsIn(value, found);
  }
  return found;
}

/** A format definition of ajv-formats as source: a RegExp, a function, or an object of those. */
function definitionSource(definition: unknown): string {
  if (definition instanceof RegExp || typeof definition === 'function') return String(definition);
  if (definition !== null && typeof definition === 'object')
    return `{${Object.entries(definition)
      .map(([key, value]) => `${JSON.stringify(key)}: ${definitionSource(value)}`)
      .join(', ')}}`;
  return JSON.stringify(definition);
}

const FORMAT_PROBES: unknown[] = [
  0,
  -1,
  1.5,
  2 ** 31,
  2 ** 53,
  2 ** 64,
  Number.NaN,
  '',
  'x',
  '1',
  '2020-01-31',
  'a@b.c',
];

/**
 * The formats `names` as the source of one object, copied from ajv-formats. Each copy must
 * stand alone: it is evaluated here and must agree with the original on a few probes.
 */
export function inlineFormatsSource(names: string[]): string {
  const formats = fullFormats as Record<string, unknown>;
  const entries = names.map((name) => {
    if (!Object.hasOwn(formats, name)) throw new Error(`format ${name} is not one of ajv-formats' formats`);
    return `${JSON.stringify(name)}: ${definitionSource(formats[name])}`;
  });
  const source = `{${entries.join(', ')}}`;
  const copy = new Function(`return ${source};`)() as Record<string, unknown>;
  const check = (definition: unknown) => (value: unknown) => {
    const validate = (definition as { validate?: unknown }).validate ?? definition;
    return validate instanceof RegExp ? validate.test(String(value)) : (validate as (v: unknown) => boolean)(value);
  };
  for (const name of names) {
    const [original, copied] = [check(formats[name]), check(copy[name])];
    for (const probe of FORMAT_PROBES) {
      let agrees = false;
      try {
        agrees = copied(probe) === original(probe);
      } catch {
        // A copy that refers to something outside itself throws: it cannot be inlined.
      }
      if (!agrees) throw new Error(`format ${name} of ajv-formats does not stand alone; it cannot be inlined`);
    }
  }
  return source;
}

/**
 * An ES module, as source, exporting `validators`: for every component schema
 * of `doc`, its validator open and closed, generated by ajv's standalone code.
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
  const formats = `// The formats used, copied from ajv-formats.\nconst ${FORMATS_NAME} = ${inlineFormatsSource([...formatsIn(doc.components.schemas)].sort())};\n`;
  return `${importRequires(standaloneCode(ajv, refs), formats)}\nexport const validators = {\n${table.join('\n')}\n};\n`;
}
