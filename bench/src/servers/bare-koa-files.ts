import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import Koa from 'koa';
import { announce } from './ready.js';
import { scratchDir } from '../scratch.js';

// Baseline: bare Koa streaming a request body to a file and a file back, with no auth, database, type sniffing or
// encryption: the floor of what any upload/download through Node's HTTP stack costs on this machine.
const dir = scratchDir('fundi-bench-koa-files-');
let n = 0;
const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method === 'PUT') {
    const path = join(dir, `f${n++}`);
    await pipeline(ctx.req, createWriteStream(path));
    ctx.status = 201;
    ctx.body = { size: statSync(path).size, name: `f${n - 1}` };
    return;
  }
  const path = join(dir, ctx.path.slice(1));
  ctx.type = 'application/pdf';
  ctx.length = statSync(path).size;
  ctx.body = createReadStream(path);
});
const server = app.listen(0, '127.0.0.1', () => announce(server));
