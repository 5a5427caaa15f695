/**
 * The parsed OpenAPI document's type, below both spec/index.ts and the generated modules that hold a document (they
 * import it; index imports them), so neither imports the other back.
 */

/** Loosely typed view of the parsed OpenAPI document. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  servers?: {
    url: string;
    description?: string;
    variables?: Record<string, { default: string; description?: string }>;
  }[];
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, any>; [key: string]: any };
  [key: string]: unknown;
}
