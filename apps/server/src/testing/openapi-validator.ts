import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void;

/** JSON-pointer escaping of one segment. */
const seg = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

interface Answer {
  content?: Record<string, unknown>;
  headers?: Record<string, { required?: boolean }>;
}

type Documented = Answer & { $ref?: string };

interface OpenApiDoc {
  paths: Record<string, Record<string, { responses: Record<string, Documented> }>>;
  components?: { responses?: Record<string, Answer> };
  webhooks?: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
}

/** The served document as this validator reads it; a document without `paths` is refused at once. */
function openApiDoc(served: object): OpenApiDoc {
  if (!('paths' in served) || typeof served.paths !== 'object' || served.paths === null)
    throw new Error('the served OpenAPI document has no paths');
  return served as OpenApiDoc;
}

/**
 * Checks answers against the served OpenAPI document, so a response the document does not describe fails the
 * test that provoked it: the path and method must be documented, the status listed, the headers it calls required
 * present (every 201's `Location`), the content type declared, and a JSON body must match its schema (JSON Schema
 * 2020-12, as OpenAPI 3.1 uses).
 */
export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly templates: { template: string; pattern: RegExp; params: number }[];
  private readonly compiled = new Map<string, ValidateFunction>();

  private readonly doc: OpenApiDoc;

  constructor(served: object) {
    this.doc = openApiDoc(served);
    const doc = this.doc;
    addFormats(this.ajv);
    this.ajv.addSchema(doc as object, 'openapi.json');
    this.templates = Object.keys(doc.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
        params: (template.match(/\{/g) ?? []).length,
      }))
      // A literal segment wins over a parameter (`/evidence/upload` before `/evidence/{id}`).
      .sort((a, b) => a.params - b.params);
  }

  private schema(pointer: string): ValidateFunction {
    let v = this.compiled.get(pointer);
    if (!v) {
      v = this.ajv.compile({ $ref: `openapi.json#${pointer}` });
      this.compiled.set(pointer, v);
    }
    return v;
  }

  /** The problems with one answer, or an empty list. Paths outside the document (system routes) are skipped. */
  checkResponse(
    method: string,
    path: string,
    status: number,
    contentType: string | null,
    body: unknown,
    headers?: Headers,
  ): string[] {
    const m = method.toLowerCase();
    const raw = path.split('?')[0]!;
    if (!raw.startsWith('/api/') && !raw.startsWith('/v1/')) return [];
    // `/v1/tenants/{slug}/...` is Form B's alias, described once under `/api/v1/tenants/{slug}/...`.
    const pathOnly = raw.startsWith('/v1/') ? `/api${raw}` : raw;
    if (pathOnly.endsWith('/openapi.json')) return [];
    const matches = this.templates.filter((t) => t.pattern.test(pathOnly));
    // A method the path does not take is answered 405: checked against the 405 its operations document.
    const asked = status === 405 && !matches.some((t) => this.doc.paths[t.template]![m]) ? null : m;
    const hit = matches.find((t) => (asked ? this.doc.paths[t.template]![asked] : this.doc.paths[t.template]));
    if (!hit) {
      // Unknown routes answer 401/404 in the error envelope; only a 2xx for an undocumented route is wrong.
      return status < 300 ? [`${method} ${pathOnly} answered ${status} but is not in the document`] : [];
    }
    const op = asked ? this.doc.paths[hit.template]![asked]! : Object.values(this.doc.paths[hit.template]!)[0]!;
    const documented = op.responses[String(status)];
    if (!documented)
      return [
        `${method} ${hit.template}: status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`,
      ];
    const answer = documented.$ref ? this.component(documented.$ref) : documented;
    const missing = Object.entries(answer.headers ?? {})
      .filter(([name, h]) => h.required && headers && !headers.has(name))
      .map(([name]) => `${method} ${hit.template} ${status}: the required header ${name} is missing`);
    if (missing.length) return missing;
    const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (!answer.content) {
      return body === null || body === '' || body === undefined
        ? []
        : [`${method} ${hit.template} ${status}: documented without a body, but one was sent`];
    }
    const ranges = Object.keys(answer.content).filter(
      (k) => k === '*/*' || (k.endsWith('/*') && type.startsWith(k.slice(0, -1))),
    );
    if (!(type in answer.content) && ranges.length > 0) return [];
    if (!(type in answer.content))
      return [
        `${method} ${hit.template} ${status}: content type ${type || '(none)'} is not documented (${Object.keys(answer.content).join(', ')})`,
      ];
    if (type !== 'application/json') return [];
    const validate = this.schema(
      documented.$ref
        ? `${documented.$ref.slice(1)}/content/${seg(type)}/schema`
        : `/paths/${seg(hit.template)}/${asked}/responses/${status}/content/${seg(type)}/schema`,
    );
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) =>
        `${method} ${hit.template} ${status}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`,
    );
  }

  /** A response component the document refers to (`#/components/responses/<name>`). */
  private component(ref: string): Answer {
    const found = this.doc.components?.responses?.[ref.split('/').pop()!];
    if (!found) throw new Error(`the document refers to ${ref}, which it does not hold`);
    return found;
  }

  /** The problems with one delivered webhook payload, checked against the document's `webhooks` entry. */
  checkWebhook(eventType: string, payload: unknown): string[] {
    const entry = this.doc.webhooks?.[eventType];
    if (!entry) return [`webhook event ${eventType} is not in the document`];
    const validate = this.schema(`/webhooks/${seg(eventType)}/post/requestBody/content/application~1json/schema`);
    if (validate(payload)) return [];
    return (validate.errors ?? []).map(
      (e) => `webhook ${eventType}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`,
    );
  }
}
