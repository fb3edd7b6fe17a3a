import type { Context } from 'koa';

export type RouteHandler = (ctx: Context) => Promise<void>;

interface Entry {
  methods: readonly string[];
  pattern: RegExp;
  names: readonly string[];
  handler: RouteHandler;
}

/** What a request's method and path find in a table: a handler with its path parameters, or none. */
export type Found = { handler: RouteHandler; params: Record<string, string> } | null;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The router of the API (a table per form and resource) and of the dashboard's pages, each route compiled once to a
 * pattern. A `:name` segment takes one non-empty path segment (decoded, or kept as sent when it is not valid
 * percent-encoding), one trailing slash is allowed, letters match in either case, a GET route also answers HEAD,
 * and the first route added that matches wins. Per request it finds the route and hands back its one handler with
 * the parameters: nothing is composed. `@koa/router`, which builds and composes a middleware chain for the matched
 * route on every request, cost 7-38% more CPU per API request (docs/performance.md, "Routing").
 */
export class RouteTable {
  private readonly entries: Entry[] = [];

  /** `path` names its parameters `:name`, one per segment (`/api/v1/tenants/:slug/learners/:id`). */
  add(method: string, path: string, handler: RouteHandler): void {
    const names: string[] = [];
    const source = path
      .split('/')
      .map((segment) => {
        if (!segment.startsWith(':')) return escapeRegExp(segment);
        names.push(segment.slice(1));
        return '([^/]+?)';
      })
      .join('/');
    const m = method.toUpperCase();
    this.entries.push({
      methods: m === 'GET' ? ['GET', 'HEAD'] : [m],
      pattern: new RegExp(`^${source}/?$`, 'i'),
      names,
      handler,
    });
  }

  find(method: string, path: string): Found {
    for (const e of this.entries) {
      if (!e.methods.includes(method)) continue;
      const m = e.pattern.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      for (let i = 0; i < e.names.length; i++) params[e.names[i]!] = safeDecode(m[i + 1]!);
      return { handler: e.handler, params };
    }
    return null;
  }

  /** The methods the path has under any route, sorted (empty when no route has the path). */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const e of this.entries) if (e.pattern.test(path)) for (const m of e.methods) methods.add(m);
    return [...methods].sort();
  }
}
